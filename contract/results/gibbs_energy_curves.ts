// result.json of task type gibbs_energy_curves (an extension of the spec's task types, README "Calculations").
// Types only: the renderer imports this file, so it stays free of node: imports. Units: K, Pa, J/mol of atoms,
// mole fractions; energies referred to the database's SER unless a field says otherwise.
import type { ResultDocument, ResultTable } from './common.js';
import type { LineAxis } from './line_calculation.js';

/** GM of one phase alone (one composition set, minimised over its internal degrees of freedom) along the line. */
export interface PhaseCurve {
  name: string;
  /** J/mol of atoms at each point (null where the phase cannot take that composition or did not converge) */
  GM: (number | null)[];
  /** GM - sum_i x_i GM(reference state of i), J/mol (reference_states), at each point */
  GM_formation: (number | null)[];
  /** a phase of fixed composition (every sublattice one constituent) lying on the line: its single point */
  compound?: { s: number; axis_value: number; x: Record<string, number>; GM: number; GM_formation: number };
}

/** A stable common tangent: the tangent line (plane) of the phases of one multi-phase region of the line. */
export interface CommonTangent {
  /** the stable phase labels touching the tangent */
  phases: string[];
  /** chemical potentials, J/mol: the tangent is GM(x) = sum_i MU_i x_i */
  mu: Record<string, number>;
  /** MU_i - GM(reference state of i), the same tangent on the GM_formation scale */
  mu_formation: Record<string, number>;
  /** the touching points: each phase's composition, its position on the line (null when off the line), its GM */
  points: {
    phase: string;
    x: Record<string, number>;
    s: number | null;
    axis_value: number | null;
    GM: number;
    GM_formation: number;
  }[];
  /** path parameters (and axis values) of the first and last line point inside the region */
  s_range: [number, number];
  axis_range: [number, number];
}

export interface GibbsEnergyCurvesDocument extends ResultDocument {
  task_type: 'gibbs_energy_curves';
  temperature: number;
  pressure: number;
  /** the composition variable of the line (X(EL)), or 'path' when several fractions change */
  axis: LineAxis;
  /** path parameter 0..1, the axis value and the overall mole fractions of every point */
  s: number[];
  axis_values: number[];
  compositions: Record<string, number>[];
  curves: PhaseCurve[];
  /** the global equilibrium at each point: its GM (the lower convex envelope) and stable phase labels */
  equilibrium: { GM: (number | null)[]; GM_formation: (number | null)[]; phases: string[][]; converged: boolean[] };
  tangents: CommonTangent[];
  /** reference state of each element for the GM_formation values (a phase, or 'SER') */
  reference_states: Record<string, string>;
  /** GM of each element's reference state at T, P, J/mol */
  reference_energies: Record<string, number>;
  table: ResultTable;
  /** phases without any point (why), and other remarks */
  notes: string[];
}
