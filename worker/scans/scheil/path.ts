// The Scheil path below its start: temperatures go down in steps of temperature_step, the first solid
// (liquidus) is refined by bisection to 0.01 K, and where the remaining liquid would vanish within a step the
// path either ends at an invariant ('eutectic'), ends where the liquid freezes within 0.01 K
// ('liquid_exhausted'), or takes a shorter step (see the module comment of scheil_solidification.ts).
import type { ScheilEndReason } from '../../../contract/results/scheil_solidification.js';
import {
  AMOUNT_EPS,
  distinctSolids,
  hasSolid,
  T_RESOLUTION,
  type PathEquilibria,
  type PathPoint,
  type Split,
} from './equilibria.js';
import type { PathState } from './path-state.js';
import type { ScheilSetup } from './setup.js';

/** A step's equilibrium with its split. */
interface SplitPoint extends PathPoint {
  s: Split;
}

/**
 * Follows the path from `start` (the start temperature's equilibrium) until `state` has its end reason; returns
 * the last temperature of the path and that reason.
 */
export function followPath(
  eq: PathEquilibria,
  setup: ScheilSetup,
  state: PathState,
  start: PathPoint,
  logs: string[],
): { lastT: number; endReason: ScheilEndReason } {
  const { step, Tmin, stop, control } = setup;
  let prev = start;
  let guard = 0;
  const maxIterations = Math.ceil((setup.T0 - Tmin) / step) * 4 + 10000;
  while (state.endReason === null) {
    if (guard++ > maxIterations) {
      state.endReason = 'not_converged';
      logs.push('too many steps');
      break;
    }
    control?.setProgress(0.8 * state.fs);
    if (1 - state.fs < stop) {
      state.endReason = 'liquid_exhausted';
      state.solidus = prev.T;
      break;
    }
    const T = prev.T - step;
    if (T < Tmin) {
      state.endReason = 'minimum_temperature';
      logs.push(`minimum temperature ${Tmin} K reached with liquid fraction ${(1 - state.fs).toExponential(3)}`);
      break;
    }
    const below = solveStep(eq, setup, state, T, logs);
    if (!below) break;
    let next: SplitPoint = { ...below, s: eq.split(below.r) };
    if (state.liquidus === null && state.fs === 0 && hasSolid(next.s)) prev = refineLiquidus(eq, state, below, prev);
    if (next.s.fL <= 0) {
      const outcome = liquidVanishes(eq, setup, state, below, prev);
      if (outcome === 'ended') break;
      if ('resumeFrom' in outcome) {
        prev = outcome.resumeFrom;
        continue;
      }
      next = outcome;
    }
    state.record(next.T, next.s, state.fs);
    prev = state.relaxesLiquid ? relaxAt(eq, state, { T: next.T, r: next.r }) : { T: next.T, r: next.r };
  }
  const endReason = state.endReason;
  if (endReason === null) throw new Error('the Scheil path stopped without an end reason');
  if (endReason === 'liquid_exhausted' && state.solidus === null) state.solidus = prev.T;
  return { lastT: prev.T, endReason };
}

/**
 * The equilibrium of the liquid at T, or, when it does not converge, slightly lower (a start point at a
 * degenerate temperature); null when neither converges: the path then ends 'not_converged'.
 */
function solveStep(
  eq: PathEquilibria,
  setup: ScheilSetup,
  state: PathState,
  T: number,
  logs: string[],
): PathPoint | null {
  const r = eq.solve(T, state.xL);
  if (r.converged) return { T, r };
  const lower = eq.solve(T - 1e-3 * setup.step, state.xL);
  if (lower.converged) return { T: T - 1e-3 * setup.step, r: lower };
  state.endReason = 'not_converged';
  logs.push(`equilibrium at T=${T.toFixed(3)} K did not converge: ${lower.reason}`);
  return null;
}

/**
 * The first solid formed between `above` (all liquid, the alloy's composition still) and `below`: the liquidus
 * by bisection, recorded as a step with the phases about to form; returns the state just above it.
 */
function refineLiquidus(eq: PathEquilibria, state: PathState, below: PathPoint, above: PathPoint): PathPoint {
  const b = eq.bisect(state.xL, below, above, hasSolid);
  state.liquidus = 0.5 * (b.lo.T + b.hi.T);
  const sl = eq.split(b.lo.r);
  state.recordLiquid(
    state.liquidus,
    sl.solids
      .filter((q) => q.NP > AMOUNT_EPS)
      .map((q) => q.label)
      .sort(),
  );
  return b.hi;
}

/**
 * The remaining liquid solidifies completely between `prev` and `at`: where, and into what? At an invariant
 * (liquid + as many solids as components) or where the liquid freezes within 0.01 K the path ends; past the
 * invariant's liquid the path resumes just above; otherwise the step overshot the solidus of the current
 * liquid and a shorter step, half way to where the liquid vanishes, is returned.
 */
function liquidVanishes(
  eq: PathEquilibria,
  setup: ScheilSetup,
  state: PathState,
  at: PathPoint,
  prev: PathPoint,
): 'ended' | { resumeFrom: PathPoint } | SplitPoint {
  const b = eq.bisect(state.xL, at, prev, (q) => q.fL <= 0);
  const below = eq.split(b.lo.r),
    above = eq.split(b.hi.r);
  if (distinctSolids(below) >= setup.elements.length) {
    // invariant: liquid + as many solids as components. Solidify what forms above it, then the last
    // liquid at the invariant temperature into the solids of the equilibrium just below.
    // (b.hi is the previous step itself when the liquid vanishes within 0.01 K below it: already applied)
    if (b.hi.T < prev.T && above.fL > 0 && hasSolid(above)) state.record(b.hi.T, above, state.fs);
    const rEnd = eq.solve(b.lo.T, state.xL);
    const sEnd = eq.split(rEnd);
    if (rEnd.converged && sEnd.fL <= 0) {
      state.solidifyRest(0.5 * (b.lo.T + b.hi.T), sEnd.solids, 'eutectic');
      return 'ended';
    }
    // the new liquid still has liquid below: continue from just above
    return { resumeFrom: b.hi };
  }
  if (prev.T - b.hi.T <= T_RESOLUTION) {
    // the current liquid freezes within 0.01 K (pure component or congruent point)
    state.solidifyRest(0.5 * (b.lo.T + b.hi.T), below.solids, 'liquid_exhausted');
    return 'ended';
  }
  // the step overshot the solidus of the current liquid: a shorter step, half way to where it vanishes
  const T = 0.5 * (prev.T + b.hi.T);
  const r = eq.solve(T, state.xL);
  const s = eq.split(r);
  if (!r.converged || s.fL <= 0) return { ...b.hi, s: above };
  return { T, r, s };
}

/** Steps at one temperature until the liquid stops forming solid there (at most this many). */
const RELAX_STEPS = 100;

/**
 * With back diffusion the liquid after a step holds less solute than the step's equilibrium liquid, so at the same
 * temperature it forms more solid: further steps at T until the solid it forms falls below 1e-7 of the liquid (the
 * liquid is then at its liquidus again), each recorded as a step at T. Returns the last state at T.
 */
function relaxAt(eq: PathEquilibria, state: PathState, at: PathPoint): PathPoint {
  let last = at;
  for (let i = 0; i < RELAX_STEPS; i++) {
    const r = eq.solve(at.T, state.xL);
    if (!r.converged) break;
    const s = eq.split(r);
    if (s.fL <= 0 || 1 - s.fL < 1e-7) break;
    state.record(at.T, s, state.fs);
    last = { T: at.T, r };
  }
  return last;
}
