// Binary (T-x) phase-diagram mapping over the global point solver (worker/core/equilibrium.ts).
//
// Method: at fixed T and P, a two-phase tie-line of a binary does not depend on the overall composition
// inside the two-phase field (Gibbs phase rule, F = C - P + 1 = 1 at fixed P: fixing T fixes both phase
// compositions). So one global equilibrium at any X inside the field returns both boundary compositions
// exactly, and a boundary is traced by continuation in T with X = the midpoint of the previous tie-line
// (the approach of Thermo-Calc's and pycalphad's mappers; Lukas, Fries and Sundman, Computational
// Thermodynamics, Cambridge 2007, ch. 8). The steps, each a module:
//  (a) seed-grid.ts: a coarse grid of global equilibria over the threads; every two-phase node seeds its
//      region; between neighbouring single-phase nodes of different phases a bisection finds the
//      (narrow) two-phase field in between, or, for the two states of one ordered phase, a point of a
//      second-order transition;
//  (b) tracing.ts / region-ends.ts: continuation in T with adaptive step; the end of a region is located
//      by bisection on T to 0.01 K and classified; scheduler.ts decides which seeds are traced (with the
//      phases beyond every end, probes around invariants and the lenses next to pure elements) and
//      solves the requests of several traces together;
//  (c) invariants.ts: invariants assembled from the region ends that meet at one temperature, critical
//      and congruent points, pure-element transitions;
//  (d) order-disorder.ts: the disordered state of an ordered phase labelled by its own name and the
//      second-order lines followed in x; phase-labels.ts: labels and the single-phase label anchors.
// The binary is a strategy of the mapping skeleton (core/skeleton.ts): binary-strategy.ts runs the steps as its
// stages.
import { BinaryStrategy } from './binary-strategy.js';
import type { BinaryDiagram, BinaryMapRequest } from './binary-types.js';
import { runMapping } from './core/skeleton.js';

export type {
  BinaryDiagram,
  BinaryMapRequest,
  BinaryRegion,
  MapControl,
  OrderDisorderOptions,
} from './binary-types.js';
export { classifyInvariant, cutAt } from './invariants.js';

export function mapBinary(req: BinaryMapRequest): BinaryDiagram {
  return runMapping(new BinaryStrategy(req));
}
