// Liquidus and solidus temperatures of an alloy, and the invariants a line crosses (docs/calculations.md
// "Liquidus, solidus and invariants"). The liquidus is the temperature above which only liquid phases are stable
// at the alloy's overall composition; the (equilibrium) solidus the temperature below which no liquid is stable.
// Both come from a T scan of global equilibria (warm-started, 50 K steps from 4000 K, or from the first fully liquid
// state above a known temperature, found by probes whose step doubles, down until the solidus is bracketed, at most
// to 200 K) and a bisection of the highest change of "only liquid" / "any liquid" to 0.01 K, each bisection step
// started from the previous one's state: the same definitions as the validation runner's
// T_liquidus / T_solidus (worker/validation/alloy.ts). An invariant on a line is a transition at which C + 1
// phases coexist (C elements, pressure fixed: Gibbs' phase rule leaves no degree of freedom).
import { equilibrium, equilibriumBatch, type EquilibriumConditions, type EquilibriumResult } from '../core/equilibrium.js';
import type { NativeDatabase } from '../core/native.js';
import { CancelledError } from '../protocol.js';
import type { PointConverter } from './common.js';
import { phaseLabel } from './common.js';

/** Liquid phases by name, as the diagram mapper and the validation runner tell them (LIQUID, LIQ..., IONIC_LIQ). */
export function isLiquidPhase(name: string): boolean {
  return /^LIQ|LIQUID|^IONIC_LIQ/i.test(name);
}

export const ALLOY_T_RANGE: [number, number] = [200, 4000];
/** step of the downward scan, K: a bracket is bisected to ALLOY_T_TOLERANCE whatever its width */
export const ALLOY_T_STEP = 50;
export const ALLOY_T_TOLERANCE = 0.01;
/** first step of the upward probe from a known temperature to the first fully liquid state, K (doubled at each probe) */
export const ALLOY_T_PROBE = 50;
/** states per warm-started batch of the downward scan (the scan stops at the first batch that brackets the solidus) */
const SCAN_CHUNK = 4;

export interface AlloyTemperatures {
  /** liquid phases of the system (empty: no liquidus or solidus) */
  liquid_phases: string[];
  /** K, or null when there is none in the scanned range */
  liquidus: number | null;
  solidus: number | null;
  /** scanned range, K */
  range: [number, number];
  /** why a temperature is null */
  note?: string;
}

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
 * between the scan's chunks and the bisection steps.
 */
export function alloyTemperatures(sys: AlloySystem, X: Record<string, number>, P: number, cancelled: () => boolean = () => false,
  range: [number, number] = ALLOY_T_RANGE, step = ALLOY_T_STEP, startT?: number): AlloyTemperatures {
  const liquids = (sys.phases ?? sys.formable).filter(isLiquidPhase);
  if (liquids.length === 0) return { liquid_phases: [], liquidus: null, solidus: null, range, note: 'no liquid phase in the system' };
  const at = (T: number): EquilibriumConditions => ({ T, P, X });
  const onlyLiquid = (r: EquilibriumResult) => r.phases.length > 0 && r.phases.every((p) => isLiquidPhase(p.name));
  const anyLiquid = (r: EquilibriumResult) => r.phases.some((p) => isLiquidPhase(p.name));
  // Scanned from the top down, in chunks, until the solidus is bracketed (no liquid below a state with liquid):
  // the highest changes are met first, and the slow low-temperature equilibria of ordered phases are never
  // computed (a quaternary with ordered BCC and L12: 33 s bottom-up, a fraction of that top-down).
  // With a known state (the point's T): the scan starts at the first probed temperature at or above it where only
  // liquid is stable, instead of at the top of the range; the probes go up by ALLOY_T_PROBE, then twice as far at
  // each further probe (a liquidus 1000 K above the point costs 5 probes, not 10), and the last one is the range's top.
  let top = range[1];
  if (startT !== undefined && startT >= range[0] && startT <= range[1]) {
    let probe = ALLOY_T_PROBE;
    for (let T = startT; ; T = Math.min(range[1], T + probe), probe *= 2) {
      if (cancelled()) throw new CancelledError();
      const r = equilibrium({ database: sys.db, components: sys.components, phases: sys.phases, conditions: at(T) });
      if (r.converged && onlyLiquid(r)) { top = Math.min(range[1], T + step); break; }
      if (T >= range[1]) break;
    }
  }
  const down: number[] = [];
  for (let T = top; T >= range[0] - 1e-9; T -= step) down.push(T);
  const downResults: EquilibriumResult[] = [];
  const solidusBracketed = () => {
    for (let i = 1; i < downResults.length; i++) {
      const hi = downResults[i - 1]!, lo = downResults[i]!;
      if (hi.converged && lo.converged && anyLiquid(hi) && !anyLiquid(lo)) return true;
    }
    return false;
  };
  for (let i = 0; i < down.length && !solidusBracketed(); i += SCAN_CHUNK) {
    if (cancelled()) throw new CancelledError();
    // each batch starts from the last state of the previous one (the scan's chain of warm starts continues)
    const chunk = down.slice(i, i + SCAN_CHUNK);
    const prev = downResults[downResults.length - 1];
    const first = equilibrium({ database: sys.db, components: sys.components, phases: sys.phases, conditions: at(chunk[0]!),
      options: prev?.converged ? { start: prev } : undefined });
    downResults.push(first);
    if (chunk.length > 1) {
      downResults.push(...equilibriumBatch({ database: sys.db, components: sys.components, phases: sys.phases,
        conditions: chunk.map(at), options: { warmStart: true } }).slice(1));
    }
  }
  const Ts = down.slice(0, downResults.length).reverse();
  const results = [...downResults].reverse();
  /** highest grid bracket where pred is false below and true above, bisected on pred (liquidus: only liquid above; solidus: any liquid above, none below) */
  const highestFlip = (pred: (r: EquilibriumResult) => boolean): number | null => {
    for (let i = Ts.length - 2; i >= 0; i--) {
      const lo = results[i]!, hi = results[i + 1]!;
      if (!lo.converged || !hi.converged || pred(lo) || !pred(hi)) continue;
      let a = Ts[i]!, b = Ts[i + 1]!;
      // each step starts from the state nearest to its midpoint, the previous step's (the solver re-scans the grid
      // with the final chemical potentials, so a warm start gives the cold start's answer)
      let near = hi;
      while (b - a > ALLOY_T_TOLERANCE) {
        if (cancelled()) throw new CancelledError();
        const m = 0.5 * (a + b);
        const r = equilibrium({ database: sys.db, components: sys.components, phases: sys.phases, conditions: at(m), options: { start: near } });
        if (!r.converged) break;
        near = r;
        if (pred(r)) b = m; else a = m;
      }
      return 0.5 * (a + b);
    }
    return null;
  };
  const liquidus = highestFlip(onlyLiquid);
  const solidus = highestFlip(anyLiquid);
  const notes: string[] = [];
  if (liquidus === null) notes.push(`no liquidus between ${range[0]} and ${range[1]} K (the alloy is ${results[results.length - 1] && onlyLiquid(results[results.length - 1]!) ? 'liquid over the whole range' : 'not fully liquid at the top of the range'})`);
  if (solidus === null) notes.push(`no solidus between ${range[0]} and ${range[1]} K`);
  return { liquid_phases: liquids, liquidus, solidus, range, ...(notes.length ? { note: notes.join('; ') } : {}) };
}

/** A transition of a line at which C + 1 phases coexist, with each phase's composition there. */
export interface InvariantCrossing {
  T: number;
  /** path parameter of the line (0..1) */
  s: number;
  phases: string[];
  /** phase label -> mole fractions (and mass fractions where the database has molar masses) at the invariant */
  compositions: Record<string, { x: Record<string, number>; w?: Record<string, number> }>;
}

/**
 * Invariants among a line's transitions: `edges` are the converged states at both ends of every final
 * bracket, two per transition in the order of `transitions` (line_calculation's refineTransitions).
 */
export function invariantsCrossed(transitions: { s: number; T: number; phases_before: string[]; phases_after: string[] }[],
  edges: { s: number; r: EquilibriumResult }[], conv: PointConverter, elementCount: number): InvariantCrossing[] {
  const out: InvariantCrossing[] = [];
  transitions.forEach((t, i) => {
    const union = [...new Set([...t.phases_before, ...t.phases_after])].sort();
    if (union.length < elementCount + 1) return;
    const below = edges[2 * i], above = edges[2 * i + 1];
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
