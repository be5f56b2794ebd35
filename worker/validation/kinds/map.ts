// Kind "map": phase-diagram topology (two- and three-phase regions and invariants that must exist) plus
// single-point checks: a binary T-X case from the mapped diagram (worker/mapping/binary.ts), a ternary at fixed T
// from the traced isothermal section (worker/mapping/ternary.ts), any other from global equilibria on the case's
// grid; point checks from point equilibria.
import { baseName } from '../../../contract/phases.js';
import { equilibriumBatch } from '../../core/equilibrium.js';
import { conditionValues, gridKeys, normKey } from '../conditions.js';
import { solverConditions } from '../equilibrium-at.js';
import { withoutRemark } from '../expression.js';
import { vocabularyEntry } from './vocabulary.js';
import { caseDiagram, caseSection } from '../diagrams.js';
import { caseElements } from '../scope.js';
import type { NativeDatabase } from '../../core/native.js';
import type { BinaryDiagram } from '../../mapping/binary.js';
import { phaseNames } from '../../mapping/queries.js';
import type { TernarySection } from '../../mapping/ternary.js';
import { caseDatabase } from '../databases.js';
import type { ComputedValue, KindHandler, ValidationCase } from '../types.js';

/** Phase sets (base names, sorted) of a section's two-phase regions and tie-triangles. */
export function sectionSets(s: TernarySection, n: 2 | 3): string[][] {
  const sets = n === 2 ? s.regions.map((r) => r.phases) : s.triangles.map((t) => t.phases);
  return sets.map((ps) => ps.map(baseName).sort());
}

/** Phase sets (base names, sorted) of the diagram's two-phase regions and invariants. */
export function regionSets(d: BinaryDiagram): string[][] {
  return d.regions.map((r) => r.phases.map(baseName).sort());
}
export function invariantSets(d: BinaryDiagram): string[][] {
  return d.invariants.map((v) => v.phases.map((p) => baseName(p.name)).sort());
}

/** Phase sets met on the grid of a map case, and the unions at neighbouring points whose sets differ. */
export interface GridMap {
  sets: string[][];
  boundaries: string[][];
  /** sets with as many phases as an invariant of this section has (Gibbs phase rule) */
  invariants: string[][];
}

/**
 * Any number of components: global equilibria at every point of the case's grid (the cartesian product of
 * its T and composition ranges, points with sum X > 1 left out), on two threads. A region narrower than
 * the grid step can be missed; the binary T-X diagram is mapped exactly instead (mapBinary).
 * An invariant of a section at fixed P has C phases when T is fixed and C + 1 when T varies.
 */
export function gridMap(c: ValidationCase, db: NativeDatabase): GridMap {
  const keys = gridKeys(c.conditions);
  if (!keys.length) throw new Error('a map case needs at least one grid condition');
  const axes = keys.map((k) => conditionValues(k, c.conditions[k]));
  const fixed = Object.fromEntries(Object.entries(c.conditions).filter(([k]) => !keys.includes(k))) as Record<
    string,
    number
  >;
  const points: { idx: number[]; cond: Record<string, number> }[] = [];
  const walk = (d: number, idx: number[], cond: Record<string, number>) => {
    if (d === keys.length) {
      const xs = Object.keys(cond).filter((k) => /^X\(/i.test(k));
      const sumX = xs.reduce((a, k) => a + cond[k], 0);
      if (sumX > 1 + 1e-9) return;
      // an edge point (dependent component 0) is evaluated with it at 1e-10, as the solver clamps fractions
      if (sumX > 1 - 1e-10) {
        const f = (1 - 1e-10) / sumX;
        const scaled = { ...cond };
        for (const k of xs) scaled[k] = cond[k] * f;
        points.push({ idx, cond: scaled });
      } else points.push({ idx, cond });
      return;
    }
    axes[d].forEach((v, i) => walk(d + 1, [...idx, i], { ...cond, [keys[d]]: v }));
  };
  walk(0, [], fixed);
  const results = equilibriumBatch({
    database: db,
    components: c.components,
    phases: c.phases,
    conditions: points.map((p) => solverConditions(p.cond)),
    threads: 2,
  });
  const byIdx = new Map<string, string[] | null>();
  const setKey = (s: string[]) => s.join('+');
  const sets = new Map<string, string[]>();
  points.forEach((p, i) => {
    const r = results[i];
    const names = r.converged ? [...new Set(phaseNames(r))].sort() : null;
    byIdx.set(p.idx.join(','), names);
    if (names) sets.set(setKey(names), names);
  });
  const boundaries = new Map<string, string[]>();
  for (const p of points) {
    const a = byIdx.get(p.idx.join(','));
    if (!a) continue;
    for (let d = 0; d < keys.length; d++) {
      const nb = [...p.idx];
      nb[d] += 1;
      const b = byIdx.get(nb.join(','));
      if (!b || setKey(a) === setKey(b)) continue;
      const u = [...new Set([...a, ...b])].sort();
      boundaries.set(setKey(u), u);
    }
  }
  const nInv = caseElements(c).length + (keys.some((k) => normKey(k) === 'T') ? 1 : 0);
  const all = [...sets.values()];
  return { sets: all, boundaries: [...boundaries.values()], invariants: all.filter((s) => s.length === nInv) };
}

export const map: KindHandler = (c, ctx) => {
  const db = caseDatabase(c, ctx);
  const binary = caseElements(c).length === 2 && gridKeys(c.conditions).some((k) => normKey(k) === 'T');
  const ternary = caseElements(c).length === 3 && typeof c.conditions.T === 'number';
  let grid: GridMap | null = null;
  const G = () => (grid ??= gridMap(c, db));
  // a ternary section: the traced regions, plus the sets its grid met (a grid set is a real equilibrium too)
  const sectionOr = (n: 2 | 3) => [
    ...sectionSets(caseSection(c, ctx), n),
    ...(gridKeys(c.conditions).length ? G().sets.filter((s) => s.length === n) : []),
  ];
  const out: ComputedValue[] = [];
  for (const e of c.expected) {
    const q = withoutRemark(e.quantity);
    if (q === 'two_phase_regions_include') {
      out.push({
        value: binary
          ? regionSets(caseDiagram(c, ctx))
          : ternary
            ? sectionOr(2)
            : G().sets.filter((s) => s.length === 2),
      });
      continue;
    }
    if (q === 'three_phase_regions_include') {
      out.push({
        value: binary
          ? invariantSets(caseDiagram(c, ctx))
          : ternary
            ? sectionOr(3)
            : G().sets.filter((s) => s.length === 3),
      });
      continue;
    }
    // at fixed T and P a ternary's invariant is a three-phase triangle
    if (q === 'invariants_include') {
      out.push({ value: binary ? invariantSets(caseDiagram(c, ctx)) : ternary ? sectionOr(3) : G().invariants });
      continue;
    }
    if (q === 'phase_regions_include') {
      const extra = binary
        ? [...regionSets(caseDiagram(c, ctx)), ...invariantSets(caseDiagram(c, ctx))]
        : ternary
          ? [...sectionOr(2), ...sectionOr(3)]
          : [];
      out.push({ value: [...G().sets, ...extra] });
      continue;
    }
    if (q === 'boundaries_include') {
      out.push({ value: G().boundaries });
      continue;
    }
    // point checks ("number_of_stable_phases at T=1600, X(CR)=0.3") and any other quantity of the vocabulary
    out.push(vocabularyEntry(c, ctx, { c, db, mode: 'equilibrium', cond: c.conditions, entry: e }));
  }
  return out;
};
