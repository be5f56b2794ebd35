import { LARGE_FAILURE_SHARE, type ConvergenceWarning } from '../../contract/results/binary_equilibrium.js';

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

/**
 * The warning a delivered diagram carries when LARGE_FAILURE_SHARE of its seed grid's `nodes` or more have no
 * equilibrium (`failed`: those nodes, `no_equilibrium` where the solver says none exists); undefined below it.
 */
export function convergenceWarning(
  failed: readonly { no_equilibrium?: true }[],
  nodes: number,
): ConvergenceWarning | undefined {
  if (nodes === 0 || failed.length < LARGE_FAILURE_SHARE * nodes) return undefined;
  const none = failed.filter((n) => n.no_equilibrium).length;
  const notConverged = failed.length - none;
  const share = failed.length / nodes;
  const kinds = [
    ...(notConverged ? [`${notConverged} not converged`] : []),
    ...(none ? [`${none} where none exists`] : []),
  ];
  return {
    nodes,
    not_converged: notConverged,
    no_equilibrium: none,
    share,
    message:
      `incomplete: ${failed.length} of ${nodes} grid nodes (${Math.round(100 * share)} %) have no equilibrium ` +
      `(${kinds.join(', ')}); the diagram covers only the rest`,
  };
}
