// Types and tolerances shared by the modules of the binary (T-x) mapper (worker/mapping/binary.ts and
// the modules it is built from: seed-grid, tracing, region-ends, invariants, order-disorder, labels; what the steps
// of one map share at run time is binary-context.ts).
import type { NativeDatabase } from '../core/native.js';
import type {
  InvariantRecord,
  RegionEndKind,
  TieLine,
  TwoPhaseRegion,
} from '../../contract/results/binary_equilibrium.js';

export interface MapControl {
  readonly cancelled: boolean;
  setProgress?(p: number): void;
}

export interface OrderDisorderOptions {
  enabled?: boolean;
  trace_boundaries?: boolean;
  stability_filter?: boolean;
  plot_boundaries?: boolean;
  phase_scope?: 'order_disorder' | 'all';
  trace_method?: 'branch_continuation';
}

export interface BinaryMapRequest {
  database: NativeDatabase;
  /** the two elements */
  components: [string, string];
  /** component on the composition axis (default components[1]) */
  xComponent?: string;
  /** allowed phases (default: all the components allow) */
  phases?: string[];
  T: [number, number];
  /** range of X(xComponent) (default [0, 1]) */
  X?: [number, number];
  P?: number;
  threads?: number;
  control?: MapControl;
  /** seed grid (default: about one row per 125 K, at least 8, and 21 columns) */
  grid?: { nT?: number; nX?: number };
  orderDisorder?: OrderDisorderOptions;
  /** largest continuation step in T (K, default 15) */
  maxStep?: number;
  /** sampling density of the global minimisation (solver default 60) for tracing / for the seed grid */
  pdens?: number;
  gridPdens?: number;
  /** traces run at once, their requests solved together over the threads (default: as many as threads; see the scheduler) */
  traceConcurrency?: number;
  /** safety budget of point equilibria for the whole diagram (default 20000); when it is used up the
   * remaining regions are not traced and the logs say so */
  maxEquilibria?: number;
  /** called with log lines (non-converged points, unresolved ends, ...) */
  log?: (line: string) => void;
}

export interface BinaryRegion extends TwoPhaseRegion {
  ends: { low: RegionEndKind; high: RegionEndKind };
}

export interface SecondOrderLine {
  ordered: string;
  disordered: string;
  points: { T: number; x: number }[];
}

export interface BinaryDiagram {
  components: [string, string];
  xComponent: string;
  T: [number, number];
  X: [number, number];
  P: number;
  regions: BinaryRegion[];
  invariants: InvariantRecord[];
  criticalPoints: { phase: string; T: number; x: number }[];
  congruentPoints: { phases: [string, string]; T: number; x: number }[];
  /** where a two-phase field between two states of one ordered phase closes (phases: the two labels) */
  tricriticalPoints: { phases: [string, string]; T: number; x: number }[];
  pureTransitions: { phases: [string, string]; T: number; x: number }[];
  singlePhaseLabels: { label: string; T: number; x: number }[];
  /** Curie/Neel lines (T = T_C(x)) of magnetic solution phases inside their single-phase fields */
  magneticLines: { phase: string; points: { T: number; x: number }[] }[];
  orderDisorder: {
    options: Required<OrderDisorderOptions>;
    phases: { ordered: string; disordered: string }[];
    secondOrderLines: SecondOrderLine[];
    notes: string[];
  };
  /**
   * the seed grid: label per node (phase labels joined by '+', '' = not converged), and the nodes (indices) of those
   * not converged where the solver says no equilibrium exists (no allowed phase takes the composition, a phase whose
   * Gibbs energy has no lower bound there)
   */
  grid: { T: number[]; X: number[]; labels: string[]; noEquilibrium: number[] };
  /** seconds: total; gridSeconds: seed grid (batch); seedSeconds: bisections between grid nodes */
  stats: { equilibria: number; notConverged: number; seconds: number; gridSeconds: number; seedSeconds: number };
  logs: string[];
}

/** One stable phase of an equilibrium, labelled (NAME, NAME#2 for a second set, in order of x). */
export interface PhaseState {
  base: string;
  label: string;
  x: number;
  NP: number;
  /** order parameter (ordered phases) */ eta?: number;
}
/** A binary equilibrium at (T, X): converged or not, its phases in order of x and their label key "A+B". */
export interface BinaryState {
  ok: boolean;
  T: number;
  X: number;
  phases: PhaseState[];
  key: string;
  /** not converged because no equilibrium exists at the point (saysNoEquilibrium) */
  none?: true;
}

/** A point to solve at: the tracing coroutines yield these and receive the BinaryState. `start`: a converged
 * state nearby whose solver result the point may start from (BinarySolver.solveRound). */
export interface StateRequest {
  T: number;
  X: number;
  start?: BinaryState;
}

/** How a two-phase region ends on one side, with the last tie-line and the state met beyond it. */
export interface RegionEnd {
  kind: RegionEndKind;
  T: number;
  good: TieLine;
  bad: BinaryState | null;
  /** +1: the region lies below T (traced upwards), -1: above */
  dir: 1 | -1;
}

/** A two-phase region while it is traced (tie-lines unsorted until done). */
export interface TracedRegion {
  labels: [string, string];
  tl: TieLine[];
  ends: RegionEnd[];
  done: boolean;
}

/** A point where neighbouring states differ only in the ordering of one phase (a second-order transition). */
export interface SecondOrderPoint {
  ordered: string;
  disordered: string;
  T: number;
  x: number;
}

export const MIN_STEP = 0.01; // K, resolution of the region ends
export const NP_MIN = 1e-10;
export const XCLAMP = 1e-10; // the solver clamps fractions to [1e-10, 1-1e-10] as well
export const SHORT_TIELINE = 0.02; // a tie-line this short at the located end collapses (critical/congruent/pure)
export const SAME_X = 0.01; // two phase records closer than this in x are the same phase
/** K: region ends with the same three phases at the same compositions this close are one invariant */
export const MERGE_T = 3;
/** a boundary off its predicted composition by more than this while the other one is not has jumped */
export const JUMP_X = 0.01;
/** a region whose tie-line is shorter than this is searched for across compositions when the predicted
 * midpoint misses it (see attemptContinuation); wider ones are found by the probes across the tie-line */
export const SEARCH_LEN = 0.05;
/** K: pure-element transitions are bracketed to this, and their lenses looked for this far on each side */
export const EDGE_TOL = 0.02;
export const LENS_DT = 0.2;
