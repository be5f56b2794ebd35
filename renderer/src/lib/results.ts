// Result documents (result/result.json) as the renderer reads them, loading, checking and CSV export.
// The shapes are the agreed contract of /work/notes/results-schema.md, mirrored by the calculation helpers in
// worker/results/<task_type>.ts. They are restated here (not imported) because worker/results/common.ts pulls in
// node: modules that must never reach the browser bundle; the renderer only relies on the fields named below and
// checks their presence at run time (checkResult) so a malformed document gives a clear message, not a blank view.
import { api, type FileList } from './api.js';

export interface ResultTable {
  columns: { name: string; unit: string }[];
  rows: (number | string | null)[][];
}
export interface PhaseRecord {
  name: string; composition_set: number; amount: number; x: Record<string, number>;
  site_fractions?: Record<string, number>[]; GM: number; HM?: number; SM?: number; CPM?: number;
  /** added (worker/results/common.ts, thermo-extra.ts): mass fractions, magnetic, volume and ordering properties */
  w?: Record<string, number>; TC?: number; BMAGN?: number; VM?: number; degree_of_ordering?: number; GM_formation?: number;
  ordering?: { ordered: boolean; structure: string; label: string };
}
export interface MetastableRecord { name: string; driving_force: number; x: Record<string, number>; GM: number }
export interface EquilibriumPoint {
  T: number; P: number; x: Record<string, number>; converged: boolean; reason: string;
  GM: number; HM: number; SM: number; CPM: number; MU: Record<string, number>;
  phases: PhaseRecord[]; metastable: MetastableRecord[];
  /** added: mass fractions, molar volume, formation energy, chemical potentials and activities against the reference states */
  w?: Record<string, number>; VM?: number; GM_formation?: number; MUR?: Record<string, number>; ACR?: Record<string, number>;
}
/** added: liquidus and equilibrium solidus of the alloy (worker/results/alloy-temperatures.ts) */
export interface AlloyTemperatures { liquid_phases: string[]; liquidus: number | null; solidus: number | null; range: [number, number]; note?: string }
/** added: a transition of a line at which C + 1 phases coexist, with the phase compositions there */
export interface InvariantCrossing { T: number; s: number; phases: string[]; compositions: Record<string, { x: Record<string, number>; w?: Record<string, number> }> }
/** added fields of point, line and properties results */
export interface FurtherFields { reference_states?: Record<string, string>; quantity_notes?: string[] }
export interface Transition {
  s: number; T: number; x: Record<string, number>; appearing: string[]; disappearing: string[];
  phases_before: string[]; phases_after: string[];
}
export interface ResultBase {
  version: number; task_type: string; config: Record<string, unknown>;
  provenance?: { engine?: { name: string; version: string }; database?: { code: string | null; file_name: string; sha256: string }; created_at?: string };
}
export interface PointResult extends ResultBase, FurtherFields {
  task_type: 'point_calculation'; point: EquilibriumPoint & { Cp_equilibrium?: number | null }; table: ResultTable;
  alloy_temperatures?: AlloyTemperatures;
}
export type ScanPoint = EquilibriumPoint & { s: number; Cp_equilibrium?: number | null; Cp_frozen?: number | null };
export interface LineResult extends ResultBase, FurtherFields {
  task_type: 'line_calculation'; axis?: { variable: string; label: string; unit: string };
  points: ScanPoint[]; transitions: Transition[]; table: ResultTable;
  invariants?: InvariantCrossing[]; alloy_temperatures?: AlloyTemperatures;
}
export interface PropertiesResult extends ResultBase, FurtherFields {
  task_type: 'thermodynamic_properties_next'; cp_definition: string; axis?: { variable: string; label: string; unit: string };
  points: ScanPoint[]; transitions: Transition[]; table: ResultTable;
}
export interface ScheilStep {
  T: number; fraction_solid: number; fraction_liquid: number; phases_forming: string[];
  liquid_x: Record<string, number>; solid_increment: number;
}
export interface ScheilResult extends ResultBase {
  task_type: 'scheil_solidification'; liquid_phase: string; liquidus_temperature: number | null; solidus_temperature: number | null;
  end_reason: string; steps: ScheilStep[]; lever_rule: { T: number; fraction_solid: number }[];
  lever_rule_solidus_temperature: number | null; table: ResultTable;
  /** added (worker/results/scheil_solidification.ts): the start temperature used and whether it lay below the liquidus */
  start_temperature?: number; started_below_liquidus?: boolean; suggested_start_temperature?: number | null; warnings?: string[];
  /** added: liquidus, end of the Scheil path and equilibrium solidus side by side; the alloy in mass fractions */
  alloy_temperatures?: { liquidus: number | null; scheil_end: number | null; equilibrium_solidus: number | null };
  composition?: Record<string, number>; composition_w?: Record<string, number>;
}
/** gibbs_energy_curves (worker/results/gibbs_energy_curves.ts) */
export interface GibbsCurvesResult extends ResultBase {
  task_type: 'gibbs_energy_curves'; temperature: number; pressure: number; axis: { variable: string; label: string; unit: string };
  s: number[]; axis_values: number[]; compositions: Record<string, number>[];
  curves: { name: string; GM: (number | null)[]; GM_formation: (number | null)[];
    compound?: { s: number; axis_value: number; x: Record<string, number>; GM: number; GM_formation: number } }[];
  equilibrium: { GM: (number | null)[]; GM_formation: (number | null)[]; phases: string[][]; converged: boolean[] };
  tangents: { phases: string[]; mu: Record<string, number>; mu_formation: Record<string, number>;
    points: { phase: string; x: Record<string, number>; s: number | null; axis_value: number | null; GM: number; GM_formation: number }[];
    s_range: [number, number]; axis_range: [number, number] }[];
  reference_states: Record<string, string>; reference_energies: Record<string, number>; table: ResultTable; notes: string[];
}

/** One run of Scheil steps forming the same phases: temperatures and fractions solid from its start to its end. */
export interface ScheilRun { phases: string; from: number; to: number; fs0: number; fs1: number }

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
    if (key && last && last.phases === key && prev && prev.phases_forming.join(' + ') === key) { last.to = s.T; last.fs1 = s.fraction_solid; }
    else if (key) {
      const fs0 = Math.max(0, s.fraction_solid - (s.solid_increment ?? 0));
      out.push({ phases: key, from: s.solid_increment > 0 && prev ? prev.T : s.T, to: s.T, fs0, fs1: s.fraction_solid });
    }
    prev = s;
  }
  return out;
}
export interface BinaryResult extends ResultBase {
  task_type: 'binary_equilibrium'; components: [string, string]; x_component: string;
  temperature_range: [number, number]; composition_range: [number, number];
  two_phase_regions: { phases: [string, string]; tielines: { T: number; x: [number, number] }[] }[];
  invariants: { kind: string; T: number; phases: { name: string; x: number }[]; reaction: string }[];
  critical_points: { phase: string; T: number; x: number }[];
  congruent_points: { phases: [string, string]; T: number; x: number }[];
  single_phase_regions: { label: string; T: number; x: number }[];
  table: ResultTable;
  /** added by the calculation (worker/results/binary_equilibrium.ts): pure-component transitions at x = 0 or 1 */
  pure_element_transitions?: { phases: [string, string]; T: number; x: number }[];
  /** added: second-order ordering lines, drawn dashed */
  order_disorder?: { second_order_lines?: { ordered: string; disordered: string; points: { T: number; x: number }[] }[] };
}
export type AxisVariable = 'composition' | 'temperature' | 'pressure';
export interface AxisSpec { variable: AxisVariable; component?: string }
export interface CptResult extends ResultBase {
  task_type: 'binary_cpt_diagram'; x_component: string; axes: { x: number[]; T: number[]; P: number[] };
  pressure_scale: 'linear' | 'log'; phase_sets: string[]; labels: number[];
  regions_per_pressure: { P: number; regions: { label: string; points: number }[] }[];
  boundary_points: { x: number; T: number; P: number; between: [string, string] }[];
  tielines: { P: number; T: number; x: [number, number]; phases: [string, string] }[];
  axis_config: { x: AxisSpec | AxisVariable; y: AxisSpec | AxisVariable; z: AxisSpec | AxisVariable } | null;
  vtk_files: string[]; table?: ResultTable;
  /** added (worker/results/binary_cpt_diagram.ts): both components, x_component first; false when pressure changes nothing */
  components?: [string, string]; pressure_dependent?: boolean;
}
export type AnyResult = PointResult | LineResult | PropertiesResult | ScheilResult | BinaryResult | CptResult | GibbsCurvesResult;

export { RESULT_TYPES } from './results-types.js';

/** Fields each view cannot do without (results-schema.md); optional extras are not required. */
const REQUIRED: Record<string, string[]> = {
  point_calculation: ['point', 'table'],
  line_calculation: ['points', 'transitions', 'table'],
  thermodynamic_properties_next: ['points', 'transitions', 'table'],
  scheil_solidification: ['steps', 'lever_rule', 'table'],
  binary_equilibrium: ['components', 'x_component', 'two_phase_regions', 'invariants', 'table'],
  binary_cpt_diagram: ['axes', 'phase_sets', 'labels'],
  gibbs_energy_curves: ['axis', 'axis_values', 'curves', 'equilibrium', 'tangents', 'table'],
};

/** Null when the document can be shown, else why not. */
export function checkResult(doc: unknown, expectedType?: string): string | null {
  if (!doc || typeof doc !== 'object') return 'result.json is not a JSON object';
  const d = doc as Record<string, unknown>;
  const t = d.task_type;
  if (typeof t !== 'string') return 'result.json has no task_type';
  if (expectedType && t !== expectedType) return `result.json is a ${t} result, the task is ${expectedType}`;
  const req = REQUIRED[t];
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

export interface LoadedResult { doc: AnyResult; files: FileList }

/** result.json of a completed task: GET /task/{id}/result lists signed URLs; the one named result.json is fetched. */
export async function loadResult(taskId: number, taskType: string, files?: FileList): Promise<LoadedResult> {
  const list = files ?? await api.files(taskId, 'result');
  const url = list.files.find((u) => fileNameOf(u) === 'result.json');
  if (!url) throw new Error('the task has no result.json');
  const res = await fetch(url);
  if (!res.ok) throw new Error(`result.json could not be downloaded (HTTP ${res.status})`);
  let doc: unknown;
  try { doc = JSON.parse(await res.text()); } catch { throw new Error('result.json is not valid JSON'); }
  const problem = checkResult(doc, taskType);
  if (problem) throw new Error(problem);
  return { doc: doc as AnyResult, files: list };
}

/** CSV (RFC 4180) of a result table, header "name [unit]"; the same layout as worker/results/common.ts tableToCsv. */
export function tableToCsv(table: ResultTable): string {
  const cell = (v: number | string | null | undefined): string => {
    if (v === null || v === undefined) return '';
    const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const header = table.columns.map((c) => cell(c.unit ? `${c.name} [${c.unit}]` : c.name));
  return [header.join(','), ...table.rows.map((r) => r.map(cell).join(','))].join('\r\n') + '\r\n';
}

/** Saves text as a file from the page (client side, no request): a blob URL on a temporary download link. */
export function saveText(name: string, text: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url; a.download = name; a.rel = 'noopener';
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Phase label of a stable composition set (worker/results/common.ts phaseLabel): NAME or NAME#2. */
export function phaseLabel(p: { name: string; composition_set: number }): string {
  return p.composition_set > 1 ? `${p.name}#${p.composition_set}` : p.name;
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

export interface ScanAxis { key: 'T' | 'x' | 's'; element?: string; label: string; unit: string; values: number[] }

/**
 * The abscissa of a scan. line_calculation names it (axis.variable 'T', 'X(<EL>)' or 'path'); properties results
 * may not, so it is derived: temperature if T changes along the scan, else the mole fraction of the element that
 * changes most, else the path parameter s.
 */
export function scanAxis(doc: { axis?: { variable: string; label: string; unit: string }; points: ScanPoint[] }): ScanAxis {
  const pts = doc.points;
  const range = (f: (p: ScanPoint) => number) => {
    let lo = Infinity; let hi = -Infinity;
    for (const p of pts) { const v = f(p); if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); } }
    return hi - lo;
  };
  const variable = doc.axis?.variable;
  const el = variable ? /^X\((.+)\)$/.exec(variable)?.[1] : undefined;
  if (variable === 'T' || (!variable && range((p) => p.T) > 1e-9)) {
    return { key: 'T', label: doc.axis?.label ?? 'Temperature', unit: doc.axis?.unit ?? 'K', values: pts.map((p) => p.T) };
  }
  if (el) return { key: 'x', element: el, label: doc.axis?.label ?? `X(${el})`, unit: doc.axis?.unit ?? '', values: pts.map((p) => p.x[el] ?? NaN) };
  if (!variable) {
    // The element that changes most; on a tie (a binary) the one that increases along the scan, so the
    // composition axis reads left to right.
    let best = ''; let bestRange = 1e-12;
    const rises = (e: string) => (pts[pts.length - 1]?.x[e] ?? 0) > (pts[0]?.x[e] ?? 0);
    for (const e of Object.keys(pts[0]?.x ?? {})) {
      const r = range((p) => p.x[e] ?? NaN);
      if (r > bestRange * (1 + 1e-9) || (best && Math.abs(r - bestRange) <= bestRange * 1e-9 && rises(e) && !rises(best))) { best = e; bestRange = r; }
    }
    if (best) return { key: 'x', element: best, label: `X(${best})`, unit: '', values: pts.map((p) => p.x[best] ?? NaN) };
  }
  return { key: 's', label: doc.axis?.label ?? 'Path parameter s', unit: doc.axis?.unit ?? '', values: pts.map((p) => p.s) };
}

/** Position of a transition on a scan axis. */
export function transitionAt(t: Transition, axis: ScanAxis): number {
  if (axis.key === 'T') return t.T;
  if (axis.key === 'x' && axis.element) return t.x[axis.element] ?? NaN;
  return t.s;
}

export function transitionText(t: Transition): string {
  const parts: string[] = [];
  if (t.appearing.length) parts.push(`+${t.appearing.join(', +')}`);
  if (t.disappearing.length) parts.push(`−${t.disappearing.join(', −')}`);
  return `${t.phases_before.join(' + ') || '—'} → ${t.phases_after.join(' + ') || '—'}${parts.length ? ` (${parts.join('; ')})` : ''}`;
}

/**
 * The two-phase region of a binary diagram containing (x, T), with the tie-line there (linear in T between the
 * two computed tie-lines around T) and the lever rule: fraction of the right-hand phase = (x − x0) / (x1 − x0).
 * Null outside every two-phase region (a single-phase field, or outside the traced range).
 */
export function regionAt(doc: Pick<BinaryResult, 'two_phase_regions'>, x: number, T: number):
  { phases: [string, string]; x: [number, number]; fractionRight: number } | null {
  for (const r of doc.two_phase_regions) {
    const tl = r.tielines;
    for (let i = 0; i + 1 < tl.length; i++) {
      const a = tl[i]!; const b = tl[i + 1]!;
      if (!(T >= Math.min(a.T, b.T) && T <= Math.max(a.T, b.T)) || a.T === b.T) continue;
      const f = (T - a.T) / (b.T - a.T);
      const x0 = a.x[0] + f * (b.x[0] - a.x[0]); const x1 = a.x[1] + f * (b.x[1] - a.x[1]);
      if (x >= x0 && x <= x1 && x1 > x0) return { phases: r.phases, x: [x0, x1], fractionRight: (x - x0) / (x1 - x0) };
    }
  }
  return null;
}

/** Svelte context key under which a task's result view gives its task id (export file names). */
export const TASK_ID_CONTEXT = 'phasedesk-task-id';
