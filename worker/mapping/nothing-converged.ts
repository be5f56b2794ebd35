import { LARGE_FAILURE_SHARE, type ConvergenceWarning } from '../../contract/results/common.js';
import { saysNoEquilibrium, type EquilibriumResult } from '../core/equilibrium.js';

// A diagram of which no equilibrium converged is no diagram: the task fails with the reason (the first equilibrium's
// failure in the mapping's logs) instead of delivering an empty map as if complete.

/** Throws when every equilibrium of a mapping failed; `logs` are the mapping's, searched for the first failure. */
export function failIfNothingConverged(
  what: string,
  stats: { equilibria: number; notConverged: number },
  logs: readonly string[],
): void {
  if (stats.equilibria === 0 || stats.notConverged < stats.equilibria) return;
  const first = logs.find((l) => /not converged|did not converge/.test(l));
  throw new Error(
    `no equilibrium of the ${what} converged (${stats.notConverged} of ${stats.equilibria})${first ? `; the first: ${first}` : ''}: ` +
      'the phases of the system have no state the solver can reach here (a phase model the system cannot satisfy, or a range outside the database)',
  );
}

/** The seed grid's nodes without an equilibrium: those the solver gave up on and those where it says none exists. */
export interface GridFailures {
  nodes: number;
  notConverged: number;
  noEquilibrium: number;
}

/** The failures among a seed grid's equilibria (null or undefined: a node never solved, counted as not converged). */
export function gridFailures(
  results: readonly (Pick<EquilibriumResult, 'converged' | 'reasonCode'> | null | undefined)[],
): GridFailures {
  const failed = results.filter((r) => !r?.converged);
  const none = failed.filter((r) => r && saysNoEquilibrium(r)).length;
  return { nodes: results.length, notConverged: failed.length - none, noEquilibrium: none };
}

/** The warning a delivered diagram carries when LARGE_FAILURE_SHARE of its seed grid's nodes or more have no equilibrium. */
export function convergenceWarning(g: GridFailures): ConvergenceWarning | undefined {
  const failed = g.notConverged + g.noEquilibrium;
  if (g.nodes === 0 || failed < LARGE_FAILURE_SHARE * g.nodes) return undefined;
  const share = failed / g.nodes;
  const kinds = [
    ...(g.notConverged ? [`${g.notConverged} not converged`] : []),
    ...(g.noEquilibrium ? [`${g.noEquilibrium} where none exists`] : []),
  ];
  return {
    nodes: g.nodes,
    not_converged: g.notConverged,
    no_equilibrium: g.noEquilibrium,
    share,
    message:
      `incomplete: ${failed} of ${g.nodes} grid nodes (${Math.round(100 * share)} %) have no equilibrium ` +
      `(${kinds.join(', ')}); the diagram covers only the rest`,
  };
}
