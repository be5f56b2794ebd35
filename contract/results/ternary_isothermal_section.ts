// result.json of task_type ternary_isothermal_section (docs/calculations.md "Ternary isothermal sections").
// Types only + small pure helpers, shared with the renderer (contract/: no node: imports).
// Units: T in K, P in Pa, compositions as mole fractions keyed by component (and mass fractions in `w` when the
// configuration asks for composition_unit "mass_fraction").
import type { ConvergenceWarning, ResultDocument, ResultTable } from './common.js';

/** Fractions keyed by component, e.g. { AL: 0.2, CR: 0.1, NI: 0.7 }. */
export type Composition = Record<string, number>;

export type TernaryRegionEnd = 'three_phase' | 'edge' | 'window' | 'critical' | 'step_limit' | 'not_converged';

export interface TernaryTieLineRecord {
  /** compositions of the region's two phases, in the order of `phases` */
  x: [Composition, Composition];
  w?: [Composition, Composition];
}

export interface TernaryTwoPhaseRecord {
  /** phase labels (NAME or NAME#2 for the second set of a miscibility gap) */
  phases: [string, string];
  /** display labels of the two phases: a set of a phase with an order-disorder description by its state, as point
   * results name it ("L12 (L12_FCC)", "A1 (L12_FCC)"), other phases as in `phases` */
  labels: [string, string];
  /** added: the field's label in the database's display names (contract/plots/phase-names.ts), e.g. "L + γ" */
  display?: string;
  /** how the region ends at its first and last tie-line */
  ends: [TernaryRegionEnd, TernaryRegionEnd];
  /** tie-lines in tracing order: the region is the union of the segments between consecutive tie-lines */
  tielines: TernaryTieLineRecord[];
  /** the boundary polyline of each phase (the tie-line ends, in order) */
  boundaries: { phase: string; x: Composition[]; w?: Composition[] }[];
}

export interface TernaryTriangleRecord {
  phases: [string, string, string];
  /** display labels, as for two-phase regions */
  labels: [string, string, string];
  /** added: the field's label in the database's display names (contract/plots/phase-names.ts), e.g. "L + γ" */
  display?: string;
  corners: { phase: string; x: Composition; w?: Composition }[];
  /** largest corner movement in the last refinement solve, mole fraction (<= 1e-5 when refined) */
  refinement: number;
}

export interface TernarySelfCheck {
  /** point equilibria at the centroids of the seed grid's cells */
  points: number;
  /** answers lying in a mapped region of the same phases */
  agree: number;
  not_converged: number;
  disagreements: { x: Composition; found: string[]; mapped: string[] }[];
  /** answers inside a mapped field that the map's own state undercuts (re-solved warm-started from the field's
   * equilibrium: the map's phases at a lower Gibbs energy): the point solver's answer there was metastable */
  metastable_answers: number;
  /** mapped fields sharing area (a stable section's fields meet only along edges): two tie-triangles, or a
   * tie-triangle and a two-phase region (`phases`: the triangle's, then the other field's), at a point x inside both */
  overlaps: { kind: 'triangles' | 'triangle_region'; phases: [string[], string[]]; x: Composition }[];
}

export interface TernaryIsothermalSectionResult extends ResultDocument {
  task_type: 'ternary_isothermal_section';
  components: [string, string, string];
  temperature: number;
  pressure: number;
  composition_unit: 'mole_fraction' | 'mass_fraction';
  /** [min, max] mole fraction per component */
  window: Record<string, [number, number]>;
  two_phase_regions: TernaryTwoPhaseRecord[];
  three_phase_triangles: TernaryTriangleRecord[];
  /** `label`: the display label (the ordering state where the phase has one, as for two-phase regions); `display`
   * (added): that label in the database's display names */
  single_phase_regions: {
    phase: string;
    label: string;
    display?: string;
    label_point: { x: Composition; w?: Composition };
  }[];
  critical_points: { phases: [string, string]; x: Composition; w?: Composition }[];
  /** added, with config spinodal: true: the spinodal of each phase with a miscibility gap, the two spinodal
   * compositions (mole fractions) on each tie-line of the gap (worker/mapping/spinodal/in-gaps.ts) */
  spinodals?: { phase: string; points: [Composition, Composition][] }[];
  /** added, with config coherent: the coherent spinodal of each gap the same way, its Hessian with the strain energy
   * 2 Y V_m eta_j eta_k of a coherent fluctuation added (Cahn 1961; worker/mapping/spinodal/determinant.ts) */
  coherent_spinodals?: { phase: string; points: [Composition, Composition][] }[];
  self_check: TernarySelfCheck | null;
  statistics: { equilibria: number; not_converged: number; wall_time_s: number };
  /** added: present when LARGE_FAILURE_SHARE of the seed grid's nodes or more have no equilibrium */
  convergence_warning?: ConvergenceWarning;
  table: ResultTable;
}

/** Cartesian point of the Gibbs triangle: components[0] at (0,0), [1] at (1,0), [2] at (1/2, sqrt(3)/2). */
export function gibbsPoint(c: Composition, components: readonly string[]): [number, number] {
  const b = c[components[1]!] ?? 0,
    t = c[components[2]!] ?? 0;
  return [b + t / 2, (t * Math.sqrt(3)) / 2];
}

/** Inverse of gibbsPoint. */
export function gibbsComposition(p: [number, number], components: readonly string[]): Composition {
  const t = p[1] / (Math.sqrt(3) / 2);
  const b = p[0] - t / 2;
  return { [components[0]!]: 1 - b - t, [components[1]!]: b, [components[2]!]: t };
}

/** Lever rule on a tie-line: amounts of the two phases at overall composition X (projected onto the tie-line). */
export function leverAmounts(
  x0: Composition,
  x1: Composition,
  X: Composition,
  components: readonly string[],
): [number, number] {
  const a = gibbsPoint(x0, components),
    b = gibbsPoint(x1, components),
    p = gibbsPoint(X, components);
  const dx = b[0] - a[0],
    dy = b[1] - a[1];
  const l2 = dx * dx + dy * dy;
  const f = l2 > 0 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2)) : 0.5;
  return [1 - f, f];
}

/** Barycentric amounts of the three corner phases at X (clamped at 0 and renormalised). */
export function triangleAmounts(
  corners: Composition[],
  X: Composition,
  components: readonly string[],
): [number, number, number] {
  const [a, b, c] = corners.map((k) => gibbsPoint(k, components)) as [
    [number, number],
    [number, number],
    [number, number],
  ];
  const p = gibbsPoint(X, components);
  const det = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
  if (Math.abs(det) < 1e-15) return [1 / 3, 1 / 3, 1 / 3];
  const l1 = ((b[1] - c[1]) * (p[0] - c[0]) + (c[0] - b[0]) * (p[1] - c[1])) / det;
  const l2 = ((c[1] - a[1]) * (p[0] - c[0]) + (a[0] - c[0]) * (p[1] - c[1])) / det;
  const l = [l1, l2, 1 - l1 - l2].map((v) => Math.max(0, v));
  const s = l[0]! + l[1]! + l[2]! || 1;
  return [l[0]! / s, l[1]! / s, l[2]! / s];
}

/** What the section says at an overall composition: the phases, their amounts and compositions. */
export interface SectionReadout {
  kind: 'three_phase' | 'two_phase' | 'single_phase';
  phases: { phase: string; amount: number; x: Composition }[];
  /** index in three_phase_triangles / two_phase_regions / single_phase_regions (-1: a field without a label point) */
  index: number;
}

function inPolygon(p: [number, number], poly: [number, number][]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i]!,
      b = poly[j]!;
    if (a[1] > p[1] !== b[1] > p[1] && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
  }
  return inside;
}

const lerp = (a: Composition, b: Composition, t: number, comps: readonly string[]): Composition =>
  Object.fromEntries(comps.map((c) => [c, (a[c] ?? 0) + t * ((b[c] ?? 0) - (a[c] ?? 0))]));

/**
 * The section's answer at X: inside a tie-triangle, its three phases (amounts by the barycentric lever rule); inside
 * a two-phase region, the tie-line through X interpolated between the two traced tie-lines around it (amounts by the
 * lever rule); otherwise the single-phase field of the nearest phase boundary (or, in a section without two-phase
 * regions, the field whose label point is nearest), amount 1 at composition X.
 */
export function sectionAt(
  doc: Pick<
    TernaryIsothermalSectionResult,
    'components' | 'two_phase_regions' | 'three_phase_triangles' | 'single_phase_regions'
  >,
  X: Composition,
): SectionReadout | null {
  const comps = doc.components;
  const p = gibbsPoint(X, comps);
  for (let i = 0; i < doc.three_phase_triangles.length; i++) {
    const t = doc.three_phase_triangles[i]!;
    if (
      !inPolygon(
        p,
        t.corners.map((c) => gibbsPoint(c.x, comps)),
      )
    )
      continue;
    const f = triangleAmounts(
      t.corners.map((c) => c.x),
      X,
      comps,
    );
    return {
      kind: 'three_phase',
      index: i,
      phases: t.corners.map((c, k) => ({ phase: c.phase, amount: f[k]!, x: c.x })),
    };
  }
  for (let i = 0; i < doc.two_phase_regions.length; i++) {
    const r = doc.two_phase_regions[i]!;
    for (let k = 0; k + 1 < r.tielines.length; k++) {
      const t0 = r.tielines[k]!,
        t1 = r.tielines[k + 1]!;
      const quad = [t0.x[0], t1.x[0], t1.x[1], t0.x[1]].map((c) => gibbsPoint(c, comps));
      if (!inPolygon(p, quad)) continue;
      // the tie-line through p: side(s) changes sign between the two traced tie-lines; bisection on s
      const side = (s: number) => {
        const a = gibbsPoint(lerp(t0.x[0], t1.x[0], s, comps), comps),
          b = gibbsPoint(lerp(t0.x[1], t1.x[1], s, comps), comps);
        return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
      };
      let lo = 0,
        hi = 1;
      const s0 = side(0);
      for (let it = 0; it < 40; it++) {
        const m = (lo + hi) / 2;
        if (Math.sign(side(m)) === Math.sign(s0)) lo = m;
        else hi = m;
      }
      const s = (lo + hi) / 2;
      const xa = lerp(t0.x[0], t1.x[0], s, comps),
        xb = lerp(t0.x[1], t1.x[1], s, comps);
      const f = leverAmounts(xa, xb, X, comps);
      return {
        kind: 'two_phase',
        index: i,
        phases: [
          { phase: r.phases[0], amount: f[0], x: xa },
          { phase: r.phases[1], amount: f[1], x: xb },
        ],
      };
    }
  }
  // outside every two- and three-phase region: the single-phase field is that of the nearest phase boundary (the
  // boundary polylines of the regions, segment by segment); the label points only name fields no boundary touches
  let nearest: { phase: string; d: number } | null = null;
  for (const r of doc.two_phase_regions) {
    for (const k of [0, 1] as const) {
      const line = r.tielines.map((t) => gibbsPoint(t.x[k], comps));
      for (let i = 0; i < line.length; i++) {
        const a = line[i]!,
          b = line[Math.min(i + 1, line.length - 1)]!;
        const dx = b[0] - a[0],
          dy = b[1] - a[1];
        const l2 = dx * dx + dy * dy;
        const t = l2 > 0 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2)) : 0;
        const d = Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
        if (!nearest || d < nearest.d) nearest = { phase: r.phases[k], d };
      }
    }
  }
  if (nearest) {
    const base = nearest.phase.split('#')[0]!;
    const index = doc.single_phase_regions.findIndex((s) => s.phase === base || s.phase === nearest!.phase);
    return { kind: 'single_phase', index, phases: [{ phase: nearest.phase, amount: 1, x: { ...X } }] };
  }
  let best = -1,
    bestD = Infinity;
  doc.single_phase_regions.forEach((s, i) => {
    const q = gibbsPoint(s.label_point.x, comps);
    const d = Math.hypot(q[0] - p[0], q[1] - p[1]);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  });
  if (best < 0) return null;
  return {
    kind: 'single_phase',
    index: best,
    phases: [{ phase: doc.single_phase_regions[best]!.phase, amount: 1, x: { ...X } }],
  };
}
