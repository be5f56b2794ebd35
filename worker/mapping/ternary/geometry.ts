// Geometry of ternary isothermal sections (worker/mapping/ternary.ts): the types of a mapped section, the Gibbs
// triangle's Cartesian plane (isotropic distances), polygon membership of regions and triangles, and the completeness
// self-check that compares independent point equilibria with the map (core/self-check.ts).
import { baseName } from '../../../contract/phases.js';
import type { Triple } from '../core/grid.js';
import { tallyAnswers } from '../core/self-check.js';

/** Mole fractions of the three components, in the order of the request's components. */
export type Vec3 = Triple;

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
  /** display labels of the two phases: the ordering state where the phase has one (ternary/labels.ts) */
  labels?: [string, string];
}

export interface TernaryTriangle {
  phases: [string, string, string];
  corners: [Vec3, Vec3, Vec3];
  /** largest corner movement in the last refinement, mole fraction */
  refinement: number;
  /** display labels of the three phases (as for regions) */
  labels?: [string, string, string];
}

export interface SelfCheckDisagreement {
  x: Vec3;
  /** phases the point equilibrium found */
  found: string[];
  /** phases of the mapped region the point lies in ([] = a single-phase area of the map) */
  mapped: string[];
}

/** An independent point equilibrium of the self-check: converged or not, where, and its stable phase labels. */
export interface CheckAnswer {
  ok: boolean;
  X: Vec3;
  labels: string[];
}
/**
 * Two mapped fields that share area: two tie-triangles, or a tie-triangle and a two-phase region. Fields of a stable
 * section only meet along their edges; an overlap means one of them is metastable.
 */
export interface OverlapFinding {
  kind: 'triangles' | 'triangle_region';
  /** the triangle's phases, then the other triangle's or the region's */
  phases: [string[], string[]];
  /** a composition inside both */
  x: Vec3;
}
export interface SelfCheckResult {
  points: number;
  agree: number;
  not_converged: number;
  disagreements: SelfCheckDisagreement[];
  /** answers inside a mapped field whose own state the map undercuts (re-solved warm from the field's equilibrium,
   * the map's phases at a lower Gibbs energy): the point solver's answer was metastable there */
  metastable_answers: number;
  overlaps: OverlapFinding[];
}
export interface MappedRegions {
  regions: TernaryTwoPhaseRegion[];
  triangles: TernaryTriangle[];
}

/** mole fraction: polygon membership tolerance of the coverage test and the self-check */
export const INSIDE_TOL = 2e-3;
const SQRT3_2 = Math.sqrt(3) / 2;

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
  const p = toPlane(a),
    q = toPlane(b);
  return Math.hypot(p[0] - q[0], p[1] - q[1]);
}
export const mid = (a: Vec3, b: Vec3): Vec3 => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];

/** Distance (Cartesian plane) from p to the segment ab. */
function segmentDistance(p: [number, number], a: [number, number], b: [number, number]): number {
  const dx = b[0] - a[0],
    dy = b[1] - a[1];
  const l2 = dx * dx + dy * dy;
  const t = l2 > 0 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2)) : 0;
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

/** Signed membership of p in a closed polygon (plane coordinates): > 0 inside, < 0 outside, |value| = distance to the edge. */
export function polygonDepth(p: [number, number], poly: [number, number][]): number {
  let inside = false;
  let d = Infinity;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i]!,
      b = poly[j]!;
    if (a[1] > p[1] !== b[1] > p[1] && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
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

/** Points spread over the inside of a triangle (barycentric grid of `n` divisions, the edges left out). */
function trianglePoints(c: [Vec3, Vec3, Vec3], n = 8): Vec3[] {
  const out: Vec3[] = [];
  for (let i = 1; i < n; i++) {
    for (let j = 1; i + j < n; j++) {
      const a = i / n,
        b = j / n,
        g = 1 - a - b;
      out.push([0, 1, 2].map((k) => a * c[0][k]! + b * c[1][k]! + g * c[2][k]!) as Vec3);
    }
  }
  return out;
}

/** A point of the tie-line (at a quarter, half or three quarters) deeper than tol inside the polygon, if any. */
export function tielineInside(t: TernaryTieLine, poly: [number, number][], tol = INSIDE_TOL): Vec3 | undefined {
  return [0.25, 0.5, 0.75]
    .map((f) => [0, 1, 2].map((k) => t.x[0][k]! + f * (t.x[1][k]! - t.x[0][k]!)) as Vec3)
    .find((x) => polygonDepth(toPlane(x), poly) > tol);
}

/**
 * Overlapping fields: a point inside one tie-triangle (barycentric sample) deeper than `tol` inside another, or a
 * point of a two-phase region's tie-line (at a quarter, half and three quarters) deeper than `tol` inside a
 * triangle. Fields that only share an edge (a region's last tie-line is its triangle's edge) do not count.
 */
export function findOverlaps(s: MappedRegions, tol = INSIDE_TOL): OverlapFinding[] {
  return overlapsBetween(s, tol).map((o) => ({
    kind: o.kind,
    x: o.x,
    phases: [
      [...s.triangles[o.triangle]!.phases],
      o.kind === 'triangles' ? [...s.triangles[o.other]!.phases] : [...s.regions[o.other]!.phases],
    ],
  }));
}

/** findOverlaps with the fields' indices: `other` is a triangle's (kind triangles) or a region's; `tieline` the region's tie-line at x. */
export function overlapsBetween(
  s: MappedRegions,
  tol = INSIDE_TOL,
): { kind: OverlapFinding['kind']; triangle: number; other: number; tieline: number; x: Vec3 }[] {
  const out: { kind: OverlapFinding['kind']; triangle: number; other: number; tieline: number; x: Vec3 }[] = [];
  const polys = s.triangles.map((t) => t.corners.map(toPlane));
  for (let i = 0; i < s.triangles.length; i++) {
    for (let j = i + 1; j < s.triangles.length; j++) {
      const inner = [
        ...trianglePoints(s.triangles[i]!.corners).map((x) => ({ x, d: polygonDepth(toPlane(x), polys[j]!) })),
        ...trianglePoints(s.triangles[j]!.corners).map((x) => ({ x, d: polygonDepth(toPlane(x), polys[i]!) })),
      ].filter(
        (p) => p.d > tol && polygonDepth(toPlane(p.x), polys[i]!) > tol && polygonDepth(toPlane(p.x), polys[j]!) > tol,
      );
      if (inner.length) out.push({ kind: 'triangles', triangle: i, other: j, tieline: -1, x: inner[0]!.x });
    }
  }
  for (let i = 0; i < s.triangles.length; i++) {
    s.regions.forEach((r, ri) => {
      for (let k = 0; k < r.tielines.length; k++) {
        const hit = tielineInside(r.tielines[k]!, polys[i]!, tol);
        if (hit) {
          out.push({ kind: 'triangle_region', triangle: i, other: ri, tieline: k, x: hit });
          return;
        }
      }
    });
  }
  return out;
}

/** X lies within INSIDE_TOL of the triangle's edge between the corners of the two given phases. */
function onEdgeOf(t: TernaryTriangle, pair: string[], X: Vec3): boolean {
  const bases = t.phases.map(baseName);
  const i = bases.indexOf(baseName(pair[0]!));
  const j = bases.findIndex((b, k) => k !== i && b === baseName(pair[1]!));
  if (i < 0 || j < 0) return false;
  return segmentDistance(toPlane(X), toPlane(t.corners[i]!), toPlane(t.corners[j]!)) < INSIDE_TOL;
}

/**
 * Every answer must lie in a mapped region of the same phases (single-phase answers: in no region, or on its rim);
 * and no two mapped fields may overlap (findOverlaps).
 */
export function selfCheck(s: MappedRegions, answers: CheckAnswer[]): SelfCheckResult {
  const tally = tallyAnswers(answers, (e): SelfCheckDisagreement | null => {
    const found = e.labels;
    const key = sortedBases(found);
    const hits = regionsAt(s, e.X);
    const ok =
      found.length === 1
        ? hits.every((h) => h.depth < INSIDE_TOL)
        : hits.some((h) => sortedBases(h.phases) === key) ||
          // two phases on the edge of a triangle that holds both: the tie-line between two triangles that share it
          // (two line compounds: no region of its own)
          (found.length === 2 && s.triangles.some((t) => onEdgeOf(t, found, e.X)));
    if (ok) return null;
    const inner = hits.sort((a, b) => b.depth - a.depth)[0];
    return { x: e.X, found, mapped: inner ? inner.phases : [] };
  });
  return { ...tally, metastable_answers: 0, overlaps: findOverlaps(s) };
}
