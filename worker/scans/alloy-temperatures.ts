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
import { equilibrium, type EquilibriumConditions, type EquilibriumResult } from '../core/equilibrium.js';
import type { NativeDatabase } from '../core/native.js';
import { CancelledError } from '../protocol.js';

import type { AlloyTemperaturesField } from '../../contract/results/point_calculation.js';
import type { InvariantCrossing } from '../../contract/results/line_calculation.js';

export type { InvariantCrossing };

export const ALLOY_T_RANGE: [number, number] = [200, 4000];
/** step of the downward scan, K: a bracket is narrowed to ALLOY_T_TOLERANCE whatever its width */
export const ALLOY_T_STEP = 50;
export const ALLOY_T_TOLERANCE = 0.01;
/** first step of the upward probe from a known temperature to the first fully liquid state, K (doubled at each probe) */
export const ALLOY_T_PROBE = 50;
/** states of the downward scan between two checks whether the solidus is bracketed */
const SCAN_CHUNK = 4;

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
  const at = (T: number): EquilibriumConditions => ({ T, P, X });
  const onlyLiquid = (r: EquilibriumResult) => r.phases.length > 0 && r.phases.every((p) => isLiquidName(p.name));
  const anyLiquid = (r: EquilibriumResult) => r.phases.some((p) => isLiquidName(p.name));
  // Scanned from the top down, in chunks, until the solidus is bracketed (no liquid below a state with liquid):
  // the highest changes are met first, and the slow low-temperature equilibria of ordered phases are never
  // computed (a quaternary with ordered BCC and L12: 33 s bottom-up, a fraction of that top-down).
  // With a known state (the point's T): the scan starts at the first probed temperature at or above it where only
  // liquid is stable, instead of at the top of the range; the probes go up by ALLOY_T_PROBE, then twice as far at
  // each further probe (a liquidus 1000 K above the point costs 5 probes, not 10), and the last one is the range's top.
  let top = range[1];
  let topState: EquilibriumResult | undefined;
  if (startT !== undefined && startT >= range[0] && startT <= range[1]) {
    let probe = ALLOY_T_PROBE;
    for (let T = startT; ; T = Math.min(range[1], T + probe), probe *= 2) {
      if (cancelled()) throw new CancelledError();
      const r =
        T === startT && startState?.converged && startState.T === startT
          ? startState
          : equilibrium({ database: sys.db, components: sys.components, phases: sys.phases, conditions: at(T) });
      if (r.converged && onlyLiquid(r)) {
        top = T;
        topState = r;
        break;
      }
      if (T >= range[1]) break;
    }
  }
  const down: number[] = [];
  for (let T = top; T >= range[0] - 1e-9; T -= step) down.push(T);
  // the scan starts with the fully liquid probe's state
  const downResults: EquilibriumResult[] = topState ? [topState] : [];
  const solidusBracketed = () => {
    for (let i = 1; i < downResults.length; i++) {
      const hi = downResults[i - 1]!,
        lo = downResults[i]!;
      if (hi.converged && lo.converged && anyLiquid(hi) && !anyLiquid(lo)) return true;
    }
    return false;
  };
  for (let i = downResults.length; i < down.length && !solidusBracketed(); i += SCAN_CHUNK) {
    if (cancelled()) throw new CancelledError();
    // each state starts from the one above it (a chain of warm starts, as equilibriumBatch's warmStart)
    for (const T of down.slice(i, i + SCAN_CHUNK)) {
      const prev = downResults[downResults.length - 1];
      downResults.push(
        equilibrium({
          database: sys.db,
          components: sys.components,
          phases: sys.phases,
          conditions: at(T),
          options: prev?.converged ? { start: prev } : undefined,
        }),
      );
    }
  }
  const Ts = down.slice(0, downResults.length).reverse();
  const results = [...downResults].reverse();
  /** every state computed so far (scan and refinements), so the solidus starts from what the liquidus met */
  const known: { T: number; r: EquilibriumResult }[] = Ts.map((T, i) => ({ T, r: results[i]! }));
  /**
   * Highest grid bracket where pred is false below and true above (liquidus: only liquid above; solidus: any liquid
   * above, none below), narrowed to ALLOY_T_TOLERANCE keeping a state on each side, from the highest such change
   * among the states already computed in it. `amount` vanishes at the change on one side of it (liquidus: the
   * solid phases below; solidus: the liquid above) and is smooth there except at an invariant: the two states
   * nearest the change on that side extrapolate it linearly to zero, and the next step goes ALLOY_T_TOLERANCE * 0.45
   * past that estimate, alternately to either side (regula falsi kept bracketed, as in Brent's method); an
   * estimate outside the bracket, or a step that lands on the side it did not aim at, gives a bisection step
   * instead. The answer is the middle of the final bracket either way, as the bisection's.
   */
  const highestFlip = (
    pred: (r: EquilibriumResult) => boolean,
    amount: (r: EquilibriumResult) => number,
    amountBelow: boolean,
  ): number | null => {
    for (let i = Ts.length - 2; i >= 0; i--) {
      const lo = results[i]!,
        hi = results[i + 1]!;
      if (!lo.converged || !hi.converged || pred(lo) || !pred(hi)) continue;
      const inside = known.filter((k) => k.r.converged && k.T >= Ts[i]! && k.T <= Ts[i + 1]!).sort((x, y) => x.T - y.T);
      let j = inside.length - 2;
      while (j > 0 && (pred(inside[j]!.r) || !pred(inside[j + 1]!.r))) j--;
      let a = inside[j]!.T,
        b = inside[j + 1]!.T;
      /** states on the amount's side with a positive amount, the nearest to the change last */
      const side = (amountBelow ? inside.slice(0, j + 1) : inside.slice(j + 1).reverse())
        .map((k) => ({ T: k.T, v: amount(k.r) }))
        .filter((k) => k.v > 0);
      const tol = ALLOY_T_TOLERANCE,
        towardAmount = amountBelow ? -1 : 1;
      const within = (t: number) => t > a + 0.02 * tol && t < b - 0.02 * tol;
      let aimAtAmountSide = true,
        lastAimMissed = false;
      // each step starts from the previous step's state (the solver re-scans the grid with the final chemical
      // potentials, so a warm start gives the cold start's answer)
      let near = amountBelow ? inside[j]!.r : inside[j + 1]!.r;
      for (let step = 0; b - a > tol && step < 100; step++) {
        if (cancelled()) throw new CancelledError();
        let m = 0.5 * (a + b);
        let aimed: boolean | null = null;
        const p = side[side.length - 2],
          q = side[side.length - 1];
        if (p && q && q.v !== p.v && !lastAimMissed) {
          const zero = q.T - (q.v * (q.T - p.T)) / (q.v - p.v);
          const toAmount = zero + towardAmount * 0.45 * tol,
            toOther = zero - towardAmount * 0.45 * tol;
          const [first, second] = aimAtAmountSide ? [toAmount, toOther] : [toOther, toAmount];
          if (within(first)) {
            m = first;
            aimed = aimAtAmountSide;
          } else if (within(second)) {
            m = second;
            aimed = !aimAtAmountSide;
          }
        }
        const r = equilibrium({
          database: sys.db,
          components: sys.components,
          phases: sys.phases,
          conditions: at(m),
          options: { start: near },
        });
        if (!r.converged) break;
        near = r;
        known.push({ T: m, r });
        const above = pred(r);
        if (above) b = m;
        else a = m;
        const onAmountSide = above !== amountBelow;
        if (onAmountSide) {
          const v = amount(r);
          if (v > 0) side.push({ T: m, v });
        }
        lastAimMissed = aimed !== null && aimed !== onAmountSide;
        if (aimed !== null) aimAtAmountSide = !aimed;
      }
      return 0.5 * (a + b);
    }
    return null;
  };
  const isSolid = (p: { name: string }) => !isLiquidName(p.name);
  const liquidus = highestFlip(onlyLiquid, (r) => r.phases.filter(isSolid).reduce((t, p) => t + p.NP, 0), true);
  const solidus = highestFlip(
    anyLiquid,
    (r) => r.phases.filter((p) => isLiquidName(p.name)).reduce((t, p) => t + p.NP, 0),
    false,
  );
  const notes: string[] = [];
  if (liquidus === null)
    notes.push(
      `no liquidus between ${range[0]} and ${range[1]} K (the alloy is ${results[results.length - 1] && onlyLiquid(results[results.length - 1]!) ? 'liquid over the whole range' : 'not fully liquid at the top of the range'})`,
    );
  if (solidus === null) notes.push(`no solidus between ${range[0]} and ${range[1]} K`);
  return { liquid_phases: liquids, liquidus, solidus, range, ...(notes.length ? { note: notes.join('; ') } : {}) };
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
