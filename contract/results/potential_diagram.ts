// result.json of task type potential_diagram (worker/calculations/potential_diagram.ts), an extension. Types only: the
// renderer imports this file. Units: K, Pa, J/mol; activities as log10 against the element's reference state.
import type { ConvergenceWarning, ResultDocument, ResultTable } from './common.js';

export interface PotentialAxis {
  quantity: 'temperature' | 'log10_activity' | 'chemical_potential';
  /** the element the axis holds at a potential; null on the temperature axis */
  element: string | null;
  /** the reference state of a log10_activity axis (a phase name or SER); null otherwise */
  reference_state: string | null;
  range: [number, number];
  /** "Temperature (K)", "log10 a(O)", "MU(C) (J/mol)" */
  label: string;
}

/** A point of the diagram in its axes' values (x: K or the x potential; y: the y potential). */
export interface PotentialPoint {
  x: number;
  y: number;
}

/** A line between two fields: the stable phases on either side (labels as result.csv spells them). */
export interface PotentialBoundary {
  phases: [string[], string[]];
  points: PotentialPoint[];
}

/** A connected field of one stable phase set, with the point its label is drawn at (the node deepest inside). */
export interface PotentialField {
  phases: string[];
  /** the label in the database's display names (contract/plots/phase-names.ts) */
  display?: string;
  x: number;
  y: number;
  /** grid nodes of the field */
  grid_nodes: number;
}

/** Where three or more fields meet (in a binary: an equilibrium of three phases), located to one refined cell. */
export interface PotentialJunction {
  x: number;
  y: number;
  phases: string[][];
}

export interface PotentialDiagramDocument extends ResultDocument {
  task_type: 'potential_diagram';
  components: string[];
  pressure: number;
  /** K: the temperature of an isothermal diagram (two potential axes); null when x is the temperature */
  temperature: number | null;
  /** the mole fractions of the free elements the condition gave */
  compositions: Record<string, number>;
  x_axis: PotentialAxis;
  y_axis: PotentialAxis;
  grid: { x_points: number; y_points: number; equilibria: number; not_converged: number };
  fields: PotentialField[];
  boundaries: PotentialBoundary[];
  junctions: PotentialJunction[];
  /**
   * grid nodes whose equilibrium did not converge (never guessed; fields and lines may be missing there); `none`
   * where the solver says no equilibrium exists (a phase of the held elements alone without a lower bound)
   */
  not_converged_nodes: (PotentialPoint & { none?: boolean })[];
  /** one row per grid node: x, y, the stable phases, the mole fractions of the held elements */
  table: ResultTable;
  notes: string[];
  /** present when a large share of the grid's nodes has no equilibrium (contract/results/common.ts) */
  convergence_warning?: ConvergenceWarning;
}
