// Liquidus and solidus temperatures of an alloy, and the invariants a line crosses (docs/calculations.md
// "Liquidus, solidus and invariants"). The liquidus is the temperature above which only liquid phases are stable
// at the alloy's overall composition; the (equilibrium) solidus the temperature below which no liquid is stable.
// Both come from a T scan of global equilibria (warm-started, 50 K steps from 4000 K, or from the first fully liquid
// state above a known temperature, found by probes whose step doubles, down until the solidus is bracketed, at most
// to 200 K) and the highest change of "only liquid" / "any liquid" narrowed to a bracket of 0.01 K (highestFlip):
// the same definitions as the validation runner's
// T_liquidus / T_solidus (worker/validation/alloy.ts). An invariant on a line is a transition at which C + 1
// phases coexist (C elements, pressure fixed: Gibbs' phase rule leaves no degree of freedom).
import { isLiquidName } from '../../contract/phases.js';
import { type PointConverter } from '../system/point-converter.js';
import { phaseLabel } from '../../contract/results/common.js';
import { equilibrium, type EquilibriumResult } from '../core/equilibrium.js';
import { highestFlip, type FlipScan, type TState } from './highest-flip.js';
import type { NativeDatabase } from '../core/native.js';
import { CancelledError } from '../protocol.js';

import type { AlloyTemperaturesField } from '../../contract/results/point_calculation.js';
import type { InvariantCrossing } from '../../contract/results/line_calculation.js';

export type { InvariantCrossing };

export const ALLOY_T_RANGE: [number, number] = [200, 4000];
/** step of the downward scan, K: a bracket is narrowed to ALLOY_T_TOLERANCE whatever its width */
export const ALLOY_T_STEP = 50;
/** first step of the upward probe from a known temperature to the first fully liquid state, K (doubled at each probe) */
export const ALLOY_T_PROBE = 50;

/** Liquidus and solidus of an alloy as point and line results give them (contract/results/point_calculation.ts). */
export type AlloyTemperatures = AlloyTemperaturesField;

export interface AlloySystem {
  db: NativeDatabase;
  components: string[];
  /** activated phases, or undefined = every phase */
  phases: string[] | undefined;
  /** phases the components allow (to find the liquid ones when none are activated) */
  formable: string[];
}

const isSolid = (p: { name: string }) => !isLiquidName(p.name);
const onlyLiquid = (r: EquilibriumResult) => r.phases.length > 0 && r.phases.every((p) => isLiquidName(p.name));
const anyLiquid = (r: EquilibriumResult) => r.phases.some((p) => isLiquidName(p.name));

/** The equilibria of the alloy: at T, from a start or cold. */
type SolveAt = (T: number, start?: EquilibriumResult) => EquilibriumResult;

/**
 * Liquidus and solidus at the overall mole fractions X (all components but one). `cancelled` is polled
 * between the scan's chunks and the narrowing steps. `startState`: the caller's converged equilibrium at startT and
 * X (the point itself), taken as the first probe instead of computing it again.
 */
export function alloyTemperatures(
  sys: AlloySystem,
  X: Record<string, number>,
  P: number,
  cancelled: () => boolean = () => false,
  range: [number, number] = ALLOY_T_RANGE,
  step = ALLOY_T_STEP,
  startT?: number,
  startState?: EquilibriumResult,
): AlloyTemperatures {
  const liquids = (sys.phases ?? sys.formable).filter(isLiquidName);
  if (liquids.length === 0)
    return { liquid_phases: [], liquidus: null, solidus: null, range, note: 'no liquid phase in the system' };
  const solve: SolveAt = (T, start) =>
    equilibrium({
      database: sys.db,
      components: sys.components,
      phases: sys.phases,
      conditions: { T, P, X },
      options: start ? { start } : undefined,
    });
  // Scanned from the top down, state by state, until the solidus is bracketed (no liquid below a state with liquid):
  // the highest changes are met first, and the slow low-temperature equilibria of ordered phases are never
  // computed (a quaternary with ordered BCC and L12: 33 s bottom-up, a fraction of that top-down).
  const top =
    startT !== undefined && startT >= range[0] && startT <= range[1]
      ? liquidTop(solve, range, startT, startState, cancelled)
      : { T: range[1], probes: [] };
  const downResults = scanDown(solve, top, range[0], step, cancelled);
  const Ts = downResults.map((k) => k.T).reverse();
  const results = downResults.map((k) => k.r).reverse();
  const scan: FlipScan = {
    Ts,
    results,
    known: Ts.map((T, i) => ({ T, r: results[i]! })),
    solve,
    cancelled,
  };
  const liquidus = highestFlip(scan, {
    pred: onlyLiquid,
    amount: (r) => r.phases.filter(isSolid).reduce((t, p) => t + p.NP, 0),
    amountBelow: true,
  });
  const solidus = highestFlip(scan, {
    pred: anyLiquid,
    amount: (r) => r.phases.filter((p) => isLiquidName(p.name)).reduce((t, p) => t + p.NP, 0),
    amountBelow: false,
  });
  const notes: string[] = [];
  if (liquidus === null)
    notes.push(
      `no liquidus between ${range[0]} and ${range[1]} K (the alloy is ${results[results.length - 1] && onlyLiquid(results[results.length - 1]!) ? 'liquid over the whole range' : 'not fully liquid at the top of the range'})`,
    );
  if (solidus === null) notes.push(`no solidus between ${range[0]} and ${range[1]} K`);
  return { liquid_phases: liquids, liquidus, solidus, range, ...(notes.length ? { note: notes.join('; ') } : {}) };
}

/**
 * The top of the downward scan from a known state at startT: the first probed temperature at or above it where
 * only liquid is stable (with its state), else the range's top. The probes go up by ALLOY_T_PROBE, then twice as
 * far at each further probe (a liquidus 1000 K above the point costs 5 probes, not 10), and the last one is the
 * range's top; each probe is warm-started from the one below.
 */
function liquidTop(
  solve: SolveAt,
  range: [number, number],
  startT: number,
  startState: EquilibriumResult | undefined,
  cancelled: () => boolean,
): ScanTop {
  let probe = ALLOY_T_PROBE;
  let below: EquilibriumResult | undefined;
  const probes: TState[] = [];
  for (let T = startT; ; T = Math.min(range[1], T + probe), probe *= 2) {
    if (cancelled()) throw new CancelledError();
    // each probe starts from the one below it: the re-scan of the grid certifies a warm start as a cold one, at
    // half the cost on a steel's 130 phases
    const r =
      T === startT && startState?.converged && startState.T === startT
        ? startState
        : solve(T, below?.converged ? below : undefined);
    if (r.converged && onlyLiquid(r)) return { T, r, probes };
    if (T >= range[1]) return { T: range[1], probes };
    if (r.converged) probes.push({ T, r });
    below = r;
  }
}

/** Where the downward scan starts (with the state there when known), and the converged probes below it. */
interface ScanTop {
  T: number;
  r?: EquilibriumResult;
  probes: TState[];
}

/** The converged state among `known` at T (within 1e-6 K), or undefined. */
function stateAt(known: TState[], T: number): EquilibriumResult | undefined {
  return known.find((k) => Math.abs(k.T - T) <= 1e-6)?.r;
}

/**
 * The states of the scan from `top` down in steps of `step` until the solidus is bracketed (a state with liquid
 * directly above one without: the highest changes of both conditions lie above it, so no state below is needed) or
 * the range's bottom; the first is the top's liquid state when known. A probe on the way up that lies at one of the
 * scan's temperatures is that state (a converged equilibrium at the same T and composition), not solved again.
 */
function scanDown(solve: SolveAt, top: ScanTop, bottom: number, step: number, cancelled: () => boolean): TState[] {
  const out: TState[] = top.r ? [{ T: top.T, r: top.r }] : [];
  for (let T = top.T - (top.r ? step : 0); T >= bottom - 1e-9; T -= step) {
    if (cancelled()) throw new CancelledError();
    // each state starts from the one above it (a chain of warm starts, as equilibriumBatch's warmStart)
    const prev = out[out.length - 1]?.r;
    const r = stateAt(top.probes, T) ?? solve(T, prev?.converged ? prev : undefined);
    out.push({ T, r });
    if (prev?.converged && r.converged && anyLiquid(prev) && !anyLiquid(r)) break;
  }
  return out;
}

/**
 * Invariants among a line's transitions: `edges` are the converged states at both ends of every final
 * bracket, two per transition in the order of `transitions` (line_calculation's refineTransitions).
 */
export function invariantsCrossed(
  transitions: { s: number; T: number; phases_before: string[]; phases_after: string[] }[],
  edges: { s: number; r: EquilibriumResult }[],
  conv: PointConverter,
  elementCount: number,
): InvariantCrossing[] {
  const out: InvariantCrossing[] = [];
  transitions.forEach((t, i) => {
    const union = [...new Set([...t.phases_before, ...t.phases_after])].sort();
    if (union.length < elementCount + 1) return;
    const below = edges[2 * i],
      above = edges[2 * i + 1];
    if (!below || !above) return;
    const compositions: InvariantCrossing['compositions'] = {};
    for (const side of [below, above]) {
      for (const q of conv.point(side.r).phases) {
        const label = phaseLabel(q);
        if (union.includes(label) && !compositions[label]) compositions[label] = { x: q.x, ...(q.w ? { w: q.w } : {}) };
      }
    }
    out.push({ T: t.T, s: t.s, phases: union, compositions });
  });
  return out;
}
