// result.json of task_type binary_equilibrium (notes/results-schema.md; README "Result files").
// Types only + small pure helpers: imported by the renderer, so no node: imports here.
// Units: T in K, compositions as mole fraction of `x_component`.
import type { ResultDocument, ResultTable } from './common.js';

export type InvariantKind =
  'eutectic' | 'peritectic' | 'monotectic' | 'eutectoid' | 'peritectoid' | 'syntectic' | 'monotectoid' | 'invariant';

export interface TieLine {
  T: number;
  /** compositions of the left (lower x) and right phase */
  x: [number, number];
}

export interface TwoPhaseRegion {
  /** phase labels (NAME or NAME#2), left (lower x) phase first */
  phases: [string, string];
  /** sorted by T; the two boundary lines of the region are x[0](T) and x[1](T) */
  tielines: TieLine[];
  /** how the region ends at its lowest / highest temperature (added field) */
  ends?: { low: RegionEndKind; high: RegionEndKind };
}

/** why a traced two-phase region stops (added field) */
export type RegionEndKind = 'invariant' | 'critical' | 'congruent' | 'pure_element' | 'range_edge' | 'order_disorder' | 'unresolved';

export interface InvariantRecord {
  kind: InvariantKind;
  T: number;
  /** the three phases, in order of composition */
  phases: { name: string; x: number }[];
  /** reaction on cooling, e.g. "LIQUID -> FCC_A1 + HCP_A3" */
  reaction: string;
}

export interface BinaryBoundary {
  /** the two-phase region this line belongs to (labels, left phase first) */
  region: [string, string];
  /** the phase whose composition the line gives (one of region) */
  phase: string;
  points: { T: number; x: number }[];
}

export interface OrderDisorderResult {
  /** effective options after defaults */
  options: {
    enabled: boolean; trace_boundaries: boolean; stability_filter: boolean; plot_boundaries: boolean;
    phase_scope: 'order_disorder' | 'all'; trace_method: 'branch_continuation';
  };
  /** ordered phases considered: ordered label -> disordered label */
  phases: { ordered: string; disordered: string }[];
  /** second-order (continuous) ordering transitions, each a polyline of located points */
  second_order_lines: { ordered: string; disordered: string; points: { T: number; x: number }[] }[];
  notes: string[];
}

export interface BinaryEquilibriumResult extends ResultDocument {
  task_type: 'binary_equilibrium';
  components: [string, string];
  x_component: string;
  temperature_range: [number, number];
  composition_range: [number, number];
  two_phase_regions: TwoPhaseRegion[];
  invariants: InvariantRecord[];
  critical_points: { phase: string; T: number; x: number }[];
  congruent_points: { phases: [string, string]; T: number; x: number }[];
  single_phase_regions: { label: string; T: number; x: number }[];
  /** added: transition temperatures of the pure components met at x = 0 or 1 */
  pure_element_transitions: { phases: [string, string]; T: number; x: number }[];
  /** added: the phase-boundary polylines (two per two-phase region) */
  boundaries: BinaryBoundary[];
  /** added: order-disorder handling */
  order_disorder: OrderDisorderResult;
  /** added: counts of equilibria and of points the solver could not certify */
  statistics: { equilibria: number; not_converged: number; wall_time_s: number };
  table: ResultTable;
}

/** Boundary polylines of a region: x[0](T) and x[1](T). */
export function regionBoundaries(r: TwoPhaseRegion): BinaryBoundary[] {
  return [0, 1].map((k) => ({
    region: r.phases, phase: r.phases[k],
    points: r.tielines.map((t) => ({ T: t.T, x: t.x[k] })),
  }));
}
