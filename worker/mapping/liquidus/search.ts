// The liquidus of one alloy from above, by Newton's method on the solids' driving forces in the liquid. Above the
// liquidus the liquid is alone, and the solver reports each other phase's driving force DF = sum_i mu_i x_i - G_phi
// at the phase's relaxed composition (formula sheet §9.2). With the liquid's composition fixed,
//   dDF/dT = sum_i x_i dmu_i/dT + S_phi
// (the phase's own composition is stationary: the envelope theorem), with dmu_i/dT the solver's exact sensitivity
// MU(i).T (Lukas, Fries and Sundman, Computational Thermodynamics, Cambridge 2007, ch. 9.4). One Newton step gives the
// temperature T_phi at which each phase would first form from this liquid; the liquidus is the highest of them and the
// primary phase the one that gives it. Each next state is put a little above the estimate, so the search approaches
// from the liquid's side, where the driving forces are defined; a state found below (a solid present) bounds the
// search from below and the next state halves the bracket. The answer rests on the state above it: a converged
// global equilibrium (the grid re-scan included) with the liquid alone, at most LIQUIDUS_GAP above the answer, from
// which the answer is one Newton step. Newton's error is the curvature of DF over twice its slope times the gap
// squared, about (dCp / 2 T dS) gap^2: under 1e-3 K for a gap of 1 K with a difference of heat capacities of
// 10 J/(mol K) and an entropy of melting of 10 J/(mol K) at 500 K.
import { isLiquidName } from '../../../contract/phases.js';
import type { EquilibriumConditions, EquilibriumResult, MetastablePhase } from '../../core/equilibrium.js';
import type { Search } from './lockstep.js';

/** K: the liquid-alone state an answer is one Newton step from lies at most this far above it */
export const LIQUIDUS_GAP = 0.5;
/**
 * K: the same for a trial of a valley's or an invariant point's search, which starts 0.3-2 K above the liquidus it
 * seeks: Newton's error from 2 K is some thousandths of a kelvin, inside their 0.02 K tolerance, and one state answers.
 */
export const TRIAL_GAP = 2;
/** K: the smallest margin above an estimate where the next state is put */
const MIN_MARGIN = 0.0025;
/** K: the search gives up above this temperature */
const T_MAX = 5000;
/** the first step up from a state with a solid, K (doubled each time) */
const FIRST_STEP_UP = 20;
/**
 * The next state lies above the estimate by a share of the last gap (GAP_SHARE), or by gap^2 / QUADRATIC_SCALE when
 * less: Newton's error falls with the square of the gap, so near the liquidus a smaller margin stays above it.
 */
const GAP_SHARE = 0.1;
const QUADRATIC_SCALE = 100;
const MAX_STATES = 30;

/** The liquidus of one alloy and what the liquid just above it says of every other phase. */
export interface LiquidusState {
  /** the solver's mole fractions (all components but the dependent one) */
  X: Record<string, number>;
  /** K */
  T: number;
  /** the phase that forms first on cooling (its zero of DF gives T) */
  primary: string;
  /** per phase with DF falling with T: where its DF vanishes, by one Newton step from the state above (exact for the
   * primary, first order in the gap for the others) */
  phaseT: Map<string, number>;
  /** per such phase: its relaxed composition in the liquid's state above (the solid the liquid would form) */
  solids: Map<string, Record<string, number>>;
  /** the liquid's state above the liquidus */
  above: EquilibriumResult;
  /** equilibria spent */
  solves: number;
}

const liquidAlone = (r: EquilibriumResult) =>
  r.converged && r.phases.length > 0 && r.phases.every((p) => isLiquidName(p.name));

/** dDF/dT of a phase in the liquid's state r, the liquid's composition fixed: sum_i x_i dmu_i/dT + S_phi. */
function dDFdT(r: EquilibriumResult, m: MetastablePhase): number {
  let slope = m.SM;
  for (const [el, x] of Object.entries(m.x)) slope += x * (r.derivatives[`MU(${el}).T`] ?? NaN);
  return slope;
}

/** Each solid's zero of DF by one Newton step from r (liquid alone), with its relaxed composition. */
export function driveZeros(r: EquilibriumResult): {
  phaseT: Map<string, number>;
  solids: Map<string, Record<string, number>>;
} {
  const phaseT = new Map<string, number>();
  const solids = new Map<string, Record<string, number>>();
  for (const m of r.metastable) {
    if (isLiquidName(m.name)) continue;
    const slope = dDFdT(r, m);
    if (!(slope < 0) || !Number.isFinite(m.DF)) continue;
    phaseT.set(m.name, r.T - m.DF / slope);
    solids.set(m.name, m.x);
  }
  return { phaseT, solids };
}

/**
 * The derivatives a liquidus search needs of every equilibrium (options.derivatives): dmu/dT of every element, and
 * dmu/dX of every element along each of `along` (the triangle's two free corners), for the surface's gradient.
 */
export function liquidusDerivatives(elements: string[], along: string[] = []): string[] {
  return [...elements.map((el) => `MU(${el}).T`), ...along.flatMap((j) => elements.map((el) => `MU(${el}).X(${j})`))];
}

/**
 * The gradient of a phase's saturation temperature T_phi(X) at a liquid-alone state: dT_phi/dX_j =
 * -(dDF/dX_j) / (dDF/dT), with dDF/dX_j = sum_i x_i dmu_i/dX_j at fixed T (the phase's own composition stationary,
 * as for dDF/dT). Undefined when the state does not hold the derivatives or the phase's data.
 */
export function saturationGradient(
  r: EquilibriumResult,
  phase: string,
  along: string[],
): Record<string, number> | undefined {
  const m = r.metastable.find((q) => q.name === phase);
  if (!m) return undefined;
  const slope = dDFdT(r, m);
  const grad: Record<string, number> = {};
  for (const j of along) {
    let d = 0;
    for (const [el, x] of Object.entries(m.x)) d += x * (r.derivatives[`MU(${el}).X(${j})`] ?? NaN);
    grad[j] = -d / slope;
  }
  return Object.values(grad).every(Number.isFinite) ? grad : undefined;
}

function highest(phaseT: Map<string, number>): [string, number] | undefined {
  let best: [string, number] | undefined;
  for (const [name, T] of phaseT) if (!best || T > best[1]) best = [name, T];
  return best;
}

/**
 * The liquidus at X (pressure P), starting at T0 (best a little above the liquidus: a neighbour's plus a margin;
 * from a state with a solid, steps up of firstStepUp K, doubled each time), answered from a state at most maxGap above
 * it (a caller that needs the liquidus to a tenth of a kelvin accepts a wider gap: one state often suffices).
 * Null when an equilibrium does not converge, no solid's driving force falls with T, or no liquid-alone state lies
 * below T_MAX.
 */
export function* liquidusSearch(
  X: Record<string, number>,
  P: number,
  T0: number,
  firstStepUp = FIRST_STEP_UP,
  maxGap = LIQUIDUS_GAP,
): Search<LiquidusState | null> {
  const at = (T: number): EquilibriumConditions => ({ T, P, X });
  let T = T0,
    step = firstStepUp,
    lo = -Infinity,
    solves = 1;
  let r = yield at(T);
  while (!liquidAlone(r)) {
    if (!r.converged || T > T_MAX) return null;
    lo = T;
    T += step;
    step *= 2;
    r = yield at(T);
    solves++;
  }
  while (solves < MAX_STATES) {
    const { phaseT, solids } = driveZeros(r);
    const top = highest(phaseT);
    if (!top) return null;
    const gap = T - top[1];
    if (gap <= maxGap && top[1] >= lo) return { X, T: top[1], primary: top[0], phaseT, solids, above: r, solves };
    const margin = Math.min(GAP_SHARE * gap, (gap * gap) / QUADRATIC_SCALE);
    let next = Math.max(top[1], lo) + Math.max(MIN_MARGIN, margin);
    if (next >= T || next <= lo) next = 0.5 * (Math.max(lo, top[1]) + T);
    const rn = yield at(next);
    solves++;
    if (liquidAlone(rn)) [T, r] = [next, rn];
    else if (rn.converged) lo = next;
    else return null;
  }
  return null;
}
