// Transitions of a pure element (melting, allotropic) located on a composition edge of a binary diagram.
//
// Every first-order transition of a pure element starts a two-phase field of the binary (a lens whose
// width goes to 0 at the element: the solute's dilute-solution limit, van 't Hoff), so each transition
// found along the edge in T is a place to look for a field that the seed grid is too coarse to see
// (e.g. delta + gamma next to pure Fe between 1667 K and the peritectic at 1768 K in C-Fe). The edge
// states are equilibria at a composition 1e-10 from the element; a solute-poor solvus can put a
// second phase there with a vanishing amount, so a state's phase at the edge is the one with the
// largest amount.

export interface EdgeState {
  ok: boolean;
  T: number;
  phases: readonly { label: string; NP: number }[];
}

/** The phase holding the element at the edge: the one with the largest amount (null: not converged). */
export function edgePhase(s: EdgeState): string | null {
  if (!s.ok || !s.phases.length) return null;
  let best = s.phases[0];
  for (const p of s.phases) if (p.NP > best.NP) best = p;
  return best.label;
}

/** Neighbouring edge states (sorted by T here) whose edge phases differ: [below, above]. */
export function edgeBrackets<S extends EdgeState>(states: readonly S[]): [S, S][] {
  const sorted = [...states].filter((s) => edgePhase(s) !== null).sort((a, b) => a.T - b.T);
  const out: [S, S][] = [];
  for (let i = 0; i + 1 < sorted.length; i++)
    if (edgePhase(sorted[i]) !== edgePhase(sorted[i + 1])) out.push([sorted[i], sorted[i + 1]]);
  return out;
}

/**
 * Narrows a bracket [lo, hi] of differing edge phases by bisection in T until each transition inside is
 * bracketed to tolT; a third phase met inside splits the bracket in two. A state the solver cannot
 * converge stops the narrowing of that bracket (it is returned as it is).
 */
export function* narrowEdgeBracket<S extends EdgeState, R>(
  solveT: (T: number) => Generator<R, S, S>,
  lo: S,
  hi: S,
  tolT: number,
): Generator<R, [S, S][], S> {
  const out: [S, S][] = [];
  const stack: [S, S][] = [[lo, hi]];
  while (stack.length) {
    let [a, b] = stack.pop()!;
    for (;;) {
      if (b.T - a.T <= tolT) {
        out.push([a, b]);
        break;
      }
      const m = yield* solveT((a.T + b.T) / 2);
      const pm = edgePhase(m);
      if (pm === null) {
        out.push([a, b]);
        break;
      }
      if (pm === edgePhase(a)) a = m;
      else if (pm === edgePhase(b)) b = m;
      else {
        stack.push([m, b]);
        b = m;
      }
    }
  }
  return out.sort((p, q) => p[0].T - q[0].T);
}
