// result.json of task type scheil_solidification (shape documented in docs/calculations.md; field names
// are binding, fields may only be added). Types only: the renderer imports this file, so it stays free
// of node: imports. Units: K, mole fractions, fractions per mole of atoms of the alloy.
import type { ResultDocument, ResultTable } from './common.js';

export type ScheilEndReason = 'liquid_exhausted' | 'eutectic' | 'minimum_temperature' | 'not_converged' | 'no_liquid';

export interface ScheilStep {
  T: number;
  /** accumulated fraction solid after this step (moles of atoms of solid per mole of alloy) */
  fraction_solid: number;
  fraction_liquid: number;
  /** solid phase labels (NAME, NAME#2) that formed in this step */
  phases_forming: string[];
  /** composition of the remaining liquid after this step */
  liquid_x: Record<string, number>;
  /** fraction of the alloy that solidified in this step */
  solid_increment: number;
  /** added: amount of each phase formed in this step, per mole of alloy */
  phase_increments?: Record<string, number>;
  /** added: heat released in this step, J per mole of alloy: the solids formed times (H of the liquid - H of the
   * solid) at the step's equilibrium (the latent heat of the path) */
  latent_heat?: number;
}

/** The solidification path itself (result.json fields; the calculation's run carries them too). */
export interface ScheilPath {
  liquid_phase: string;
  /** temperature at which the first solid forms (refined by bisection to 0.01 K); null if never */
  liquidus_temperature: number | null;
  /** temperature at which the Scheil path ends (the last liquid solidifies); null if it never ends */
  solidus_temperature: number | null;
  end_reason: ScheilEndReason;
  steps: ScheilStep[];
  /** equilibrium (lever-rule) solidification of the same alloy at fixed overall composition */
  lever_rule: { T: number; fraction_solid: number }[];
  lever_rule_solidus_temperature: number | null;
  /** solid phases forming at the final invariant (eutectic end), [] otherwise */
  eutectic_phases: string[];
  /** total amount of each solid phase at the end, per mole of alloy */
  phase_totals: Record<string, number>;
  /** overall mole fractions of the alloy */
  composition: Record<string, number>;
  /** added: the start temperature of the path, K (condition.start_temperature) */
  start_temperature: number;
  /**
   * added: true when the alloy was already partly or wholly solid at the start temperature: the path above it was
   * not followed, so the Scheil curve misses the solid that forms between the liquidus and the start
   */
  started_below_liquidus: boolean;
  /** added: a start temperature at which the alloy is liquid (the liquidus rounded up to the next kelvin), or null */
  suggested_start_temperature: number | null;
  /** added: what the user should know about this result (a start below the liquidus), also in the task's logs */
  warnings: string[];
}

export interface ScheilDocument extends ResultDocument, ScheilPath {
  task_type: 'scheil_solidification';
  table: ResultTable;
  /**
   * added: the alloy's temperatures side by side, K: liquidus (first solid), the end of the Scheil path (its last
   * liquid) and the equilibrium (lever-rule) solidus; null where there is none
   */
  alloy_temperatures?: { liquidus: number | null; scheil_end: number | null; equilibrium_solidus: number | null };
  /** added: overall mass fractions of the alloy (absent when an element has no molar mass) */
  composition_w?: Record<string, number>;
}
