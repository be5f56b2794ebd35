// result.json of point_calculation (types only; importable by the renderer: no node: imports).
// Shape (docs/calculations.md): { point, table } beside the ResultDocument fields.
import type { EquilibriumPoint, ResultDocument, ResultTable } from './common.js';

/** Liquidus and solidus of the alloy (worker/scans/alloy-temperatures.ts), K; null when there is none. */
export interface AlloyTemperaturesField {
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

export interface PointCalculationResult extends ResultDocument {
  task_type: 'point_calculation';
  /** the equilibrium; Cp_equilibrium = dHM/dT along the equilibrium (null when the solver gave none) */
  point: EquilibriumPoint & { Cp_equilibrium: number | null };
  /** one row: the outputs (thermo_outputs / outputs_list_template, contract/results/outputs.ts) */
  table: ResultTable;
  /** the output names the table was built from, after defaults and template/custom merging */
  outputs: string[];
  /** which Cp the `Cp` column holds */
  cp_definition: string;
  /** added: liquidus and equilibrium solidus of the alloy at the point's composition */
  alloy_temperatures?: AlloyTemperaturesField;
  /** added: reference state of each element for MUR, ACR, GM_formation (a phase, or 'SER') */
  reference_states?: Record<string, string>;
  /** added: quantities left out and why */
  quantity_notes?: string[];
  /**
   * added (condition.fixed_phases): the temperature at which the phase's amount crosses `amount`, nearest the start
   * temperature; the point is the equilibrium at the end of `bracket` on the phase's side, K
   */
  fixed_phase?: {
    phase: string;
    amount: number;
    start_temperature: number;
    temperature: number;
    bracket: [number, number];
  };
}
