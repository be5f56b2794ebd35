// binary_cpt_diagram (service spec "task_type = binary_cpt_diagram", issue 6): the stable phase set of
// a binary system on a composition x temperature x pressure grid, the boundary surfaces between the
// phase-set regions, tie-lines, result files, isobaric-section previews and a zip of VTK files for
// ParaView (GET /task/{id}/vtk serves every file of <taskDir>/vtk/, main/service/files.ts).
//
// Method:
//  1. Grid: composition_start..composition_end by composition_step and temperature_start..end by
//     temperature_step (the end value is always a node, the last step may be shorter), and
//     pressure_points pressures from pressure_start to pressure_end, evenly spaced in P or in log10 P.
//     One global equilibrium per node (worker/core/equilibrium.ts, formula sheet §8-§9) across the
//     job's OpenMP threads, in chunks for cancel and progress (cpt/chunked.ts).
//  2. Label per node: the sorted stable phase labels (NAME, NAME#2 for a second composition set)
//     joined by '+'; -1 where the solver did not certify the equilibrium (kept visible, never guessed).
//  3. Boundaries: every grid edge whose two node labels differ is bisected (BISECTION_STEPS equilibria,
//     all edges of one step in one batch) down to 1/64 of the grid step; the crossing is where the
//     label first changes seen from the lower end. Bisection runs in log10 P on a log pressure axis.
//  4. Surfaces: multi-label Surface Nets (Gibson 1998; cpt/surface-nets.ts) on those crossings.
//  5. Tie-lines (include_tielines): at every tieline_stride-th temperature row, each two-phase region
//     of the row gives one tie-line (the two phase compositions, identical for all its nodes).
// Pressure enters the Gibbs energies only through molar-volume terms (V0, VA, ...) of the TDB; most
// databases have none, so P changes the diagram little or not at all (said in the VTK README).
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { openDatabase } from '../core/database.js';
import type { NativeDatabase } from '../core/native.js';
import type { EquilibriumConditions, EquilibriumOptions, EquilibriumResult } from '../core/equilibrium.js';
import { isobaricSections } from '../plots/sections.js';
import { CancelledError, type CalculationJob, type CalculationOutput, type JobControl } from '../protocol.js';
import {
  RESULT_VERSION, phaseLabel, provenance, tableToCsv, writeResultFiles, type ResultTable,
} from '../results/common.js';
import {
  defaultCptAxisConfig, type BinaryCptResult, type CptAxisConfig, type CptBoundaryPoint, type CptTieLine,
} from '../results/binary_cpt_diagram.js';
import { ChunkedSolver } from './cpt/chunked.js';
import { changingEdges, edgeKey, surfaceNets, type BoundarySurface } from './cpt/surface-nets.js';
import { multiBlock, polyData, rectilinearGrid, type VtkArray } from './cpt/vtk.js';

/** Equilibria per bisected edge: the crossing is known to 1/2^6 = 1/64 of the grid step. */
export const BISECTION_STEPS = 6;
/** Largest grid accepted (nodes); beyond this the task fails with a message instead of exhausting memory. */
export const MAX_NODES = 1_000_000;
export const VTK_ZIP_NAME = 'cpt_diagram.zip';
/** Folder inside the zip, so unpacking gives one directory. */
export const VTK_FOLDER = 'cpt_diagram';

// ------------------------------------------------------------------------------------------------
// Input

export interface CptInput {
  tdbFile: string;
  /** solver components (the two elements, plus VA when the database defines it) */
  components: string[];
  /** [x_component, other] */
  elements: [string, string];
  phases: string[] | undefined;
  xs: number[];
  Ts: number[];
  Ps: number[];
  logP: boolean;
  options: EquilibriumOptions;
  includeTielines: boolean;
  tielineStride: number;
  axisConfig: CptAxisConfig | null;
}

/** Axis from start to end by step; the end is always the last node (the last step may be shorter). */
export function stepAxis(start: number, end: number, step: number, what: string): number[] {
  if (![start, end, step].every(Number.isFinite) || !(step > 0)) throw new Error(`${what}: start, end and step must be finite numbers, step > 0`);
  if (end < start) throw new Error(`${what}: end must not be below start`);
  const n = Math.floor((end - start) / step + 1e-9);
  if (n + 2 > MAX_NODES) throw new Error(`${what}: ${n + 1} values from start to end by step; the grid may hold at most ${MAX_NODES} nodes`);
  const out: number[] = [];
  // rounded to 12 decimals so that 0.1 + 2 * 0.05 prints as 0.2 in the files
  for (let i = 0; i <= n; i++) out.push(Number((start + i * step).toFixed(12)));
  const last = out[out.length - 1]!;
  if (end - last > step * 1e-6) out.push(end);
  else out[out.length - 1] = end;
  return out;
}

export function pressureAxis(start: number, end: number, points: number, log: boolean): number[] {
  if (!(start > 0) || !(end >= start) || !Number.isInteger(points) || points < 1) {
    throw new Error('condition.pressure_*: pressures must be > 0, end >= start, pressure_points a positive integer');
  }
  if (points === 1) return [start];
  const out: number[] = [];
  for (let i = 0; i < points; i++) {
    const f = i / (points - 1);
    out.push(log ? 10 ** (Math.log10(start) + f * (Math.log10(end) - Math.log10(start))) : start + f * (end - start));
  }
  out[0] = start;
  out[points - 1] = end;
  return out;
}

function num(c: Record<string, unknown>, key: string): number {
  const v = c[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`condition.${key} must be a number`);
  return v;
}

function parseAxisConfig(cfg: Record<string, unknown>): CptAxisConfig | null {
  const ui = cfg.ui_metadata as Record<string, unknown> | undefined;
  const ac = ui && typeof ui === 'object' ? ui.axis_config as Record<string, unknown> | undefined : undefined;
  if (!ac || typeof ac !== 'object') return null;
  const axis = (k: string) => {
    const a = ac[k] as { variable?: unknown; component?: unknown } | undefined;
    if (!a || !['composition', 'temperature', 'pressure'].includes(String(a.variable))) {
      throw new Error(`ui_metadata.axis_config.${k}.variable must be one of: composition, temperature, pressure`);
    }
    if (a.variable === 'composition' && (typeof a.component !== 'string' || !a.component)) {
      throw new Error(`ui_metadata.axis_config.${k}.component is required for a composition axis`);
    }
    return a.variable === 'composition'
      ? { variable: 'composition' as const, component: String(a.component).toUpperCase() }
      : { variable: a.variable as 'temperature' | 'pressure' };
  };
  return { x: axis('x'), y: axis('y'), z: axis('z') };
}

/** Reads and checks the task's condition (already validated by main/api/task-config.ts). */
export function readInput(job: CalculationJob): CptInput & { db: ReturnType<typeof openDatabase>; logs: string[] } {
  const cfg = job.config;
  const tdbFile = cfg.tdb_file;
  if (typeof tdbFile !== 'string' || !tdbFile) throw new Error('task_config.tdb_file is missing (the database file of the task)');
  const c = cfg.condition as Record<string, unknown> | undefined;
  if (!c || typeof c !== 'object') throw new Error('task_config.condition is required');
  const comps = Array.isArray(c.components) ? (c.components as unknown[]).map((s) => String(s).toUpperCase()) : [];
  const elements = [...new Set(comps.filter((s) => s !== 'VA'))];
  if (elements.length !== 2) throw new Error('condition.components must hold exactly 2 elements');
  const xComp = String(c.x_component ?? '').toUpperCase();
  if (!elements.includes(xComp)) throw new Error(`condition.x_component: ${xComp} is not one of ${elements.join(', ')}`);
  const other = elements.find((e) => e !== xComp)!;

  const db = openDatabase(tdbFile);
  const info = db.info();
  const dbElements = new Set(info.elements.map((e) => e.name.toUpperCase()));
  for (const e of elements) if (!dbElements.has(e)) throw new Error(`condition.components: ${e} is not an element of ${basename(tdbFile)}`);
  const components = dbElements.has('VA') ? [xComp, other, 'VA'] : [xComp, other];
  const logs: string[] = [];
  let phases: string[] | undefined;
  const act = Array.isArray(c.activated_phases) ? (c.activated_phases as unknown[]).map((p) => String(p).toUpperCase()) : [];
  if (act.length) {
    const defined = new Set(info.phases.map((p) => p.name.toUpperCase()));
    const unknown = act.filter((p) => !defined.has(p));
    if (unknown.length) throw new Error(`condition.activated_phases: ${unknown.join(', ')} not defined in ${basename(tdbFile)}`);
    const formable = db.phasesFor([xComp, other], true);  // rejected-by-default phases too, when named
    phases = act.filter((p) => formable.includes(p));
    const dropped = act.filter((p) => !formable.includes(p));
    if (dropped.length) logs.push(`activated phases that cannot form from ${xComp}-${other} are ignored: ${dropped.join(', ')}`);
    if (!phases.length) throw new Error(`condition.activated_phases: none of ${act.join(', ')} can form from ${xComp}-${other}`);
  }

  const xs = stepAxis(num(c, 'composition_start'), num(c, 'composition_end'), num(c, 'composition_step'), 'condition.composition');
  if (xs[0]! < 0 || xs[xs.length - 1]! > 1) throw new Error('condition.composition_start/end must be between 0 and 1');
  const Ts = stepAxis(num(c, 'temperature_start'), num(c, 'temperature_end'), num(c, 'temperature_step'), 'condition.temperature');
  if (!(Ts[0]! > 0)) throw new Error('condition.temperature_start must be greater than 0');
  const scale = String(c.pressure_scale ?? 'linear');
  if (scale !== 'linear' && scale !== 'log') throw new Error('condition.pressure_scale must be one of: linear, log');
  const Ps = pressureAxis(num(c, 'pressure_start'), num(c, 'pressure_end'), num(c, 'pressure_points'), scale === 'log');
  const total = xs.length * Ts.length * Ps.length;
  if (total > MAX_NODES) throw new Error(`the grid has ${xs.length} x ${Ts.length} x ${Ps.length} = ${total} nodes; at most ${MAX_NODES} are allowed (use larger steps)`);

  const options: EquilibriumOptions = {};
  const mo = c.map_options as Record<string, unknown> | undefined;
  const pdens = mo && typeof mo === 'object' ? mo.GLOBAL_MIN_PDENS : undefined;
  if (pdens !== undefined) {
    if (typeof pdens !== 'number' || !Number.isFinite(pdens) || pdens <= 0) throw new Error('condition.map_options.GLOBAL_MIN_PDENS must be a positive number');
    options.pdens = Math.max(1, Math.round(pdens));
  }
  const stride = c.tieline_stride === undefined ? 1 : Number(c.tieline_stride);
  if (!(stride > 0)) throw new Error('condition.tieline_stride must be greater than 0');
  const axisConfig = parseAxisConfig(cfg);
  if (axisConfig) {
    // The task schema accepts these; they are stored as given, with a log line for the viewer's sake.
    for (const k of ['x', 'y', 'z'] as const) {
      const a = axisConfig[k];
      if (a.variable === 'composition' && !elements.includes(a.component!)) logs.push(`ui_metadata.axis_config.${k}.component ${a.component} is not one of ${elements.join(', ')}`);
    }
    const vars = new Set([axisConfig.x.variable, axisConfig.y.variable, axisConfig.z.variable]);
    if (vars.size < 3) logs.push('ui_metadata.axis_config maps two viewer axes to the same variable');
  }
  return {
    db, logs, tdbFile, components, elements: [xComp, other], phases, xs, Ts, Ps, logP: scale === 'log', options,
    includeTielines: c.include_tielines === true, tielineStride: Math.max(1, Math.round(stride)),
    axisConfig,
  };
}

// ------------------------------------------------------------------------------------------------
// Computation

/** Phase labels of a result (sorted), or null when not converged / empty. */
export function stableLabels(r: EquilibriumResult): string[] | null {
  if (!r.converged || r.phases.length === 0) return null;
  return r.phases.map((p) => phaseLabel({ name: p.name, composition_set: p.setNumber })).sort();
}

class Registry {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  id(name: string): number {
    let k = this.index.get(name);
    if (k === undefined) { k = this.names.length; this.names.push(name); this.index.set(name, k); }
    return k;
  }
}

export interface CptComputation {
  input: CptInput;
  dims: [number, number, number];
  labels: Int32Array;
  phaseSets: string[];
  phaseLabels: string[];
  /** per node: [phase label index, NP] of the stable phases */
  nodePhases: [number, number][][];
  boundary: CptBoundaryPoint[];
  crossings: Map<number, number>;
  surface: BoundarySurface;
  tielines: (CptTieLine & { node: number })[];
  equilibria: number;
  notConverged: number;
}

/** Geometry coordinate of the pressure axis: P, or log10 P on a log axis. */
export function pressureCoordinate(P: number, logP: boolean): number { return logP ? Math.log10(P) : P; }

export function computeCpt(input: CptInput & { db: ReturnType<typeof openDatabase> }, threads: number, control: JobControl): CptComputation {
  const solver = new ChunkedSolver({ db: input.db, components: input.components, phases: input.phases, options: input.options },
    Math.max(1, Math.floor(threads)), control);
  try {
    return computeWith(input, solver, control);
  } finally {
    solver.close();
  }
}

function computeWith(input: CptInput, solver: ChunkedSolver, control: JobControl): CptComputation {
  const { xs, Ts, Ps, elements } = input;
  const [xComp] = elements;
  const nX = xs.length, nT = Ts.length, nP = Ps.length, N = nX * nT * nP;
  const sets = new Registry(), phaseReg = new Registry();
  const labels = new Int32Array(N).fill(-1);
  const nodePhases: [number, number][][] = new Array(N);
  const tieCandidates = new Map<number, { label: string; x: number }[]>();
  const onTieRow = (iT: number) => input.includeTielines && iT % input.tielineStride === 0;
  let notConverged = 0;

  const nodeCond = (n: number): EquilibriumConditions => {
    const iX = n % nX, iT = Math.floor(n / nX) % nT, iP = Math.floor(n / (nX * nT));
    return { T: Ts[iT]!, P: Ps[iP]!, X: { [xComp]: xs[iX]! } };
  };
  // 1. grid: progress 0 .. 0.7
  solver.solve(N, nodeCond, (n, r) => {
    const labs = stableLabels(r);
    nodePhases[n] = r.phases.map((p) => [phaseReg.id(phaseLabel({ name: p.name, composition_set: p.setNumber })), p.NP]);
    if (!labs) { notConverged++; return; }
    labels[n] = sets.id(labs.join('+'));
    const iT = Math.floor(n / nX) % nT;
    if (labs.length === 2 && onTieRow(iT)) {
      tieCandidates.set(n, r.phases.map((p) => ({ label: phaseLabel({ name: p.name, composition_set: p.setNumber }), x: p.x[xComp] ?? NaN })));
    }
  }, 0, 0.7);

  // 2. bisection of every edge with a label change: progress 0.7 .. 0.95
  const edges = changingEdges([nX, nT, nP], labels);
  const axisValues: number[][] = [xs, Ts, Ps.map((p) => pressureCoordinate(p, input.logP))];
  const lo = new Float64Array(edges.length), hi = new Float64Array(edges.length).fill(1);
  const hiLabel = Int32Array.from(edges.map((e) => e.b));
  const active = new Uint8Array(edges.length).fill(1);
  const edgeCond = (e: number, t: number): EquilibriumConditions => {
    const { axis, node } = edges[e]!;
    const idx = [node % nX, Math.floor(node / nX) % nT, Math.floor(node / (nX * nT))];
    const v = idx.map((i, a) => axisValues[a]![i]!);
    const a0 = axisValues[axis]![idx[axis]!]!, a1 = axisValues[axis]![idx[axis]! + 1]!;
    v[axis] = a0 + t * (a1 - a0);
    const P = axis === 2 ? (input.logP ? 10 ** v[2]! : v[2]!) : Ps[idx[2]!]!;
    return { T: v[1]!, P, X: { [xComp]: v[0]! } };
  };
  for (let step = 0; step < BISECTION_STEPS; step++) {
    const todo: number[] = [];
    for (let e = 0; e < edges.length; e++) if (active[e]) todo.push(e);
    if (!todo.length) break;
    solver.solve(todo.length, (k) => edgeCond(todo[k]!, (lo[todo[k]!]! + hi[todo[k]!]!) / 2), (k, r) => {
      const e = todo[k]!, mid = (lo[e]! + hi[e]!) / 2;
      const labs = stableLabels(r);
      // an uncertified midpoint ends the search for this edge: the crossing stays in [lo, hi]
      if (!labs) { active[e] = 0; return; }
      const m = sets.id(labs.join('+'));
      if (m === edges[e]!.a) lo[e] = mid;
      else { hi[e] = mid; hiLabel[e] = m; }
    }, 0.7 + 0.25 * step / BISECTION_STEPS, 0.7 + 0.25 * (step + 1) / BISECTION_STEPS);
  }
  const crossings = new Map<number, number>();
  const boundary: CptBoundaryPoint[] = [];
  const axisNames = ['x', 'T', 'P'] as const;
  edges.forEach((e, k) => {
    const t = (lo[k]! + hi[k]!) / 2;
    crossings.set(edgeKey(e.axis, e.node), t);
    const c = edgeCond(k, t);
    boundary.push({ x: c.X![xComp]!, T: c.T, P: c.P!, between: [sets.names[e.a]!, sets.names[hiLabel[k]!]!], axis: axisNames[e.axis] });
  });
  if (control.cancelled) throw new CancelledError();

  // 3. surfaces
  const surface = surfaceNets({ coords: [xs, Ts, axisValues[2]!], labels }, crossings);

  // 4. tie-lines: one per two-phase region and tie-line row (its nodes share the phase compositions)
  const tielines: (CptTieLine & { node: number })[] = [];
  const seen = new Map<string, CptTieLine[]>();
  for (const [n, ph] of [...tieCandidates.entries()].sort((a, b) => a[0] - b[0])) {
    const iT = Math.floor(n / nX) % nT, iP = Math.floor(n / (nX * nT));
    const sorted = [...ph].sort((a, b) => a.x - b.x);
    const key = `${iP}|${iT}|${labels[n]}`;
    const prev = seen.get(key) ?? [];
    const tl: CptTieLine = { P: Ps[iP]!, T: Ts[iT]!, x: [sorted[0]!.x, sorted[1]!.x], phases: [sorted[0]!.label, sorted[1]!.label], x_overall: xs[n % nX]! };
    if (prev.some((p) => Math.abs(p.x[0] - tl.x[0]) < 1e-4 && Math.abs(p.x[1] - tl.x[1]) < 1e-4)) continue;
    prev.push(tl);
    seen.set(key, prev);
    tielines.push({ ...tl, node: n });
  }
  return {
    input, dims: [nX, nT, nP], labels, phaseSets: sets.names, phaseLabels: phaseReg.names, nodePhases, boundary, crossings,
    surface, tielines, equilibria: solver.count, notConverged,
  };
}

// ------------------------------------------------------------------------------------------------
// Output

/** Phase label names sorted as in result tables (by name, then composition set). */
function sortedPhaseLabels(labels: string[]): string[] {
  const split = (l: string) => { const i = l.indexOf('#'); return i < 0 ? { n: l, s: 1 } : { n: l.slice(0, i), s: Number(l.slice(i + 1)) }; };
  return [...labels].sort((a, b) => { const A = split(a), B = split(b); return A.n === B.n ? A.s - B.s : A.n < B.n ? -1 : 1; });
}

/** Per phase label: NP at every node (0 where absent or not converged). */
export function fractionArrays(comp: CptComputation): Map<string, Float64Array> {
  const N = comp.labels.length;
  const out = new Map<string, Float64Array>();
  for (const l of sortedPhaseLabels(comp.phaseLabels)) out.set(l, new Float64Array(N));
  for (let n = 0; n < N; n++) {
    if (comp.labels[n]! < 0) continue;
    for (const [k, np] of comp.nodePhases[n] ?? []) out.get(comp.phaseLabels[k]!)![n] += np;
  }
  return out;
}

export function resultTable(comp: CptComputation, fractions: Map<string, Float64Array>): ResultTable {
  const { xs, Ts, Ps, elements } = comp.input;
  const [nX, nT] = comp.dims;
  const names = [...fractions.keys()];
  const columns = [
    { name: `x(${elements[0]})`, unit: '-' }, { name: 'T', unit: 'K' }, { name: 'P', unit: 'Pa' },
    { name: 'phase_set', unit: '' }, { name: 'label', unit: '' }, { name: 'converged', unit: '' },
    ...names.map((n) => ({ name: `NP(${n})`, unit: 'mol/mol' })),
  ];
  const rows: (number | string | null)[][] = [];
  for (let n = 0; n < comp.labels.length; n++) {
    const l = comp.labels[n]!;
    const ok = l >= 0;
    rows.push([xs[n % nX]!, Ts[Math.floor(n / nX) % nT]!, Ps[Math.floor(n / (nX * nT))]!, ok ? comp.phaseSets[l]! : '', l, ok ? 1 : 0,
      ...names.map((k) => (ok ? fractions.get(k)![n]! : null))]);
  }
  return { columns, rows };
}

/** Pairs of phase sets met on the surfaces: index = the 'between' cell value in boundaries.vtp. */
function pairTable(surface: BoundarySurface): { pairs: [number, number][]; indexOf: (a: number, b: number) => number } {
  const keys = new Map<string, number>();
  const pairs: [number, number][] = [];
  const all = [...surface.lineLabels, ...surface.polyLabels].map(([a, b]) => (a < b ? [a, b] : [b, a]) as [number, number]);
  for (const p of [...all].sort((u, v) => u[0] - v[0] || u[1] - v[1])) {
    const k = `${p[0]},${p[1]}`;
    if (!keys.has(k)) { keys.set(k, pairs.length); pairs.push(p); }
  }
  return { pairs, indexOf: (a, b) => keys.get(a < b ? `${a},${b}` : `${b},${a}`)! };
}

export interface VtkBundle { files: Record<string, string>; entries: string[] }

export function buildVtk(comp: CptComputation, fractions: Map<string, Float64Array>, meta: { database: string }): VtkBundle {
  const { xs, Ts, Ps, logP, elements } = comp.input;
  const zc = Ps.map((p) => pressureCoordinate(p, logP));
  const N = comp.labels.length;
  const converged = new Uint8Array(N);
  for (let n = 0; n < N; n++) converged[n] = comp.labels[n]! >= 0 ? 1 : 0;
  const [nX, nT] = comp.dims;
  const pPa = new Float64Array(N);
  for (let n = 0; n < N; n++) pPa[n] = Ps[Math.floor(n / (nX * nT))]!;
  const pointData: VtkArray[] = [
    { name: 'phase_set', type: 'Int32', values: comp.labels },
    { name: 'converged', type: 'UInt8', values: converged },
    ...[...fractions.entries()].map(([l, v]) => ({ name: `NP(${l})`, type: 'Float32' as const, values: v })),
    { name: 'P_Pa', type: 'Float64', values: pPa },
  ];
  const grid = rectilinearGrid([xs, Ts, zc], pointData, 'phase_set');

  const s = comp.surface;
  const { pairs, indexOf } = pairTable(s);
  const cellLabels = [...s.lineLabels, ...s.polyLabels];
  const cellAxis = [...s.lineAxis, ...s.polyAxis];
  const vertexP = new Float64Array(s.points.length / 3);
  for (let i = 0; i < vertexP.length; i++) vertexP[i] = logP ? 10 ** s.points[i * 3 + 2]! : s.points[i * 3 + 2]!;
  const boundaries = polyData({
    points: s.points, lines: s.lines, polys: s.polys,
    pointData: [{ name: 'P_Pa', type: 'Float64', values: vertexP }],
    cellData: [
      { name: 'between', type: 'Int32', values: cellLabels.map(([a, b]) => indexOf(a, b)) },
      { name: 'phase_set_a', type: 'Int32', values: cellLabels.map(([a]) => a) },
      { name: 'phase_set_b', type: 'Int32', values: cellLabels.map(([, b]) => b) },
      { name: 'edge_axis', type: 'Int32', values: cellAxis },
    ],
  });

  const phaseIndex = new Map([...fractions.keys()].map((l, i) => [l, i]));
  const tPts: number[] = [], tLines: number[][] = [], tPhase: number[] = [], tT: number[] = [], tP: number[] = [], tSet: number[] = [];
  comp.tielines.forEach((t, i) => {
    const z = pressureCoordinate(t.P, logP);
    tPts.push(t.x[0], t.T, z, t.x[1], t.T, z);
    tLines.push([2 * i, 2 * i + 1]);
    tPhase.push(phaseIndex.get(t.phases[0]) ?? -1, phaseIndex.get(t.phases[1]) ?? -1);
    tT.push(t.T); tP.push(t.P); tSet.push(comp.labels[t.node]!);
  });
  const tielines = polyData({
    points: tPts, lines: tLines,
    pointData: [{ name: 'phase', type: 'Int32', values: tPhase }],
    cellData: [
      { name: 'phase_set', type: 'Int32', values: tSet },
      { name: 'T_K', type: 'Float64', values: tT },
      { name: 'P_Pa', type: 'Float64', values: tP },
    ],
  });
  const vtm = multiBlock([
    { name: 'grid', file: 'grid.vtr' }, { name: 'boundaries', file: 'boundaries.vtp' }, { name: 'tielines', file: 'tielines.vtp' },
  ]);
  const readme = vtkReadme(comp, [...fractions.keys()], pairs, meta.database, elements);
  const files: Record<string, string> = {
    'README.txt': readme, 'cpt_diagram.vtm': vtm, 'grid.vtr': grid, 'boundaries.vtp': boundaries, 'tielines.vtp': tielines,
  };
  return { files, entries: Object.keys(files).map((f) => `${VTK_FOLDER}/${f}`) };
}

function vtkReadme(comp: CptComputation, phaseLabels: string[], pairs: [number, number][], database: string, elements: [string, string]): string {
  const { xs, Ts, Ps, logP } = comp.input;
  const set = (k: number) => comp.phaseSets[k] ?? '?';
  const xr = xs[xs.length - 1]! - xs[0]!, tr = Ts[Ts.length - 1]! - Ts[0]!;
  const zr = pressureCoordinate(Ps[Ps.length - 1]!, logP) - pressureCoordinate(Ps[0]!, logP);
  const sx = xr > 0 && tr > 0 ? tr / xr : 1, sz = zr > 0 && tr > 0 ? tr / zr : 1;
  const g = (v: number) => Number(v.toPrecision(4));
  return [
    `PhaseDesk binary_cpt_diagram: ${elements[0]}-${elements[1]}, database ${database}`,
    '',
    'Files (VTK XML, ASCII data; open in ParaView with File > Open, no conversion needed):',
    '  cpt_diagram.vtm  all three data sets below as one multiblock source',
    `  grid.vtr         RectilinearGrid ${xs.length} x ${Ts.length} x ${Ps.length} nodes (composition x temperature x pressure)`,
    '  boundaries.vtp   PolyData: boundary surfaces between phase-set regions (polygons; segments only on a flat axis)',
    `  tielines.vtp     PolyData: ${comp.tielines.length} tie-lines (lines between the two phase compositions)`,
    '',
    'Coordinates (all three files share them):',
    `  X = mole fraction of ${elements[0]}   Y = temperature in K`,
    logP ? '  Z = log10(P / Pa)  (log pressure axis: the true pressure is in the array P_Pa)'
      : '  Z = pressure in Pa (linear pressure axis; also in the array P_Pa)',
    '  The axes have very different ranges. In ParaView set Properties > Transforming > Scale of the sources',
    `  to about (${g(sx)}, 1, ${g(sz)}) to see a cube-shaped diagram (same factors for all three files).`,
    '',
    'grid.vtr point data:',
    '  phase_set  Int32: index into the phase-set table below; -1 = the equilibrium did not converge',
    '  converged  UInt8: 1 = certified equilibrium, 0 = not converged (fractions are 0 there)',
    ...phaseLabels.map((l) => `  NP(${l})  Float32: amount of phase ${l} (moles of atoms per mole of atoms), 0 when absent`),
    '  P_Pa       Float64: pressure in Pa',
    '  Colour by phase_set (Categorical colours) for the regions; Threshold on phase_set isolates one region.',
    '',
    'boundaries.vtp:',
    '  One vertex per grid cell that holds a boundary (mean of the bisected crossings on its edges), one polygon per',
    '  grid edge whose end nodes differ in phase set (multi-label Surface Nets, Gibson 1998). Crossings are located',
    `  by bisection between the two nodes to 1/${2 ** BISECTION_STEPS} of the grid step.`,
    '  cell data: between (Int32, index into the pair table below), phase_set_a / phase_set_b (Int32, the phase sets',
    '  at the lower / upper end of the edge), edge_axis (Int32: 0 = composition, 1 = temperature, 2 = pressure edge)',
    '  point data: P_Pa (Float64, pressure of the vertex in Pa)',
    '',
    'tielines.vtp:',
    '  point data: phase (Int32, index into the phase-label list below; the phase at that end)',
    '  cell data: phase_set (Int32, phase-set index of the two-phase region), T_K, P_Pa (Float64)',
    '',
    'Phase-set table (phase_set, phase_set_a, phase_set_b):',
    ...comp.phaseSets.map((s, i) => `  ${i}: ${s}`),
    '',
    'Phase-label list (tie-line point data "phase"):',
    ...phaseLabels.map((l, i) => `  ${i}: ${l}`),
    '',
    'Pair table (boundaries.vtp cell data "between"):',
    ...(pairs.length ? pairs.map(([a, b], i) => `  ${i}: ${set(a)} | ${set(b)}`) : ['  (no boundaries in this grid)']),
    '',
    'Physics note: pressure acts on the Gibbs energies only through molar-volume parameters of the database. Most',
    'TDB files have none; then every isobaric section is the same diagram and the surfaces run parallel to the',
    'pressure axis.',
    '',
  ].join('\n');
}

function regionsPerPressure(comp: CptComputation): BinaryCptResult['regions_per_pressure'] {
  const [nX, nT, nP] = comp.dims;
  const out: BinaryCptResult['regions_per_pressure'] = [];
  for (let iP = 0; iP < nP; iP++) {
    const counts = new Map<string, number>();
    for (let n = iP * nX * nT; n < (iP + 1) * nX * nT; n++) {
      const l = comp.labels[n]!;
      const name = l >= 0 ? comp.phaseSets[l]! : 'not_converged';
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    out.push({ P: comp.input.Ps[iP]!, regions: [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([label, points]) => ({ label, points })) });
  }
  return out;
}

/**
 * Whether pressure enters a Gibbs energy of the calculation: a V0 (molar volume) parameter of one of its phases,
 * the core's only volume term (formula sheet §6.2; VA and VK act through V0), or a FUNCTION whose value changes
 * between the lowest and the highest pressure of the grid. Without either, every isobaric section is the same.
 */
export function pressureDependent(input: Pick<CptInput, 'phases' | 'elements' | 'Ts' | 'Ps'> & { db: NativeDatabase }): boolean {
  const { db } = input;
  const phases = input.phases ?? db.phasesFor(input.elements);
  for (const ph of phases) if (db.parameters(ph).some((p) => p.type === 'V0')) return true;
  const T = input.Ts[Math.floor(input.Ts.length / 2)] ?? 298.15;
  const P0 = Math.min(...input.Ps), P1 = Math.max(...input.Ps);
  if (!(P1 > P0)) return false;
  for (const f of db.functionNames()) {
    try {
      const a = db.evaluateFunction(f, T, P0).v, b = db.evaluateFunction(f, T, P1).v;
      if (Math.abs(a - b) > 1e-9 * Math.max(1, Math.abs(a))) return true;
    } catch { /* a function undefined at T says nothing about P */ }
  }
  return false;
}

/** The note shown with a grid whose database has no pressure dependence (result view and preview). */
export const NO_VOLUME_NOTE = 'This database has no molar-volume (V0) parameters: pressure changes no Gibbs energy, so every isobaric section is the same diagram.';

function sectionPreview(comp: CptComputation, pressureMatters: boolean): string {
  const [nX, nT, nP] = comp.dims;
  const picks = [...new Set([0, Math.floor((nP - 1) / 2), nP - 1])];
  const { xs, Ts, Ps, elements } = comp.input;
  return isobaricSections({
    title: `${elements[0]}-${elements[1]}: isobaric sections`,
    note: pressureMatters ? undefined : NO_VOLUME_NOTE,
    xLabel: `Mole fraction ${elements[0]}`,
    xs, Ts, phaseSets: comp.phaseSets,
    sections: picks.map((iP) => ({
      P: Ps[iP]!,
      labels: comp.labels.subarray(iP * nX * nT, (iP + 1) * nX * nT),
      boundary: comp.boundary.filter((b) => b.axis !== 'P' && b.P === Ps[iP]).map((b) => ({ x: b.x, T: b.T })),
      tielines: comp.tielines.filter((t) => t.P === Ps[iP]).map((t) => ({ T: t.T, x: t.x })),
    })),
  });
}

export function run(job: CalculationJob, control: JobControl): CalculationOutput {
  const t0 = performance.now();
  const input = readInput(job);
  const logs = [...input.logs];
  const [nX, nT, nP] = [input.xs.length, input.Ts.length, input.Ps.length];
  logs.push(`grid ${nX} compositions x ${nT} temperatures x ${nP} pressures (${input.logP ? 'log' : 'linear'} scale) = ${nX * nT * nP} nodes, ${job.ompThreads} thread(s)`);
  const comp = computeCpt(input, job.ompThreads, control);
  const tCalc = performance.now() - t0;
  logs.push(`${comp.equilibria} equilibria in ${(tCalc / 1000).toFixed(2)} s (${Math.round(comp.equilibria / Math.max(tCalc / 1000, 1e-6))} per s); `
    + `${comp.boundary.length} boundary crossings bisected, ${comp.surface.polys.length} surface polygons`);
  if (comp.notConverged) logs.push(`${comp.notConverged} grid node(s) did not converge: label -1 in result.json, converged = 0 in the CSV and VTK`);

  const fractions = fractionArrays(comp);
  const dbName = job.database?.code ?? basename(input.tdbFile);
  const vtk = buildVtk(comp, fractions, { database: dbName });
  const zip = zipSync(Object.fromEntries(Object.entries(vtk.files).map(([n, s]) => [`${VTK_FOLDER}/${n}`, strToU8(s)])), { level: 6 });
  const vtkDir = join(job.taskDir, 'vtk');
  mkdirSync(vtkDir, { recursive: true });
  writeFileSync(join(vtkDir, VTK_ZIP_NAME), zip);
  if (control.cancelled) throw new CancelledError();

  const pressureMatters = pressureDependent(input);
  if (!pressureMatters) logs.push(`pressure: ${NO_VOLUME_NOTE}`);
  const doc: BinaryCptResult = {
    version: RESULT_VERSION, task_type: 'binary_cpt_diagram',
    provenance: provenance(input.tdbFile, job.database?.code ?? null, job.database?.sha256),
    config: job.config,
    x_component: input.elements[0], components: input.elements,
    axes: { x: input.xs, T: input.Ts, P: input.Ps }, pressure_scale: input.logP ? 'log' : 'linear',
    phase_sets: comp.phaseSets, labels: Array.from(comp.labels),
    regions_per_pressure: regionsPerPressure(comp),
    boundary_points: comp.boundary,
    tielines: comp.tielines.map(({ node: _node, ...t }) => t),
    axis_config: input.axisConfig ?? defaultCptAxisConfig(input.elements[0]),
    vtk_files: [VTK_ZIP_NAME], vtk_archive_entries: vtk.entries,
    not_converged: comp.notConverged,
    surface: { vertices: comp.surface.points.length / 3, polygons: comp.surface.polys.length, lines: comp.surface.lines.length },
    pressure_dependent: pressureMatters,
  };
  writeResultFiles(job.taskDir, {
    json: doc, csv: tableToCsv(resultTable(comp, fractions)), previews: { isobaric_sections: sectionPreview(comp, pressureMatters) },
  });
  logs.push(`result files, VTK archive and preview written in ${((performance.now() - t0 - tCalc) / 1000).toFixed(2)} s`);
  control.setProgress(1);
  const gridSets = new Set(Array.from(comp.labels).filter((l) => l >= 0)).size;
  return {
    summary: `${nX}x${nT}x${nP} grid: ${gridSets} phase set(s), ${comp.boundary.length} boundary points, `
      + `${comp.surface.polys.length} surface polygons, ${comp.tielines.length} tie-lines`
      + (comp.notConverged ? `, ${comp.notConverged} node(s) not converged` : ''),
    logs,
  };
}
