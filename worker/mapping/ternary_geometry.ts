// Geometry of ternary isothermal sections (worker/mapping/ternary.ts): the types of a mapped section, the Gibbs
// triangle's Cartesian plane (isotropic distances), polygon membership of regions and triangles, and the completeness
// self-check that compares independent point equilibria with the map.

/** Mole fractions of the three components, in the order of the request's components. */
export type Vec3 = [number, number, number];

export interface TernaryTieLine {
  /** compositions of the region's two phases, in the order of the region's `phases` */
  x: [Vec3, Vec3];
}

export type TernaryEndKind = 'three_phase' | 'edge' | 'window' | 'critical' | 'step_limit' | 'not_converged';

export interface TernaryTwoPhaseRegion {
  phases: [string, string];
  /** tie-lines in tracing order; `boundaries[k]` is the polyline of phase k's ends */
  tielines: TernaryTieLine[];
  ends: [TernaryEndKind, TernaryEndKind];
}

export interface TernaryTriangle {
  phases: [string, string, string];
  corners: [Vec3, Vec3, Vec3];
  /** largest corner movement in the last refinement, mole fraction */
  refinement: number;
}

export interface SelfCheckDisagreement {
  x: Vec3;
  /** phases the point equilibrium found */
  found: string[];
  /** phases of the mapped region the point lies in ([] = a single-phase area of the map) */
  mapped: string[];
}

/** An independent point equilibrium of the self-check: converged or not, where, and its stable phase labels. */
export interface CheckAnswer { ok: boolean; X: Vec3; labels: string[] }
export interface SelfCheckResult { points: number; agree: number; not_converged: number; disagreements: SelfCheckDisagreement[] }
export interface MappedRegions { regions: TernaryTwoPhaseRegion[]; triangles: TernaryTriangle[] }

/** mole fraction: polygon membership tolerance of the coverage test and the self-check */
export const INSIDE_TOL = 2e-3;
const SQRT3_2 = Math.sqrt(3) / 2;

export function baseName(label: string): string {
  const i = label.indexOf('#');
  return i < 0 ? label : label.slice(0, i);
}

/** Cartesian point of the Gibbs triangle: component 0 at (0,0), 1 at (1,0), 2 at (1/2, sqrt(3)/2). */
export function toPlane(x: Vec3): [number, number] {
  return [x[1] + x[2] / 2, x[2] * SQRT3_2];
}
export function fromPlane(p: [number, number]): Vec3 {
  const x2 = p[1] / SQRT3_2;
  const x1 = p[0] - x2 / 2;
  return [1 - x1 - x2, x1, x2];
}
/** Distance of two compositions in the plane of the Gibbs triangle (side 1). */
export function dist3(a: Vec3, b: Vec3): number {
  const p = toPlane(a), q = toPlane(b);
  return Math.hypot(p[0] - q[0], p[1] - q[1]);
}
export const mid = (a: Vec3, b: Vec3): Vec3 => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];

/** Distance (Cartesian plane) from p to the segment ab. */
function segmentDistance(p: [number, number], a: [number, number], b: [number, number]): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const l2 = dx * dx + dy * dy;
  const t = l2 > 0 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2)) : 0;
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

/** Signed membership of p in a closed polygon (plane coordinates): > 0 inside, < 0 outside, |value| = distance to the edge. */
export function polygonDepth(p: [number, number], poly: [number, number][]): number {
  let inside = false;
  let d = Infinity;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i]!, b = poly[j]!;
    if ((a[1] > p[1]) !== (b[1] > p[1]) && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
    d = Math.min(d, segmentDistance(p, a, b));
  }
  return inside ? d : -d;
}

/** The polygon of a two-phase region: phase 0's boundary forwards, phase 1's backwards. */
export function regionPolygon(r: TernaryTwoPhaseRegion): [number, number][] {
  return [...r.tielines.map((t) => toPlane(t.x[0])), ...[...r.tielines].reverse().map((t) => toPlane(t.x[1]))];
}

export const sortedBases = (labels: string[]) => labels.map(baseName).sort().join('+');

/** Phases of the mapped region that holds X ([] = none of the two- and three-phase regions). */
export function regionsAt(s: MappedRegions, X: Vec3, tol = INSIDE_TOL): { phases: string[]; depth: number }[] {
  const p = toPlane(X);
  const out: { phases: string[]; depth: number }[] = [];
  for (const t of s.triangles) {
    const d = polygonDepth(p, t.corners.map(toPlane));
    if (d > -tol) out.push({ phases: [...t.phases], depth: d });
  }
  for (const r of s.regions) {
    if (r.tielines.length < 2) continue;
    const d = polygonDepth(p, regionPolygon(r));
    if (d > -tol) out.push({ phases: [...r.phases], depth: d });
  }
  return out;
}

/** Every answer must lie in a mapped region of the same phases (single-phase answers: in no region, or on its rim). */
export function selfCheck(s: MappedRegions, answers: CheckAnswer[]): SelfCheckResult {
  let agree = 0, nc = 0;
  const disagreements: SelfCheckDisagreement[] = [];
  for (const e of answers) {
    if (!e.ok) { nc++; continue; }
    const found = e.labels;
    const key = sortedBases(found);
    const hits = regionsAt(s, e.X);
    const ok = found.length === 1
      ? hits.every((h) => h.depth < INSIDE_TOL)
      : hits.some((h) => sortedBases(h.phases) === key);
    if (ok) agree++;
    else {
      const inner = hits.sort((a, b) => b.depth - a.depth)[0];
      disagreements.push({ x: e.X, found, mapped: inner ? inner.phases : [] });
    }
  }
  return { points: answers.length, agree, not_converged: nc, disagreements };
}

