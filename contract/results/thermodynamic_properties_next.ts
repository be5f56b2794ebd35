// result.json of task type thermodynamic_properties_next (shape documented in docs/calculations.md;
// field names are binding, fields may only be added). Types only: the renderer imports this file, so
// it stays free of node: imports. Units: K, Pa, J/mol of atoms, J/(mol of atoms K).
import type { EquilibriumPoint, ResultDocument, ResultTable } from './common.js';
import type { LineAxis, Transition } from './line_calculation.js';

/** A change of the stable phase set, located between scan points (the line_calculation Transition). */
export type { Transition } from './line_calculation.js';

/** One scan point: the full equilibrium plus the two heat capacities. */
export type PropertiesPoint = EquilibriumPoint & {
  /** path parameter 0..1 */
  s: number;
  /**
   * dH/dT along the equilibrium path at fixed overall composition (dot derivative HM.T, formula
   * sheet §9.4): includes the heat of the changing phase amounts and compositions, what a calorimeter
   * measures in a two-phase field. J/(mol K). null when the solver gave no derivative (not converged).
   */
  Cp_equilibrium: number | null;
  /** sum over stable phases of NP * CPM (phase amounts and compositions frozen, §9.3) = point.CPM */
  Cp_frozen: number;
};

export interface PropertiesDocument extends ResultDocument {
  task_type: 'thermodynamic_properties_next';
  /** which Cp is which, in words (also in the README) */
  cp_definition: string;
  points: PropertiesPoint[];
  transitions: Transition[];
  table: ResultTable;
  /** added: what the scan varies (as in line_calculation): 'T', 'X(EL)' or 'path' */
  axis?: LineAxis;
  /** added: the output names the table was built from (thermo_outputs / outputs_list_template) */
  outputs?: string[];
  /** added: number of points whose equilibrium did not converge (converged: false in points) */
  not_converged?: number;
  /** added: reference state of each element for mur/acr/GM_formation (a phase, or 'SER') */
  reference_states?: Record<string, string>;
  /** added: quantities left out and why */
  quantity_notes?: string[];
}
