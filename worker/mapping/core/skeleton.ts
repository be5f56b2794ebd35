// The skeleton every phase-diagram mapper runs on: the stages of a map in one order, the primitives they are built
// from, and the strategy a diagram kind supplies. (The shape of pycalphad's mapping, pycalphad/mapping/strategy: one
// driver of the stages and a small strategy per diagram kind; written here from the method, not from its code.)
//
// A phase diagram is the set of boundaries between the fields of constant stable phase set over two axes, everything
// else fixed. Every kind finds them in the same stages (runMapping):
//  1. seed grid: a coarse grid of global equilibria over the window, evaluated in chunks over the threads so that a
//     cancel is seen between chunks (core/grid.ts: rectangular and triangular grids, neighbours, solveChunked);
//  2. seeds: a node inside a field of two or more phases seeds it; between neighbouring nodes that differ, a search
//     along the segment finds the boundary (or the narrow field) the grid stepped over;
//  3. boundaries traced by continuation both ways from each seed that no traced boundary covers yet, until they end
//     on the window, at an invariant, at a critical point or back at the seed (core/continuation.ts traceBothWays,
//     and core/zpf-line.ts for a boundary that is a zero-phase-fraction line in a plane);
//  4. regions closed: traces found twice dropped (core/continuation.ts dropTwins), ends joined where they meet,
//     fields that overlap resolved;
//  5. invariants: where the boundaries meet (region ends at one temperature, tie-triangles, lines that run together);
//  6. labels: one label per connected field of grid nodes of one phase set (core/grid.ts gridComponents), the phases
//     named by their state (core/labels.ts);
//  7. lines inside fields that bound none (second-order transitions, Curie lines);
//  8. self-check: point equilibria off the seed grid, solved on their own, must each lie in a mapped field of their
//     phases (core/self-check.ts);
//  9. the result.
// Every stage counts its equilibria, checks the cancel flag, keeps to the budget and logs what it could not do in
// one MapLedger (core/ledger.ts).
//
// What a diagram kind supplies is its strategy (MapStrategy below): its coordinates (the points of its seed grid,
// their neighbours, and the condition set of a point), what "inside the window" means, its step rule (what one step
// along a boundary is and when a step is accepted), what its invariants are, and how its result is assembled:
//  - binary T-x (binary.ts): a rectangular grid in (T, x); a boundary pair is a tie-line family stepped in T (F = 1 at
//    fixed P: one equilibrium inside the field gives the whole tie-line); invariants from region ends at one T;
//  - ternary isothermal section (ternary.ts): a triangular grid over the window of the composition triangle; a
//    tie-line family stepped along the tie-line's normal; tie-triangles are its invariants; a self-check;
//  - isopleth (isopleth/trace.ts): a rectangular grid in (s, T) along a composition line; each phase's
//    zero-phase-fraction line followed along its tangent and located across it; invariants where lines run together.
// The kinds still to come are strategies of that size on the same primitives: a pseudo-binary section between two
// compositions is the isopleth's strategy with the path between those two compositions and its ends as the axis'
// components; a potential diagram (activity or chemical-potential axes) is a rectangular grid in (mu, T) or (mu, mu)
// whose condition set fixes potentials, its boundaries zero-phase-fraction lines (core/zpf-line.ts) of the phases;
// a liquidus projection of a ternary is the triangular grid of the section with the liquidus temperature solved at
// each node, its boundaries the lines where the primary phase changes, followed as zero-phase-fraction lines in the
// composition plane.

/** The condition set of a point of a diagram's coordinates and the window it is mapped in. */
export interface DiagramCoordinates<P, C> {
  conditions(p: P): C;
  inWindow(p: P): boolean;
}

/** The stages of one map of one diagram kind, run in this order by runMapping. */
export interface MapStrategy<Grid, Result> {
  /** 1. the seed grid over the window, evaluated */
  seedGrid(): Grid;
  /** 2-3. seeds found on and between the grid's nodes, their boundaries traced */
  traceBoundaries(grid: Grid): void;
  /** 4. traces found twice dropped, regions closed where their traces end, overlaps resolved */
  closeRegions(grid: Grid): void;
  /** 5. the invariants from where the boundaries meet (none here where the traces meet them as they go) */
  findInvariants?(grid: Grid): void;
  /** 6. labels of the fields */
  labelFields(grid: Grid): void;
  /** 7. lines inside fields that bound none */
  followFieldLines?(grid: Grid): void;
  /** 8. the self-check against independent point equilibria */
  selfCheck?(grid: Grid): void;
  /** 9. the result */
  assemble(grid: Grid): Result;
}

/** Runs the stages of a map. */
export function runMapping<Grid, Result>(strategy: MapStrategy<Grid, Result>): Result {
  const grid = strategy.seedGrid();
  strategy.traceBoundaries(grid);
  strategy.closeRegions(grid);
  strategy.findInvariants?.(grid);
  strategy.labelFields(grid);
  strategy.followFieldLines?.(grid);
  strategy.selfCheck?.(grid);
  return strategy.assemble(grid);
}
