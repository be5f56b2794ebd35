// The seeds of a ternary section (core/skeleton.ts, stage 2): every two-phase node of the seed grid seeds its
// region and every three-phase node its tie-triangle; between neighbouring single-phase nodes of different phases a
// bisection looks for a narrow two-phase field the grid stepped over; and every triangle edge that no traced region
// ends on seeds a trace away from the triangle.
import type { SectionFields } from './fields.js';
import { dist3 as dist, mid, sortedBases, toPlane, type Vec3 } from './geometry.js';
import type { SectionSolver, SectionState, SetState } from './solver.js';
import { MIN_STEP, type TieLineTracer } from './trace.js';
import type { SectionWindow } from './window.js';

/** What the seed searches share: the solver, the fields so far, the tracer and the window. */
export interface SeedContext {
  solver: SectionSolver;
  fields: SectionFields;
  tracer: TieLineTracer;
  window: SectionWindow;
}

/** The phase of a single-phase state (null: not converged or not single-phase). */
export const singleKey = (e: SectionState) => (e.ok && e.phases.length === 1 ? e.phases[0]!.base : null);

/**
 * Two-phase seeds first (the largest regions get traced once, the other seeds in them are covered), three-phase
 * nodes give their triangles; progress(done) after each converged node.
 */
export function seedGridNodes(c: SeedContext, grid: readonly SectionState[], progress: (done: number) => void): void {
  let done = 0;
  for (const e of grid) {
    done++;
    if (!e.ok) continue;
    if (e.phases.length === 3) c.fields.addTriangle(e);
    else if (e.phases.length === 2 && !c.fields.covered(e)) c.tracer.traceRegion(e);
    progress(done);
  }
}

/**
 * Narrow fields between neighbouring single-phase nodes of different phases: the segment between them is halved
 * (eight times at most) towards the change of phase next to the node of the first phase met, and the first two- or
 * three-phase state met is traced (or its triangle added). The same phase on both sides: a gap of that phase between
 * them is not looked for here (a wide one shows as a two-phase node, a narrow one ends at a critical point or a
 * triangle, where its trace starts).
 */
export function seedBetweenNeighbours(
  c: SeedContext,
  grid: readonly SectionState[],
  neighbours: readonly [number, number][],
): void {
  for (const [k, m2] of neighbours) {
    const a = grid[k]!,
      b = grid[m2]!;
    const ka = singleKey(a),
      kb = singleKey(b);
    if (!ka || !kb || ka === kb) continue;
    let lo2 = a.X,
      hi2 = b.X,
      loKey = ka;
    for (let depth = 0; depth < 8; depth++) {
      const X = mid(lo2, hi2);
      const e = c.solver.solve(X, a.raw);
      if (!e.ok) break;
      if (e.phases.length >= 2) {
        if (e.phases.length === 3) c.fields.addTriangle(e);
        else if (!c.fields.covered(e)) c.tracer.traceRegion(e);
        break;
      }
      if (e.phases[0]!.base === loKey) lo2 = X;
      else hi2 = X;
      if (e.phases[0]!.base !== ka && e.phases[0]!.base !== kb) {
        loKey = e.phases[0]!.base;
        lo2 = X;
      }
    }
  }
}

/**
 * Triangle edges no region ends on: a point just outside the edge, away from the third corner, starts a trace
 * away from the triangle with a real equilibrium (triangles added by these traces are visited too).
 */
export function seedTriangleEdges(c: SeedContext): void {
  const { fields } = c;
  for (let t = 0; t < fields.triangles.length; t++) {
    const tri = fields.triangles[t]!;
    for (const [i, j, k] of [
      [0, 1, 2],
      [1, 2, 0],
      [0, 2, 1],
    ] as const) {
      const ci = tri.corners[i],
        cj = tri.corners[j];
      if (dist(ci, cj) < 1e-4 || regionEndsOn(fields, ci, cj)) continue;
      const m = mid(ci, cj);
      const away = m.map((v, q) => v - tri.corners[k][q]!) as Vec3;
      const norm = dist(m, tri.corners[k]);
      const X = m.map((v, q) => v + (2 * MIN_STEP * away[q]!) / Math.max(norm, 1e-9)) as Vec3;
      if (!c.window.contains(X)) continue;
      const e = c.solver.solve(X);
      // a sliver between two triangles lies within INSIDE_TOL of its neighbours: only a point inside one is covered
      if (!e.ok || e.phases.length !== 2 || fields.covered(e, -1e-4)) continue;
      if (sortedBases(e.phases.map((p) => p.label)) !== sortedBases([tri.phases[i], tri.phases[j]])) continue;
      const [p, q] = e.phases as [SetState, SetState];
      const [u, v] = dist(p.x, ci) + dist(q.x, cj) <= dist(q.x, ci) + dist(p.x, cj) ? [p, q] : [q, p];
      // orient so that +normal of the edge tie-line points away from the triangle
      const a = toPlane(ci),
        b = toPlane(cj),
        cc = toPlane(tri.corners[k]);
      const nx = -(b[1] - a[1]),
        ny = b[0] - a[0];
      const side = (cc[0] - (a[0] + b[0]) / 2) * nx + (cc[1] - (a[1] + b[1]) / 2) * ny;
      const dir: 1 | -1 = side > 0 ? -1 : 1;
      c.tracer.traceRegion({ ...e, phases: [u, v] }, { tl: { x: [ci, cj] }, dir, end: 'three_phase' });
    }
  }
}

/** A traced region ends on the edge between corners ci and cj (its first or last tie-line is that edge). */
function regionEndsOn(fields: SectionFields, ci: Vec3, cj: Vec3): boolean {
  return fields.regions.some((r) =>
    [r.tielines[0]!, r.tielines[r.tielines.length - 1]!].some(
      (tl) =>
        (dist(tl.x[0], ci) < 2e-3 && dist(tl.x[1], cj) < 2e-3) ||
        (dist(tl.x[0], cj) < 2e-3 && dist(tl.x[1], ci) < 2e-3),
    ),
  );
}
