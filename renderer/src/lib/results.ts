// Result documents (result/result.json) as the renderer reads them: loading, checking and CSV export. The document
// types and their pure helpers are the contract's (contract/results/, contract/tasks/registry.ts), the same the
// calculations write with; checkResult still checks the fields each view needs at run time, so a malformed
// document gives a clear message, not a blank view.
import { api, type FileList } from './api.js';
import type { TaskResult, TaskType } from '../../../contract/tasks/registry.js';
import type { EquilibriumPoint } from '../../../contract/results/common.js';
import { transitionDescription, type LinePoint, type Transition } from '../../../contract/results/line_calculation.js';
import type { PropertiesPoint } from '../../../contract/results/thermodynamic_properties_next.js';
import type { ScheilStep } from '../../../contract/results/scheil_solidification.js';
import type { BinaryEquilibriumResult } from '../../../contract/results/binary_equilibrium.js';
import type { BinaryCptResult, CptAxis } from '../../../contract/results/binary_cpt_diagram.js';
import type { PointCalculationResult } from '../../../contract/results/point_calculation.js';
import type { LineCalculationResult } from '../../../contract/results/line_calculation.js';
import type { PropertiesDocument } from '../../../contract/results/thermodynamic_properties_next.js';
import type { ScheilDocument } from '../../../contract/results/scheil_solidification.js';
import type { GibbsEnergyCurvesDocument } from '../../../contract/results/gibbs_energy_curves.js';
import type { SpinodalDecompositionDocument } from '../../../contract/results/spinodal_decomposition.js';
import type { SolutionTreatmentDocument } from '../../../contract/results/solution_treatment.js';
import type { SolidificationDocument } from '../../../contract/results/solidification.js';
import type { AgingDocument } from '../../../contract/results/aging.js';

import { phaseLabel, tableToCsv } from '../../../contract/results/common.js';

export { phaseLabel, tableToCsv, transitionDescription };
export type {
  ResultTable,
  PhaseRecord,
  MetastableRecord,
  EquilibriumPoint,
  ResultDocument as ResultBase,
} from '../../../contract/results/common.js';
export type { Transition, ScheilStep };
export type PointResult = PointCalculationResult;
export type LineResult = LineCalculationResult;
export type PropertiesResult = PropertiesDocument;
export type ScheilResult = ScheilDocument;
export type BinaryResult = BinaryEquilibriumResult;
export type CptResult = BinaryCptResult;
export type GibbsCurvesResult = GibbsEnergyCurvesDocument;
export type SpinodalResult = SpinodalDecompositionDocument;
export type SolutionResult = SolutionTreatmentDocument;
export type SolidificationResult = SolidificationDocument;
export type AgingResult = AgingDocument;
/** A point of a line or properties scan (only a properties point carries Cp_frozen). */
export type ScanPoint = (LinePoint | PropertiesPoint) & { Cp_frozen?: number | null };
export type AxisVariable = CptAxis['variable'];
export type AxisSpec = CptAxis;

/** One run of Scheil steps forming the same phases: temperatures and fractions solid from its start to its end. */
export interface ScheilRun {
  phases: string;
  from: number;
  to: number;
  fs0: number;
  fs1: number;
}

/**
 * The solidification sequence: consecutive steps forming the same phases, merged. A run starts where its first step
 * starts: at the temperature of the step before it and at the fraction solid before that step's increment, so the
 * ranges of consecutive runs meet (0 -> 0.62, 0.62 -> 1) and the last one ends at 1.
 */
export function scheilSequence(steps: ScheilStep[]): ScheilRun[] {
  const out: ScheilRun[] = [];
  let prev: ScheilStep | undefined;
  for (const s of steps) {
    const key = s.phases_forming.join(' + ');
    const last = out[out.length - 1];
    if (key && last && last.phases === key && prev && prev.phases_forming.join(' + ') === key) {
      last.to = s.T;
      last.fs1 = s.fraction_solid;
    } else if (key) {
      const fs0 = Math.max(0, s.fraction_solid - (s.solid_increment ?? 0));
      out.push({
        phases: key,
        from: s.solid_increment > 0 && prev ? prev.T : s.T,
        to: s.T,
        fs0,
        fs1: s.fraction_solid,
      });
    }
    prev = s;
  }
  return out;
}
/** result.json of any task type of the registry. */
export type AnyResult = TaskResult<TaskType>;

/**
 * Fields each task type's view cannot do without; optional extras are not required. Keyed by the registry's
 * task types: a type without a result view does not compile.
 */
const REQUIRED: Record<TaskType, string[]> = {
  point_calculation: ['point', 'table'],
  line_calculation: ['points', 'transitions', 'table'],
  thermodynamic_properties_next: ['points', 'transitions', 'table'],
  scheil_solidification: ['steps', 'lever_rule', 'table'],
  binary_equilibrium: ['components', 'x_component', 'two_phase_regions', 'invariants', 'table'],
  binary_cpt_diagram: ['axes', 'phase_sets', 'labels'],
  isopleth: ['axis', 'temperature_range', 'lines', 'regions', 'liquidus', 'solidus', 'table'],
  ternary_isothermal_section: [
    'components',
    'two_phase_regions',
    'three_phase_triangles',
    'single_phase_regions',
    'table',
  ],
  gibbs_energy_curves: ['axis', 'axis_values', 'curves', 'equilibrium', 'tangents', 'table'],
  equilibrium_batch: ['counts', 'columns', 'files', 'preview_rows'],
  spinodal_decomposition: ['phase', 'temperatures', 'chemical_spinodal', 'binodal', 'critical_points', 'table'],
  solution_treatment: ['temperatures', 'amounts', 'solvus', 'table'],
  solidification: ['path', 'scheil_path', 'lever_rule', 'back_diffusion', 'final_profile', 'table'],
  potential_diagram: ['x_axis', 'y_axis', 'fields', 'boundaries', 'junctions', 'table'],
  liquidus_projection: ['corners', 'primary_fields', 'valleys', 'invariants', 'isotherms', 'table'],
  aging: ['time', 'temperature', 'precipitates', 'matrix_composition', 'size_distributions', 'table'],
};

/** Null when the document can be shown, else why not. */
export function checkResult(doc: unknown, expectedType?: string): string | null {
  if (!doc || typeof doc !== 'object') return 'result.json is not a JSON object';
  const d = doc as Record<string, unknown>;
  const t = d.task_type;
  if (typeof t !== 'string') return 'result.json has no task_type';
  if (expectedType && t !== expectedType) return `result.json is a ${t} result, the task is ${expectedType}`;
  const req = (REQUIRED as Record<string, string[] | undefined>)[t];
  if (!req) return `no result view for task type '${t}'`;
  const missing = req.filter((k) => d[k] === undefined || d[k] === null);
  if (missing.length) return `result.json (${t}) lacks ${missing.join(', ')}`;
  if (t === 'binary_cpt_diagram') {
    const c = d as unknown as CptResult;
    const n = c.axes.x.length * c.axes.T.length * c.axes.P.length;
    if (c.labels.length !== n) return `labels holds ${c.labels.length} values, axes give ${n}`;
  }
  return null;
}

/** File name of a (pre-signed) download URL. */
export function fileNameOf(url: string): string {
  return decodeURIComponent(new URL(url, location.href).pathname.split('/').pop() ?? url);
}

export interface LoadedResult {
  doc: AnyResult;
  files: FileList;
}

/** result.json of a completed task: GET /task/{id}/result lists signed URLs; the one named result.json is fetched. */
export async function loadResult(taskId: number, taskType: string, files?: FileList): Promise<LoadedResult> {
  const list = files ?? (await api.files(taskId, 'result'));
  const url = list.files.find((u) => fileNameOf(u) === 'result.json');
  if (!url) throw new Error('the task has no result.json');
  const res = await fetch(url);
  if (!res.ok) throw new Error(`result.json could not be downloaded (HTTP ${res.status})`);
  let doc: unknown;
  try {
    doc = JSON.parse(await res.text());
  } catch {
    throw new Error('result.json is not valid JSON');
  }
  const problem = checkResult(doc, taskType);
  if (problem) throw new Error(problem);
  return { doc: doc as AnyResult, files: list };
}

/** Saves text as a file from the page (client side, no request). */
export function saveText(name: string, text: string, type = 'text/csv'): void {
  saveBlob(name, new Blob([text], { type: `${type};charset=utf-8` }));
}

/** Saves a blob as a file from the page: a blob URL on a temporary download link. */
export function saveBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Every phase label stable somewhere along a scan, in order of first appearance. */
export function phaseLabels(points: EquilibriumPoint[]): string[] {
  const seen = new Set<string>();
  for (const p of points) for (const ph of p.phases) seen.add(phaseLabel(ph));
  return [...seen];
}

/** NP of a phase label at each point (0 where the phase is not stable, null where the point did not converge). */
export function phaseAmounts(points: EquilibriumPoint[], label: string): (number | null)[] {
  return points.map((p) => {
    if (!p.converged) return null;
    let sum = 0;
    for (const ph of p.phases) if (phaseLabel(ph) === label) sum += ph.amount;
    return sum;
  });
}

export interface ScanAxis {
  key: 'T' | 'x' | 's';
  element?: string;
  label: string;
  unit: string;
  values: number[];
}

/**
 * The abscissa of a scan. line_calculation names it (axis.variable 'T', 'X(<EL>)' or 'path'); properties results
 * may not, so it is derived: temperature if T changes along the scan, else the mole fraction of the element that
 * changes most, else the path parameter s.
 */
export function scanAxis(doc: {
  axis?: { variable: string; label: string; unit: string };
  points: ScanPoint[];
}): ScanAxis {
  const pts = doc.points;
  const range = (f: (p: ScanPoint) => number) => {
    let lo = Infinity;
    let hi = -Infinity;
    for (const p of pts) {
      const v = f(p);
      if (Number.isFinite(v)) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
    return hi - lo;
  };
  const variable = doc.axis?.variable;
  const el = variable ? /^X\((.+)\)$/.exec(variable)?.[1] : undefined;
  if (variable === 'T' || (!variable && range((p) => p.T) > 1e-9)) {
    return {
      key: 'T',
      label: doc.axis?.label ?? 'Temperature',
      unit: doc.axis?.unit ?? 'K',
      values: pts.map((p) => p.T),
    };
  }
  if (el)
    return {
      key: 'x',
      element: el,
      label: doc.axis?.label ?? `X(${el})`,
      unit: doc.axis?.unit ?? '',
      values: pts.map((p) => p.x[el] ?? NaN),
    };
  if (!variable) {
    // The element that changes most; on a tie (a binary) the one that increases along the scan, so the
    // composition axis reads left to right.
    let best = '';
    let bestRange = 1e-12;
    const rises = (e: string) => (pts[pts.length - 1]?.x[e] ?? 0) > (pts[0]?.x[e] ?? 0);
    for (const e of Object.keys(pts[0]?.x ?? {})) {
      const r = range((p) => p.x[e] ?? NaN);
      if (
        r > bestRange * (1 + 1e-9) ||
        (best && Math.abs(r - bestRange) <= bestRange * 1e-9 && rises(e) && !rises(best))
      ) {
        best = e;
        bestRange = r;
      }
    }
    if (best)
      return { key: 'x', element: best, label: `X(${best})`, unit: '', values: pts.map((p) => p.x[best] ?? NaN) };
  }
  return {
    key: 's',
    label: doc.axis?.label ?? 'Path parameter s',
    unit: doc.axis?.unit ?? '',
    values: pts.map((p) => p.s),
  };
}

/** Position of a transition on a scan axis. */
export function transitionAt(t: Transition, axis: ScanAxis): number {
  if (axis.key === 'T') return t.T;
  if (axis.key === 'x' && axis.element) return t.x[axis.element] ?? NaN;
  return t.s;
}

/**
 * The two-phase region of a binary diagram containing (x, T), with the tie-line there (linear in T between the
 * two computed tie-lines around T) and the lever rule: fraction of the right-hand phase = (x − x0) / (x1 − x0).
 * Null outside every two-phase region (a single-phase field, or outside the traced range).
 */
export function regionAt(
  doc: Pick<BinaryResult, 'two_phase_regions'>,
  x: number,
  T: number,
): { phases: [string, string]; x: [number, number]; fractionRight: number } | null {
  for (const r of doc.two_phase_regions) {
    const tl = r.tielines;
    for (let i = 0; i + 1 < tl.length; i++) {
      const a = tl[i]!;
      const b = tl[i + 1]!;
      if (!(T >= Math.min(a.T, b.T) && T <= Math.max(a.T, b.T)) || a.T === b.T) continue;
      const f = (T - a.T) / (b.T - a.T);
      const x0 = a.x[0] + f * (b.x[0] - a.x[0]);
      const x1 = a.x[1] + f * (b.x[1] - a.x[1]);
      if (x >= x0 && x <= x1 && x1 > x0) return { phases: r.phases, x: [x0, x1], fractionRight: (x - x0) / (x1 - x0) };
    }
  }
  return null;
}

/** Svelte context key under which a task's result view gives its task id (export file names). */
export const TASK_ID_CONTEXT = 'phasedesk-task-id';
