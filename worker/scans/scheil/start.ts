// The start of a Scheil path at start_temperature: all liquid (the usual start), partly solid (a start below
// the liquidus: the path begins with the equilibrium solid there, as pycalphad/scheil does), all solid (no path),
// or no equilibrium. Below the liquidus the alloy's liquidus is still located, so the result can say where to
// start.
import type { EquilibriumResult } from '../../core/equilibrium.js';
import { hasSolid, T_RESOLUTION, type PathEquilibria } from './equilibria.js';
import type { PathState } from './path-state.js';
import type { ScheilSetup } from './setup.js';

export interface PathStart {
  /** the equilibrium at the start temperature */
  first: EquilibriumResult;
  startedBelow: boolean;
  /** the liquidus rounded up, when the start was below it */
  suggested: number | null;
  warnings: string[];
}

/** Solves the start of the path and records its first step in `state` (or its end, when no path follows). */
export function startPath(eq: PathEquilibria, setup: ScheilSetup, state: PathState, logs: string[]): PathStart {
  const { T0, x0, liquid } = setup;
  const first = eq.solve(T0, x0);
  const s0 = eq.split(first);
  const start: PathStart = { first, startedBelow: false, suggested: null, warnings: [] };
  if (!first.converged) {
    state.endReason = 'not_converged';
    logs.push(`equilibrium at the start temperature ${T0} K did not converge: ${first.reason}`);
  } else if (s0.fL <= 0) {
    state.endReason = 'no_liquid';
    logs.push(`no ${liquid} at the start temperature ${T0} K: raise start_temperature`);
    state.liquidus = liquidusAbove(eq, setup, first);
    warnBelow(start, setup, state.liquidus, logs, `the alloy is solid there and no path was computed`);
  } else if (hasSolid(s0)) {
    // the first step takes the equilibrium solid at T0, as pycalphad/scheil does
    state.liquidus = liquidusAbove(eq, setup, first);
    warnBelow(
      start,
      setup,
      state.liquidus,
      logs,
      `the path starts with the equilibrium solid at ${T0} K (fraction solid ${(1 - s0.fL).toFixed(4)}), not with a Scheil path from the liquidus`,
    );
    state.record(T0, s0, 0);
  } else {
    state.recordLiquid(T0, []);
  }
  return start;
}

/**
 * The alloy's liquidus above a start below it: searching upwards at the alloy composition in doubling steps up
 * to 5000 K above the start, then bisecting; null when no all-liquid state is found.
 */
function liquidusAbove(eq: PathEquilibria, setup: ScheilSetup, first: EquilibriumResult): number | null {
  const { T0, x0, step } = setup;
  let up: { T: number; r: EquilibriumResult } | null = null;
  for (let d = step; d <= 5000 && !up; d *= 2) {
    const r = eq.solve(T0 + d, x0);
    if (r.converged && !hasSolid(eq.split(r))) up = { T: T0 + d, r };
  }
  if (!up) return null;
  const b = eq.bisect(x0, { T: T0, r: first }, up, hasSolid);
  return 0.5 * (b.lo.T + b.hi.T);
}

/** The warning of a start below the liquidus, saying `what` followed and where to start instead. */
function warnBelow(start: PathStart, setup: ScheilSetup, liquidus: number | null, logs: string[], what: string): void {
  const T0 = setup.T0;
  start.startedBelow = true;
  if (liquidus !== null) {
    start.suggested = Math.ceil(liquidus + T_RESOLUTION);
    start.warnings.push(
      `start_temperature ${T0} K is below the liquidus of this alloy (${liquidus.toFixed(2)} K): ${what}; ` +
        `start at ${start.suggested} K (the liquidus rounded up) to follow the whole solidification`,
    );
  } else {
    start.warnings.push(
      `start_temperature ${T0} K is below the liquidus of this alloy (no liquidus found up to ${T0 + 5000} K): ${what}`,
    );
  }
  logs.push(`warning: ${start.warnings[start.warnings.length - 1]}`);
}
