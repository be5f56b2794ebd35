// Liquidus and solidus of an alloy from a guess (a neighbouring alloy's), by Newton's method on the liquid's amount
// (docs/calculations.md "Liquidus and solidus from a guess"). The liquidus is where the liquid's amount L(T) reaches
// 1 and the solidus where it reaches 0, as a phase fixed at an amount with T free (Thermo-Calc's "fix" status of a
// phase: Andersson, Helander, Höglund, Shi and Sundman, Calphad 26 (2002) 273): between them L is smooth, and the
// solver gives dL/dT exactly with the equilibrium (the sensitivities of Lukas, Fries and Sundman, Computational
// Thermodynamics, Cambridge 2007, ch. 9.4: `NP(LIQUID).T`). Each Newton step is a global equilibrium warm-started
// from the last one, so each state is certified by the solver's grid re-scan as the scan's states are. The answer is
// accepted only when certified as the scan's answer would be:
//   - a bracket of at most ALLOY_T_TOLERANCE with the change between its ends (liquidus: a solid at the lower end,
//     liquid alone at the upper; solidus: no liquid at the lower end, liquid at the upper), both converged;
//   - liquidus: liquid alone ALLOY_T_STEP above it too; solidus: liquid at states at most ALLOY_T_STEP apart up to
//     the liquidus (no higher change of "any liquid" at the scan's resolution).
// Otherwise it returns undefined and the caller runs the scan (worker/scans/alloy-temperatures.ts). The answer is
// the middle of the final bracket, as the scan's: both brackets hold the change and are at most ALLOY_T_TOLERANCE
// wide, so the two agree within ALLOY_T_TOLERANCE.
import { isLiquidName } from '../../contract/phases.js';
import { equilibrium, type EquilibriumResult } from '../core/equilibrium.js';
import { CancelledError } from '../protocol.js';
import { ALLOY_T_RANGE, ALLOY_T_STEP, type AlloySystem, type AlloyTemperatures } from './alloy-temperatures.js';
import { ALLOY_T_TOLERANCE, type TState } from './highest-flip.js';

/** half the width of the bracket put around a Newton estimate, K (the bracket stays under ALLOY_T_TOLERANCE) */
const HALF_BRACKET = 0.4 * ALLOY_T_TOLERANCE;
/** equilibria one search may spend before it gives up (the scan then runs) */
const MAX_SOLVES = 12;
/** the largest Newton step, K (a state far from the change is moved towards it, not past it by far) */
const MAX_STEP = ALLOY_T_STEP;
/**
 * How far into the side with liquid and solid the search starts from a prediction, K. The liquidus predicted from the
 * nearest alloy lies within 0.004 K of the one found for half of the alloys of bench:batch (within 0.02 K for 90 %),
 * so its search starts 2 HALF_BRACKET below it, from where a Newton step within ONE_SIDED often ends the search with
 * one more state (0.2 K below took 3.1 equilibria per liquidus there, 0.008 K 2.8). The solidus predicted lies a
 * median 0.07 K above the one found, up to a few K: the liquid's amount falls ever more steeply towards the solidus
 * (convex in T there), so the tangent's zero lies above it, and its search starts 0.2 K above.
 */
const PREDICTION_INSET = { liquidus: 2 * HALF_BRACKET, solidus: 0.2 };
/** ... from a bare guess (a scan's temperature), K */
const GUESS_INSET = 0.5;
/**
 * The search's first state from a prediction solved as a local equilibrium (EquilibriumOptions.local: Newton among the
 * neighbouring alloy's phases, without the grid energies at the new temperature, the grid re-scan or the basin check:
 * about 0.6 of a certified one), certified only when the search keeps it. The solidus's lies 0.2 K above its
 * prediction, a Newton step away from its bracket, so it is almost never kept; the liquidus's lies within ONE_SIDED of
 * the change, an end of its bracket, for about a third of the alloys, which would then solve it twice.
 */
const LOCAL_FIRST_STATE = { liquidus: false, solidus: true };
/** a Newton step at most this long, K, puts the bracket around its estimate */
const NEAR = 0.3;
/** a Newton step at most this long, K: the state it starts from is one end of the bracket, 2 HALF_BRACKET wide */
const ONE_SIDED = 1.5 * HALF_BRACKET;
/**
 * The first step out of a state on one side of the change (no slope there), K, doubled at each further step: from a
 * bare guess, and from a prediction (within a few hundredths of a K of the liquidus mostly).
 */
const FIRST_STEP = { guess: 2, prediction: 0.05 };

/** A search's result: its temperature and the states at the ends of its bracket. */
export interface FoundChange {
  T: number;
  below: TState;
  above: TState;
}

/** A guessed temperature, with the state to start from on its side with liquid and solid when one is known. */
export interface GuessedChange {
  T: number;
  start?: EquilibriumResult;
}

/**
 * A guessed liquidus and solidus (a neighbouring alloy's: its scan's temperatures, or its FoundChanges), with the
 * neighbour's states between them that certified its solidus (starts for this alloy's states at those temperatures).
 */
export interface AlloyGuess {
  liquidus: GuessedChange;
  solidus: GuessedChange;
  between?: TState[];
}

/** The next alloy's guess from what this one found. */
export function guessFrom(found: { liquidus: FoundChange; solidus: FoundChange; between?: TState[] }): AlloyGuess {
  return {
    liquidus: { T: found.liquidus.T, start: found.liquidus.below.r },
    solidus: { T: found.solidus.T, start: found.solidus.above.r },
    ...(found.between?.length ? { between: found.between } : {}),
  };
}

/**
 * The state a certification state at T starts from: the neighbouring alloy's nearest in T within NEIGHBOUR_START_K,
 * else the alloy's own state before it (`own`, up to ALLOY_T_STEP away). From its own state 30-50 K away Newton takes
 * 7-8 iterations (the liquid's amount changes by tenths); from a neighbour's a few K away, at a composition a few
 * percent off, 6-7 (bench:batch: 7.6 -> 6.5 iterations per state).
 */
const NEIGHBOUR_START_K = 10;
function startNear(T: number, own: TState, neighbours: TState[] | undefined): EquilibriumResult {
  let best: TState | undefined;
  for (const n of neighbours ?? [])
    if (n.r.converged && Math.abs(n.T - T) <= NEIGHBOUR_START_K && (!best || Math.abs(n.T - T) < Math.abs(best.T - T)))
      best = n;
  return (best ?? own).r;
}

/**
 * An equilibrium a search asks for: the alloy's at T, started from `start` (undefined: the cold start), in one of the
 * search's stages (SEARCH_STAGES), which a caller solving many alloys' searches at once keeps together: the states of
 * one stage of neighbouring alloys lie a few K apart, so a thread that solves them one after the other keeps most of
 * its grid energies from one to the next.
 */
export interface SolveRequest {
  T: number;
  start: EquilibriumResult | undefined;
  stage: number;
  /** a local equilibrium will do (EquilibriumOptions.local): a state the search only takes its next step from */
  local?: true;
}

/** The stages of a search, in order (SolveRequest.stage is the index). */
export const SEARCH_STAGES = ['liquidus', 'liquidus certified', 'solidus', 'solidus certified'] as const;

/**
 * A search written as a generator: it yields the equilibria it needs one at a time and receives each result, so that
 * one caller solves them one by one (alloyTemperaturesFromGuess) and another solves the next equilibria of several
 * alloys' searches side by side across threads (worker/scans/liquidus-batch.ts).
 */
export type Search<R> = Generator<SolveRequest, R, EquilibriumResult>;

/** The liquid's amount and its T derivative at an equilibrium solved with `derivatives`. */
interface Solver {
  /** `local`: a local equilibrium will do (a caller may still certify it) */
  solve(T: number, start: EquilibriumResult | undefined, local?: boolean): Search<EquilibriumResult>;
  liquid(r: EquilibriumResult): number;
  slope(r: EquilibriumResult): number;
  /** dL/dX(el) (NaN when not computed) */
  slopeX(r: EquilibriumResult, el: string): number;
  /** the alloy's mole fractions (all components but the balance) */
  X: Record<string, number>;
  solves: number;
  /** the stage the next equilibria belong to (an index of SEARCH_STAGES) */
  stage: number;
  /** every certified state solved so far (the solidus's certification reuses those between it and the liquidus) */
  known: TState[];
}

type Kind = 'liquidus' | 'solidus';

const onlyLiquid = (r: EquilibriumResult) => r.phases.length > 0 && r.phases.every((p) => isLiquidName(p.name));
const anyLiquid = (r: EquilibriumResult) => r.phases.some((p) => isLiquidName(p.name));
/** true above the change: liquid alone (liquidus), any liquid (solidus) */
const above = (kind: Kind, r: EquilibriumResult) => (kind === 'liquidus' ? onlyLiquid(r) : anyLiquid(r));
/** past the change from the states with liquid and solid: liquid alone (liquidus), no liquid (solidus) */
const beyond = (kind: Kind, r: EquilibriumResult) => (kind === 'liquidus' ? onlyLiquid(r) : !anyLiquid(r));
/** liquid and solid together: L strictly between 0 and 1, where Newton has a slope */
const between = (r: EquilibriumResult) => anyLiquid(r) && !onlyLiquid(r);

/** The liquid phases the alloy's system allows. */
export function liquidPhases(sys: AlloySystem): string[] {
  return (sys.phases ?? sys.formable).filter(isLiquidName);
}

/** The sensitivities every state of a search is solved with: NP(liquid).T and NP(liquid).X(el) of every liquid. */
export function searchDerivatives(sys: AlloySystem, X: Record<string, number>): string[] {
  const slopes = (v: string) => liquidPhases(sys).map((l) => `NP(${l}).${v}`);
  return [...slopes('T'), ...Object.keys(X).flatMap((el) => slopes(`X(${el})`))];
}

/** What a certified search returns: the alloy's temperatures and the guess for the next alloy. */
export interface SearchAnswer {
  value: AlloyTemperatures;
  next: AlloyGuess;
}

/**
 * Liquidus and solidus at the overall mole fractions X from `guess`, certified (see the header), with the states that
 * start the next alloy's search; undefined when a search or its certification fails. The equilibria are yielded
 * (Search): each at T and X, solved with searchDerivatives.
 */
export function* alloySearch(
  sys: AlloySystem,
  X: Record<string, number>,
  guess: AlloyGuess,
): Search<SearchAnswer | undefined> {
  const liquids = liquidPhases(sys);
  if (liquids.length === 0) return undefined;
  const slopes = (v: string) => liquids.map((l) => `NP(${l}).${v}`);
  const s: Solver = {
    solves: 0,
    stage: 0,
    known: [],
    *solve(T, start, local) {
      s.solves++;
      const from = start?.converged ? start : undefined;
      const r = yield { T, start: from, stage: s.stage, ...(local && from ? { local: true as const } : {}) };
      if (r.converged && !r.local) s.known.push({ T, r });
      return r;
    },
    liquid: (r) => r.phases.filter((p) => isLiquidName(p.name)).reduce((t, p) => t + p.NP, 0),
    slope: (r) => slopes('T').reduce((t, d) => t + (r.derivatives[d] ?? 0), 0),
    slopeX: (r, el) => slopes(`X(${el})`).reduce((t, d) => t + (r.derivatives[d] ?? NaN), 0),
    X,
  };
  const liquidus = yield* findChange(s, 'liquidus', guess.liquidus);
  s.stage = 1;
  if (!liquidus || !(yield* certifyLiquidus(s, liquidus))) return undefined;
  s.stage = 2;
  const solidus = yield* findChange(s, 'solidus', guess.solidus);
  s.stage = 3;
  const between: TState[] = [];
  if (!solidus || solidus.T > liquidus.T || !(yield* certifySolidus(s, solidus, liquidus, guess.between, between)))
    return undefined;
  return {
    value: { liquid_phases: liquids, liquidus: liquidus.T, solidus: solidus.T, range: ALLOY_T_RANGE },
    next: guessFrom({ liquidus, solidus, between }),
  };
}

/** alloySearch with its equilibria solved one after the other in this thread. */
export function alloyTemperaturesFromGuess(
  sys: AlloySystem,
  X: Record<string, number>,
  P: number,
  guess: AlloyGuess,
  cancelled: () => boolean,
): SearchAnswer | undefined {
  const derivatives = searchDerivatives(sys, X);
  const search = alloySearch(sys, X, guess);
  for (let step = search.next(); ;) {
    if (step.done) return step.value;
    if (cancelled()) throw new CancelledError();
    const { T, start } = step.value;
    const r = equilibrium({
      database: sys.db,
      components: sys.components,
      phases: sys.phases,
      conditions: { T, P, X },
      options: { derivatives, ...(start ? { start } : {}) },
    });
    step = search.next(r);
  }
}

/**
 * The change of `kind` near the guess: Newton's method on L(T) = 1 (liquidus) or 0 (solidus) from states with liquid
 * and solid. L is curved (a liquidus approached from below: Newton's tangent reaches 1 past the change), so a step
 * longer than NEAR aims at 0.9 of the way and stays among such states, and a step within NEAR puts the bracket of
 * 2 HALF_BRACKET around its estimate, which Newton's error there (the curvature times the step squared) leaves
 * holding the change. A state past the change bounds the later estimates. Out of a state without liquid, or with
 * liquid alone, steps of FIRST_STEP, doubled each time, go towards the change.
 */
function* findChange(s: Solver, kind: Kind, guess: GuessedChange): Search<FoundChange | undefined> {
  const budget = s.solves + MAX_SOLVES;
  // a little into the side with liquid and solid from the prediction, else from the guess
  const inset = kind === 'liquidus' ? -1 : 1;
  const predictedT = predicted(s, kind, guess);
  const T0 = predictedT !== undefined ? predictedT + inset * PREDICTION_INSET[kind] : guess.T + inset * GUESS_INSET;
  let cur: TState = { T: T0, r: undefined! };
  cur.r = yield* s.solve(cur.T, guess.start, predictedT !== undefined && LOCAL_FIRST_STATE[kind]);
  let far: TState | undefined;
  let step = predictedT !== undefined ? FIRST_STEP.prediction : FIRST_STEP.guess;
  while (s.solves < budget) {
    if (!cur.r.converged) return undefined;
    // a local state only gives the next Newton step; for anything else the state certified at its temperature
    if (cur.r.local && !onlySteppedFrom(s, kind, cur, far)) {
      cur = { T: cur.T, r: yield* s.solve(cur.T, cur.r) };
      continue;
    }
    if (far && between(cur.r) && Math.abs(far.T - cur.T) <= 2 * HALF_BRACKET) return changeBetween(kind, cur, far);
    if (!between(cur.r)) {
      if (beyond(kind, cur.r)) far = cur;
      const T = cur.T + (anyLiquid(cur.r) ? -step : step);
      step *= 2;
      if (T < ALLOY_T_RANGE[0] || T > ALLOY_T_RANGE[1]) return undefined;
      cur = { T, r: yield* s.solve(T, cur.r) };
      continue;
    }
    const h = newtonStep(s, kind, cur.r);
    if (h === undefined) return undefined;
    if (Math.abs(h) > NEAR) {
      // a step past the state known beyond the change halves the bracket instead
      const aim = cur.T + 0.9 * h;
      const T = far && (far.T - aim) * h <= 0 ? 0.5 * (cur.T + far.T) : aim;
      const r = yield* s.solve(T, cur.r);
      if (r.converged && beyond(kind, r)) far = { T, r };
      else cur = { T, r };
      continue;
    }
    if (Math.abs(h) <= ONE_SIDED) {
      // the change within ONE_SIDED of cur: cur is one end of the bracket, the other is 2 HALF_BRACKET away
      const T = cur.T + Math.sign(h) * 2 * HALF_BRACKET;
      const next = { T, r: yield* s.solve(T, cur.r) };
      if (!next.r.converged) return undefined;
      if (beyond(kind, next.r)) return changeBetween(kind, cur, next);
      if (!between(next.r)) return undefined;
      cur = next;
      continue;
    }
    // inside the bracket [cur, far] when a state past the change is known
    const sign = Math.sign(h);
    const estimate = far ? sign * Math.min(sign * (cur.T + h), sign * far.T - HALF_BRACKET) : cur.T + h;
    const found = yield* tryBracket(s, kind, estimate, cur.r);
    if (found.change) return found.change;
    if (found.far) far = found.far;
    if (found.inner) cur = found.inner;
    else if (!found.far) return undefined;
  }
  return undefined;
}

/** Newton's step towards the change from a state with liquid and solid, at most MAX_STEP; undefined without a slope. */
function newtonStep(s: Solver, kind: Kind, r: EquilibriumResult): number | undefined {
  const d = s.slope(r);
  if (!(d > 0)) return undefined;
  return Math.max(-MAX_STEP, Math.min(MAX_STEP, ((kind === 'liquidus' ? 1 : 0) - s.liquid(r)) / d));
}

/**
 * findChange takes only its next Newton step from `cur`: a state with liquid and solid, not next to one known past
 * the change, whose step is too long for it to be an end of the bracket.
 */
function onlySteppedFrom(s: Solver, kind: Kind, cur: TState, far: TState | undefined): boolean {
  if (!between(cur.r) || (far && Math.abs(far.T - cur.T) <= 2 * HALF_BRACKET)) return false;
  const h = newtonStep(s, kind, cur.r);
  return h !== undefined && Math.abs(h) > ONE_SIDED;
}

/** The change between a state with liquid and solid (`inner`) and one past the change (`past`), at most 0.01 K apart. */
function changeBetween(kind: Kind, inner: TState, past: TState): FoundChange {
  const [below, above] = kind === 'liquidus' ? [inner, past] : [past, inner];
  return { T: 0.5 * (below.T + above.T), below, above };
}

/**
 * The change at this alloy's composition predicted to first order from the guess's state (the neighbouring alloy's,
 * with liquid and solid): L + L_T dT + sum_el L_X(el) dX(el) = 1 or 0, with the solver's exact sensitivities
 * NP(LIQUID).T and NP(LIQUID).X(el) there. Undefined without such a state or when the prediction lies more than
 * MAX_STEP away.
 */
function predicted(s: Solver, kind: Kind, guess: GuessedChange): number | undefined {
  const r = guess.start;
  if (!r?.converged || !between(r)) return undefined;
  const d = s.slope(r);
  if (!(d > 0)) return undefined;
  let dL = 0;
  for (const [el, x] of Object.entries(s.X)) {
    const g = s.slopeX(r, el),
      x0 = r.x[el];
    if (!Number.isFinite(g) || x0 === undefined) return undefined;
    dL += g * (x - x0);
  }
  const h = ((kind === 'liquidus' ? 1 : 0) - s.liquid(r) - dL) / d;
  return Math.abs(h) <= MAX_STEP ? r.T + h : undefined;
}

/**
 * The states at estimate -+ HALF_BRACKET: the change when it lies between them, else the state with liquid and solid
 * nearest the change among them (Newton goes on from it) and the one past the change.
 */
function* tryBracket(
  s: Solver,
  kind: Kind,
  estimate: number,
  from: EquilibriumResult,
): Search<{ change?: FoundChange; inner?: TState; far?: TState }> {
  const lo = { T: estimate - HALF_BRACKET, r: yield* s.solve(estimate - HALF_BRACKET, from) };
  if (!lo.r.converged) return {};
  // above the change at both ends: past the liquidus (lo is the bound), or liquid and solid above the solidus
  if (above(kind, lo.r)) return beyond(kind, lo.r) ? { far: lo } : between(lo.r) ? { inner: lo } : {};
  const hi = { T: estimate + HALF_BRACKET, r: yield* s.solve(estimate + HALF_BRACKET, lo.r) };
  if (!hi.r.converged) return {};
  if (above(kind, hi.r)) return { change: { T: 0.5 * (lo.T + hi.T), below: lo, above: hi } };
  // below the change at both ends: the solidus lies above, the liquidus (a solid at hi) too, Newton goes on from hi
  if (beyond(kind, hi.r)) return { far: hi };
  return between(hi.r) ? { inner: hi } : {};
}

/** Liquid alone ALLOY_T_STEP above the liquidus too (the scan's resolution), the state certified. */
function* certifyLiquidus(s: Solver, liquidus: FoundChange): Search<boolean> {
  const r = yield* s.solve(liquidus.T + ALLOY_T_STEP, liquidus.above.r);
  return r.converged && onlyLiquid(r);
}

/**
 * Liquid at states at most ALLOY_T_STEP apart from the solidus's bracket up to the liquidus's, each certified: the
 * states the searches met between them count (each must hold liquid), and a gap wider than ALLOY_T_STEP gets states
 * of its own (into `solved`), each started from the state before it or a neighbouring alloy's (startNear).
 */
function* certifySolidus(
  s: Solver,
  solidus: FoundChange,
  liquidus: FoundChange,
  neighbours: TState[] | undefined,
  solved: TState[],
): Search<boolean> {
  const lo = solidus.above.T,
    hi = liquidus.below.T;
  const met = s.known.filter((k) => k.T >= lo && k.T <= hi).sort((a, b) => a.T - b.T);
  if (!met.every((k) => anyLiquid(k.r))) return false;
  const marks = [solidus.above, ...met, liquidus.below];
  for (let i = 1; i < marks.length; i++) {
    const a = marks[i - 1]!,
      b = marks[i]!;
    const n = Math.ceil((b.T - a.T) / ALLOY_T_STEP);
    let prev: TState = a;
    for (let k = 1; k < n; k++) {
      const T = a.T + (k * (b.T - a.T)) / n;
      const r = yield* s.solve(T, startNear(T, prev, neighbours));
      if (!r.converged || !anyLiquid(r)) return false;
      prev = { T, r };
      solved.push(prev);
    }
  }
  return true;
}

/** The next alloy's guess from a scan's temperatures (no states: its search starts from the bare temperatures). */
export function guessFromScan(value: AlloyTemperatures): AlloyGuess | undefined {
  const { liquidus, solidus } = value;
  return liquidus !== null && solidus !== null ? { liquidus: { T: liquidus }, solidus: { T: solidus } } : undefined;
}
