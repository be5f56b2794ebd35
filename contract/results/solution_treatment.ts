// result.json of task type solution_treatment (worker/calculations/solution_treatment.ts). Types only: the renderer
// imports this file. Units: K, Pa, moles of atoms of a phase per mole of atoms, m, s, m^2/s.
import type { ResultDocument, ResultTable } from './common.js';

/** The time to dissolve one particle (Whelan 1969): its radius against time at one temperature. */
export interface Dissolution {
  phase: string;
  temperature: number;
  /** the solute whose diffusion controls it: the element the precipitate is richest in against the matrix */
  solute: string;
  /** its mole fractions: in the matrix far away (the alloy), at the interface, in the precipitate */
  c_matrix: number;
  c_interface: number;
  c_precipitate: number;
  /** k = 2 (c_interface - c_matrix) / (c_precipitate - c_interface): the supersaturation that drives it */
  k: number;
  /** m^2/s, and where it comes from */
  diffusivity: number;
  diffusivity_source: string;
  initial_radius: number;
  /** s; null when the particle does not dissolve at this temperature (k <= 0: below the solvus) */
  time: number | null;
  /** radius against time, from the start to the end */
  curve: { t: number; r: number }[];
}

export interface SolutionTreatmentDocument extends ResultDocument {
  task_type: 'solution_treatment';
  pressure: number;
  /** the alloy's mole fractions */
  composition: Record<string, number>;
  /** the scan: temperatures and each phase's amount there (0 where absent) */
  temperatures: number[];
  amounts: Record<string, number[]>;
  liquidus: number | null;
  solidus: number | null;
  /** the end of the as-cast alloy's Scheil-Gulliver path: its non-equilibrium solidus without back diffusion */
  scheil_solidus: number | null;
  /** the lower of solidus and scheil_solidus: melting starts there in a cast, unhomogenised alloy */
  incipient_melting: number | null;
  matrix_phase: string | null;
  /** the highest temperature at which each precipitate is stable (to 0.01 K); null when never stable in the scan */
  solvus: Record<string, number | null>;
  /** [the highest solvus + margin, incipient melting - margin]; null when it is empty */
  window: [number, number] | null;
  recommended_temperature: number | null;
  safety_margin: number;
  dissolution: Dissolution | null;
  table: ResultTable;
  notes: string[];
}
