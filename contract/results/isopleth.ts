// result.json of task_type isopleth (docs/calculations.md). Types and small pure helpers: imported by the renderer,
// so no node: imports here.
// Units: T in K; compositions as fractions in the task's composition_unit (mole or mass fraction); the section's
// horizontal axis is the fraction of `axis.element`, s = 0..1 the path parameter from composition_start to
// composition_end.
import { elementSymbol } from '../plots/names.js';
import type { ConvergenceWarning, ResultDocument, ResultTable } from './common.js';

export interface IsoplethLinePoint {
  s: number;
  T: number;
  /** fraction of the axis element (composition_unit) */
  x: number;
  /** pseudo-binary sections (end_members): the end member's fraction (end_members.axis) */
  y?: number;
  /** stable phase labels on the side of the line where its phase is present / absent (sorted) */
  with: string[];
  without: string[];
}

export interface IsoplethLine {
  /** the phase (label NAME or NAME#2) that appears or vanishes across the line: its amount is zero along it */
  phase: string;
  points: IsoplethLinePoint[];
  /** how each end stops: on the border of the section, closed on itself, or not followed further ('lost') */
  ends: ['range_edge' | 'closed' | 'lost' | 'length_limit', 'range_edge' | 'closed' | 'lost' | 'length_limit'];
}

export interface IsoplethRegion {
  phases: string[];
  /** display labels of `phases`: a set of a phase with an order-disorder description by its state, as point results
   * name it ("L12 (L12_FCC)", "A1 (L12_FCC)"), other phases as in `phases` */
  labels: string[];
  /** added: the field's label in the database's display names (contract/plots/phase-names.ts), e.g. "L + γ" */
  display?: string;
  /** a point inside the region */
  s: number;
  T: number;
  x: number;
  /** pseudo-binary sections: the end member's fraction */
  y?: number;
  /** coarse-grid nodes in the region; 0 = narrower than the grid, labelled beside a line */
  grid_nodes: number;
}

export interface IsoplethInvariant {
  T: number;
  x: [number, number];
  /** pseudo-binary sections: the end member's fraction at the two ends */
  y?: [number, number];
  phases: string[];
  line_phases: string[];
}

export interface IsoplethNamedLine {
  phase: string;
  points: { s: number; T: number; x: number; y?: number }[];
}

/** One end member of a pseudo-binary section as the calculation read it. */
export interface IsoplethEndMember {
  /** the formula as given ("ZrO2"), or the alloy's composition in short ("Fe-0.4C-1Cr mass%") */
  label: string;
  kind: 'formula' | 'alloy';
  /** mole fractions of every component */
  mole_fractions: Record<string, number>;
  /** atoms in one formula unit (an alloy's unit is one mole of atoms: 1) */
  atoms: number;
  /** g per formula unit (database molar masses; 0 when the database gives none) */
  molar_mass: number;
}

/**
 * A pseudo-binary section's end members and its x axis y, the fraction of the end member `end` (0 at start, 1 at
 * end), in formula units (mole_fraction) or by mass (mass_fraction). Along the path, y(s) = s k1 / ((1 - s) k0 + s k1)
 * with k the formula units (or grams) of each end member per unit of the path (one mole of atoms, or one gram).
 */
export interface IsoplethEndMembers {
  start: IsoplethEndMember;
  end: IsoplethEndMember;
  axis: 'mole_fraction' | 'mass_fraction';
  /** "Mole fraction ZrO2" */
  axis_label: string;
  /** k0, k1 of y(s) */
  weights: [number, number];
}

export interface IsoplethResult extends ResultDocument {
  task_type: 'isopleth';
  /** elements of the system */
  components: string[];
  composition_unit: 'mole_fraction' | 'mass_fraction';
  /** the element given by the balance (1 - the others) */
  dependent: string;
  axis: { element: string; range: [number, number]; unit: 'mole_fraction' | 'mass_fraction' };
  /** fractions of every element at both ends (composition_unit) */
  composition_start: Record<string, number>;
  composition_end: Record<string, number>;
  /** added: a pseudo-binary section (condition.end_members); its points, regions and lines carry y */
  end_members?: IsoplethEndMembers;
  temperature_range: [number, number];
  pressure: number;
  lines: IsoplethLine[];
  regions: IsoplethRegion[];
  invariants: IsoplethInvariant[];
  liquidus: IsoplethNamedLine[];
  solidus: IsoplethNamedLine[];
  statistics: { equilibria: number; not_converged: number; grid_nodes: number; wall_time_s: number };
  /** added: present when LARGE_FAILURE_SHARE of the grid's nodes or more have no equilibrium */
  convergence_warning?: ConvergenceWarning;
  table: ResultTable;
}

/** "Mole percent Mg" / "Mass percent Mg". */
export function isoplethAxisLabel(doc: Pick<IsoplethResult, 'axis'>): string {
  return `${doc.axis.unit === 'mass_fraction' ? 'Mass' : 'Mole'} percent ${elementSymbol(doc.axis.element)}`;
}

/** The section's x axis: its title, range and the value of a point (percent of the axis element, or y). */
export interface IsoplethHorizontal {
  label: string;
  /** read-out name and unit ("MG", "%"; "ZrO2", "") */
  name: string;
  unit: string;
  range: [number, number];
  of(p: { x: number; y?: number }): number;
  ofRange(v: { x: [number, number]; y?: [number, number] }): [number, number];
}

export function isoplethHorizontal(doc: Pick<IsoplethResult, 'axis' | 'end_members'>): IsoplethHorizontal {
  const em = doc.end_members;
  if (em)
    return {
      label: em.axis_label,
      name: em.end.label,
      unit: '',
      range: [0, 1],
      of: (p) => p.y ?? NaN,
      ofRange: (v) => (v.y ? [Math.min(...v.y), Math.max(...v.y)] : [NaN, NaN]),
    };
  const [a, b] = doc.axis.range;
  return {
    label: isoplethAxisLabel(doc),
    name: doc.axis.element,
    unit: '%',
    range: [100 * Math.min(a, b), 100 * Math.max(a, b)],
    of: (p) => 100 * p.x,
    ofRange: (v) => [100 * v.x[0], 100 * v.x[1]],
  };
}

/** "Al - Cu 4.4, Si 0.5, Mg 0-2 mass%": the fixed and varying elements of the section (the dependent one left out);
 * "Al2O3 - ZrO2" for a pseudo-binary section. */
export function isoplethCompositionText(
  doc: Pick<IsoplethResult, 'components' | 'dependent' | 'composition_start' | 'composition_end' | 'composition_unit'> &
    Partial<Pick<IsoplethResult, 'end_members'>>,
): string {
  if (doc.end_members) return `${doc.end_members.start.label} - ${doc.end_members.end.label}`;
  const pct = (v: number) => String(Number((100 * v).toPrecision(4)));
  const parts = doc.components
    .filter((e) => e !== doc.dependent)
    .map((e) => {
      const a = doc.composition_start[e] ?? 0,
        b = doc.composition_end[e] ?? 0;
      const el = elementSymbol(e);
      return Math.abs(a - b) < 1e-12 ? `${el} ${pct(a)}` : `${el} ${pct(a)}-${pct(b)}`;
    });
  return `${elementSymbol(doc.dependent)} - ${parts.join(', ')} ${doc.composition_unit === 'mass_fraction' ? 'mass%' : 'mol%'}`;
}

/** "Isopleth Al - Cu 4.4, Mg 0-2 mass%", "Pseudo-binary section Al2O3 - ZrO2". */
export function isoplethTitle(doc: Parameters<typeof isoplethCompositionText>[0]): string {
  return `${doc.end_members ? 'Pseudo-binary section' : 'Isopleth'} ${isoplethCompositionText(doc)}`;
}
