// result.json of task type aging (worker/calculations/aging.ts). Types only: the renderer imports this file.
// Units: s, K, m, m^-3 (particles per m^3), m^-3 s^-1, J/mol of atoms, Pa, mole fractions, volume fractions.
// Radii are equivalent-sphere radii (the sphere of a particle's volume) whatever the precipitate's shape.
import type { ResultDocument, ResultTable } from './common.js';

/** One precipitate phase against time (one value per output time of the document's `time`). */
export interface AgingPhaseSeries {
  phase: string;
  interfacial_energy: number;
  /** m^3 per mole of atoms */
  molar_volume: number;
  nucleation_site: 'bulk' | 'dislocations' | 'grain_boundaries';
  /** nucleation sites per m^3 */
  site_density: number;
  /** sphere, or a needle or plate (spheroid) of this aspect ratio (long / short axis) */
  shape: { kind: 'sphere' | 'needle' | 'plate'; aspect_ratio: number };
  /** its composition in the mass balance (its tie line with the matrix when it first nucleated); null: never did */
  composition: Record<string, number> | null;
  /** particles per m^3 */
  number_density: number[];
  /** m (0 with no particles) */
  mean_radius: number[];
  /** m; null where the matrix is not supersaturated for the phase */
  critical_radius: (number | null)[];
  volume_fraction: number[];
  /** nuclei per m^3 per s */
  nucleation_rate: number[];
  /** J per mole of atoms of the precipitate (negative: the phase dissolves) */
  driving_force: number[];
  /**
   * Pa, the yield-strength increment (when the configuration asks for it): of its particles below the transition
   * radius alone (sheared), of those above it alone (bypassed) and of the whole distribution (the phase's)
   */
  strength?: { transition_radius: number; shearing: number[]; orowan: number[]; total: number[] };
}

/** The strength law used and the phases' increments together against time. */
export interface AgingStrength {
  taylor_factor: number;
  /** Pa */
  shear_modulus: number;
  /** m */
  burgers_vector: number;
  line_tension_factor: number;
  combination: 'quadrature' | 'linear';
  /** Pa at each output time */
  total: number[];
}

/** A precipitate's particle size distribution at one time. */
export interface AgingSizeDistribution {
  time: number;
  phase: string;
  /** bin centres, m */
  radius: number[];
  /** particles per m^3 in each bin */
  number: number[];
}

export interface AgingDocument extends ResultDocument {
  task_type: 'aging';
  pressure: number;
  /** the alloy's mole fractions */
  composition: Record<string, number>;
  matrix_phase: string;
  /** m^3 per mole of atoms */
  matrix_molar_volume: number;
  /** the temperature against time as given (an isothermal hold: its two ends) */
  schedule: { time: number; temperature: number }[];
  end_time: number;
  /** the output times, s (log-spaced) */
  time: number[];
  /** K at each output time */
  temperature: number[];
  /** the matrix's mole fractions at each output time, per element */
  matrix_composition: Record<string, number[]>;
  precipitates: AgingPhaseSeries[];
  size_distributions: AgingSizeDistribution[];
  /** the diffusivities used: given (D0, Q) or the database's mobility data */
  diffusivity_source: Record<string, string>;
  /** the largest |x_alloy - (1 - f) x_matrix - sum f_p x_p| over every step and element */
  mass_balance_error: number;
  steps: number;
  /** the precipitation strengthening, when the configuration asks for it */
  strength?: AgingStrength;
  /** result.csv: per output time, T, each phase's series and the matrix composition */
  table: ResultTable;
  notes: string[];
}
