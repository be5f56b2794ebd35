// Locating a narrow two-phase field of a binary at fixed T and P by searching in composition.
//
// At fixed T and P a binary two-phase field is an interval of overall composition bounded by the two
// phases' compositions (Gibbs phase rule, F = C - P + 1 = 1 at fixed P: T fixes both), with one phase on
// each side of it. So from a single-phase state the field of that phase with a neighbour lies on one known
// side; marching from it in growing steps finds either a state inside the field or a state of another
// phase beyond it, and bisection between two single-phase states of different phases then lands inside
// the field between them, however narrow (a lens next to a pure element can be 1e-6 wide, a liquidus that
// runs almost level moves its field by 0.03 in x within 0.1 K). These helpers are generators that yield
// the composition to solve at and receive the state, so the mapper's scheduler can batch them
// (worker/mapping/binary.ts); runSync drives one with a plain solve function.

/** What the search needs of an equilibrium: converged, its phases (ordered by x) and their label key. */
export interface FieldState {
  ok: boolean;
  X: number;
  key: string;
  phases: readonly { x: number; label: string }[];
}

export type SolveAt<S, R = unknown> = (X: number) => Generator<R, S, S>;

/**
 * Bisection in X (fixed T) between single-phase states a and b of different phases: the first
 * two-phase state met, or null when none is found before the bracket is narrower than xTol (a
 * continuous transition between them, or a state the solver could not converge).
 */
export function* bisectForTwoPhase<S extends FieldState, R>(
  solveAt: SolveAt<S, R>,
  a: S,
  b: S,
  xTol = 1e-8,
  maxSteps = 40,
): Generator<R, S | null, S> {
  let lo = a,
    hi = b;
  for (let k = 0; k < maxSteps && Math.abs(hi.X - lo.X) > xTol; k++) {
    const m = yield* solveAt((lo.X + hi.X) / 2);
    if (!m.ok) return null;
    if (m.phases.length === 2) return m;
    if (m.phases.length !== 1) return null;
    if (m.key === lo.key) lo = m;
    else if (m.key === hi.key) hi = m;
    else {
      // a third single phase in between: the field next to the starting state comes first
      hi = m;
    }
  }
  return null;
}

export interface MarchOptions {
  /** the composition not to go past (inclusive: it is solved last) */
  limit: number;
  /** first step from the start, > 0 */
  firstStep: number;
  /** step growth per march point (default 2) */
  growth?: number;
  xTol?: number;
}

/**
 * From the single-phase state `from`, march towards `limit` in steps growing geometrically until the state
 * changes: a two-phase state of the starting phase is returned as it is, a single phase of another phase is
 * bisected against the last state of the starting phase, and so is a two-phase state beyond another phase
 * (stepOver). Null when the march reaches the limit in the starting phase (no field within reach) or the
 * solver fails.
 */
export function* marchToField<S extends FieldState, R>(
  solveAt: SolveAt<S, R>,
  from: S,
  o: MarchOptions,
): Generator<R, S | null, S> {
  const dir = Math.sign(o.limit - from.X);
  if (!dir || !from.ok || from.phases.length !== 1) return null;
  const growth = o.growth ?? 2;
  let prev = from;
  let step = o.firstStep;
  for (let k = 0; k < 200; k++) {
    let X = from.X + dir * step;
    const last = (X - o.limit) * dir >= 0;
    if (last) X = o.limit;
    const s = yield* solveAt(X);
    if (s.ok) {
      if (s.phases.length === 2)
        return nextTo(s, from, dir) ? s : yield* stepOver(solveAt, prev, s, (m) => nextTo(m, from, dir), o.xTol);
      if (s.phases.length === 1 && s.key !== from.key) return yield* bisectForTwoPhase(solveAt, prev, s, o.xTol);
      if (s.phases.length === 1) prev = s;
    }
    if (last) return null;
    step *= growth;
  }
  return null;
}

/** A two-phase state whose phase on the side of `from` (dir: the march's direction in x) is the phase of `from`. */
function nextTo(s: FieldState, from: FieldState, dir: number): boolean {
  return s.phases[dir > 0 ? 0 : 1].label === from.phases[0].label;
}

/**
 * A step of the march that went across the field next to the starting phase and the single-phase range of its
 * neighbour, into a field of that neighbour with a third phase (Cu-V of mc_fe at 1357.80 K: from liquid at x(V)
 * 0.00025, the first step of 1e-3 lands in fcc + hcp beyond the liquid + fcc lens, 3e-5 wide, and the fcc range,
 * 1.4e-4 wide): bisection between the last state of the starting phase (`lo`) and the state beyond (`hi`) for
 * the field next to it (`adjacent`), or the neighbour's own range, from which bisectForTwoPhase goes on.
 */
function* stepOver<S extends FieldState, R>(
  solveAt: SolveAt<S, R>,
  lo: S,
  hi: S,
  adjacent: (s: S) => boolean,
  xTol = 1e-8,
  maxSteps = 40,
): Generator<R, S | null, S> {
  for (let k = 0; k < maxSteps && Math.abs(hi.X - lo.X) > xTol; k++) {
    const m = yield* solveAt((lo.X + hi.X) / 2);
    if (!m.ok || m.phases.length > 2) return null;
    if (m.phases.length === 2) {
      if (adjacent(m)) return m;
      hi = m;
    } else if (m.key === lo.key) lo = m;
    else return yield* bisectForTwoPhase(solveAt, lo, m, xTol);
  }
  return null;
}

/** Runs one of the generators above with a synchronous solve. */
export function runSync<S, R, Q>(gen: Generator<Q, R, S>, solve: (req: Q) => S): R {
  let r = gen.next(undefined as unknown as S);
  while (!r.done) r = gen.next(solve(r.value));
  return r.value;
}
