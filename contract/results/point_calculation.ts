// result.json of point_calculation (types only; importable by the renderer: no node: imports).
// Shape (docs/calculations.md): { point, table } beside the ResultDocument fields.
import type { EquilibriumPoint, ResultDocument, ResultTable } from './common.js';

export interface PointCalculationResult extends ResultDocument {
  task_type: 'point_calculation';
  /** the equilibrium; Cp_equilibrium = dHM/dT along the equilibrium (null when the solver gave none) */
  point: EquilibriumPoint & { Cp_equilibrium: number | null };
  /** one row: the outputs (thermo_outputs / outputs_list_template, worker/results/outputs.ts) */
  table: ResultTable;
  /** the output names the table was built from, after defaults and template/custom merging */
  outputs: string[];
  /** which Cp the `Cp` column holds */
  cp_definition: string;
}
