// Seeds of a binary diagram: a coarse grid of global equilibria over T and x (solved over the threads
// with a coarser sampling), every two-phase node a seed of its region, and between neighbouring
// single-phase nodes of different phases a bisection for the (narrow) two-phase field in between, or,
// for the two states of one ordered phase, the located point of a second-order transition.
import { baseName } from '../../contract/phases.js';
import { solveRequest } from './binary-solver.js';
import type { MapContext } from './binary-context.js';
import { BudgetExceeded } from './core/ledger.js';
import { MIN_STEP, type BinaryState, type SecondOrderPoint, type StateRequest } from './binary-types.js';
import type { OrderModel } from './order-disorder.js';

/** Grid axes: about one row per 125 K (at least 8, at most 40) and 21 columns unless given. */
export function gridAxes(
  T: [number, number],
  Xr: [number, number],
  size?: { nT?: number; nX?: number },
): { T: number[]; X: number[] } {
  const [Tlo, Thi] = T;
  const nT = Math.max(3, size?.nT ?? Math.min(40, Math.max(8, Math.ceil((Thi - Tlo) / 125) + 1)));
  const nX = Math.max(3, size?.nX ?? 21);
  return {
    T: Array.from({ length: nT }, (_, i) => Tlo + ((Thi - Tlo) * i) / (nT - 1)),
    X: Array.from({ length: nX }, (_, j) => Xr[0] + ((Xr[1] - Xr[0]) * j) / (nX - 1)),
  };
}

/**
 * A two-phase state that seeds a field: its two sets lie at two compositions (a binary field at fixed T and P
 * is bounded by two: Gibbs phase rule). Two phases whose Gibbs energies coincide split one state in any
 * ratio at one composition (fcc and the disordered state of an L1_2 phase without a disordered part, Al-Cr
 * of issue43.tdb): no field to trace.
 */
export function isField(s: BinaryState): boolean {
  return s.ok && s.phases.length === 2 && Math.abs(s.phases[1].x - s.phases[0].x) >= ONE_COMPOSITION;
}
const ONE_COMPOSITION = 1e-9;

/** What the bisection between two single-phase states found. */
export interface BetweenFindings {
  twoPhase: BinaryState[];
  secondOrder: SecondOrderPoint[];
}

/** A coroutine of point requests (the state of each is sent back), run side by side with others (runTogether). */
type Search = Generator<StateRequest, void, BinaryState>;

/**
 * Bisection along the segment a-b (same T or same X) between single-phase states of different phases:
 * a two-phase state met on the way is a seed; a third single phase splits the segment; no two-phase
 * state down to MIN_STEP in T and 1e-7 in x between the ordered and the disordered state of one phase
 * is a continuous (second-order) transition. A state the solver cannot converge ends the search.
 */
export function* bisectBetween(
  order: Pick<OrderModel, 'isOrderPair' | 'isOrdered'>,
  a: BinaryState,
  b: BinaryState,
  found: BetweenFindings,
): Search {
  let lo = a,
    hi = b;
  for (let k = 0; k < 30; k++) {
    const T = (lo.T + hi.T) / 2,
      X = (lo.X + hi.X) / 2;
    if (Math.abs(hi.T - lo.T) < MIN_STEP && Math.abs(hi.X - lo.X) < 1e-7) break;
    const m = yield* solveRequest(T, X);
    if (!m.ok) return;
    if (m.phases.length >= 2) {
      if (isField(m)) found.twoPhase.push(m);
      return;
    }
    if (m.key === lo.key) lo = m;
    else if (m.key === hi.key) hi = m;
    else {
      yield* bisectBetween(order, lo, m, found);
      yield* bisectBetween(order, m, hi, found);
      return;
    }
  }
  if (order.isOrderPair(lo.key, hi.key)) {
    const ord = order.isOrdered(lo.key) ? lo.key : hi.key;
    found.secondOrder.push({
      ordered: ord,
      disordered: ord === lo.key ? hi.key : lo.key,
      T: (lo.T + hi.T) / 2,
      x: (lo.X + hi.X) / 2,
    });
  }
}

/** The phase a state has on its side towards larger x (`side` 1) or smaller x (0): its last or first phase by x. */
const sidePhase = (s: BinaryState, side: 0 | 1) => s.phases[side ? s.phases.length - 1 : 0];

/**
 * Two labels name one phase whatever their composition-set numbers: the Fe-rich set of a miscibility gap is
 * NAME#2 (sets are numbered by composition), and the single-phase field it ends in is NAME.
 */
const onePhase = (p: { label: string }, q: { label: string }) => baseName(p.label) === baseName(q.label);

/**
 * Between X-neighbours a (smaller x) and b at one T of which at least one is two-phase: a's phase towards b
 * and b's phase towards a must be the same phase for nothing to lie between them (a two-phase field ends in
 * the single-phase field of its own phase, Gibbs phase rule at fixed T and P). When they differ, the
 * composition interval between those two phases' compositions holds at least one more field, which a grid
 * of 0.05 in x steps over (narrow compounds: Al-Cu eta, epsilon and zeta lie within 0.05). The interval is
 * halved until every neighbouring pair agrees; each two-phase state met is a seed.
 */
export function* searchBetweenUnlike(
  a: BinaryState,
  b: BinaryState,
  found: BetweenFindings,
  depth = 0,
  order?: Pick<OrderModel, 'isOrderPair' | 'isOrdered'>,
): Search {
  const right = sidePhase(a, 1),
    left = sidePhase(b, 0);
  if (onePhase(right, left) || depth > 12) return;
  // the single-phase ranges of the two states of one ordered phase meet on a second-order line (the L10 band of
  // Ni-rich fcc between L12 + L10 and A1 in alni_tough_chempot, 0.001-0.003 wide, between two grid columns)
  if (order && a.phases.length === 1 && b.phases.length === 1 && order.isOrderPair(a.key, b.key)) {
    yield* bisectBetween(order, a, b, found);
    return;
  }
  const lo = Math.max(a.X, right.x),
    hi = Math.min(b.X, left.x);
  if (!(hi - lo > 1e-5)) return;
  const m = yield* solveRequest(a.T, (lo + hi) / 2);
  if (!m.ok || m.phases.length > 2) return;
  if (isField(m) && m.key !== a.key && m.key !== b.key) found.twoPhase.push(m);
  if (m.key !== a.key) yield* searchBetweenUnlike(a, m, found, depth + 1, order);
  if (m.key !== b.key) yield* searchBetweenUnlike(m, b, found, depth + 1, order);
}

/**
 * The searches between one grid node and its right and upper neighbours: between X-neighbours of which one is
 * two-phase, searchBetweenUnlike; between unlike single-phase neighbours, bisectBetween. The grid used the
 * coarser sampling, so both ends are re-solved (full sampling) before they are compared.
 */
function* searchesAt(
  order: OrderModel,
  a: BinaryState,
  right: BinaryState | null,
  up: BinaryState | null,
  found: BetweenFindings,
): Search {
  if (
    right?.ok &&
    right.key !== a.key &&
    (a.phases.length === 2 || right.phases.length === 2) &&
    a.phases.length <= 2 &&
    right.phases.length <= 2 &&
    !onePhase(sidePhase(a, 1), sidePhase(right, 0))
  ) {
    const a2 = yield* solveRequest(a.T, a.X),
      b2 = yield* solveRequest(right.T, right.X);
    if (a2.ok && b2.ok && a2.phases.length <= 2 && b2.phases.length <= 2)
      yield* searchBetweenUnlike(a2, b2, found, 0, order);
  }
  if (a.phases.length !== 1) return;
  for (const b of [right, up])
    if (b && b.ok && b.phases.length === 1 && b.key !== a.key) yield* bisectResolved(order, a, b, found);
}

/**
 * The seeds of the grid (row-major, nT rows of nX nodes): its two-phase nodes, then what the searches between
 * unlike neighbours (right and upper neighbour of each node) find, in the order of the nodes. The searches are
 * independent: they run side by side, their requests solved together over the threads (a point is solved cold,
 * so each search finds what it would find alone). A used-up budget ends the seeding with a log line.
 */
export function seedsFromGrid(ctx: MapContext, grid: readonly BinaryState[], nT: number, nX: number): BetweenFindings {
  const node = (i: number, j: number) => grid[i * nX + j];
  const perNode: BetweenFindings[] = [];
  const searches: Search[] = [];
  for (let i = 0; i < nT; i++)
    for (let j = 0; j < nX; j++) {
      const a = node(i, j);
      if (!a.ok) continue;
      const f: BetweenFindings = { twoPhase: [], secondOrder: [] };
      perNode.push(f);
      searches.push(
        searchesAt(ctx.order, a, j + 1 < nX ? node(i, j + 1) : null, i + 1 < nT ? node(i + 1, j) : null, f),
      );
    }
  try {
    ctx.solver.runTogether(searches);
  } catch (e) {
    if (!(e instanceof BudgetExceeded)) throw e;
    ctx.log(`equilibrium budget of ${ctx.solver.budget} used up while seeding; the diagram is incomplete`);
  }
  return {
    twoPhase: [...grid.filter(isField), ...perNode.flatMap((f) => f.twoPhase)],
    secondOrder: perNode.flatMap((f) => f.secondOrder),
  };
}

/** Points of an edge line of the diagram per interval between two grid nodes on it (edgeLines). */
export const EDGE_REFINEMENT = 8;

/** The points of the diagram's edges between the grid's nodes on them: the T edges always, an x edge inside (0, 1). */
export function edgePoints(axes: { T: number[]; X: number[] }, Xr: [number, number]): StateRequest[] {
  const between = (v: number[]) =>
    v
      .slice(1)
      .flatMap((b, i) =>
        Array.from({ length: EDGE_REFINEMENT - 1 }, (_, k) => v[i]! + ((b - v[i]!) * (k + 1)) / EDGE_REFINEMENT),
      );
  const Ts = [axes.T[0]!, axes.T[axes.T.length - 1]!];
  const Xs = [Xr[0] > 0 ? Xr[0] : null, Xr[1] < 1 ? Xr[1] : null].filter((x): x is number => x !== null);
  return [
    ...Ts.flatMap((T) => between(axes.X).map((X) => ({ T, X }))),
    ...Xs.flatMap((X) => between(axes.T).map((T) => ({ T, X }))),
  ];
}

/**
 * The seeds on the diagram's edges. A field that crosses an edge of the diagram between two grid nodes of one phase
 * is seen by no grid row or column and by no search between unlike nodes: the Ni-rich FCC + FCC#2 gap of Cr-Ni (MF
 * Steel) from 500 K, x(Ni) 0.958-0.994, up to its critical point at 582 K lies between the grid columns at 0.95 and
 * 1 and below the second grid row. Along each edge line (its grid nodes and the `edge` states between them, solved
 * with the grid's sampling) every two-phase state is a seed, and between unlike single-phase neighbours the field in
 * between is bisected for. Inside the diagram a field is reached from the edges or from the fields next to it.
 */
export function seedsOnEdges(
  ctx: MapContext,
  grid: readonly BinaryState[],
  axes: { T: number[]; X: number[] },
  edge: readonly BinaryState[],
): BetweenFindings {
  const onLine = (keep: (s: BinaryState) => boolean, along: (s: BinaryState) => number) =>
    [...grid.filter(keep), ...edge.filter(keep)].sort((a, b) => along(a) - along(b));
  const Tlo = axes.T[0]!,
    Thi = axes.T[axes.T.length - 1]!;
  const lines = [
    onLine(
      (s) => s.T === Tlo,
      (s) => s.X,
    ),
    onLine(
      (s) => s.T === Thi,
      (s) => s.X,
    ),
    ...[ctx.Xr[0], ctx.Xr[1]]
      .filter((x) => x > 0 && x < 1)
      .map((x) =>
        onLine(
          (s) => s.X === x,
          (s) => s.T,
        ),
      ),
  ];
  const found: BetweenFindings = { twoPhase: edge.filter(isField), secondOrder: [] };
  const searches: Search[] = [];
  for (const line of lines)
    for (let k = 0; k + 1 < line.length; k++) {
      const a = line[k]!,
        b = line[k + 1]!;
      if (a.ok && b.ok && a.phases.length === 1 && b.phases.length === 1 && a.key !== b.key)
        searches.push(bisectResolved(ctx.order, a, b, found));
    }
  try {
    ctx.solver.runTogether(searches);
  } catch (e) {
    if (!(e instanceof BudgetExceeded)) throw e;
    ctx.log(`equilibrium budget of ${ctx.solver.budget} used up while seeding the edges; the diagram is incomplete`);
  }
  return found;
}

/** bisectBetween of two grid-sampled states, both re-solved with the full sampling first. */
function* bisectResolved(order: OrderModel, a: BinaryState, b: BinaryState, found: BetweenFindings): Search {
  const a2 = yield* solveRequest(a.T, a.X),
    b2 = yield* solveRequest(b.T, b.X);
  if (!a2.ok || !b2.ok) return;
  if (isField(a2)) found.twoPhase.push(a2);
  if (isField(b2)) found.twoPhase.push(b2);
  if (a2.phases.length === 1 && b2.phases.length === 1 && a2.key !== b2.key) yield* bisectBetween(order, a2, b2, found);
}
