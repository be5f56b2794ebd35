// A univariant valley where it crosses one grid edge: the composition on the edge at which the liquid is saturated
// with both primary phases of the edge's ends, alpha and beta, at once (L + alpha + beta: the liquid's corner of the
// three-phase equilibrium). Along the edge g(s) = T_alpha(s) - T_beta(s), each T_phi the temperature at which phi's
// driving force in the liquid of the edge's composition s vanishes (search.ts); g > 0 where alpha is primary and < 0
// where beta is, smooth across the valley, so the Illinois variant of regula falsi finds its zero (Dowell and
// Jarratt, BIT 11 (1971) 168). Where the liquidus at the trial composition has a third primary phase gamma, the edge
// crosses gamma's field: the two halves are searched apart (alpha | gamma, gamma | beta).
import type { Search } from './lockstep.js';
import { liquidusSearch, TRIAL_GAP, type LiquidusState } from './search.js';

/** K: |T_alpha - T_beta| at which the valley is found */
export const VALLEY_TOLERANCE = 0.02;
/** edge fraction: a bracket this narrow ends the search */
const BRACKET_TOLERANCE = 1e-6;
const MAX_TRIALS = 16;
/**
 * K above the ends' interpolated liquidus where the first trial's search starts (the liquidus along an edge across a
 * valley lies below the chord between its ends), and above the last trial's liquidus for the next (the trials
 * converge, and so do their liquidus temperatures); a state below steps up by STEP_UP K, doubled each time.
 */
const FIRST_ABOVE = 1,
  NEXT_ABOVE = 0.3,
  STEP_UP = 2;
/** fields crossed on one edge at most (nested splits) */
const MAX_SPLITS = 2;

/** A valley's crossing of an edge: the liquidus state there and the two solids. */
export interface ValleyCrossing {
  /** fraction along the edge from its first node */
  s: number;
  phases: [string, string];
  state: LiquidusState;
}

export interface EdgeEnds {
  /** the solver's mole fractions at fraction s of the edge */
  at: (s: number) => Record<string, number>;
  P: number;
}

/** g at a state: T_alpha - T_beta (an absent phase's T counts as far below). */
function gap(st: LiquidusState, alpha: string, beta: string): number {
  const far = st.T - 1e4;
  return (st.phaseT.get(alpha) ?? far) - (st.phaseT.get(beta) ?? far);
}

/**
 * The crossings of valleys on the part [s0, s1] of an edge whose ends' liquidus states a (primary alpha) and b (primary
 * beta) differ in their primary phase; empty when a trial's liquidus search fails.
 */
export function* valleysOnEdge(
  edge: EdgeEnds,
  [s0, s1]: [number, number],
  a: LiquidusState,
  b: LiquidusState,
  depth = 0,
): Search<ValleyCrossing[]> {
  const alpha = a.primary,
    beta = b.primary;
  let lo = { s: s0, g: gap(a, alpha, beta) },
    hi = { s: s1, g: gap(b, alpha, beta) };
  let side = 0;
  let lastT: number | undefined;
  for (let trial = 0; trial < MAX_TRIALS; trial++) {
    const linear = lo.g > 0 && hi.g < 0 ? lo.s + (lo.g * (hi.s - lo.s)) / (lo.g - hi.g) : 0.5 * (lo.s + hi.s);
    const s = Math.min(Math.max(linear, lo.s + 0.01 * (hi.s - lo.s)), hi.s - 0.01 * (hi.s - lo.s));
    const chord = a.T + ((s - s0) / (s1 - s0)) * (b.T - a.T);
    const start = lastT === undefined ? chord + FIRST_ABOVE : lastT + NEXT_ABOVE;
    const st = yield* liquidusSearch(edge.at(s), edge.P, start, STEP_UP, TRIAL_GAP);
    if (!st) return [];
    lastT = st.T;
    if (st.primary !== alpha && st.primary !== beta) {
      if (depth >= MAX_SPLITS) return [];
      const left = yield* valleysOnEdge(edge, [s0, s], a, st, depth + 1);
      const right = yield* valleysOnEdge(edge, [s, s1], st, b, depth + 1);
      return [...left, ...right];
    }
    const g = gap(st, alpha, beta);
    if (Math.abs(g) <= VALLEY_TOLERANCE || hi.s - lo.s < BRACKET_TOLERANCE)
      return [{ s, phases: [alpha, beta], state: st }];
    // Illinois: the end kept twice in a row has its value halved, so the bracket shrinks from both sides
    if (st.primary === alpha) {
      lo = { s, g };
      if (side === 1) hi.g *= 0.5;
      side = 1;
    } else {
      hi = { s, g };
      if (side === -1) lo.g *= 0.5;
      side = -1;
    }
  }
  return [];
}
