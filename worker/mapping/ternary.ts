// Ternary isothermal-section mapping over the global point solver (worker/core/equilibrium.ts), a strategy of the
// mapping skeleton (core/skeleton.ts; ternary/strategy.ts).
//
// Method (formula sheet shared/design/calphad-formulas.md §8-§9 for the point equilibria): at fixed T and P a
// ternary two-phase field has one degree of freedom (Gibbs phase rule F = C - P = 1), so its tie-lines form a
// one-parameter family, and one global equilibrium at any overall composition inside the field returns one whole
// tie-line, i.e. both boundary points exactly. A three-phase field has none (F = 0): any composition inside gives
// the exact corners of its tie-triangle.
//  (a) seeds (ternary/seeds.ts): a triangular grid of global equilibria over the window (in chunks, so a cancel is
//      honoured within a second); a two-phase node seeds its region, a three-phase node its triangle; between
//      neighbouring single-phase nodes of different phases a bisection looks for a narrow two-phase field the grid
//      stepped over;
//  (b) continuation (ternary/trace.ts): from a tie-line, the overall composition moves along the tie-line's normal,
//      re-solved warm-started from the previous answer; the trace ends at a three-phase triangle, at a binary edge or
//      the window, at a critical point, or where the step falls below its minimum;
//  (c) every triangle edge that no traced region ends on seeds a trace away from the triangle; triangle corners
//      are refined by re-solving at the triangle's centroid until no corner moves by more than 1e-5
//      (ternary/fields.ts); twins and overlapping fields are resolved (ternary/overlaps.ts).
// Completeness self-check (as for binary diagrams, worker/mapping/audit.ts): point equilibria at the centroids of
// the seed grid's cells (no node shared with the seed grid) must each lie in a mapped region of the same phases
// (ternary/self-check.ts).
import { runMapping } from './core/skeleton.js';
import { TernarySectionStrategy, type TernaryMapRequest, type TernarySection } from './ternary/strategy.js';

export * from './ternary/geometry.js';
export type { TernaryMapRequest, TernarySection };

export function mapTernary(req: TernaryMapRequest): TernarySection {
  return runMapping(new TernarySectionStrategy(req));
}
