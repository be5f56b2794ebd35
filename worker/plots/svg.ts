// A small, dependency-free SVG builder for the 2D preview plots of calculation results
// (issue 5 "Preview files", issue 6 binary_equilibrium preview). Runs in Node with no DOM.
//
// Design choices:
// - Deterministic: no clocks, no randomness, ids come from a per-document counter and every number
//   is written through fmt(), so the same input always gives the same bytes (previews can be hashed
//   and compared in tests).
// - Readable at 1200 px wide: the default canvas is 1200 x 800 with 18-24 px text.
// - Every string that reaches the document goes through escapeXml().
// - Series are clipped to the plot area with a <clipPath>, so out-of-range data never draws over
//   the axes or the legend.

/** Font stack: DejaVu Sans is the family the PNG renderer loads (Debian package fonts-dejavu-core). */
export const FONT_FAMILY = "'DejaVu Sans', Arial, Helvetica, sans-serif";

// Colours live in palette.ts, shared with the renderer.
export { PALETTE, DASHES, REGION_FILLS, seriesColor, seriesDash } from './palette.js';

/** Escape text for XML character data and attribute values; drops characters XML 1.0 forbids. */
export function escapeXml(value: unknown): string {
  const s = String(value ?? '');
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else if (ch === "'") out += '&apos;';
    // XML 1.0 Char production: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
    else if (c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || c >= 0x10000) out += ch;
  }
  return out;
}

/** Coordinate formatting: 2 decimals, trailing zeros dropped, no "-0", non-finite -> 0. */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const r = Math.round(n * 100) / 100;
  if (r === 0) return '0';
  return String(r);
}

/**
 * "Nice numbers" (Heckbert, "Nice numbers for graph labels", Graphics Gems, 1990): a number close to
 * x of the form {1,2,5,10} x 10^k; rounded to the nearest when round, else the smallest >= x.
 */
export function niceNumber(x: number, round: boolean): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const exp = Math.floor(Math.log10(x));
  const f = x / 10 ** exp;
  let nf: number;
  if (round) nf = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
  else nf = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return nf * 10 ** exp;
}

export interface Ticks {
  /** Axis range, widened to whole tick steps so that it covers [dataMin, dataMax]. */
  min: number;
  max: number;
  step: number;
  ticks: number[];
}

/** Decimals needed to print multiples of step exactly (step is a nice number). */
export function stepDecimals(step: number): number {
  if (!(step > 0) || !Number.isFinite(step)) return 0;
  return Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
}

/** Clean a tick value of floating-point noise (0.30000000000000004 -> 0.3). */
function cleanTick(v: number, step: number): number {
  const d = Math.min(15, stepDecimals(step) + 2);
  const r = Number(v.toFixed(d));
  return r === 0 ? 0 : r;
}

/**
 * Loose labelling (Heckbert 1990): step = nice(nice(range)/(maxTicks-1)), range widened to multiples
 * of step. A degenerate range (min == max) is widened around the value; non-finite input gives [0, 1].
 */
export function niceTicks(dataMin: number, dataMax: number, maxTicks = 8): Ticks {
  let lo = dataMin, hi = dataMax;
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) { lo = 0; hi = 1; }
  if (lo > hi) [lo, hi] = [hi, lo];
  if (lo === hi) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.05;
    lo -= pad; hi += pad;
  }
  const n = Math.max(2, Math.floor(maxTicks));
  const range = niceNumber(hi - lo, false);
  const step = niceNumber(range / (n - 1), true);
  // Small tolerance so that data exactly on a tick (0.3 from 3 x 0.1) does not add a step.
  const eps = step * 1e-9;
  const min = Math.floor((lo + eps) / step) * step;
  const max = Math.ceil((hi - eps) / step) * step;
  const ticks: number[] = [];
  const count = Math.round((max - min) / step);
  for (let i = 0; i <= count; i++) ticks.push(cleanTick(min + i * step, step));
  return { min: cleanTick(min, step), max: cleanTick(max, step), step, ticks };
}

/** Ticks strictly inside a fixed range [lo, hi] (used by secondary axes that must follow the primary). */
export function ticksWithin(lo: number, hi: number, maxTicks = 8): Ticks {
  const t = niceTicks(lo, hi, maxTicks);
  const tol = t.step * 1e-9;
  return { min: lo, max: hi, step: t.step, ticks: t.ticks.filter((v) => v >= lo - tol && v <= hi + tol) };
}

/** Tick label with the decimals of the step, so 0, 0.2, 0.4 ... and 300, 400 ... print uniformly. */
export function formatTick(v: number, step: number): string {
  const d = stepDecimals(step);
  const s = v.toFixed(Math.min(20, d));
  return /^-0(\.0+)?$/.test(s) ? s.slice(1) : s;
}

/** Number formatting for tables and labels: up to `digits` significant digits, trailing zeros dropped. */
export function formatNumber(v: number, digits = 6): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Inf' : '-Inf';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e-4 && a < 1e9) {
    let s = v.toPrecision(digits);
    if (s.includes('e')) s = String(Number(s));
    if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
    return s === '-0' ? '0' : s;
  }
  const [m, e] = v.toExponential(digits - 1).split('e');
  const mm = m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m;
  return `${mm}e${e}`;
}

/** Rough text width for DejaVu Sans (average advance ~0.6 em); used only for layout. */
export function textWidth(s: string, size: number): number {
  let w = 0;
  for (const ch of s) w += /[ il.,:;|'!()\[\]]/.test(ch) ? 0.32 : /[MWmw@%]/.test(ch) ? 0.9 : /[A-Z#&]/.test(ch) ? 0.7 : 0.58;
  return w * size;
}

export class LinearScale {
  constructor(
    public readonly d0: number, public readonly d1: number,
    public readonly r0: number, public readonly r1: number,
  ) {}
  map(v: number): number {
    const span = this.d1 - this.d0;
    if (span === 0) return (this.r0 + this.r1) / 2;
    return this.r0 + ((v - this.d0) / span) * (this.r1 - this.r0);
  }
  invert(p: number): number {
    const span = this.r1 - this.r0;
    if (span === 0) return (this.d0 + this.d1) / 2;
    return this.d0 + ((p - this.r0) / span) * (this.d1 - this.d0);
  }
}

export interface Rect { x: number; y: number; width: number; height: number }

export interface StrokeStyle {
  stroke?: string;
  width?: number;
  dash?: string;
  opacity?: number;
  fill?: string;
  linecap?: 'butt' | 'round' | 'square';
  linejoin?: 'miter' | 'round' | 'bevel';
}

export interface TextStyle {
  size?: number;
  anchor?: 'start' | 'middle' | 'end';
  /** Vertical alignment, done with dy offsets (resvg and browsers agree on those, unlike dominant-baseline). */
  valign?: 'top' | 'middle' | 'baseline' | 'bottom';
  rotate?: number;
  weight?: 'normal' | 'bold';
  fill?: string;
  italic?: boolean;
  /** White halo behind the glyphs so labels stay legible over lines. */
  halo?: boolean;
}

function styleAttrs(s: StrokeStyle): string {
  let a = ` stroke="${escapeXml(s.stroke ?? '#000000')}" stroke-width="${fmt(s.width ?? 1)}" fill="${escapeXml(s.fill ?? 'none')}"`;
  if (s.dash) a += ` stroke-dasharray="${escapeXml(s.dash)}"`;
  if (s.opacity !== undefined && s.opacity < 1) a += ` opacity="${fmt(s.opacity)}"`;
  if (s.linecap) a += ` stroke-linecap="${s.linecap}"`;
  if (s.linejoin) a += ` stroke-linejoin="${s.linejoin}"`;
  return a;
}

function pointsAttr(points: ReadonlyArray<readonly [number, number]>): string {
  return points.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(' ');
}

/** Accumulates SVG elements; toString() returns the complete document. */
export class SvgBuilder {
  private readonly parts: string[] = [];
  private readonly defs: string[] = [];
  private nextId = 0;

  constructor(
    public readonly width: number,
    public readonly height: number,
    private readonly opts: { background?: string; title?: string; fontFamily?: string } = {},
  ) {
    if (!(width > 0) || !(height > 0) || !Number.isFinite(width) || !Number.isFinite(height)) {
      throw new RangeError(`SVG size must be positive and finite, got ${width} x ${height}`);
    }
  }

  /** Raw, already-escaped markup (internal use by the helpers below). */
  raw(markup: string): void { this.parts.push(markup); }

  line(x1: number, y1: number, x2: number, y2: number, style: StrokeStyle = {}): void {
    this.parts.push(`<line x1="${fmt(x1)}" y1="${fmt(y1)}" x2="${fmt(x2)}" y2="${fmt(y2)}"${styleAttrs(style)}/>`);
  }

  polyline(points: ReadonlyArray<readonly [number, number]>, style: StrokeStyle = {}): void {
    if (points.length < 2) return;
    this.parts.push(`<polyline points="${pointsAttr(points)}"${styleAttrs({ linejoin: 'round', ...style })}/>`);
  }

  polygon(points: ReadonlyArray<readonly [number, number]>, style: StrokeStyle = {}): void {
    if (points.length < 3) return;
    this.parts.push(`<polygon points="${pointsAttr(points)}"${styleAttrs(style)}/>`);
  }

  rect(x: number, y: number, w: number, h: number, style: StrokeStyle = {}): void {
    this.parts.push(`<rect x="${fmt(x)}" y="${fmt(y)}" width="${fmt(w)}" height="${fmt(h)}"${styleAttrs(style)}/>`);
  }

  circle(cx: number, cy: number, r: number, style: StrokeStyle = {}): void {
    this.parts.push(`<circle cx="${fmt(cx)}" cy="${fmt(cy)}" r="${fmt(r)}"${styleAttrs(style)}/>`);
  }

  text(x: number, y: number, content: string, style: TextStyle = {}): void {
    const size = style.size ?? 18;
    // Baseline offsets as fractions of the font size (DejaVu Sans: cap height ~0.73 em).
    const dy = { top: 0.75, middle: 0.36, baseline: 0, bottom: -0.25 }[style.valign ?? 'baseline'] * size;
    let a = `x="${fmt(x)}" y="${fmt(y)}"`;
    if (dy !== 0) a += ` dy="${fmt(dy)}"`;
    a += ` font-size="${fmt(size)}"`;
    if (style.anchor && style.anchor !== 'start') a += ` text-anchor="${style.anchor}"`;
    if (style.weight === 'bold') a += ' font-weight="bold"';
    if (style.italic) a += ' font-style="italic"';
    a += ` fill="${escapeXml(style.fill ?? '#000000')}"`;
    if (style.halo) a += ' stroke="#ffffff" stroke-width="4" stroke-linejoin="round" paint-order="stroke"';
    if (style.rotate) a += ` transform="rotate(${fmt(style.rotate)} ${fmt(x)} ${fmt(y)})"`;
    this.parts.push(`<text ${a}>${escapeXml(content)}</text>`);
  }

  /** Registers a rectangular clip path and returns its id. */
  clipRect(r: Rect): string {
    if (![r.x, r.y, r.width, r.height].every(Number.isFinite) || !(r.width > 0) || !(r.height > 0)) {
      throw new RangeError(`clip rectangle must be finite and non-empty, got ${r.x},${r.y} ${r.width} x ${r.height}`);
    }
    const id = `clip${this.nextId++}`;
    this.defs.push(`<clipPath id="${id}"><rect x="${fmt(r.x)}" y="${fmt(r.y)}" width="${fmt(r.width)}" height="${fmt(r.height)}"/></clipPath>`);
    return id;
  }

  beginGroup(opts: { clip?: string; className?: string } = {}): void {
    let a = '';
    if (opts.clip) a += ` clip-path="url(#${escapeXml(opts.clip)})"`;
    if (opts.className) a += ` class="${escapeXml(opts.className)}"`;
    this.parts.push(`<g${a}>`);
  }

  endGroup(): void { this.parts.push('</g>'); }

  toString(): string {
    const w = fmt(this.width), h = fmt(this.height);
    const head = `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="${escapeXml(this.opts.fontFamily ?? FONT_FAMILY)}">`;
    const lines = [head];
    if (this.opts.title) lines.push(`<title>${escapeXml(this.opts.title)}</title>`);
    if (this.defs.length) lines.push(`<defs>${this.defs.join('')}</defs>`);
    lines.push(`<rect x="0" y="0" width="${w}" height="${h}" fill="${escapeXml(this.opts.background ?? '#ffffff')}"/>`);
    lines.push(...this.parts);
    lines.push('</svg>');
    return lines.join('\n') + '\n';
  }
}

/**
 * Geometry drawn under a clip path is also clipped here, in pixel coordinates, to the clip rectangle
 * grown by CLIP_MARGIN (so round caps at the frame look as before): nothing entirely outside the plot is
 * written, because resvg aborts the process on a path whose box lies outside its clip rectangle.
 */
export const CLIP_MARGIN = 4;

function grow(r: Rect, m: number): Rect { return { x: r.x - m, y: r.y - m, width: r.width + 2 * m, height: r.height + 2 * m }; }

function inRect([x, y]: Point, r: Rect): boolean { return x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height; }

/** The part of segment a-b inside r (Liang-Barsky), or undefined when none is. */
export function clipSegment(a: Point, b: Point, r: Rect): [Point, Point] | undefined {
  if (![...a, ...b].every(Number.isFinite)) return undefined;
  const dx = b[0] - a[0], dy = b[1] - a[1];
  let t0 = 0, t1 = 1;
  const edges: [number, number][] = [[-dx, a[0] - r.x], [dx, r.x + r.width - a[0]], [-dy, a[1] - r.y], [dy, r.y + r.height - a[1]]];
  for (const [p, q] of edges) {
    if (p === 0) { if (q < 0) return undefined; continue; }
    const t = q / p;
    if (p < 0) { if (t > t1) return undefined; if (t > t0) t0 = t; } else { if (t < t0) return undefined; if (t < t1) t1 = t; }
  }
  return [[a[0] + t0 * dx, a[1] + t0 * dy], [a[0] + t1 * dx, a[1] + t1 * dy]];
}

/** Splits a polyline (pixel coordinates) into the runs that lie inside r; runs of one point are kept only inside. */
export function clipPolyline(points: ReadonlyArray<Point>, r: Rect): Point[][] {
  const pts = points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  if (pts.length === 1) return inRect(pts[0], r) ? [[pts[0]]] : [];
  const out: Point[][] = [];
  let cur: Point[] = [];
  for (let i = 1; i < pts.length; i++) {
    const seg = clipSegment(pts[i - 1], pts[i], r);
    if (!seg) { if (cur.length) { out.push(cur); cur = []; } continue; }
    const last = cur[cur.length - 1];
    if (!last || last[0] !== seg[0][0] || last[1] !== seg[0][1]) {
      if (cur.length) out.push(cur);
      cur = [seg[0]];
    }
    cur.push(seg[1]);
    // The segment left the rectangle: the next visible piece starts a new run.
    if (seg[1][0] !== pts[i][0] || seg[1][1] !== pts[i][1]) { out.push(cur); cur = []; }
  }
  if (cur.length) out.push(cur);
  return out;
}

/** A polygon (pixel coordinates) clipped to r (Sutherland-Hodgman); fewer than 3 vertices when nothing is inside. */
export function clipPolygon(points: ReadonlyArray<Point>, r: Rect): Point[] {
  let poly: Point[] = points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const sides: [(p: Point) => boolean, (a: Point, b: Point) => Point][] = [
    [(p) => p[0] >= r.x, (a, b) => cutX(a, b, r.x)],
    [(p) => p[0] <= r.x + r.width, (a, b) => cutX(a, b, r.x + r.width)],
    [(p) => p[1] >= r.y, (a, b) => cutY(a, b, r.y)],
    [(p) => p[1] <= r.y + r.height, (a, b) => cutY(a, b, r.y + r.height)],
  ];
  for (const [inside, cut] of sides) {
    if (poly.length === 0) break;
    const next: Point[] = [];
    for (let i = 0; i < poly.length; i++) {
      const cur = poly[i], prev = poly[(i + poly.length - 1) % poly.length];
      if (inside(cur)) { if (!inside(prev)) next.push(cut(prev, cur)); next.push(cur); }
      else if (inside(prev)) next.push(cut(prev, cur));
    }
    poly = next;
  }
  return poly;
}
function cutX(a: Point, b: Point, x: number): Point { return [x, a[1] + ((b[1] - a[1]) * (x - a[0])) / (b[0] - a[0])]; }
function cutY(a: Point, b: Point, y: number): Point { return [a[0] + ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]), y]; }

/** Degrees Celsius from kelvin (ITS-90 offset). */
export const KELVIN_OFFSET = 273.15;

export interface AxisOptions {
  label: string;
  /** Fixed range; when absent the range comes from the data through niceTicks. */
  min?: number;
  max?: number;
  maxTicks?: number;
}

export interface AxesOptions {
  /** Draw light grid lines at the major ticks. */
  grid?: boolean;
  /** Secondary axis in degrees Celsius for a kelvin axis: the top axis for 'x', the right axis for 'y'. */
  celsius?: 'x' | 'y';
  tickSize?: number;
  labelSize?: number;
}

/** Range of finite values, or undefined when there are none. */
export function finiteExtent(values: Iterable<number>): [number, number] | undefined {
  let lo = Infinity, hi = -Infinity;
  for (const v of values) {
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : undefined;
}

/** Resolve an axis: fixed min/max when given, else nice ticks around the data extent. */
export function resolveAxis(opts: AxisOptions, data: Iterable<number>): Ticks {
  const ext = finiteExtent(data) ?? [0, 1];
  const n = opts.maxTicks ?? 8;
  const fixedLo = opts.min !== undefined && Number.isFinite(opts.min);
  const fixedHi = opts.max !== undefined && Number.isFinite(opts.max);
  if (fixedLo && fixedHi && opts.min! < opts.max!) return ticksWithin(opts.min!, opts.max!, n);
  const t = niceTicks(fixedLo ? opts.min! : ext[0], fixedHi ? opts.max! : ext[1], n);
  if (!fixedLo && !fixedHi) return t;
  return ticksWithin(fixedLo ? opts.min! : t.min, fixedHi ? opts.max! : t.max, n);
}

export type Point = readonly [number, number];

/**
 * One plot area with a linear x and y scale. All drawing methods take data coordinates; series,
 * regions and lines are clipped to the area.
 */
export class Panel {
  readonly sx: LinearScale;
  readonly sy: LinearScale;
  readonly clipId: string;

  constructor(
    readonly svg: SvgBuilder,
    readonly area: Rect,
    readonly xTicks: Ticks,
    readonly yTicks: Ticks,
  ) {
    this.sx = new LinearScale(xTicks.min, xTicks.max, area.x, area.x + area.width);
    // SVG y grows downwards.
    this.sy = new LinearScale(yTicks.min, yTicks.max, area.y + area.height, area.y);
    this.clipId = svg.clipRect(area);
  }

  px(x: number): number { return this.sx.map(x); }
  py(y: number): number { return this.sy.map(y); }

  /** True when the data point maps inside the plot area (edges included). */
  contains(x: number, y: number): boolean {
    const X = this.px(x), Y = this.py(y), a = this.area, e = 1e-6;
    return X >= a.x - e && X <= a.x + a.width + e && Y >= a.y - e && Y <= a.y + a.height + e;
  }

  /** Frame, ticks, tick labels, axis labels and the optional Celsius axis. */
  drawAxes(xLabel: string, yLabel: string, opts: AxesOptions & { showXTickLabels?: boolean; xLabelOnly?: boolean } = {}): void {
    const { svg, area } = this;
    const ts = opts.tickSize ?? 18, ls = opts.labelSize ?? 22;
    const bottom = area.y + area.height, right = area.x + area.width;
    if (opts.grid !== false) {
      for (const t of this.xTicks.ticks) {
        const X = this.px(t);
        if (X > area.x + 0.5 && X < right - 0.5) svg.line(X, area.y, X, bottom, { stroke: '#e3e3e3', width: 1 });
      }
      for (const t of this.yTicks.ticks) {
        const Y = this.py(t);
        if (Y > area.y + 0.5 && Y < bottom - 0.5) svg.line(area.x, Y, right, Y, { stroke: '#e3e3e3', width: 1 });
      }
    }
    svg.rect(area.x, area.y, area.width, area.height, { stroke: '#000000', width: 1.5 });
    const showX = opts.showXTickLabels !== false;
    for (const t of this.xTicks.ticks) {
      const X = this.px(t);
      svg.line(X, bottom, X, bottom + 8, { stroke: '#000000', width: 1.5 });
      if (opts.celsius !== 'x') svg.line(X, area.y, X, area.y - 5, { stroke: '#000000', width: 1 });
      if (showX) svg.text(X, bottom + 12, formatTick(t, this.xTicks.step), { size: ts, anchor: 'middle', valign: 'top' });
    }
    for (const t of this.yTicks.ticks) {
      const Y = this.py(t);
      svg.line(area.x - 8, Y, area.x, Y, { stroke: '#000000', width: 1.5 });
      if (opts.celsius !== 'y') svg.line(right, Y, right + 5, Y, { stroke: '#000000', width: 1 });
      svg.text(area.x - 12, Y, formatTick(t, this.yTicks.step), { size: ts, anchor: 'end', valign: 'middle' });
    }
    if (showX && xLabel) svg.text(area.x + area.width / 2, bottom + 12 + ts * 1.3 + 10, xLabel, { size: ls, anchor: 'middle', valign: 'top' });
    if (yLabel) {
      const yTickW = Math.max(0, ...this.yTicks.ticks.map((t) => textWidth(formatTick(t, this.yTicks.step), ts)));
      const lx = area.x - 12 - yTickW - 14;
      svg.text(lx, area.y + area.height / 2, yLabel, { size: ls, anchor: 'middle', rotate: -90 });
    }
    if (opts.celsius === 'x') this.drawCelsiusTop(ts, ls);
    if (opts.celsius === 'y') this.drawCelsiusRight(ts, ls);
  }

  private drawCelsiusTop(ts: number, ls: number): void {
    const { svg, area } = this;
    const c = ticksWithin(this.xTicks.min - KELVIN_OFFSET, this.xTicks.max - KELVIN_OFFSET, 8);
    for (const t of c.ticks) {
      const X = this.px(t + KELVIN_OFFSET);
      svg.line(X, area.y - 8, X, area.y, { stroke: '#000000', width: 1.5 });
      svg.text(X, area.y - 12, formatTick(t, c.step), { size: ts, anchor: 'middle', valign: 'bottom' });
    }
    svg.text(area.x + area.width / 2, area.y - 12 - ts * 1.2 - 10, 'Temperature (°C)', { size: ls, anchor: 'middle', valign: 'bottom' });
  }

  private drawCelsiusRight(ts: number, ls: number): void {
    const { svg, area } = this;
    const right = area.x + area.width;
    const c = ticksWithin(this.yTicks.min - KELVIN_OFFSET, this.yTicks.max - KELVIN_OFFSET, 8);
    let w = 0;
    for (const t of c.ticks) {
      const Y = this.py(t + KELVIN_OFFSET);
      const s = formatTick(t, c.step);
      w = Math.max(w, textWidth(s, ts));
      svg.line(right, Y, right + 8, Y, { stroke: '#000000', width: 1.5 });
      svg.text(right + 12, Y, s, { size: ts, anchor: 'start', valign: 'middle' });
    }
    const lx = right + 12 + w + 14 + ls * 0.75;
    svg.text(lx, area.y + area.height / 2, 'Temperature (°C)', { size: ls, anchor: 'middle', rotate: -90 });
  }

  /** Splits at non-finite points so gaps in the data (phase absent, no convergence) stay gaps. */
  private runs(points: ReadonlyArray<Point>): Point[][] {
    const out: Point[][] = [];
    let cur: Point[] = [];
    for (const [x, y] of points) {
      if (Number.isFinite(x) && Number.isFinite(y)) cur.push([this.px(x), this.py(y)]);
      else if (cur.length) { out.push(cur); cur = []; }
    }
    if (cur.length) out.push(cur);
    return out;
  }

  /** A data series as polylines (isolated single points become small dots). */
  series(points: ReadonlyArray<Point>, style: StrokeStyle = {}): void {
    const box = grow(this.area, CLIP_MARGIN);
    const runs = this.runs(points).flatMap((run) => clipPolyline(run, box));
    if (!runs.length) return;
    this.svg.beginGroup({ clip: this.clipId });
    for (const run of runs) {
      if (run.length === 1) this.svg.circle(run[0][0], run[0][1], (style.width ?? 2.5) * 1.2, { stroke: 'none', fill: style.stroke ?? '#000000' });
      else this.svg.polyline(run, { width: 2.5, linecap: 'round', ...style });
    }
    this.svg.endGroup();
  }

  /** Filled polygon (a phase-diagram region); non-finite vertices are dropped. */
  region(points: ReadonlyArray<Point>, style: StrokeStyle = {}): void {
    const p = clipPolygon(points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y)).map(([x, y]) => [this.px(x), this.py(y)] as const),
      grow(this.area, CLIP_MARGIN));
    if (p.length < 3) return;
    this.svg.beginGroup({ clip: this.clipId });
    this.svg.polygon(p, { stroke: 'none', fill: '#DCEBF7', ...style });
    this.svg.endGroup();
  }

  /** Straight segment between two data points (a tie-line), clipped. */
  segment(a: Point, b: Point, style: StrokeStyle = {}): void {
    if (![...a, ...b].every(Number.isFinite)) return;
    const seg = clipSegment([this.px(a[0]), this.py(a[1])], [this.px(b[0]), this.py(b[1])], grow(this.area, CLIP_MARGIN));
    if (!seg) return;
    this.svg.beginGroup({ clip: this.clipId });
    this.svg.line(seg[0][0], seg[0][1], seg[1][0], seg[1][1], { stroke: '#777777', width: 1, ...style });
    this.svg.endGroup();
  }

  /** Dashed vertical marker with a label written upwards along the line (a phase transition). */
  verticalMarker(x: number, label: string, style: StrokeStyle & { labelSize?: number } = {}): void {
    if (!Number.isFinite(x) || x < Math.min(this.xTicks.min, this.xTicks.max) || x > Math.max(this.xTicks.min, this.xTicks.max)) return;
    const X = this.px(x), { area } = this;
    this.svg.line(X, area.y, X, area.y + area.height, { stroke: '#555555', width: 1.5, dash: '8 6', ...style });
    if (label) this.svg.text(X - 7, area.y + 8, label, { size: style.labelSize ?? 16, anchor: 'end', rotate: -90, fill: '#333333', halo: true });
  }

  /** Horizontal line at y from x0 to x1 (default: full width) with an optional label (an invariant). */
  horizontalLine(y: number, x0?: number, x1?: number, label?: string, style: StrokeStyle & { labelSize?: number; labelBelow?: boolean } = {}): void {
    if (!Number.isFinite(y)) return;
    const a = Number.isFinite(x0) ? this.px(x0!) : this.area.x;
    const b = Number.isFinite(x1) ? this.px(x1!) : this.area.x + this.area.width;
    const Y = this.py(y);
    const seg = clipSegment([a, Y], [b, Y], grow(this.area, CLIP_MARGIN));
    if (seg) {
      this.svg.beginGroup({ clip: this.clipId });
      this.svg.line(seg[0][0], Y, seg[1][0], Y, { stroke: '#000000', width: 2, ...style });
      this.svg.endGroup();
    }
    if (label && this.contains(this.xTicks.min, y)) {
      const lo = Math.max(Math.min(a, b), this.area.x), hi = Math.min(Math.max(a, b), this.area.x + this.area.width);
      // Above the line by default; below for invariants, where the boundaries meet the line from above.
      const below = style.labelBelow === true;
      this.svg.text((lo + hi) / 2, below ? Y + 6 : Y - 6, label, { size: style.labelSize ?? 15, anchor: 'middle', valign: below ? 'top' : 'baseline', fill: '#000000', halo: true });
    }
  }

  /** Text centred at a data point (region labels); skipped when outside the area. */
  label(x: number, y: number, text: string, style: TextStyle = {}): void {
    if (!Number.isFinite(x) || !Number.isFinite(y) || !this.contains(x, y)) return;
    this.svg.text(this.px(x), this.py(y), text, { size: 18, anchor: 'middle', valign: 'middle', halo: true, ...style });
  }
}

export interface LegendItem { name: string; color: string; dash?: string; width?: number }

/** Legend entries longer than this are shortened with an ellipsis so the plot keeps its width. */
export const LEGEND_MAX_CHARS = 28;

export function legendName(name: string): string {
  const chars = [...String(name ?? '')];
  return chars.length > LEGEND_MAX_CHARS ? `${chars.slice(0, LEGEND_MAX_CHARS - 1).join('')}…` : chars.join('');
}

/** Legend box; returns its size. Placed by the caller (usually to the right of the plot area). */
export function drawLegend(svg: SvgBuilder, x: number, y: number, items: ReadonlyArray<LegendItem>, size = 18): { width: number; height: number } {
  if (!items.length) return { width: 0, height: 0 };
  const row = size * 1.6, swatch = 40, pad = 10;
  const width = pad * 2 + swatch + 10 + Math.max(...items.map((i) => textWidth(legendName(i.name), size)));
  const height = pad * 2 + row * items.length;
  svg.rect(x, y, width, height, { stroke: '#999999', width: 1, fill: '#ffffff' });
  items.forEach((it, i) => {
    const cy = y + pad + row * i + row / 2;
    svg.line(x + pad, cy, x + pad + swatch, cy, { stroke: it.color, width: it.width ?? 3, dash: it.dash || undefined });
    svg.text(x + pad + swatch + 10, cy, legendName(it.name), { size, valign: 'middle' });
  });
  return { width, height };
}

/** Width a legend of these names will take (for layout before drawing). */
export function legendWidth(names: ReadonlyArray<string>, size = 18): number {
  if (!names.length) return 0;
  return 20 + 40 + 10 + Math.max(...names.map((n) => textWidth(legendName(n), size)));
}

export type Cell = string | number | null | undefined;

export interface TableOptions {
  title?: string;
  width?: number;
  fontSize?: number;
  /** Significant digits of numeric cells. */
  digits?: number;
}

/** Cell text: numbers through formatNumber, null/undefined as an en dash. */
export function cellText(c: Cell, digits = 6): string {
  if (c === null || c === undefined) return '–';
  if (typeof c === 'number') return formatNumber(c, digits);
  return String(c);
}

/**
 * Plain table (a single equilibrium point's phase table) as a complete SVG document.
 * Numeric columns are right-aligned, text columns left-aligned; the height follows the row count.
 */
export function renderTable(columns: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<Cell>>, opts: TableOptions = {}): string {
  const size = opts.fontSize ?? 18, digits = opts.digits ?? 6;
  const rowH = Math.round(size * 1.9), pad = 14, margin = 30;
  const text = rows.map((r) => columns.map((_, j) => cellText(r[j], digits)));
  const numeric = columns.map((_, j) => rows.length > 0 && rows.every((r) => r[j] === null || r[j] === undefined || typeof r[j] === 'number'));
  const natural = columns.map((c, j) => Math.max(textWidth(c, size) * 1.08, ...text.map((r) => textWidth(r[j], size))) + 2 * pad);
  const minWidth = opts.width ?? 1200;
  const naturalSum = natural.reduce((a, b) => a + b, 0);
  // Stretch columns to the requested width; never shrink below their content.
  const scale = Math.max(1, (minWidth - 2 * margin) / Math.max(1, naturalSum));
  const colW = natural.map((w) => w * scale);
  const tableW = colW.reduce((a, b) => a + b, 0);
  const width = Math.max(minWidth, Math.ceil(tableW + 2 * margin));
  const titleH = opts.title ? Math.round(size * 2.4) : 0;
  const height = Math.ceil(margin * 2 + titleH + rowH * (rows.length + 1));
  const svg = new SvgBuilder(width, height, { title: opts.title });
  let y = margin;
  if (opts.title) { svg.text(margin, y, opts.title, { size: size * 1.25, weight: 'bold', valign: 'top' }); y += titleH; }
  svg.rect(margin, y, tableW, rowH, { stroke: 'none', fill: '#eef2f6' });
  for (let i = 0; i < rows.length; i++) if (i % 2 === 1) svg.rect(margin, y + rowH * (i + 1), tableW, rowH, { stroke: 'none', fill: '#f7f7f7' });
  const xs: number[] = [];
  let acc = margin;
  for (const w of colW) { xs.push(acc); acc += w; }
  columns.forEach((c, j) => {
    const tx = numeric[j] ? xs[j] + colW[j] - pad : xs[j] + pad;
    svg.text(tx, y + rowH / 2, c, { size, weight: 'bold', anchor: numeric[j] ? 'end' : 'start', valign: 'middle' });
  });
  text.forEach((r, i) => {
    const cy = y + rowH * (i + 1) + rowH / 2;
    r.forEach((s, j) => {
      const tx = numeric[j] ? xs[j] + colW[j] - pad : xs[j] + pad;
      svg.text(tx, cy, s, { size, anchor: numeric[j] ? 'end' : 'start', valign: 'middle' });
    });
  });
  svg.line(margin, y, margin + tableW, y, { stroke: '#000000', width: 2 });
  svg.line(margin, y + rowH, margin + tableW, y + rowH, { stroke: '#000000', width: 1.2 });
  svg.line(margin, y + rowH * (rows.length + 1), margin + tableW, y + rowH * (rows.length + 1), { stroke: '#000000', width: 2 });
  return svg.toString();
}
