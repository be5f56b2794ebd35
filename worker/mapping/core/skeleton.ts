// The skeleton every phase-diagram mapper runs on: the stages of a map in one order, the primitives they are built
// from, and the strategy a diagram kind supplies. (The shape of pycalphad's mapping, pycalphad/mapping/strategy: one
// driver of the stages and a small strategy per diagram kind; written here from the method, not from its code.)
//
// A phase diagram is the set of boundaries between the fields of constant stable phase set over two axes, everything
// else fixed. Every kind finds them in the same stages (runMapping):
//  1. seed grid: a coarse grid of global equilibria over the window, evaluated in chunks over the threads so that a
//     cancel is seen between chunks (core/grid.ts: rectangular and triangular grids, their neighbours, solveChunked);
//  2. seeds: a node inside a field of two or more phases seeds it; between neighbouring nodes that differ, a search
//     along the segment finds the boundary (or the narrow field) the grid stepped over;
//  3. boundaries traced by continuation both ways from each seed that no traced boundary covers yet, until they end
//     on the window, at an invariant, at a critical point or back at the seed (core/continuation.ts traceBothWays;
//     core/zpf-line.ts and core/zpf-lines.ts for boundaries that are zero-phase-fraction lines in a plane);
//  4. regions closed: traces found twice dropped (core/continuation.ts dropTwins), fields that overlap resolved;
//  5. invariants: where the boundaries meet;
//  6. labels: one label per connected field of grid nodes of one phase set (core/grid.ts gridComponents), the phases
//     named by their state (core/labels.ts);
//  7. lines inside fields that bound none (second-order transitions, Curie lines);
//  8. self-check: point equilibria off the seed grid, solved on their own, must each lie in a mapped field of their
//     phases (core/self-check.ts);
//  9. the result.
// Every stage counts its equilibria, checks the cancel flag, keeps to the budget and logs what it could not do in
// one MapLedger (core/ledger.ts).
//
// What a diagram kind supplies is its strategy (a MapStrategy): its coordinates (the points of its seed grid, their
// neighbours, the condition set of a point), what "inside the window" means, its step rule (what one step along a
// boundary is and when it is accepted), its invariants and its result:
//  - binary T-x (binary-strategy.ts): a rectangular grid in (T, x), T the rows; a boundary pair is a tie-line family
//    stepped in T (F = 1 at fixed P: one equilibrium inside the field gives the whole tie-line), the step aiming at
//    0.015 in x (0.3 to 2 times the last, at most maxStep K), the traces run as coroutines whose point requests are
//    solved together over the threads (scheduler.ts); invariants from the region ends that meet at one T;
//  - ternary isothermal section (ternary/strategy.ts): a triangular grid over the window of the composition
//    triangle; a tie-line family stepped along the tie-line's normal (halved when refused, 1.5 times when taken);
//    tie-triangles, met by the traces, are its invariants; a self-check;
//  - isopleth (isopleth/strategy.ts): a map of zero-phase-fraction lines in a plane (core/zpf-map.ts), the plane
//    (s, T), s the parameter of a composition line; each phase's line followed along its tangent and located across
//    it (halved where it turns more than 25 degrees, 1.5 times where straight); invariants where lines of several
//    phases run together.
// Where two kinds do one thing their own way, the way is the kind's, named where it is passed, so that each keeps
// its numbers: the grid evaluation (binary: cold equilibria at a coarser sampling in BinarySolver.solveGrid; the
// others solveChunked, each chunk continuing from the last point); the order a label's search visits neighbours in
// (NeighbourSteps of a rectangular grid) and the node that anchors a label (nearest the field's centroid in grid
// units, or in composition, or the most interior node); which direction of a trace goes first (TraceOrder: the
// ternary backwards first, so a triangle met there is known to the forward half; the isopleth forwards first, a
// loop closing on its seed); which of two twins stays (the ternary's trace with more tie-lines, the isopleth's line
// with more points; the binary merges two traces of one region into one).
//
// The kinds still to come are strategies of that size on the same primitives: a pseudo-binary section between two
// compositions is the isopleth's strategy with the path between those two compositions; a potential diagram
// (activity or chemical-potential axes) is a ZpfMap whose PlaneAxes fix the potentials, in (mu, T) or (mu, mu), its
// boundaries the phases' zero-phase-fraction lines; a liquidus projection of a ternary takes the triangular grid of
// the section with the liquidus temperature solved at each node, its boundaries the lines where the primary phase
// changes, followed as zero-phase-fraction lines in the composition plane.

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
