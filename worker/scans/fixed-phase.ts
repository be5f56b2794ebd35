// A phase fixed at an amount as a condition (point_calculation condition.fixed_phases, an extension): the temperature,
// at the alloy's fixed composition and pressure, at which the phase's amount crosses the given fraction of the atoms,
// the temperature left free as Thermo-Calc's "fix" status of a phase leaves it (Andersson, Helander, Höglund, Shi and
// Sundman, Calphad 26 (2002) 273). Amount 0 is the boundary where the phase appears or disappears (LIQUID at 0: the
// solidus, a precipitate at 0: its solvus); amount 1 where it is alone (LIQUID at 1: the liquidus). The boundary
// nearest the given temperature is taken: the search steps out from it on both sides (5 K, doubling) until the phase's
// state changes, then halves the bracket to ALLOY_T_TOLERANCE with global equilibria (the liquidus and solidus of
// worker/scans/alloy-temperatures.ts meet the same tolerance, so both give one temperature within 0.01 K).
import { baseName } from '../../contract/phases.js';
import { equilibrium, type EquilibriumResult } from '../core/equilibrium.js';
import { CancelledError } from '../protocol.js';
import { ALLOY_T_RANGE, type AlloySystem } from './alloy-temperatures.js';
import { ALLOY_T_TOLERANCE } from './highest-flip.js';

const FIRST_STEP = 5;

export interface FixedPhaseSearch {
  phase: string;
  /** fraction of the atoms in the phase at the temperature sought, 0..1 */
  amount: number;
  /** where the search starts, K */
  from: number;
}

export interface FixedPhaseTemperature {
  /** K, the middle of the final bracket */
  T: number;
  /** the bracket, K (at most ALLOY_T_TOLERANCE wide) */
  bracket: [number, number];
  /** the bracket's end on the phase's side (present for amount 0, alone for amount 1), K */
  stateT: number;
}

/**
 * The one entry of condition.fixed_phases (the schema allows one), its phase checked against the phases of the
 * calculation: `key` as given, `phase` upper case. Undefined when none is given.
 */
export function fixedPhaseEntry(
  sys: AlloySystem,
  fixed: Record<string, number> | undefined,
): { key: string; phase: string; amount: number } | undefined {
  const [entry] = Object.entries(fixed ?? {});
  if (!entry) return undefined;
  const [key, amount] = entry;
  const phase = key.toUpperCase();
  if (!(sys.phases ?? sys.formable).includes(phase))
    throw new Error(
      `condition.fixed_phases.${key}: ${phase} is not among the phases of this calculation (suppressed, not activated or not formable with the components)`,
    );
  return { key, phase, amount };
}

/** Fraction of the atoms in `phase` (all its composition sets). */
function amountOf(r: EquilibriumResult, phase: string): number {
  return r.phases.filter((p) => baseName(p.name) === phase).reduce((s, p) => s + p.NP, 0);
}

/** Which side of the sought amount a state is on: above it (true) or not. */
function sideOf(r: EquilibriumResult, f: FixedPhaseSearch): boolean {
  const np = amountOf(r, f.phase);
  if (f.amount <= 0) return np > 1e-12;
  if (f.amount >= 1) return np >= 1 - 1e-9;
  return np > f.amount;
}

/**
 * The temperature nearest `f.from` at which the phase's amount crosses `f.amount` (see the header), or an Error
 * saying why there is none in ALLOY_T_RANGE.
 */
export function fixedPhaseTemperature(
  sys: AlloySystem,
  X: Record<string, number>,
  P: number,
  f: FixedPhaseSearch,
  cancelled: () => boolean,
): FixedPhaseTemperature | Error {
  const solve = (T: number, start?: EquilibriumResult) => {
    if (cancelled()) throw new CancelledError();
    return equilibrium({
      database: sys.db,
      components: sys.components,
      phases: sys.phases,
      conditions: { T, P, X },
      options: start ? { start } : undefined,
    });
  };
  const r0 = solve(f.from);
  if (!r0.converged) return new Error(`the equilibrium at the start temperature ${f.from} K did not converge`);
  const bracket = findBracket(solve, f, { T: f.from, r: r0 });
  if (!bracket)
    return new Error(
      `${f.phase} at amount ${f.amount}: no such temperature between ${ALLOY_T_RANGE[0]} and ${ALLOY_T_RANGE[1]} K ` +
        `(the phase is ${sideOf(r0, f) ? 'above' : 'at or below'} that amount everywhere the search went)`,
    );
  let [a, b] = bracket;
  while (Math.abs(b.T - a.T) > ALLOY_T_TOLERANCE) {
    const T = 0.5 * (a.T + b.T);
    const r = solve(T, a.r);
    if (!r.converged) return new Error(`the equilibrium at ${T.toFixed(3)} K did not converge`);
    if (sideOf(r, f) === sideOf(a.r, f)) a = { T, r };
    else b = { T, r };
  }
  const onSide = sideOf(a.r, f) ? a : b;
  const lo = Math.min(a.T, b.T),
    hi = Math.max(a.T, b.T);
  return { T: 0.5 * (lo + hi), bracket: [lo, hi], stateT: onSide.T };
}

interface TState {
  T: number;
  r: EquilibriumResult;
}

/** The nearest pair of neighbouring states on either side of the sought amount, stepping out from `start`. */
function findBracket(
  solve: (T: number, start?: EquilibriumResult) => EquilibriumResult,
  f: FixedPhaseSearch,
  start: TState,
): [TState, TState] | null {
  const side0 = sideOf(start.r, f);
  let up: TState | null = start,
    down: TState | null = start;
  for (let step = FIRST_STEP; up || down; step *= 2) {
    for (const dir of [1, -1] as const) {
      const last: TState | null = dir > 0 ? up : down;
      if (!last) continue;
      const T = Math.min(ALLOY_T_RANGE[1], Math.max(ALLOY_T_RANGE[0], start.T + dir * step));
      const r: EquilibriumResult | null = T === last.T ? null : solve(T, last.r);
      const next: TState | null = r && r.converged ? { T, r } : null;
      if (next && sideOf(next.r, f) !== side0) return [last, next];
      if (dir > 0) up = next;
      else down = next;
    }
  }
  return null;
}
