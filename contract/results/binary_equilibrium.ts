// result.json of task_type binary_equilibrium (docs/calculations.md).
// Types only + small pure helpers: imported by the renderer, so no node: imports here.
// Units: T in K, compositions as mole fraction of `x_component`.
import type { ConvergenceWarning, ResultDocument, ResultTable } from './common.js';

export type InvariantKind =
  'eutectic' | 'peritectic' | 'monotectic' | 'eutectoid' | 'peritectoid' | 'syntectic' | 'monotectoid' | 'invariant';

export interface TieLine {
  T: number;
  /** compositions of the left (lower x) and right phase */
  x: [number, number];
  /** added: the same as mass fractions of x_component (absent when an element has no molar mass) */
  w?: [number, number];
}

export interface TwoPhaseRegion {
  /** phase labels (NAME or NAME#2), left (lower x) phase first */
  phases: [string, string];
  /** sorted by T; the two boundary lines of the region are x[0](T) and x[1](T) */
  tielines: TieLine[];
  /** how the region ends at its lowest / highest temperature (added field) */
  ends?: { low: RegionEndKind; high: RegionEndKind };
  /** added: the field's label in the database's display names (contract/plots/phase-names.ts), e.g. "L + γ" */
  display?: string;
}

/** why a traced two-phase region stops (added field) */
export type RegionEndKind =
  | 'invariant'
  | 'critical'
  | 'congruent'
  | 'tricritical'
  | 'pure_element'
  | 'range_edge'
  | 'order_disorder'
  | 'unresolved';

export interface InvariantRecord {
  kind: InvariantKind;
  T: number;
  /** the three phases, in order of composition */
  phases: { name: string; x: number; /** added: mass fraction */ w?: number }[];
  /** reaction on cooling, e.g. "LIQUID -> FCC_A1 + HCP_A3" */
  reaction: string;
  /** added: the reaction in the database's display names, e.g. "L -> fcc (A1) + hcp (A3)" */
  display_reaction?: string;
}

export interface BinaryBoundary {
  /** the two-phase region this line belongs to (labels, left phase first) */
  region: [string, string];
  /** the phase whose composition the line gives (one of region) */
  phase: string;
  points: MassPoint[];
}

/** A point of a line in T and mole fraction x of x_component, with the mass fraction w (added) where known. */
export interface MassPoint {
  T: number;
  x: number;
  w?: number;
}

/** A node of the mapping's seed grid whose equilibrium did not converge; no_equilibrium: the solver says none exists. */
export interface NotConvergedNode extends MassPoint {
  no_equilibrium?: true;
}

export interface OrderDisorderResult {
  /** effective options after defaults */
  options: {
    enabled: boolean;
    trace_boundaries: boolean;
    stability_filter: boolean;
    plot_boundaries: boolean;
    phase_scope: 'order_disorder' | 'all';
    trace_method: 'branch_continuation';
  };
  /** ordered phases considered: ordered label -> disordered label */
  phases: { ordered: string; disordered: string }[];
  /** second-order (continuous) ordering transitions, each a polyline of located points */
  second_order_lines: { ordered: string; disordered: string; points: MassPoint[] }[];
  notes: string[];
}

/** The chemical spinodal inside one phase's miscibility gap (config spinodal: true), at the gap's tie-line temperatures. */
export interface GapSpinodal {
  phase: string;
  /** the two spinodal compositions at each tie-line temperature of the gap (w beside x as for tie-lines) */
  points: TieLine[];
}

export interface BinaryEquilibriumResult extends ResultDocument {
  task_type: 'binary_equilibrium';
  components: [string, string];
  x_component: string;
  temperature_range: [number, number];
  composition_range: [number, number];
  two_phase_regions: TwoPhaseRegion[];
  /** added, with config spinodal: true: the chemical spinodal of each phase with a miscibility gap */
  spinodals?: GapSpinodal[];
  invariants: InvariantRecord[];
  critical_points: ({ phase: string } & MassPoint)[];
  congruent_points: ({ phases: [string, string] } & MassPoint)[];
  /** added: where a two-phase field between two states of one ordered phase closes and a second-order line goes on */
  tricritical_points?: ({ phases: [string, string] } & MassPoint)[];
  /** `display` (added): the label in the database's display names */
  single_phase_regions: ({ label: string; display?: string } & MassPoint)[];
  /** added: transition temperatures of the pure components met at x = 0 or 1 */
  pure_element_transitions: ({ phases: [string, string] } & MassPoint)[];
  /** added: the phase-boundary polylines (two per two-phase region) */
  boundaries: BinaryBoundary[];
  /** added: Curie/Neel lines (T = T_C of the phase) inside the single-phase fields of magnetic solution phases */
  magnetic_lines?: { phase: string; points: MassPoint[] }[];
  /**
   * added: the unit of the configuration's compositions and of the preview's composition axis; every x of the
   * result stays a mole fraction, and each has its mass fraction w beside it when both elements have a molar mass
   */
  composition_unit?: 'mole_fraction' | 'mass_fraction';
  /** added: molar masses (g/mol) of the two elements from the database's ELEMENT lines, as used for w */
  molar_masses?: Record<string, number>;
  /** added: composition_range as mass fractions */
  composition_range_w?: [number, number];
  /** added: order-disorder handling */
  order_disorder: OrderDisorderResult;
  /** added: counts of equilibria and of points the solver could not certify */
  statistics: { equilibria: number; not_converged: number; wall_time_s: number };
  /**
   * added: the nodes of the mapping's seed grid whose equilibrium did not converge (absent when every one did): the
   * diagram may miss its fields and boundaries around them, and the preview marks each one
   */
  not_converged_nodes?: NotConvergedNode[];
  /** added: present when LARGE_FAILURE_SHARE of the seed grid's nodes or more have no equilibrium */
  convergence_warning?: ConvergenceWarning;
  table: ResultTable;
}

/** Boundary polylines of a region: x[0](T) and x[1](T). */
export function regionBoundaries(r: TwoPhaseRegion): BinaryBoundary[] {
  return [0, 1].map((k) => ({
    region: r.phases,
    phase: r.phases[k],
    points: r.tielines.map((t) => ({ T: t.T, x: t.x[k] })),
  }));
}

/**
 * The composition axis of a binary diagram, read from compositions_start / compositions_end: the diagram runs from
 * compositions_start (left edge) to compositions_end (right edge).
 * - one component named (in either object): that component, over the range its values give (a side that does not
 *   name it is 0 at the start, 1 at the end);
 * - both named: the component whose mole fraction grows from start to end (with fractions summing to 1 exactly one
 *   does), so `{AL: 1, ZN: 0} -> {AL: 0, ZN: 1}` maps x(ZN) 0..1 whatever order the components were listed in;
 * - start equal to end: no range was given; the whole range 0..1 of the second component of condition.components
 *   (x(B) of an A-B diagram) is mapped.
 */
export function compositionAxis(
  components: [string, string],
  start: Record<string, number>,
  end: Record<string, number>,
): { xComponent: string; X: [number, number] } {
  const named = components.filter((k) => k in start || k in end);
  const other = (k: string) => components.find((q) => q !== k)!;
  // the fraction of k on one side: given, else the complement of the other component, else the edge default
  const valueAt = (o: Record<string, number>, k: string, edge: number) =>
    k in o ? o[k]! : other(k) in o ? 1 - o[other(k)]! : edge;
  const range = (k: string): [number, number] => [valueAt(start, k, 0), valueAt(end, k, 1)];
  let xc: string;
  if (named.length === 1) xc = named[0]!;
  else {
    const growth = components.map((k) => {
      const [a, b] = range(k);
      return b - a;
    });
    xc = growth[0]! > growth[1]! ? components[0] : components[1];
  }
  let [x0, x1] = range(xc);
  if (x0 === x1) {
    x0 = 0;
    x1 = 1;
  }
  for (const x of [x0, x1]) if (!(x >= 0 && x <= 1)) throw new Error(`composition of ${xc} must lie in [0, 1]`);
  return { xComponent: xc, X: [Math.min(x0, x1), Math.max(x0, x1)] };
}

/**
 * The document with every composition x replaced by its mass fraction w (a view of the diagram in mass fractions;
 * lever-rule amounts read from it are mass fractions of the phases). null when the result carries no w.
 */
export function massFractionView(doc: BinaryEquilibriumResult): BinaryEquilibriumResult | null {
  if (!doc.composition_range_w) return null;
  const pt = <P extends MassPoint>(p: P): P => ({ ...p, x: p.w ?? NaN });
  const line = <L extends { points: MassPoint[] }>(l: L): L => ({ ...l, points: l.points.map(pt) });
  return {
    ...doc,
    composition_range: doc.composition_range_w,
    two_phase_regions: doc.two_phase_regions.map((r) => ({
      ...r,
      tielines: r.tielines.map((t) => ({ ...t, x: t.w ?? [NaN, NaN] })),
    })),
    invariants: doc.invariants.map((v) => ({ ...v, phases: v.phases.map((p) => ({ ...p, x: p.w ?? NaN })) })),
    critical_points: doc.critical_points.map(pt),
    congruent_points: doc.congruent_points.map(pt),
    tricritical_points: doc.tricritical_points?.map(pt),
    single_phase_regions: doc.single_phase_regions.map(pt),
    pure_element_transitions: doc.pure_element_transitions.map(pt),
    not_converged_nodes: doc.not_converged_nodes?.map(pt),
    magnetic_lines: doc.magnetic_lines?.map(line),
    boundaries: doc.boundaries.map(line),
    order_disorder: { ...doc.order_disorder, second_order_lines: doc.order_disorder.second_order_lines.map(line) },
    spinodals: doc.spinodals?.map((s) => ({ ...s, points: s.points.map((t) => ({ ...t, x: t.w ?? [NaN, NaN] })) })),
  };
}

/** The document with every temperature moved by dT (the diagram view in degrees Celsius: dT = -273.15). */
export function shiftTemperatures(doc: BinaryEquilibriumResult, dT: number): BinaryEquilibriumResult {
  const pt = <P extends { T: number }>(p: P): P => ({ ...p, T: p.T + dT });
  const line = <L extends { points: { T: number }[] }>(l: L): L => ({ ...l, points: l.points.map(pt) });
  return {
    ...doc,
    temperature_range: [doc.temperature_range[0] + dT, doc.temperature_range[1] + dT],
    two_phase_regions: doc.two_phase_regions.map((r) => ({ ...r, tielines: r.tielines.map(pt) })),
    invariants: doc.invariants.map(pt),
    critical_points: doc.critical_points.map(pt),
    congruent_points: doc.congruent_points.map(pt),
    tricritical_points: doc.tricritical_points?.map(pt),
    single_phase_regions: doc.single_phase_regions.map(pt),
    pure_element_transitions: doc.pure_element_transitions.map(pt),
    not_converged_nodes: doc.not_converged_nodes?.map(pt),
    magnetic_lines: doc.magnetic_lines?.map(line),
    boundaries: doc.boundaries.map(line),
    order_disorder: { ...doc.order_disorder, second_order_lines: doc.order_disorder.second_order_lines.map(line) },
    spinodals: doc.spinodals?.map((s) => ({ ...s, points: s.points.map(pt) })),
  };
}
