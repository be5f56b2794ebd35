// result.json of line_calculation: types and the pure helpers that describe a transition (importable by the
// renderer: no node: imports).
// Shape (docs/calculations.md): { axis, points, transitions, table } beside the
// ResultDocument fields; fields may be added, never renamed.
import type { EquilibriumPoint, ResultDocument, ResultTable } from './common.js';
import type { AlloyTemperaturesField } from './point_calculation.js';

/** A phase transition located on a scan (phase labels NAME or NAME#2, see phaseLabel()). */
export interface Transition {
  /** path parameter 0..1 of the transition (middle of the final bracket) */
  s: number;
  /** temperature at s, K */
  T: number;
  /** overall mole fractions at s */
  x: Record<string, number>;
  /** labels stable after (higher s) but not before */
  appearing: string[];
  /** labels stable before (lower s) but not after */
  disappearing: string[];
  /** stable phase labels on the lower-s / higher-s side of the bracket, sorted */
  phases_before: string[];
  phases_after: string[];
  /** final bracket widths: |dT| in K and the largest |dx| (mole fraction) */
  dT?: number;
  dx?: number;
  /** false when the bracket could not be narrowed to 0.01 K / 1e-5 (e.g. non-converged points inside) */
  refined?: boolean;
  /**
   * 'order_disorder': no phase appears or vanishes, a set changes between its ordered and disordered
   * structure (a second-order transition, e.g. A2 -> B2); 'phase_change' otherwise
   */
  kind?: 'phase_change' | 'order_disorder';
  /** sets whose structure changes across the transition (worker/system/ordering.ts) */
  ordering_changes?: OrderingChange[];
  /** ordered/disordered structure of each appearing or disappearing set of a phase with an order-disorder description */
  structures?: Record<string, string>;
}

/** A composition set whose ordered/disordered structure changes, e.g. { phase: 'B2_BCC', before: 'A2', after: 'B2' }. */
export interface OrderingChange {
  phase: string;
  before: string;
  after: string;
}

export interface LineAxis {
  /** 'T' (temperature scan), 'X(EL)' (isothermal composition scan) or 'path' (both vary: s) */
  variable: 'T' | `X(${string})` | 'path';
  label: string;
  unit: string;
}

export type LinePoint = EquilibriumPoint & {
  /** path parameter 0..1: T and the mole fractions are linear in s */
  s: number;
  /** dHM/dT along the equilibrium, present when a Cp output was asked for */
  Cp_equilibrium?: number | null;
};

export interface LineCalculationResult extends ResultDocument {
  task_type: 'line_calculation';
  axis: LineAxis;
  points: LinePoint[];
  transitions: Transition[];
  table: ResultTable;
  /** the output names the table was built from */
  outputs: string[];
  cp_definition: string;
  /** number of scan points that did not converge (in `points` with converged:false) */
  not_converged: number;
  /** added: reference state of each element for mur/acr/GM_formation (a phase, or 'SER') */
  reference_states?: Record<string, string>;
  /** added: quantities left out and why */
  quantity_notes?: string[];
  /** added: transitions at which C + 1 phases coexist, with the phase compositions there */
  invariants?: InvariantCrossing[];
  /** added: liquidus and equilibrium solidus of the alloy (lines at fixed composition only) */
  alloy_temperatures?: AlloyTemperaturesField;
  /**
   * added (condition.fixed_phases): the phase held at `amount` along the composition line with the temperature free;
   * `temperatures` (K) the middle of each point's final bracket (at most 0.01 K wide), the point itself the
   * equilibrium at the bracket's end on the phase's side; `not_found` the path parameters s of the compositions
   * without such a temperature in 200-4000 K, with the reason (no point is written for them)
   */
  fixed_phase?: {
    phase: string;
    amount: number;
    start_temperature: number;
    temperatures: number[];
    not_found: { s: number; reason: string }[];
  };
  /** added (condition.chemical_potentials, activities): the elements held at a potential along the line (upper case) */
  held_elements?: string[];
}

/** A transition of a line at which C + 1 phases coexist (worker/scans/alloy-temperatures.ts). */
export interface InvariantCrossing {
  T: number;
  /** path parameter of the line (0..1) */
  s: number;
  phases: string[];
  /** phase label -> mole fractions (and mass fractions where the database has molar masses) at the invariant */
  compositions: Record<string, { x: Record<string, number>; w?: Record<string, number> }>;
}

/**
 * A transition as its change: "+FCC_A1 -LIQUID", with the structure of a set of an order-disorder phase and the
 * ordering changes ("B2_BCC A2->B2"). Chart labels and the task summary use it.
 */
export function transitionText(t: Transition): string {
  const st = (l: string) => (t.structures?.[l] ? ` (${t.structures[l]})` : '');
  const parts = [
    ...t.appearing.map((l) => `+${l}${st(l)}`),
    ...t.disappearing.map((l) => `-${l}${st(l)}`),
    ...(t.ordering_changes ?? []).map((c) => `${c.phase} ${c.before}->${c.after}`),
  ];
  return parts.join(' ');
}

/** A transition as the phase sets on both sides: "FCC_A1 + LIQUID → FCC_A1 (−LIQUID)" (the result views' table). */
export function transitionDescription(t: Transition): string {
  const parts: string[] = [];
  if (t.appearing.length) parts.push(`+${t.appearing.join(', +')}`);
  if (t.disappearing.length) parts.push(`−${t.disappearing.join(', −')}`);
  return `${t.phases_before.join(' + ') || '—'} → ${t.phases_after.join(' + ') || '—'}${parts.length ? ` (${parts.join('; ')})` : ''}`;
}
