// result.json of task type spinodal_decomposition (worker/calculations/spinodal_decomposition.ts). Types only: the
// renderer imports this file. Units: K, Pa, mole fractions of the axis element, J/mol of atoms.
import type { ResultDocument, ResultTable } from './common.js';

/** The two compositions of a curve at one temperature (x of the axis element, low < high). */
export interface GapPoint {
  T: number;
  x: [number, number];
}

/** The top of a gap: where its two branches meet. */
export interface CriticalPoint {
  T: number;
  x: number;
  /** 'chemical': of the chemical spinodal and the binodal; 'coherent': of the coherent spinodal */
  kind: 'chemical' | 'coherent';
}

export interface SpinodalDecompositionDocument extends ResultDocument {
  task_type: 'spinodal_decomposition';
  phase: string;
  /** the two elements, and the one on the composition axis */
  components: string[];
  x_component: string;
  pressure: number;
  temperatures: number[];
  /** d2G/dx2 = 0 of the phase (its internal degrees of freedom relaxed): each temperature's gaps */
  chemical_spinodal: GapPoint[];
  /** d2G/dx2 + 2 eta^2 Y V_m = 0 (Cahn 1961); null without condition.coherent */
  coherent_spinodal: GapPoint[] | null;
  /** the miscibility gap of the phase alone (two composition sets), at the temperatures with a chemical spinodal */
  binodal: GapPoint[];
  critical_points: CriticalPoint[];
  /** Y of the <100> directions (Pa) and the strain energy 2 eta^2 Y V_m (J/mol) of the coherent spinodal */
  elastic: { modulus_100: number; strain_energy: number } | null;
  table: ResultTable;
  notes: string[];
}
