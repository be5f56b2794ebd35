// The random-point check of a delivered ternary isothermal section: point equilibria at random compositions of the
// section's window, each compared with the field of result.json that holds it (contract/results sectionAt, the
// read-out the renderer uses). A point closer than `margin` to a drawn boundary (a phase boundary, a region's first
// or last tie-line, a tie-triangle's edge) is left out: there the section's interpolation between traced tie-lines
// and the point solver's tolerance decide, not the topology. The phase sets are compared by phase name and count
// (two composition sets of one phase are a miscibility gap), so ordered and disordered states of one phase agree.
// Nothing here shares the mapper's tracing: the answers are cold global minimisations, one per point.
import { baseName } from '../../../contract/phases.js';
import {
  gibbsPoint,
  sectionAt,
  type Composition,
  type TernaryIsothermalSectionResult,
} from '../../../contract/results/ternary_isothermal_section.js';
import { equilibriumBatch, type EquilibriumResult } from '../../core/equilibrium.js';
import type { NativeDatabase } from '../../core/native.js';

/** J/mol: a point answer lying this much above the map's own state at the point was a metastable minimum */
const GM_TOL = 1e-4;
/** phases below this amount are not stable sets of the answer (as the section's self-check counts them) */
const NP_MIN = 1e-9;

export interface RandomPointOptions {
  db: NativeDatabase;
  /** the solver's components: the section's three elements, and VA where the database has it */
  components: string[];
  /** the phases of the section (its phase selection); undefined: every phase */
  phases?: string[];
  points?: number;
  seed?: number;
  /** distance in mole fraction within which a point counts as on a boundary (default 0.01) */
  margin?: number;
  threads?: number;
}

export interface RandomPointReport {
  /** random compositions drawn in the window */
  points: number;
  /** left out: within `margin` of a drawn boundary */
  nearBoundary: number;
  notConverged: number;
  /** the answer's phases are the field's */
  agree: number;
  /** the answer disagrees, but the map's phases alone give a lower Gibbs energy there: the answer was metastable */
  metastableAnswers: number;
  /** one line each: the composition, the answer's phases and the field's */
  disagreements: string[];
}

/** Uniform numbers in (0, 1) from a linear congruential generator: the same sequence on every machine. */
function uniform(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) + 0.5) / 4294967296;
}

/** `n` compositions uniform over the Gibbs triangle (Dirichlet(1, 1, 1)), rejected outside the window. */
export function randomCompositions(doc: TernaryIsothermalSectionResult, n: number, seed: number): Composition[] {
  const rand = uniform(seed);
  const out: Composition[] = [];
  for (let tries = 0; out.length < n && tries < 1000 * n; tries++) {
    const e = doc.components.map(() => -Math.log(rand()));
    const sum = e[0]! + e[1]! + e[2]!;
    const x = Object.fromEntries(doc.components.map((c, i) => [c, e[i]! / sum]));
    if (doc.components.every((c) => x[c]! >= doc.window[c]![0] && x[c]! <= doc.window[c]![1])) out.push(x);
  }
  return out;
}

type Point = [number, number];

/** Every drawn boundary of the section as segments of the Gibbs triangle. */
export function boundarySegments(doc: TernaryIsothermalSectionResult): [Point, Point][] {
  const p = (x: Composition) => gibbsPoint(x, doc.components);
  const segs: [Point, Point][] = [];
  for (const t of doc.three_phase_triangles)
    for (let k = 0; k < 3; k++) segs.push([p(t.corners[k]!.x), p(t.corners[(k + 1) % 3]!.x)]);
  for (const r of doc.two_phase_regions) {
    for (const b of r.boundaries) for (let i = 0; i + 1 < b.x.length; i++) segs.push([p(b.x[i]!), p(b.x[i + 1]!)]);
    const ends = [r.tielines[0], r.tielines[r.tielines.length - 1]];
    for (const t of ends) if (t) segs.push([p(t.x[0]), p(t.x[1])]);
  }
  return segs;
}

export function distanceToSegments(q: Point, segs: [Point, Point][]): number {
  let best = Infinity;
  for (const [a, b] of segs) {
    const dx = b[0] - a[0],
      dy = b[1] - a[1];
    const l2 = dx * dx + dy * dy;
    const t = l2 > 0 ? Math.max(0, Math.min(1, ((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / l2)) : 0;
    best = Math.min(best, Math.hypot(q[0] - a[0] - t * dx, q[1] - a[1] - t * dy));
  }
  return best;
}

const multiset = (names: string[]) => names.map(baseName).sort().join('+');
const stableNames = (r: EquilibriumResult) => r.phases.filter((p) => p.NP > NP_MIN).map((p) => p.name);

export function checkRandomPoints(doc: TernaryIsothermalSectionResult, o: RandomPointOptions): RandomPointReport {
  const comps = doc.components;
  const xs = randomCompositions(doc, o.points ?? 300, o.seed ?? 1);
  const segs = boundarySegments(doc);
  const margin = o.margin ?? 0.01;
  const away = xs.filter((x) => distanceToSegments(gibbsPoint(x, comps), segs) >= margin);
  const report: RandomPointReport = {
    points: xs.length,
    nearBoundary: xs.length - away.length,
    notConverged: 0,
    agree: 0,
    metastableAnswers: 0,
    disagreements: [],
  };
  const condition = (x: Composition) => ({
    T: doc.temperature,
    P: doc.pressure,
    X: { [comps[1]]: x[comps[1]]!, [comps[2]]: x[comps[2]]! },
  });
  const answers = equilibriumBatch({
    database: o.db,
    components: o.components,
    phases: o.phases,
    conditions: away.map(condition),
    threads: o.threads ?? 1,
  });
  away.forEach((x, i) => {
    const r = answers[i]!;
    if (!r.converged) {
      report.notConverged++;
      return;
    }
    const field = sectionAt(doc, x)?.phases.map((p) => p.phase) ?? [];
    const found = stableNames(r);
    if (multiset(found) === multiset(field)) report.agree++;
    else if (mapUndercuts(o, condition(x), field, r)) report.metastableAnswers++;
    else
      report.disagreements.push(
        `x(${comps.join(',')}) = ${comps.map((c) => x[c]!.toFixed(4)).join(', ')}: the equilibrium gives ` +
          `${found.join('+')}, the map ${field.join('+') || 'no field'}`,
      );
  });
  return report;
}

/**
 * The map's phases alone, solved cold at the point, give the map's phase set at a Gibbs energy below the answer's:
 * the global minimisation's answer there was a metastable state, not a field the map missed.
 */
function mapUndercuts(
  o: RandomPointOptions,
  condition: { T: number; P: number; X: Record<string, number> },
  field: string[],
  answer: EquilibriumResult,
): boolean {
  const only = [...new Set(field.map(baseName))];
  if (!only.length) return false;
  const [r] = equilibriumBatch({ database: o.db, components: o.components, phases: only, conditions: [condition] });
  return !!r?.converged && multiset(stableNames(r)) === multiset(field) && r.GM < answer.GM - GM_TOL;
}
