// result.json of task_type binary_cpt_diagram (docs/calculations.md).
// Types only + small pure helpers: imported by the renderer, so no node: imports here.
// Units: x = mole fraction of `x_component`, T in K, P in Pa.
import type { ResultDocument } from './common.js';

/** One viewer axis of ui_metadata.axis_config (validated by contract/tasks/binary_cpt_diagram.ts). */
export interface CptAxis {
  variable: 'composition' | 'temperature' | 'pressure';
  /** the component a composition axis shows */
  component?: string;
}

export interface CptAxisConfig {
  x: CptAxis;
  y: CptAxis;
  z: CptAxis;
}

export interface CptRegionCount {
  /** phase set, e.g. "FCC_A1+LIQUID" */
  label: string;
  /** grid nodes of this pressure section with that phase set */
  points: number;
}

export interface CptBoundaryPoint {
  /** where the phase set changes along one grid edge, located by bisection (to 1/64 of the step) */
  x: number;
  T: number;
  P: number;
  /** phase sets on the two sides: the lower-coordinate end of the edge first */
  between: [string, string];
  /** added field: the grid axis of the edge ('x', 'T' or 'P') */
  axis?: 'x' | 'T' | 'P';
  /** added field: x as a mass fraction (absent when an element has no molar mass) */
  w?: number;
}

export interface CptTieLine {
  P: number;
  T: number;
  /** compositions (mole fraction of x_component) of the two phases, lower x first */
  x: [number, number];
  /** phase labels in the order of `x` */
  phases: [string, string];
  /** added field: overall composition of the grid node the tie-line goes through */
  x_overall?: number;
  /** added fields: `x` and `x_overall` as mass fractions */
  w?: [number, number];
  w_overall?: number;
}

export interface BinaryCptResult extends ResultDocument {
  task_type: 'binary_cpt_diagram';
  x_component: string;
  /** added field: both components, x_component first */
  components?: [string, string];
  /** grid nodes; x in mole fraction, and (added) w: the same nodes as mass fractions */
  axes: { x: number[]; T: number[]; P: number[]; w?: number[] };
  /**
   * added field: the unit of composition_start/end/step (the grid is equally spaced in it) and of the preview's
   * composition axis; x stays a mole fraction everywhere, w its mass fraction
   */
  composition_unit?: 'mole_fraction' | 'mass_fraction';
  /** added field: molar masses (g/mol) of the two elements, the database's ELEMENT lines */
  molar_masses?: Record<string, number>;
  pressure_scale: 'linear' | 'log';
  /** index -> "FCC_A1+LIQUID" (sorted phase labels NAME or NAME#2 joined by '+') */
  phase_sets: string[];
  /** flat, index = (iP * nT + iT) * nX + iX; -1 = not converged */
  labels: number[];
  regions_per_pressure: { P: number; regions: CptRegionCount[] }[];
  boundary_points: CptBoundaryPoint[];
  tielines: CptTieLine[];
  axis_config: CptAxisConfig | null;
  /** files in <taskDir>/vtk/ (GET /task/{id}/vtk), e.g. ["cpt_diagram.zip"] */
  vtk_files: string[];
  /** added field: entries inside the zip archive */
  vtk_archive_entries?: string[];
  /** added field: grid nodes whose equilibrium did not converge (label -1) */
  not_converged?: number;
  /** added field: boundary surface size in the VTK file */
  surface?: { vertices: number; polygons: number; lines: number };
  /**
   * added field: false when no Gibbs energy of the calculation depends on pressure (no V0 parameter in its phases,
   * no FUNCTION that changes with P): every isobaric section is then the same diagram
   */
  pressure_dependent?: boolean;
}

/** Flat index of a grid node (the layout of `labels`, result.csv and the VTK point data). */
export function cptIndex(nX: number, nT: number, iX: number, iT: number, iP: number): number {
  return (iP * nT + iT) * nX + iX;
}

/** Phase set name at a node, or null when it did not converge. */
export function cptLabelAt(
  r: Pick<BinaryCptResult, 'axes' | 'labels' | 'phase_sets'>,
  iX: number,
  iT: number,
  iP: number,
): string | null {
  const k = r.labels[cptIndex(r.axes.x.length, r.axes.T.length, iX, iT, iP)];
  return k === undefined || k < 0 ? null : (r.phase_sets[k] ?? null);
}

/** Default viewer axes when ui_metadata.axis_config is absent. */
export function defaultCptAxisConfig(xComponent: string): CptAxisConfig {
  return {
    x: { variable: 'composition', component: xComponent },
    y: { variable: 'temperature' },
    z: { variable: 'pressure' },
  };
}
