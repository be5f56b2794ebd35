// result.json of task type liquidus_projection (worker/calculations/liquidus_projection.ts), an extension. Types and
// one pure helper: the renderer imports this file. Units: K, Pa; compositions as mole fractions of every component
// (the held ones included), keyed by component.
import type { ConvergenceWarning, ResultDocument, ResultTable } from './common.js';
import type { Composition } from './ternary_isothermal_section.js';

/** A point of the liquidus surface: the liquid's composition and its liquidus temperature. */
export interface LiquidusPoint {
  x: Composition;
  T: number;
}

/** A primary crystallisation field: where `phase` is the first solid to form from the liquid. */
export interface PrimaryFieldRecord {
  phase: string;
  /** the ordering state of the phase where its model has one ("B2 (BCC_B2)"), else the phase */
  label: string;
  /** the label in the database's display names (contract/plots/phase-names.ts) */
  display?: string;
  /** where the label is drawn: the field's grid node farthest from other fields and the triangle's sides, or, for a
   * field too small to hold a node, the centroid of its valleys' points (T their mean) */
  at: LiquidusPoint;
  /** grid nodes of the field (0: a field found only by its valleys) */
  grid_nodes: number;
}

/** A univariant valley, L + the two solids; points in order along it, the temperature falling where it falls. */
export interface ValleyRecord {
  phases: [string, string];
  display?: string;
  points: LiquidusPoint[];
}

/** An invariant point of the surface: the liquid in equilibrium with three solids. */
export interface InvariantRecord {
  /** E: L -> a + b + c; U: L + a -> b + c; P: L + a + b -> c (how many of its valleys arrive: 3, 2, 1) */
  type: 'E' | 'U' | 'P' | 'unclassified';
  T: number;
  /** the liquid's composition */
  x: Composition;
  phases: [string, string, string];
  /** the composition of each solid in equilibrium with the liquid there */
  solids: Record<string, Composition>;
  /** "LIQUID + A -> B + C" */
  reaction: string;
  display_reaction?: string;
  /** K: the largest difference between the three solids' saturation temperatures at x (0 at the exact point) */
  spread: number;
  /**
   * The four-phase check: the global equilibria at T + offset and T - offset at the centroid of the four phases'
   * compositions; certified when both converge, differ, and together hold the liquid and the three solids (in a
   * section of a multicomponent alloy, where the four-phase equilibrium spans a range of temperature: when together
   * they hold the four phases).
   */
  check: { x: Composition; offset: number; above: string[] | null; below: string[] | null; certified: boolean };
}

export interface LiquidusProjectionDocument extends ResultDocument {
  task_type: 'liquidus_projection';
  components: string[];
  /** the triangle's corners (the first three components) */
  corners: [string, string, string];
  /** mole fractions of the components held fixed (a section of a multicomponent alloy; empty for a ternary) */
  fixed_compositions: Record<string, number>;
  pressure: number;
  /** the liquid phase */
  liquid: string;
  grid: {
    divisions: number;
    nodes: number;
    not_converged: number;
    equilibria: number;
    /** equilibria spent on the nodes' liquidus, the valleys' crossings, the invariant points (with their checks) and
     * the isotherms' crossings */
    stages: { nodes: number; valleys: number; invariants: number; isotherms: number };
  };
  /** K: the lowest and highest liquidus at the grid's nodes */
  liquidus_range: [number, number] | null;
  primary_fields: PrimaryFieldRecord[];
  valleys: ValleyRecord[];
  invariants: InvariantRecord[];
  /** K between isotherms */
  isotherm_step: number;
  /** each isotherm as segments (pairs of liquid compositions) */
  isotherms: { T: number; segments: [Composition, Composition][] }[];
  /** places where valleys meet but no invariant point was located (a field too small for the finest split of the
   * grid, or a failed search): the valleys end short of them */
  unresolved: Composition[];
  /** grid nodes whose liquidus search failed (never guessed: fields and valleys may be missing there) */
  not_converged_nodes: Composition[];
  /** one row per grid node: its composition, liquidus and primary phase */
  table: ResultTable;
  notes: string[];
  /** present when a large share of the grid's nodes has no liquidus */
  convergence_warning?: ConvergenceWarning;
}

/** Cartesian point of the projection's triangle: corners[0] at (0,0), [1] at (1,0), [2] at (1/2, sqrt(3)/2); the
 * corners' fractions normalised by their sum (a section's held components left out). */
/** Names of the invariant points in the order of the table: E1, U2, P3, ... ('?' for an unclassified point). */
export function invariantTags(doc: Pick<LiquidusProjectionDocument, 'invariants'>): string[] {
  return doc.invariants.map((v, k) => `${v.type === 'unclassified' ? '?' : v.type}${k + 1}`);
}

export function cornerPoint(c: Composition, corners: readonly string[]): [number, number] {
  const [a, b, t] = corners.map((k) => c[k] ?? 0) as [number, number, number];
  const sum = a + b + t || 1;
  return [(b + t / 2) / sum, ((t / sum) * Math.sqrt(3)) / 2];
}
