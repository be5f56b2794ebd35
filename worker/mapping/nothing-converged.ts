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
