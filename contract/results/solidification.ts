// result.json of task type solidification (worker/calculations/solidification.ts). Types only: the renderer imports
// this file. Units: K, K/s, m, s, m^2/s, fractions of the alloy's atoms.
import type { ResultDocument, ResultTable } from './common.js';

/** A point of a solidification path. */
export interface SolidPathPoint {
  T: number;
  fraction_solid: number;
}

/** How much one element diffuses back into the solid (Clyne and Kurz 1981). */
export interface BackDiffusion {
  element: string;
  /** m^2/s in the primary solid at the middle of the freezing range; null: no data (no back diffusion) */
  diffusivity: number | null;
  source: string;
  /** Fourier number 4 D t_f / lambda_2^2 */
  alpha: number | null;
  /** Clyne and Kurz's Omega, 0 (Scheil) to 1/2 (equilibrium) */
  omega: number;
}

export interface SolidificationDocument extends ResultDocument {
  task_type: 'solidification';
  pressure: number;
  /** the alloy's mole fractions */
  composition: Record<string, number>;
  liquidus: number | null;
  primary_phase: string | null;
  cooling_rate: number;
  secondary_arm_spacing: number;
  arm_spacing_source: 'given' | 'derived from the cooling rate';
  /** (liquidus - Scheil solidus) / cooling rate, s */
  local_solidification_time: number | null;
  back_diffusion: BackDiffusion[];
  /** added, with condition.solute_trapping: the front's velocity V (m/s, given or cooling rate / thermal gradient),
   * Aziz's diffusive speed V_D (m/s) and their ratio, in k_v = (k_e + V/V_D)/(1 + V/V_D); null without */
  solute_trapping: {
    interface_velocity: number;
    velocity_source: 'given' | 'cooling rate / thermal gradient';
    diffusive_speed: number;
    velocity_ratio: number;
  } | null;
  /** the path with back diffusion, the classic Scheil path and the lever rule */
  path: SolidPathPoint[];
  scheil_path: SolidPathPoint[];
  lever_rule: SolidPathPoint[];
  /** where each path ends: the non-equilibrium solidus with back diffusion, Scheil's, the equilibrium solidus */
  solidus: number | null;
  scheil_solidus: number | null;
  lever_rule_solidus: number | null;
  end_reason: string;
  /** the solid phases in the order they start to form along the path */
  phases_in_order: string[];
  /** along the path with back diffusion, per temperature (worker/scans/scheil/path-heat.ts): the latent heat released
   * there (J per mole of alloy: the enthalpy the whole, liquid and every slice of solid, loses isothermally in the
   * steps at T), its sum from the start; the heat capacities of the interval from the temperature before, J/(mol K):
   * `sensible_cp` (the whole cooled at fixed amounts and compositions), `latent_cp` (the latent heat per kelvin) and
   * `apparent_cp` = their sum, -dH/dT along the path; `enthalpy`, H of the whole after the steps at T less H at the
   * start, J/mol */
  latent_heat: {
    T: number;
    released: number;
    cumulative: number;
    apparent_cp: number;
    sensible_cp: number;
    latent_cp: number;
    enthalpy: number;
  }[];
  /** the composition of the solid as it forms, against the fraction solid before it (microsegregation) */
  microsegregation: { fraction_solid: number; x: Record<string, number> }[];
  /** added: the same slices of solid at the end of solidification, after back diffusion: of element j each keeps
   * 1 - 2 Omega_j of the composition it formed with and 2 Omega_j takes the composition of the last solid formed with
   * back diffusion (worker/scans/scheil/final-profile.ts) */
  final_profile: { fraction_solid: number; x: Record<string, number> }[];
  table: ResultTable;
  notes: string[];
}
