// The request and the result of an isopleth map (isopleth/trace.ts).
import type { NativeDatabase } from '../../core/native.js';
import type { JobControl } from '../../protocol.js';
import type { IsoplethRegion } from '../../../contract/results/isopleth.js';
import type { LineEnd } from '../core/zpf-line.js';
import type { ZpfLine as PlaneLine } from '../core/zpf-lines.js';
import type { CompositionPath } from './path.js';
import type { GridFailures } from '../nothing-converged.js';

export type { LineEnd };

export interface IsoplethSetup {
  database: NativeDatabase;
  /** solver components (elements plus VA where the database defines it) */
  components: string[];
  phases?: string[];
  path: CompositionPath;
  T: [number, number];
  P: number;
  /** grid nodes per axis */
  resolution: number;
  threads: number;
  control?: JobControl;
  /** phase names that are liquids (liquidus / solidus) */
  liquids: Set<string>;
  /** accuracy of every line point: K and axis fraction */
  tolT?: number;
  tolX?: number;
}

/** One point of a ZPF line with the phase sets on its two sides. */
export interface LinePoint {
  s: number;
  T: number;
  /** the axis element's fraction (in the path's unit) */
  x: number;
  /** stable phase labels on the side where the line's phase is present / absent */
  with: string[];
  without: string[];
}

/** A ZPF line of the section: the phase whose amount is zero along it, its points, how its two ends end. */
export type ZpfLine = PlaneLine<LinePoint>;

/** A labelled region of the section, as the result document has it. */
export type RegionLabel = IsoplethRegion;

export interface InvariantLine {
  T: number;
  /** axis fraction range the horizontal spans */
  x: [number, number];
  /** every phase stable on either side of the line */
  phases: string[];
  /** the phases whose ZPF lines run along it */
  line_phases: string[];
}

export interface NamedLine {
  /** liquidus: the solid phase that forms first on cooling; solidus: the liquid */
  phase: string;
  points: { s: number; T: number; x: number }[];
}

export interface IsoplethMap {
  lines: ZpfLine[];
  regions: RegionLabel[];
  invariants: InvariantLine[];
  liquidus: NamedLine[];
  solidus: NamedLine[];
  grid: { s: number[]; T: number[]; labels: string[][] };
  stats: { equilibria: number; notConverged: number; seconds: number; gridSeconds: number; grid: GridFailures };
  logs: string[];
}
