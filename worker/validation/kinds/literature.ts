// Kind "literature": published phase-diagram values (invariant temperatures and compositions,
// congruent melting, maximum solubility, miscibility-gap critical point, melting points of the pure
// elements, single-phase fields) compared with a particular database (shared/validation/README.md).
// Every value is read from the mapped diagram (worker/mapping/binary.ts) or from point equilibria with
// root finding (worker/mapping/queries.ts); the tolerance is the curator's and nothing is tuned.
import { baseName, isLiquidName } from '../../../contract/phases.js';
import { equilibrium } from '../../core/equilibrium.js';
import { type BinaryDiagram } from '../../mapping/binary.js';
import { phaseNames, pureTransition } from '../../mapping/queries.js';
import type { InvariantRecord } from '../../../contract/results/binary_equilibrium.js';
import { alloyQuantity, meltingQuantity } from '../alloy.js';
import { caseDatabase } from '../databases.js';
import { computeEntry } from './point.js';
import { Unsupported } from '../quantities.js';
import type { ComputedValue, ExpectedEntry, KindContext, KindHandler, ValidationCase } from '../types.js';
import { caseDiagram, caseElements, solverComponents } from './map.js';

/** "FCC_A1#Zn-rich" -> "FCC_A1" (annotations after '#' name a composition set). */
const phaseOfName = (s: string) => s.trim().toUpperCase().replace(/#.*$/, '');

/** x of element `el` from a mole fraction of the diagram's x component. */
function xOf(d: BinaryDiagram, el: string, x: number): number {
  return el.toUpperCase() === d.xComponent ? x : 1 - x;
}

/**
 * Elements a case points at as the side of the diagram it means: "Al-rich" in the description,
 * "(Al)" / "(Cu)" (terminal solid solution of that element) in its quantities.
 */
function sideHints(c: ValidationCase, els: string[]): string[] {
  const text = [c.description, ...c.expected.map((e) => e.quantity)].join(' ');
  const out: string[] = [];
  for (const el of els) {
    const name = el.charAt(0) + el.slice(1).toLowerCase();
    if (new RegExp(`\\b${name}-rich\\b`).test(text) || text.includes(`(${name})`)) out.push(el);
  }
  return out;
}

/**
 * The invariant of `kind` that holds `phase` and most of the case's phases; when several remain, the one
 * on the side the case names (sideHints: middle phase richest in that element), else the highest T.
 */
function caseInvariant(d: BinaryDiagram, c: ValidationCase, kind: string, phase?: string): InvariantRecord | undefined {
  const wanted = new Set(c.phases.map((p) => p.toUpperCase()));
  const score = (v: InvariantRecord) => v.phases.filter((p) => wanted.has(baseName(p.name))).length;
  const hints = sideHints(c, caseElements(c));
  const hintX = (v: InvariantRecord) => (hints.length === 1 ? xOf(d, hints[0], v.phases[1].x) : 0);
  return d.invariants
    .filter(
      (v) => (kind === 'invariant' || v.kind === kind) && (!phase || v.phases.some((p) => baseName(p.name) === phase)),
    )
    .sort((a, b) => score(b) - score(a) || hintX(b) - hintX(a) || b.T - a.T)[0];
}

export const literature: KindHandler = (c, ctx) => c.expected.map((e) => literatureEntry(c, ctx, e));

/**
 * One literature quantity. `pointFallback` (default): a name that is no diagram quantity is evaluated as a
 * point quantity of the vocabulary; without it such a name is reported unsupported (the other kinds use this
 * function as their own fallback for diagram quantities).
 */
export function literatureEntry(
  c: ValidationCase,
  ctx: KindContext,
  e: ExpectedEntry,
  pointFallback = true,
): ComputedValue {
  const db = caseDatabase(c, ctx);
  const els = caseElements(c);
  let diagram: BinaryDiagram | null = null;
  const D = () => {
    if (els.length !== 2)
      throw new Unsupported(`a diagram quantity of a system of ${els.length} elements (binary diagrams only)`);
    return (diagram ??= caseDiagram(c, ctx));
  };
  try {
    return entry(e);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    return err instanceof Unsupported ? { value: null, unsupported: msg } : { value: null, error: msg };
  }
  function entry(e: ExpectedEntry): ComputedValue {
    const q = e.quantity.trim();
    let m: RegExpExecArray | null;
    // T_<kind> (A -> B + C): the mapped invariant of that kind with exactly those phases
    if ((m = /^T_(eutectic|peritectic|monotectic|eutectoid|peritectoid|syntectic|monotectoid)\s*\((.+)\)$/i.exec(q))) {
      const kind = m[1].toLowerCase();
      const names = m[2].split(/->|\+/).map(phaseOfName).sort();
      const same = (v: InvariantRecord) =>
        v.phases
          .map((p) => baseName(p.name))
          .sort()
          .join('+') === names.join('+');
      const hit =
        D().invariants.filter(same).length > 1
          ? caseInvariant({ ...D(), invariants: D().invariants.filter(same) }, c, kind)
          : (D().invariants.find((v) => v.kind === kind && same(v)) ?? D().invariants.find(same));
      if (!hit)
        return {
          value: null,
          error: `no ${kind} ${names.join('+')} in the mapped diagram (invariants: ${D()
            .invariants.map((v) => `${v.kind} ${v.reaction} ${v.T.toFixed(2)} K`)
            .join('; ')})`,
        };
      return { value: hit.T };
    }
    // T_<kind> without phases (e.g. "T_eutectic", "T_peritectic of the Cu-rich side"): the case's invariant of that kind
    if ((m = /^T_(eutectic|peritectic|monotectic|eutectoid|peritectoid|syntectic|monotectoid)\b(?!\s*\()/i.exec(q))) {
      const v = caseInvariant(D(), c, m[1].toLowerCase());
      if (!v)
        return {
          value: null,
          error: `no ${m[1]} in the mapped diagram (invariants: ${D()
            .invariants.map((x) => `${x.kind} ${x.reaction} ${x.T.toFixed(2)} K`)
            .join('; ')})`,
        };
      return { value: v.T };
    }
    // T_invariant (A + B + C): the mapped invariant of any kind with exactly those phases (the highest)
    if ((m = /^T_invariant\s*\((.+)\)$/i.exec(q))) {
      const names = m[1]
        .split(/<->|->|\+|,/)
        .map(phaseOfName)
        .filter(Boolean)
        .sort();
      const hit = D()
        .invariants.filter(
          (v) =>
            v.phases
              .map((p) => baseName(p.name))
              .sort()
              .join('+') === names.join('+'),
        )
        .sort((a, b) => b.T - a.T)[0];
      if (!hit)
        return {
          value: null,
          error: `no invariant ${names.join('+')} in the mapped diagram (invariants: ${D()
            .invariants.map((v) => `${v.kind} ${v.reaction} ${v.T.toFixed(2)} K`)
            .join('; ')})`,
        };
      return { value: hit.T };
    }
    // X(PHASE,EL) at <kind> / at T_invariant: composition of PHASE at the case's invariant
    if (
      (m =
        /^X\(([A-Z0-9_]+),([A-Z0-9]+)\) at (?:T_)?(eutectic|peritectic|monotectic|eutectoid|peritectoid|syntectic|monotectoid|invariant)\b/i.exec(
          q,
        ))
    ) {
      const ph = m[1].toUpperCase();
      const v = caseInvariant(D(), c, m[3].toLowerCase(), ph);
      const p = v?.phases.find((s) => baseName(s.name) === ph);
      if (!v || !p) return { value: null, error: `no ${m[3]} with ${ph} in the mapped diagram` };
      return { value: xOf(D(), m[2], p.x) };
    }
    // max X(PHASE,EL): the largest fraction of EL in PHASE over its boundaries and invariants
    if ((m = /^max X\(([A-Z0-9_]+),([A-Z0-9]+)\)/i.exec(q))) {
      const ph = m[1].toUpperCase();
      // "solubility of B in (A)": only the terminal solution of A (A-rich side) counts
      const host = /\bin \(([A-Z][a-z]?)\)/.exec(q)?.[1]?.toUpperCase();
      const onSide = (x: number) => !host || !els.includes(host) || xOf(D(), host, x) > 0.5;
      const xs: number[] = [];
      for (const r of D().regions)
        r.phases.forEach((lab, k) => {
          if (baseName(lab) === ph) for (const t of r.tielines) if (onSide(t.x[k])) xs.push(xOf(D(), m![2], t.x[k]));
        });
      for (const v of D().invariants)
        for (const p of v.phases) if (baseName(p.name) === ph && onSide(p.x)) xs.push(xOf(D(), m[2], p.x));
      if (!xs.length) return { value: null, error: `${ph} borders no two-phase region in the mapped diagram` };
      return { value: Math.max(...xs) };
    }
    // T_congruent_melting(PHASE): the congruent point of PHASE with the liquid
    if ((m = /^T_congruent_melting\(([A-Z0-9_]+)\)/i.exec(q))) {
      const ph = m[1].toUpperCase();
      const hit = D().congruentPoints.find((p) => p.phases.includes(ph) && p.phases.some(isLiquidName));
      if (!hit) return { value: null, error: `no congruent point of ${ph} with the liquid in the mapped diagram` };
      return { value: hit.T };
    }
    // T_critical of the <phase> miscibility gap / X(EL) at the critical point
    if ((m = /^T_critical of the ([A-Za-z0-9_]+) miscibility gap/.exec(q))) {
      const word = m[1].toUpperCase();
      const cp = D()
        .criticalPoints.filter((p) => p.phase.includes(word))
        .sort((a, b) => b.T - a.T)[0];
      if (!cp) return { value: null, error: `no critical point of a ${word} gap in the mapped diagram` };
      return { value: cp.T };
    }
    if ((m = /^X\(([A-Z0-9]+)\) at the critical point/i.exec(q))) {
      const cp = [...D().criticalPoints].sort((a, b) => b.T - a.T)[0];
      if (!cp) return { value: null, unsupported: 'no critical point in the mapped diagram' };
      return { value: xOf(D(), m[1], cp.x) };
    }
    // T_melting (G(LIQUID) = G(SOLID) for pure EL): root of the Gibbs-energy difference of the pure element
    if ((m = /^T_melting \(G\(([A-Z0-9_]+)\) = G\(([A-Z0-9_]+)\) for pure ([A-Z0-9]+)\)/i.exec(q))) {
      const T = pureTransition(
        db,
        solverComponents(c, db),
        m[3].toUpperCase(),
        m[1].toUpperCase(),
        m[2].toUpperCase(),
        [200, 4000],
        1e-6,
        typeof c.conditions.P === 'number' ? c.conditions.P : 101325,
      );
      return T === null
        ? { value: null, unsupported: `G(${m[1]}) - G(${m[2]}) has no root in 200-4000 K` }
        : { value: T };
    }
    // stable_phases at each X(EL): the same phase set at every listed composition (else the first other set)
    if ((m = /^stable_phases at each X\(([A-Z0-9]+)\)/i.exec(q))) {
      const el = m[1].toUpperCase();
      const list = c.conditions[`X(${m[1]})`] ?? c.conditions[`X(${el})`];
      const T = c.conditions.T;
      if (!Array.isArray(list) || typeof T !== 'number')
        return { value: null, unsupported: 'needs a T and a list of X' };
      if (!els.includes(el)) return { value: null, unsupported: `${el} is not a case element` };
      const sets = (list as number[]).map((x) => {
        const r = equilibrium({
          database: db,
          components: solverComponents(c, db),
          phases: c.phases,
          conditions: { T, P: typeof c.conditions.P === 'number' ? c.conditions.P : 101325, X: { [el]: x } },
        });
        if (!r.converged) throw new Error(`equilibrium at X(${el})=${x} did not converge: ${r.reason}`);
        return [...new Set(phaseNames(r))];
      });
      const first = sets[0].join('+');
      return { value: sets.find((s) => s.join('+') !== first) ?? sets[0] };
    }
    const alloy = alloyQuantity(q, c, db) ?? meltingQuantity(q, c, db);
    if (alloy) return alloy;
    // any other name: a point quantity of the vocabulary (e.g. "X(FCC_A1,CU) at T=800, X(CU)=0.01")
    if (!pointFallback) return { value: null, unsupported: `quantity ${q}` };
    return computeEntry(q, { c, db, mode: 'equilibrium', cond: c.conditions, entry: e });
  }
}
