// Location of a phase-set change along a segment of conditions, for any mapper (binary, ternary section,
// isopleth): the segment is parametrised by t in [0, 1] (e.g. a grid edge in composition or temperature)
// and the caller's solveAt(t) gives the equilibrium state there with its phase-set key. The function is a
// generator yielding the caller's requests (so a scheduler can batch them); runSync (field_search.ts)
// drives it with a plain solve.

/** What the search needs of a state: converged or not, and a key naming its stable phase set. */
export interface KeyedState {
  ok: boolean;
  key: string;
}

export interface SetChange<S> {
  /** the last state with the start's phase set, at t = lo */
  lo: { t: number; state: S };
  /** the first state with another phase set, at t = hi (hi - lo <= tol) */
  hi: { t: number; state: S };
}

/**
 * Bisection of the phase-set change between the states at t = 0 (`a`) and t = 1 (`b`, of another phase
 * set) down to `tol` in t. Where a third set lies between, the change nearest the start is located.
 * Null when a state inside does not converge (nothing is guessed).
 */
export function* bisectSetChange<S extends KeyedState, R>(
  solveAt: (t: number) => Generator<R, S, S>,
  a: S,
  b: S,
  tol = 1e-6,
): Generator<R, SetChange<S> | null, S> {
  if (!a.ok || !b.ok || a.key === b.key) return null;
  let lo = { t: 0, state: a },
    hi = { t: 1, state: b };
  while (hi.t - lo.t > tol) {
    const t = (lo.t + hi.t) / 2;
    const m = yield* solveAt(t);
    if (!m.ok) return null;
    if (m.key === a.key) lo = { t, state: m };
    else hi = { t, state: m };
  }
  return { lo, hi };
}
