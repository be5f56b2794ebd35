// The completeness self-check of a ternary section (core/self-check.ts): point equilibria at the centroids of the
// seed grid's upward cells (no node in common with the seed grid) must each lie in a mapped region of the same
// phases (ternary/geometry.ts selfCheck), and no two mapped fields may overlap.
import type { EquilibriumResult } from '../../core/equilibrium.js';
import type { TriangularGrid } from '../core/grid.js';
import { upwardCellCentroids } from '../core/grid.js';
import type { SectionFields } from './fields.js';
import {
  INSIDE_TOL,
  dist3 as dist,
  mid,
  polygonDepth,
  selfCheck,
  sortedBases,
  toPlane,
  type SelfCheckDisagreement,
  type SelfCheckResult,
  type TernaryTieLine,
  type Vec3,
} from './geometry.js';
import { GM_TOL, type SectionSolver, type SectionState } from './solver.js';
import type { SectionWindow } from './window.js';

/**
 * The self-check of the mapped fields. A disagreement inside a mapped two- or three-phase field is re-solved
 * warm-started from that field's equilibrium (the triangle's, or the region's nearest tie-line's): when this gives
 * the map's phases at a lower Gibbs energy than the cold answer, the cold answer was metastable and the map stands.
 * `missed`: the answers of the disagreements left that hold two or three phases, each a seed of a field the map
 * missed (ternary/strategy.ts refines the map from them).
 */
export function checkSection(
  fields: SectionFields,
  solver: SectionSolver,
  window: SectionWindow,
  grid: TriangularGrid,
  stage?: (text: string) => void,
): { check: SelfCheckResult; missed: SectionState[] } {
  const checkPoints = upwardCellCentroids(grid.n, grid.lo, grid.span).filter((X) => window.contains(X));
  stage?.(`self-check: ${checkPoints.length} equilibria`);
  const answers = solver.batch(checkPoints, 0.9, 1);
  const check = selfCheck(
    fields,
    answers.map((e) => ({ ok: e.ok, X: e.X, labels: e.phases.map((p) => p.label) })),
  );
  const byX = new Map(answers.map((e) => [e.X, e]));
  check.disagreements = check.disagreements.filter((d) => {
    const undercut = mapUndercuts(fields, solver, d, byX.get(d.x));
    if (undercut) check.metastable_answers++;
    return !undercut;
  });
  const missed = check.disagreements
    .map((d) => byX.get(d.x))
    .filter((e): e is SectionState => !!e?.ok && e.phases.length >= 2);
  return { check, missed };
}

/** The field's own equilibrium, warm-started at the disagreeing point, lies lower than the cold answer there. */
function mapUndercuts(
  fields: SectionFields,
  solver: SectionSolver,
  d: SelfCheckDisagreement,
  cold: SectionState | undefined,
): boolean {
  if (!d.mapped.length || !cold?.raw) return false;
  const key = sortedBases(d.mapped);
  const start = fieldEquilibrium(fields, key, d.x);
  if (!start) return false;
  const warm = solver.solve(d.x, start);
  return warm.ok && sortedBases(warm.phases.map((p) => p.label)) === key && warm.raw!.GM < cold.raw.GM - GM_TOL;
}

/** The equilibrium of the mapped field of phases `key` at x: its triangle's, or its region's nearest tie-line's. */
function fieldEquilibrium(fields: SectionFields, key: string, x: Vec3): EquilibriumResult | undefined {
  const tri = fields.triangles.find(
    (t) => sortedBases(t.phases) === key && polygonDepth(toPlane(x), t.corners.map(toPlane)) > -INSIDE_TOL,
  );
  const start = tri ? fields.potentials.get(tri) : undefined;
  if (start) return start;
  const near = fields.regions
    .filter((r) => sortedBases(r.phases) === key)
    .flatMap((r) => r.tielines)
    .reduce<{ t: TernaryTieLine | null; d: number }>(
      (b, t) => {
        const dd = dist(mid(t.x[0], t.x[1]), x);
        return dd < b.d ? { t, d: dd } : b;
      },
      { t: null, d: Infinity },
    );
  return near.t ? fields.potentials.get(near.t) : undefined;
}
