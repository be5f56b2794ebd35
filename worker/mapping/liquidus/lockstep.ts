// Many small iterative searches (a liquidus at one composition, a valley on one grid edge, an invariant point in one
// grid cell) run side by side: each search is a generator that yields the conditions of the equilibrium it needs next
// and receives the result; every round gathers one request of each unfinished search into one batch of the solver,
// so the searches share its OpenMP threads (and the batch's warm starts between neighbouring conditions), where one
// search alone would solve its equilibria one at a time.
import type { EquilibriumConditions, EquilibriumResult } from '../../core/equilibrium.js';
import type { ChunkedSolver } from '../../scans/chunked-solver.js';

/** A search: yields conditions, is resumed with their equilibrium, returns its answer. */
export type Search<R> = Generator<EquilibriumConditions, R, EquilibriumResult>;

/**
 * Runs every search to its end; answers in the order of `searches`. Progress moves from `from` towards `to`, half of
 * what is left in each round (the number of rounds is not known in advance).
 */
export function runLockstep<R>(
  searches: Search<R>[],
  solver: Pick<ChunkedSolver, 'solve'>,
  [from, to]: [number, number],
): R[] {
  const answers = new Array<R>(searches.length);
  let pending: { k: number; conditions: EquilibriumConditions }[] = [];
  const advance = (k: number, r: EquilibriumResult | undefined, next: typeof pending) => {
    const step = r === undefined ? searches[k]!.next() : searches[k]!.next(r);
    if (step.done) answers[k] = step.value;
    else next.push({ k, conditions: step.value });
  };
  searches.forEach((_, k) => advance(k, undefined, pending));
  let p = from;
  while (pending.length > 0) {
    const round = pending;
    const next: typeof pending = [];
    const q = p + 0.5 * (to - p);
    solver.solve(
      round.length,
      (i) => round[i]!.conditions,
      (i, r) => advance(round[i]!.k, r, next),
      p,
      q,
    );
    p = q;
    pending = next;
  }
  return answers;
}
