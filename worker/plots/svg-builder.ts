// A small, dependency-free SVG builder (the document, styles, number formatting and ticks) for the 2D preview plots of calculation results
// (the preview files of every task type, the binary_equilibrium diagram among them). Runs in Node with no DOM.
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
export { PALETTE, DASHES, REGION_FILLS, seriesColor, seriesDash } from '../../contract/plots/palette.js';

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
    else if (
      c === 0x9 ||
      c === 0xa ||
      c === 0xd ||
      (c >= 0x20 && c <= 0xd7ff) ||
      (c >= 0xe000 && c <= 0xfffd) ||
      c >= 0x10000
    )
      out += ch;
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
  let lo = dataMin,
    hi = dataMax;
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
    lo = 0;
    hi = 1;
  }
  if (lo > hi) [lo, hi] = [hi, lo];
  if (lo === hi) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.05;
    lo -= pad;
    hi += pad;
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
  for (const ch of s)
    w += /[ il.,:;|'!()[\]]/.test(ch) ? 0.32 : /[MWmw@%]/.test(ch) ? 0.9 : /[A-Z#&]/.test(ch) ? 0.7 : 0.58;
  return w * size;
}

export class LinearScale {
  constructor(
    public readonly d0: number,
    public readonly d1: number,
    public readonly r0: number,
    public readonly r1: number,
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

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

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
  raw(markup: string): void {
    this.parts.push(markup);
  }

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
    this.defs.push(
      `<clipPath id="${id}"><rect x="${fmt(r.x)}" y="${fmt(r.y)}" width="${fmt(r.width)}" height="${fmt(r.height)}"/></clipPath>`,
    );
    return id;
  }

  beginGroup(opts: { clip?: string; className?: string } = {}): void {
    let a = '';
    if (opts.clip) a += ` clip-path="url(#${escapeXml(opts.clip)})"`;
    if (opts.className) a += ` class="${escapeXml(opts.className)}"`;
    this.parts.push(`<g${a}>`);
  }

  endGroup(): void {
    this.parts.push('</g>');
  }

  toString(): string {
    const w = fmt(this.width),
      h = fmt(this.height);
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
