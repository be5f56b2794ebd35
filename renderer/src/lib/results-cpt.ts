// Pure helpers of the binary_cpt_diagram views (3D and 2D slice), shared so both show the same mapping:
// the labels grid (flat index (iP*nT + iT)*nX + iX, -1 = not converged; results-schema.md), the mapping of
// composition / temperature / pressure onto the scene axes (ui_metadata.axis_config, default x = composition,
// y = temperature, z = pressure), the normalisation into the unit cube (log10 for a log pressure scale), ticks,
// and the colours per phase set.
import type { AxisSpec, AxisVariable, CptResult, ResultTable } from './results.js';
import { fmtTick, logTicks, NOT_CONVERGED_COLOR, phaseSetFill, tickStep, ticks } from './results-plot.js';

export const VARIABLES: AxisVariable[] = ['composition', 'temperature', 'pressure'];
export interface AxisMapping {
  x: AxisVariable;
  y: AxisVariable;
  z: AxisVariable;
}
export const DEFAULT_MAPPING: AxisMapping = { x: 'composition', y: 'temperature', z: 'pressure' };

/** The scene-axis mapping from axis_config; anything that is not a permutation of the three variables falls back to the default. */
export function axisMapping(cfg: CptResult['axis_config'] | undefined): AxisMapping {
  if (!cfg) return DEFAULT_MAPPING;
  const v = (a: AxisSpec | AxisVariable | undefined) => (typeof a === 'string' ? a : a?.variable);
  const m = { x: v(cfg.x), y: v(cfg.y), z: v(cfg.z) };
  const set = new Set([m.x, m.y, m.z]);
  if (set.size !== 3 || !VARIABLES.every((x) => set.has(x))) return DEFAULT_MAPPING;
  return m as AxisMapping;
}

export function axisValues(doc: CptResult, v: AxisVariable): number[] {
  return v === 'composition' ? doc.axes.x : v === 'temperature' ? doc.axes.T : doc.axes.P;
}

export function axisTitle(doc: CptResult, v: AxisVariable): string {
  return v === 'composition'
    ? `x(${doc.x_component})`
    : v === 'temperature'
      ? 'T [K]'
      : `P [Pa]${doc.pressure_scale === 'log' ? ' (log)' : ''}`;
}

/** Value → [0, 1] along a variable (log10 for pressure on a log scale; a single value sits at 0.5). */
export function normalizer(doc: CptResult, v: AxisVariable): (value: number) => number {
  const log = v === 'pressure' && doc.pressure_scale === 'log';
  const tf = (x: number) => (log ? Math.log10(x) : x);
  const vals = axisValues(doc, v).map(tf);
  const lo = Math.min(...vals);
  const hi = Math.max(...vals);
  if (!(hi > lo)) return () => 0.5;
  return (value: number) => (tf(value) - lo) / (hi - lo);
}

export interface Tick {
  value: number;
  pos: number;
  text: string;
}
export function axisTicks(doc: CptResult, v: AxisVariable, count = 5): Tick[] {
  const vals = axisValues(doc, v);
  const lo = Math.min(...vals);
  const hi = Math.max(...vals);
  const norm = normalizer(doc, v);
  if (!(hi > lo)) return [{ value: lo, pos: 0.5, text: fmtTick(lo, Math.abs(lo) || 1) }];
  if (v === 'pressure' && doc.pressure_scale === 'log') {
    const t = logTicks(lo, hi);
    const use = t.length >= 2 ? t : [lo, hi];
    return use.map((value) => ({ value, pos: norm(value), text: value.toExponential(0).replace('e+', 'e') }));
  }
  const step = tickStep(lo, hi, count);
  return ticks(lo, hi, count).map((value) => ({ value, pos: norm(value), text: fmtTick(value, step) }));
}

export function dims(doc: CptResult) {
  return { nX: doc.axes.x.length, nT: doc.axes.T.length, nP: doc.axes.P.length };
}

/** Flat index of grid cell (iX, iT, iP): (iP*nT + iT)*nX + iX. */
export function cellIndex(doc: CptResult, iX: number, iT: number, iP: number): number {
  return (iP * doc.axes.T.length + iT) * doc.axes.x.length + iX;
}

/** Colour per phase-set index, the fills of the isobaric-section preview; index -1 (not converged) is grey. */
export function phaseSetColor(index: number): string {
  return index < 0 ? NOT_CONVERGED_COLOR : phaseSetFill(index);
}

/** Number of grid cells per phase-set index (key -1 = not converged) at one pressure, or over all pressures. */
export function labelCounts(doc: CptResult, iP?: number): Map<number, number> {
  const { nX, nT, nP } = dims(doc);
  const m = new Map<number, number>();
  const from = iP === undefined ? 0 : iP * nT * nX;
  const to = iP === undefined ? nP * nT * nX : (iP + 1) * nT * nX;
  for (let i = from; i < to; i++) {
    const l = doc.labels[i]!;
    m.set(l, (m.get(l) ?? 0) + 1);
  }
  return m;
}

/** Cell edges along one axis: midpoints between neighbours, extended by half a spacing at both ends. */
export function cellEdges(values: number[]): number[] {
  const n = values.length;
  if (n === 1) return [values[0]! - 0.5, values[0]! + 0.5];
  const e: number[] = [values[0]! - (values[1]! - values[0]!) / 2];
  for (let i = 0; i < n - 1; i++) e.push((values[i]! + values[i + 1]!) / 2);
  e.push(values[n - 1]! + (values[n - 1]! - values[n - 2]!) / 2);
  return e;
}

/** WebGL 2 (three.js r163+ needs it) without creating the three.js renderer, which logs an error when it fails. */
export function webgl2Available(): boolean {
  try {
    const c = document.createElement('canvas');
    const gl = c.getContext('webgl2');
    if (!gl) return false;
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return true;
  } catch {
    return false;
  }
}

/**
 * The labels grid as a table, one row per grid point in the flat order of `labels`: the first columns of the
 * service's result.csv (x, T, P, phase_set, label, converged); the phase amounts per point are only in result.csv.
 */
export function gridTable(doc: CptResult): ResultTable {
  const { nX, nT } = dims(doc);
  const rows: (number | string | null)[][] = new Array(doc.labels.length);
  for (let n = 0; n < doc.labels.length; n++) {
    const l = doc.labels[n]!;
    rows[n] = [
      doc.axes.x[n % nX]!,
      doc.axes.T[Math.floor(n / nX) % nT]!,
      doc.axes.P[Math.floor(n / (nX * nT))]!,
      l >= 0 ? (doc.phase_sets[l] ?? '') : '',
      l,
      l >= 0 ? 1 : 0,
    ];
  }
  return {
    columns: [
      { name: `x(${doc.x_component})`, unit: '-' },
      { name: 'T', unit: 'K' },
      { name: 'P', unit: 'Pa' },
      { name: 'phase_set', unit: '' },
      { name: 'label', unit: '' },
      { name: 'converged', unit: '' },
    ],
    rows,
  };
}
