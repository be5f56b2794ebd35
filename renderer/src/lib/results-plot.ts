import { seriesStyles } from '../../../contract/plots/palette.js';
import { decadeLabel } from '../../../contract/plots/decades.js';

// Small plotting helpers for the SVG result charts (a few dozen lines instead of a chart library): linear and
// log axes (values plotted as log10, ticks at decades), "nice" tick steps (1-2-5 sequence), number formatting, phase colours, path strings.

export interface Scale {
  (v: number): number;
  invert(px: number): number;
  domain: [number, number];
  range: [number, number];
}

/** Linear map domain → range (a degenerate domain is widened so nothing divides by zero). */
export function linearScale(domain: [number, number], range: [number, number]): Scale {
  let [d0, d1] = domain;
  if (!(Number.isFinite(d0) && Number.isFinite(d1))) {
    d0 = 0;
    d1 = 1;
  }
  if (d0 === d1) {
    const pad = Math.abs(d0) * 0.05 || 0.5;
    d0 -= pad;
    d1 += pad;
  }
  const [r0, r1] = range;
  const k = (r1 - r0) / (d1 - d0);
  const f = ((v: number) => r0 + (v - d0) * k) as Scale;
  f.invert = (px: number) => d0 + (px - r0) / k;
  f.domain = [d0, d1];
  f.range = [r0, r1];
  return f;
}

/** Step of about `count` ticks over [lo, hi], from the 1-2-5 sequence times a power of ten. */
export function tickStep(lo: number, hi: number, count: number): number {
  const span = Math.abs(hi - lo) || 1;
  const raw = span / Math.max(1, count);
  const pow = 10 ** Math.floor(Math.log10(raw));
  const m = raw / pow;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * pow;
}

export function ticks(lo: number, hi: number, count = 6): number[] {
  if (!(Number.isFinite(lo) && Number.isFinite(hi))) return [];
  if (lo > hi) [lo, hi] = [hi, lo];
  const step = tickStep(lo, hi, count);
  const out: number[] = [];
  const start = Math.ceil(lo / step - 1e-9) * step;
  for (let v = start, i = 0; v <= hi + step * 1e-9 && i < 200; v = start + ++i * step)
    out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

/** Decades of a log axis (1, 10, 100 …) inside [lo, hi] (both > 0). */
export function logTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.ceil(Math.log10(lo) - 1e-9); e <= Math.floor(Math.log10(hi) + 1e-9); e++) out.push(10 ** e);
  return out;
}

/** log10 of a value a log axis can show (finite, > 0); null otherwise, a gap in the line. */
export function log10OrNull(v: number | null | undefined): number | null {
  return v !== null && v !== undefined && Number.isFinite(v) && v > 0 ? Math.log10(v) : null;
}

export interface AxisTick {
  /** where, in the axis's plotted unit (log10 of the value on a log axis) */
  at: number;
  label: string;
}

/**
 * Ticks of a log axis whose plotted range is [lo, hi] in log10 units: the decades as powers of ten, every second
 * (third, fifth, tenth …) one when more than about `count` show; 1, 2 and 5 of each decade, labelled as numbers
 * (0.5, 1, 2), when fewer than two decades show; and when fewer than two of those are left, the 1-2-5 ticks of the
 * values themselves. `minor` are 2 … 9 of each decade, as grid lines, while at most 12 decades show.
 */
export function logAxisTicks(lo: number, hi: number, count = 6): { major: AxisTick[]; minor: number[] } {
  if (!(Number.isFinite(lo) && Number.isFinite(hi))) return { major: [], minor: [] };
  if (lo > hi) [lo, hi] = [hi, lo];
  const e0 = Math.ceil(lo - 1e-9);
  const e1 = Math.floor(hi + 1e-9);
  const decades = e1 - e0 + 1;
  const minor: number[] = [];
  if (hi - lo <= 12)
    for (let e = Math.floor(lo); e <= Math.ceil(hi); e++)
      for (let m = 2; m <= 9; m++) {
        const at = e + Math.log10(m);
        if (at >= lo && at <= hi) minor.push(at);
      }
  if (decades >= 2) {
    const every = [1, 2, 3, 5, 10, 20, 50, 100].find((k) => decades / k <= count) ?? Math.ceil(decades / count);
    const major: AxisTick[] = [];
    for (let e = Math.ceil(e0 / every) * every; e <= e1; e += every) major.push({ at: e, label: decadeLabel(e) });
    return { major, minor };
  }
  const multiples: AxisTick[] = [];
  for (let e = Math.floor(lo); e <= Math.ceil(hi); e++)
    for (const m of [1, 2, 5]) {
      const at = e + Math.log10(m);
      if (at >= lo - 1e-9 && at <= hi + 1e-9) multiples.push({ at, label: fmt(m * 10 ** e, 3) });
    }
  if (multiples.length >= 2) return { major: multiples, minor };
  return { major: ticks(10 ** lo, 10 ** hi, count).map((v) => ({ at: Math.log10(v), label: fmt(v, 4) })), minor: [] };
}

/**
 * The ticks of a chart's axis over its plotted range: a log axis's decades (logAxisTicks), or a linear axis's 1-2-5
 * ticks labelled with as many decimals as their step needs, shown less `offset` (a kelvin axis shown in °C).
 */
export function chartTicks(
  [lo, hi]: [number, number],
  o: { log: boolean; offset: number; count: number },
): { major: AxisTick[]; minor: number[] } {
  if (o.log) return logAxisTicks(lo, hi, o.count);
  const step = tickStep(lo - o.offset, hi - o.offset, o.count);
  const major = ticks(lo - o.offset, hi - o.offset, o.count).map((t) => ({
    at: t + o.offset,
    label: fmtTick(t, step),
  }));
  return { major, minor: [] };
}

/** Number for an axis tick or a read-out: fixed digits for ordinary magnitudes, exponent form for extreme ones. */
export function fmt(v: number | null | undefined, digits = 4): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e6 || a < 1e-3)
    return v
      .toExponential(Math.max(1, digits - 2))
      .replace(/\.?0+e/, 'e')
      .replace('e+', 'e');
  return String(Number(v.toPrecision(digits)));
}

/** Tick label with as many decimals as the step needs. */
export function fmtTick(v: number, step: number): string {
  if (Math.abs(v) >= 1e6 || (Math.abs(v) < 1e-3 && v !== 0)) return fmt(v, 3);
  const dec = Math.max(0, Math.min(6, -Math.floor(Math.log10(step) + 1e-9)));
  return v.toFixed(dec);
}

// Colours come from the palette the previews use (contract/plots/palette.ts), so a phase has the same colour on
// screen and in the PNG preview.
export { PALETTE, ROLE_COLORS, phaseSetFill, seriesStyles } from '../../../contract/plots/palette.js';
export const NOT_CONVERGED_COLOR = '#9e9e9e';

/** Colour per label: the previews' colour of its index among the sorted labels (seriesStyles). */
export function colorMap(labels: string[]): Map<string, string> {
  const styles = seriesStyles(labels);
  return new Map(labels.map((l) => [l, styles.get(l)!.color]));
}

/** SVG path of a polyline; null/NaN values break the line (a non-converged point is a gap, never bridged). */
export function linePath(
  xs: number[],
  ys: (number | null)[],
  sx: (v: number) => number,
  sy: (v: number) => number,
): string {
  let d = '';
  let pen = false;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    const y = ys[i];
    if (y === null || y === undefined || !Number.isFinite(y) || !Number.isFinite(x)) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${sx(x).toFixed(2)},${sy(y).toFixed(2)}`;
    pen = true;
  }
  return d;
}

/** Index of the sample nearest to x (xs in any order). */
export function nearestIndex(xs: number[], x: number): number {
  let best = -1;
  let bd = Infinity;
  for (let i = 0; i < xs.length; i++) {
    const d = Math.abs(xs[i]! - x);
    if (d < bd) {
      bd = d;
      best = i;
    }
  }
  return best;
}

/** [min, max] of finite values, or the fallback. */
export function extent(
  values: Iterable<number | null | undefined>,
  fallback: [number, number] = [0, 1],
): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values)
    if (v !== null && v !== undefined && Number.isFinite(v)) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  return lo <= hi ? [lo, hi] : fallback;
}

/** Extent padded by a fraction of its span (so lines do not touch the frame). */
export function padded([lo, hi]: [number, number], frac = 0.04): [number, number] {
  const span = hi - lo || Math.abs(hi) * 0.1 || 1;
  return [lo - span * frac, hi + span * frac];
}
