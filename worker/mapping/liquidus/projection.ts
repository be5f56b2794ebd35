// The liquidus projection of a ternary system (or of a ternary section of a multicomponent alloy): the liquidus
// temperature and primary phase at every node of a triangular grid (search.ts), each valley's crossing of every edge
// whose ends differ in their primary phase (valley.ts), the invariant point inside every cell where three valleys meet
// (junction.ts; a cell where the valleys do not simply cross is split, refine.ts), and the valleys as lines through
// their crossings (valley-lines.ts). Every state is a converged global
// equilibrium of the liquid alone just above the liquidus; nothing is interpolated but the lines between them.
import type { ChunkedSolver } from '../../scans/chunked-solver.js';
import type { InvariantPoint } from './junction.js';
import { runLockstep, type Search } from './lockstep.js';
import { liquidusSearch, type LiquidusState } from './search.js';
import type { TriangleGrid } from './triangle-grid.js';
import { valleysOnEdge, type ValleyCrossing } from './valley.js';
import { planCell, refineCell, type CellCorner, type CellPlan, type RefineContext } from './refine.js';
import { cellCrossings, chain, type CellCrossing, type ValleyLine } from './valley-lines.js';

/** K above the highest neighbouring liquidus where a node's search starts, and its first step up from a state with a
 * solid (the neighbours' liquidus is close, so a small margin saves the Newton steps down from far above) */
const NEIGHBOUR_MARGIN = 3,
  NEIGHBOUR_STEP_UP = 5;

export interface LiquidusProjectionMap {
  grid: TriangleGrid;
  /** per grid node: its liquidus state, null where the search failed */
  nodes: (LiquidusState | null)[];
  valleys: ValleyLine[];
  /** per grid cell: the valleys' crossings on its edges */
  cells: CellCrossing[][];
  invariants: InvariantPoint[];
  /** places where valleys meet but no point was located (a field too small for the finest split, a failed search) */
  unlocated: [number, number][];
  equilibria: number;
  /** equilibria spent on the nodes, the valleys' crossings and the invariant points */
  stages: { nodes: number; valleys: number; invariants: number };
}

type Solver = Pick<ChunkedSolver, 'solve' | 'count'>;

/** Strides of the passes over the grid's nodes: every 4th node in both directions first, then every 2nd, then all. */
const NODE_STRIDES = [4, 2, 1];

/**
 * Liquidus states of every node, in passes of falling stride: the first pass's searches start at T0, each later
 * node's a little above the highest liquidus of the nodes of earlier passes around it (within one stride of theirs).
 */
function nodeStates(grid: TriangleGrid, P: number, T0: number, solver: Solver): (LiquidusState | null)[] {
  const ij = grid.nodes.map(([b, c]) => [Math.round(b * grid.n), Math.round(c * grid.n)] as const);
  const states: (LiquidusState | null)[] = new Array(grid.nodes.length).fill(null);
  const done = new Set<number>();
  const ids = [...grid.nodes.keys()];
  NODE_STRIDES.forEach((stride, level) => {
    const which = ids.filter((k) => !done.has(k) && ij[k]![0] % stride === 0 && ij[k]![1] % stride === 0);
    const start = (k: number) => {
      const [i, j] = ij[k]!;
      const near = [...done].filter(
        (m) => states[m] && Math.abs(ij[m]![0] - i) <= stride && Math.abs(ij[m]![1] - j) <= stride,
      );
      return near.length ? Math.max(...near.map((m) => states[m]!.T)) + NEIGHBOUR_MARGIN : T0;
    };
    const starts = which.map(start);
    const span: [number, number] = [0.15 * level, 0.15 * (level + 1)];
    const found = runLockstep(
      which.map((k, n) =>
        liquidusSearch(grid.X(...grid.nodes[k]!), P, starts[n]!, level ? NEIGHBOUR_STEP_UP : undefined),
      ),
      solver,
      span,
    );
    which.forEach((k, n) => {
      states[k] = found[n]!;
      done.add(k);
    });
  });
  return states;
}

/** The valleys' crossings of every edge whose ends' primary phases differ. */
function edgeCrossings(grid: TriangleGrid, P: number, nodes: (LiquidusState | null)[], solver: Solver) {
  const edges = grid.edges.filter((e) => {
    const a = nodes[e.p],
      b = nodes[e.q];
    return a && b && a.primary !== b.primary;
  });
  const found = runLockstep(
    edges.map((e) => valleysOnEdge({ at: (s) => grid.X(...grid.along(e, s)), P }, [0, 1], nodes[e.p]!, nodes[e.q]!)),
    solver,
    [0.45, 0.75],
  );
  return new Map<string, ValleyCrossing[]>(edges.map((e, k) => [e.key, found[k]!]));
}

export function mapLiquidusProjection(
  grid: TriangleGrid,
  P: number,
  T0: number,
  solver: Solver,
): LiquidusProjectionMap {
  const nodes = nodeStates(grid, P, T0, solver);
  const afterNodes = solver.count;
  const crossings = edgeCrossings(grid, P, nodes, solver);
  const afterValleys = solver.count;
  const ctx: RefineContext = { at: (b, c) => grid.X(b, c), P };
  const cells = grid.cells.map((c) => cellCrossings(grid, c, crossings));
  const searches: Search<CellPlan | undefined>[] = grid.cells.map((cell, k) =>
    cellPlan(ctx, grid, cell, cells[k]!, nodes, k),
  );
  const plans = runLockstep(searches, solver, [0.75, 0.95]);
  const pieces = plans.flatMap((p) => p?.pieces ?? []);
  return {
    grid,
    nodes,
    valleys: chain(pieces),
    cells,
    invariants: plans.flatMap((p) => p?.invariants ?? []),
    unlocated: plans.flatMap((p) => p?.unlocated ?? []),
    equilibria: solver.count,
    stages: { nodes: afterNodes, valleys: afterValleys - afterNodes, invariants: solver.count - afterValleys },
  };
}

/** One grid cell: planned as it is, or split when complex (and its corners have a liquidus). */
function* cellPlan(
  ctx: RefineContext,
  grid: TriangleGrid,
  cell: TriangleGrid['cells'][number],
  cs: CellCrossing[],
  nodes: (LiquidusState | null)[],
  k: number,
): Search<CellPlan | undefined> {
  const plan = yield* planCell(ctx, cs, String(k));
  if (plan) return plan;
  const corners = cell.nodes.map((n) => ({ bc: grid.nodes[n]!, state: nodes[n] }));
  if (corners.some((c) => !c.state)) return undefined;
  const sides = cell.edges.map((e) => cs.filter((c) => c.key.startsWith(`${e}:`)));
  return yield* refineCell(
    ctx,
    corners as [CellCorner, CellCorner, CellCorner],
    sides as [CellCrossing[], CellCrossing[], CellCrossing[]],
    String(k),
  );
}
