// The mapped fields of a ternary section while it is mapped: the two-phase regions (with their polygons, for the
// test whether a seed lies on one traced already), the three-phase tie-triangles (the section's invariants: F = 0
// at fixed T and P) and the equilibrium behind each triangle and tie-line, whose chemical potentials give the
// field's tangent plane (which of two overlapping fields is stable, ternary/overlaps.ts).
import { baseName } from '../../../contract/phases.js';
import type { EquilibriumResult } from '../../core/equilibrium.js';
import type { MapLedger } from '../core/ledger.js';
import {
  INSIDE_TOL,
  dist3 as dist,
  polygonDepth,
  regionPolygon,
  sortedBases,
  toPlane,
  type TernaryTieLine,
  type TernaryTriangle,
  type TernaryTwoPhaseRegion,
  type Vec3,
} from './geometry.js';
import type { SectionSolver, SectionState, SetState } from './solver.js';

/** Largest corner movement (mole fraction) at which a triangle's refinement stops. */
const TRIANGLE_TOL = 1e-5;

export class SectionFields {
  readonly regions: TernaryTwoPhaseRegion[] = [];
  /** the polygon of each region, in the order of `regions` */
  readonly regionPolys: [number, number][][] = [];
  readonly triangles: TernaryTriangle[] = [];
  readonly criticalPoints: { phases: [string, string]; x: Vec3 }[] = [];
  /** the equilibrium behind each triangle and tie-line: its chemical potentials give the field's tangent plane */
  readonly potentials = new WeakMap<object, EquilibriumResult>();

  constructor(
    private readonly components: readonly string[],
    private readonly solver: SectionSolver,
    private readonly ledger: MapLedger,
  ) {}

  /** G (J/mol) at X of the tangent plane of equilibrium r: which of two overlapping fields is stable */
  planeG(r: EquilibriumResult | undefined, X: Vec3): number {
    return r ? this.components.reduce((a, c, k) => a + (r.mu[c] ?? NaN) * X[k]!, 0) : NaN;
  }

  addRegion(region: TernaryTwoPhaseRegion): void {
    this.regions.push(region);
    this.regionPolys.push(regionPolygon(region));
  }

  removeRegion(i: number): void {
    this.regions.splice(i, 1);
    this.regionPolys.splice(i, 1);
  }

  replaceRegion(i: number, region: TernaryTwoPhaseRegion): void {
    this.regions[i] = region;
    this.regionPolys[i] = regionPolygon(region);
  }

  /** e lies in a traced region of its phases (`tol` > 0: or that close to one; < 0: at least that deep inside) */
  covered(e: SectionState, tol = INSIDE_TOL): boolean {
    const key = sortedBases(e.phases.map((p) => p.label));
    const p = toPlane(e.X);
    return this.regions.some(
      (r, k) => sortedBases(r.phases) === key && r.tielines.length > 1 && polygonDepth(p, this.regionPolys[k]!) > -tol,
    );
  }

  private knownTriangle(phases: SetState[]): TernaryTriangle | undefined {
    const key = sortedBases(phases.map((p) => p.label));
    return this.triangles.find(
      (t) => sortedBases(t.phases) === key && t.corners.every((c) => phases.some((p) => dist(p.x, c) < 1e-3)),
    );
  }

  /**
   * The tie-triangle of a three-phase state, its corners refined: F = 0 at fixed T and P, so the corners do not
   * depend on where inside the triangle the equilibrium is solved; solving at the centroid keeps the answer away from
   * the edges where a phase amount is near zero. A triangle met again (by another trace or seed) is not refined
   * twice.
   */
  addTriangle(e: SectionState): TernaryTriangle | null {
    const seen = this.knownTriangle(e.phases);
    if (seen) return seen;
    const { state: cur, move } = this.refineCorners(e);
    const existing = this.knownTriangle(cur.phases);
    if (existing) return existing;
    const tri: TernaryTriangle = {
      phases: cur.phases.map((p) => p.label) as [string, string, string],
      corners: cur.phases.map((p) => p.x) as [Vec3, Vec3, Vec3],
      refinement: Number.isFinite(move) ? move : 0,
    };
    if (!Number.isFinite(move) || move > TRIANGLE_TOL)
      this.ledger.log(
        `three-phase triangle ${tri.phases.join('+')}: corners refined to ${Number.isFinite(move) ? move.toExponential(1) : 'no second solve'} only`,
      );
    tri.refinement = Number.isFinite(move) ? move : 1;
    if (cur.raw) this.potentials.set(tri, cur.raw);
    this.triangles.push(tri);
    return tri;
  }

  /** Re-solves at the centroid of the corners until no corner moves by more than TRIANGLE_TOL (four times at most). */
  private refineCorners(e: SectionState): { state: SectionState; move: number } {
    let cur = e;
    let move = Infinity;
    for (let it = 0; it < 4 && move > TRIANGLE_TOL; it++) {
      const c = cur.phases.map((p) => p.x);
      const centroid: Vec3 = [0, 1, 2].map((k) => (c[0]![k]! + c[1]![k]! + c[2]![k]!) / 3) as Vec3;
      const next = it === 0 ? this.solver.solveStable(centroid, cur.raw) : this.solver.solve(centroid, cur.raw);
      if (
        !next.ok ||
        next.phases.length !== 3 ||
        sortedBases(next.phases.map((p) => p.label)) !== sortedBases(cur.phases.map((p) => p.label))
      )
        break;
      // match corners by proximity (set numbers may swap)
      const matched = cur.phases.map((p) => next.phases.reduce((b, q) => (dist(q.x, p.x) < dist(b.x, p.x) ? q : b)));
      if (new Set(matched).size !== 3) break;
      move = Math.max(...matched.map((q, k) => dist(q.x, cur.phases[k]!.x)));
      cur = { ...next, phases: cur.phases.map((p, k) => ({ ...p, x: matched[k]!.x })) };
    }
    return { state: cur, move };
  }

  /** A known triangle whose inside the segment from a to b passes through (sampled), if any. */
  crossedTriangle(a: Vec3, b: Vec3): TernaryTriangle | null {
    for (const t of this.triangles) {
      const poly = t.corners.map(toPlane);
      for (let k = 1; k <= 8; k++) {
        const f = k / 8;
        if (
          polygonDepth(toPlane([a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2])]), poly) >
          1e-6
        )
          return t;
      }
    }
    return null;
  }

  /** The triangle's edge tie-line of a region ending on it, with the triangle's equilibrium behind it. */
  edgeOf(tri: TernaryTriangle, tl: TernaryTieLine, bases: [string, string]): TernaryTieLine | null {
    const edge = triangleEdge(tri, tl, bases);
    if (edge) this.potentials.set(edge, this.potentials.get(tri)!);
    return edge;
  }
}

/** The triangle's edge of the pair `bases`, its ends matched to the tie-line's by proximity (null: no such edge). */
export function triangleEdge(tri: TernaryTriangle, tl: TernaryTieLine, bases: [string, string]): TernaryTieLine | null {
  const pick = (target: Vec3, base: string, not?: number) => {
    let best = -1;
    tri.corners.forEach((c, k) => {
      if (k === not || baseName(tri.phases[k]!) !== base) return;
      if (best < 0 || dist(c, target) < dist(tri.corners[best]!, target)) best = k;
    });
    return best;
  };
  const i0 = pick(tl.x[0], bases[0]);
  const i1 = pick(tl.x[1], bases[1], i0);
  return i0 >= 0 && i1 >= 0 ? { x: [tri.corners[i0]!, tri.corners[i1]!] } : null;
}
