// Inputs and outputs of the precipitation (KWN) simulation of worker/calculations/aging/simulate.ts.
import type { NativeDatabase } from '../../core/native.js';

/** The opened system: database (with its mobility data), solver components (elements + VA) and elements. */
export interface AgingSystem {
  db: NativeDatabase;
  components: string[];
  elements: string[];
}

/** A diffusivity D0 exp(-Q/RT) given in place of the database's mobility data. */
export interface Arrhenius {
  /** m^2/s */
  D0: number;
  /** J/mol */
  Q: number;
}

/** A molar volume given directly or from a cubic cell: V_m = a^3 N_A / atoms_per_cell. */
export interface VolumeInput {
  /** m^3 per mole of atoms */
  molar_volume?: number;
  /** m */
  lattice_parameter?: number;
  /** atoms per unit cell (4 for fcc and L1_2) */
  atoms_per_cell?: number;
}

export interface MatrixInput extends VolumeInput {
  phase: string;
  /** dislocation density, m/m^3 (sites for `dislocations` nucleation) */
  dislocation_density?: number;
  /** mean grain diameter, m (sites for `grain_boundaries` nucleation) */
  grain_size?: number;
  /** per element: its tracer diffusivity in the matrix, instead of the database's mobility data */
  diffusivities?: Record<string, Arrhenius>;
}

export type NucleationSite = 'bulk' | 'dislocations' | 'grain_boundaries';

/** A precipitate's shape: a sphere, or a needle or plate (spheroid) of a constant aspect ratio (long / short, >= 1). */
export interface PrecipitateShape {
  kind: 'sphere' | 'needle' | 'plate';
  /** default 1 */
  aspect_ratio?: number;
}

/**
 * The yield-strength increment of the precipitates (strength.ts): Taylor factor M, matrix shear modulus G (Pa),
 * Burgers vector b (m), line tension Gamma = beta G b^2, the shearing-to-bypass transition radius r_c (m; per phase
 * by `transition_radii`), the phases combined by the root of the sum of squares or linearly.
 */
export interface StrengthInput {
  taylor_factor: number;
  shear_modulus: number;
  burgers_vector: number;
  line_tension_factor: number;
  transition_radius: number;
  /** per phase (upper case), overriding transition_radius */
  transition_radii?: Record<string, number>;
  combination: 'quadrature' | 'linear';
}

export interface PrecipitateInput extends VolumeInput {
  phase: string;
  /** matrix/precipitate interfacial energy, J/m^2 */
  interfacial_energy: number;
  /** default bulk */
  nucleation_site?: NucleationSite;
  /** nucleation sites per m^3, overriding the site type's estimate */
  site_density?: number;
  /** default a sphere; radii are then equivalent-sphere radii (the sphere of the particle's volume) */
  shape?: PrecipitateShape;
}

/** Temperature against time: piecewise linear through the points (a ramp between two, a hold where equal). */
export interface SchedulePoint {
  /** s */
  t: number;
  /** K */
  T: number;
}

export interface AgingConfig {
  /** mole fractions of every element of the system */
  composition: Record<string, number>;
  /** a constant temperature (K) or a schedule of ramps and holds */
  temperature: number | SchedulePoint[];
  /** s */
  end_time: number;
  /** Pa, default 101325 */
  pressure?: number;
  matrix: MatrixInput;
  precipitates: PrecipitateInput[];
  /** radius bins per precipitate phase (default 200) */
  bins?: number;
  /** output times, log-spaced from end_time * 1e-8 (default 100) */
  outputs?: number;
  /** times (s) at which to record the size distributions */
  psd_times?: number[];
  /**
   * Time-step control: the largest fraction of a bin the fastest occupied edge moves in one step (default 0.4),
   * and the largest change of the matrix's solute fractions in one step relative to their supersaturation (0.02).
   */
  step_control?: { courant?: number; supersaturation?: number };
  /** the yield-strength increment at every output time, when given */
  strength?: StrengthInput;
  /** called every 100 steps with the time reached (s); an exception it throws ends the run (a cancelled task) */
  progress?: (t: number) => void;
}

/** One phase's state at one output time. */
export interface PhaseRecord {
  /** particles per m^3 */
  number_density: number;
  /** m */
  mean_radius: number;
  /** m (null where the matrix is not supersaturated for this phase) */
  critical_radius: number | null;
  volume_fraction: number;
  /** particles per m^3 per s */
  nucleation_rate: number;
  /** J per mole of atoms of the precipitate */
  driving_force: number;
  /** Pa, when the configuration asks for the strength */
  strength?: PhaseStrength;
}

/** A phase's yield-strength increment, Pa: its shearable particles alone, its bypassed ones alone, and all of them. */
export interface PhaseStrength {
  shearing: number;
  orowan: number;
  total: number;
}

export interface SizeDistribution {
  t: number;
  phase: string;
  /** bin centres, m */
  radius: number[];
  /** particles per m^3 in each bin */
  number: number[];
}

export interface AgingResult {
  time: number[];
  temperature: number[];
  /** the matrix's mole fractions at each output time */
  matrix_composition: Record<string, number>[];
  phases: Record<string, PhaseRecord[]>;
  size_distributions: SizeDistribution[];
  /** the largest |x_alloy - (1 - f) x_matrix - f x_precipitate| over every step and element */
  mass_balance_error: number;
  steps: number;
  /** the precipitates' compositions used in the mass balance (each phase's tie line with the matrix) */
  precipitate_composition: Record<string, Record<string, number>>;
  /** Pa at each output time: the phases' increments combined (when the configuration asks for the strength) */
  strength_total?: number[];
  notes: string[];
}
