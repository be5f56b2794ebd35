// Shared vocabulary of the result files every calculation writes: one equilibrium point in result.json,
// provenance (engine + database) so a result is reproducible, the result table and its CSV. Pure TypeScript
// (no node: imports): the worker writes these documents, the renderer reads them with the same types.
// Units: K, Pa, J/mol of atoms, J/(mol K), mole fractions; amounts NP in moles of atoms per mole of atoms of
// the system (N = 1). The per-task-type result documents (contract/tasks/<type>.ts) extend ResultDocument.

/** Version of the result.json layout; bumped on any incompatible change. */
export const RESULT_VERSION = 1;
export { ENGINE_NAME } from '../version.js';
import type { PhaseSelectionRecord } from '../phase-selection.js';
export type { PhaseSelectionRecord };

/**
 * A diagram's seed grid with a large share of nodes without an equilibrium (LARGE_FAILURE_SHARE of them or more): the
 * fields drawn cover only the rest of the range, and the preview and the view say so above the plot.
 */
export interface ConvergenceWarning {
  /** nodes of the seed grid */
  nodes: number;
  /** nodes whose equilibrium the solver gave up on */
  not_converged: number;
  /** nodes where the solver says no equilibrium exists */
  no_equilibrium: number;
  /** (not_converged + no_equilibrium) / nodes */
  share: number;
  message: string;
}

/** The share of seed-grid nodes without an equilibrium from which a diagram is flagged as largely incomplete. */
export const LARGE_FAILURE_SHARE = 0.1;

export interface Provenance {
  engine: { name: string; version: string };
  /** code = the catalog code (null when run from a file by `phasedesk calc`), sha256 of the TDB bytes */
  database: { code: string | null; file_name: string; sha256: string };
  created_at: string;
}

/**
 * Every result.json: version, task type, provenance, the validated task_config it answers and the phase selection
 * it was computed with (the task's condition.inhibit_phases or its database's recommended selection).
 */
export interface ResultDocument {
  version: number;
  task_type: string;
  provenance: Provenance;
  config: Record<string, unknown>;
  phase_selection: PhaseSelectionRecord;
}

/** Ordered or not, for a composition set of a phase with an order-disorder description. */
export interface OrderingState {
  ordered: boolean;
  /** Strukturbericht symbol, or 'ordered' / 'disordered' when the lattice or the pattern has no common name */
  structure: string;
  /** e.g. "A2 (BCC_B2)", "L12 (FCC_L12)", "BCC_4SL (ordered)" */
  label: string;
}

/** One sublattice of a phase: its constituents' site fractions. */
export type SublatticeFractions = Record<string, number>;

export interface PhaseRecord {
  name: string;
  /** 1, 2, ... (miscibility gaps) */
  composition_set: number;
  /** the set's one name, as result.csv's columns and phase_name spell it: NAME, or NAME#2 for the second set */
  label: string;
  /** NP: moles of atoms of the phase per mole of atoms of the system */
  amount: number;
  /** mole fractions of the elements in the phase */
  x: Record<string, number>;
  /** mass fractions of the elements in the phase (absent when an element has no molar mass in the database) */
  w?: Record<string, number>;
  /** site fractions, one map per sublattice */
  site_fractions: SublatticeFractions[];
  GM: number;
  HM: number;
  SM: number;
  /** frozen Cp of the phase, -T d2GM/dT2 */
  CPM: number;
  /**
   * Present for phases with an order-disorder description (worker/system/ordering.ts): whether this set is
   * ordered and its structure, e.g. { ordered: false, structure: 'A2', label: 'A2 (BCC_B2)' }.
   */
  ordering?: OrderingState;
  /** Curie/Neel temperature (K) and mean magnetic moment per mole of atoms (Bohr magnetons): magnetic phases only */
  TC?: number;
  BMAGN?: number;
  /** molar volume, m^3/mol of atoms: only phases with volume parameters in the database */
  VM?: number;
  /** pycalphad's degree of ordering (0 = disordered): phases with a constituent on two or more sublattices */
  degree_of_ordering?: number;
  /** GM - sum_i x_i GM(reference state of i) at the same T and P, J/mol of atoms (worker/results/thermo-extra.ts) */
  GM_formation?: number;
  /** mobilities and diffusivities: phases with kinetic parameters (MQ, MF, DQ, DF) in the database only */
  diffusion?: PhaseDiffusion;
}

/**
 * Diffusion in one stable phase (worker/system/diffusion.ts; Andersson and Agren, J. Appl. Phys. 72 (1992) 1350).
 * Matrices are keyed [k][j]: the flux of k driven by the gradient of j, for k and j other than the dependent n.
 */
export interface PhaseDiffusion {
  /** atomic mobility M_k of each element with data, m^2 mol/(J s) */
  mobility: Record<string, number>;
  /** tracer diffusivity D*_k = RT M_k (or the database's diffusivity exp((DF + DQ)/RT)), m^2/s */
  tracer: Record<string, number>;
  /** elements that diffuse interstitially (they sit only on sublattices that hold vacancies) */
  interstitials: string[];
  /** the dependent substitutional element n of the matrices: the phase's major one */
  dependent: string;
  /** chemical (interdiffusion) coefficients D^n_kj in the volume-fixed frame of the substitutional elements, m^2/s */
  chemical: Record<string, Record<string, number>>;
  /** intrinsic (lattice-fixed) coefficients D'^n_kj, m^2/s */
  intrinsic: Record<string, Record<string, number>>;
  /** Jonsson's degree of magnetic order xi in the mobility's ferromagnetic factor (bcc magnetic phases) */
  magnetic_order?: number;
}

export interface MetastableRecord {
  name: string;
  /** sum_A mu_A x_A - GM at the relaxed composition, J/mol of atoms; < 0 = not stable */
  driving_force: number;
  x: Record<string, number>;
  GM: number;
}

export interface EquilibriumPoint {
  T: number;
  P: number;
  /** overall mole fractions */
  x: Record<string, number>;
  /** overall mass fractions (molar masses of the ELEMENT lines; absent when an element has none) */
  w?: Record<string, number>;
  converged: boolean;
  /** why the solver could not certify the answer; when converged '' or a note (a phase left out of the equilibrium) */
  reason: string;
  GM: number;
  HM: number;
  SM: number;
  /** frozen-phase Cp of the system (sum NP * CPM of the phases) */
  CPM: number;
  /** chemical potentials per element, J/mol */
  MU: Record<string, number>;
  phases: PhaseRecord[];
  metastable: MetastableRecord[];
  /** sum NP * VM when every stable phase has volume data, m^3/mol */
  VM?: number;
  /** GM - sum_i x_i GM(reference state of i), J/mol of atoms */
  GM_formation?: number;
  /** chemical potential relative to the reference state of each element (MU - GM_ref), J/mol of the element */
  MUR?: Record<string, number>;
  /** activity relative to the reference state, exp(MUR / RT) */
  ACR?: Record<string, number>;
}

/**
 * Gas constant used for activities, the one of the calculation core (native-core/src/io/database.hpp
 * kGasConstant = 8.3145, pycalphad's value; formula sheet §10).
 */
export const GAS_CONSTANT = 8.3145;

/** The Cp of point, line and properties results (their cp_definition). */
export const CP_DEFINITION =
  'Cp_equilibrium = dH/dT of the system along the equilibrium path at fixed overall composition and pressure ' +
  '(dot derivative HM.T; includes the latent heat of changing phase amounts and phase compositions, as a ' +
  'calorimeter sees it; jumps at each transition). Cp_frozen = sum over stable phases of NP * CPM with ' +
  'CPM = -T d2GM/dT2 at fixed phase amounts and constitutions (equals Cp_equilibrium in single-phase regions). ' +
  'Both in J/(mol of atoms K). The table column Cp is Cp_equilibrium.';

/** Phase label of a stable composition set: NAME, or NAME#2 for the second set of a gap. */
export function phaseLabel(p: { name: string; composition_set: number }): string {
  return p.composition_set > 1 ? `${p.name}#${p.composition_set}` : p.name;
}

/** A result table: named columns with units, rows of numbers/strings (null = not applicable). */
export interface ResultTable {
  columns: { name: string; unit: string }[];
  rows: (number | string | null)[][];
}

/** CSV (RFC 4180) of a table; the header carries the unit in brackets, e.g. "T [K]". */
export function tableToCsv(table: ResultTable): string {
  return [csvHeader(table.columns), ...table.rows.map((r) => r.map(csvCell).join(','))].join('\r\n') + '\r\n';
}

/** A CSV cell: empty for null and non-finite numbers, quoted when it holds a comma, a quote or a line end. */
export function csvCell(v: number | string | null | undefined): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The header line of a result CSV: "name [unit]" per column. */
/** A column's heading in result files: its name and, when it has one, its unit in brackets ("G [J/mol]"). */
export function columnHeading(c: { name: string; unit: string }): string {
  return c.unit ? `${c.name} [${c.unit}]` : c.name;
}

export function csvHeader(columns: readonly { name: string; unit: string }[]): string {
  return columns.map((c) => csvCell(columnHeading(c))).join(',');
}
