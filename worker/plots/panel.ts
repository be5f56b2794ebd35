// One plot area with linear x and y scales, its axes and the drawing methods in data coordinates.
import { CLIP_MARGIN, clipPolygon, clipPolyline, clipSegment, grow, type Point } from './clip.js';
import {
  LinearScale,
  SvgBuilder,
  formatNumber,
  formatTick,
  niceTicks,
  textWidth,
  ticksWithin,
  type Rect,
  type StrokeStyle,
  type TextStyle,
  type Ticks,
} from './svg-builder.js';

/** Degrees Celsius from kelvin (ITS-90 offset). */
export const KELVIN_OFFSET = 273.15;

/**
 * The unit temperatures are shown in (task_config.preview_temperature_unit, docs/calculations.md "Preview
 * temperatures"): the data stay in kelvin, the axis ticks and labels follow the unit.
 */
export type TemperatureUnit = 'kelvin' | 'celsius';

/** Ticks of a temperature axis whose data are in kelvin, at round values of the unit shown (positions in kelvin). */
export function temperatureTicks(opts: AxisOptions, dataK: Iterable<number>, unit: TemperatureUnit = 'kelvin'): Ticks {
  if (unit === 'kelvin') return resolveAxis(opts, dataK);
  const off = KELVIN_OFFSET;
  const shift = (v: number | undefined) => (v === undefined ? undefined : v - off);
  const t = resolveAxis(
    { ...opts, min: shift(opts.min), max: shift(opts.max) },
    [...dataK].map((v) => v - off),
  );
  return { min: t.min + off, max: t.max + off, step: t.step, ticks: t.ticks.map((v) => v + off) };
}

/** Ticks inside the fixed kelvin range [lo, hi], at round values of the unit shown. */
export function temperatureTicksWithin(
  lo: number,
  hi: number,
  maxTicks: number,
  unit: TemperatureUnit = 'kelvin',
): Ticks {
  if (unit === 'kelvin') return ticksWithin(lo, hi, maxTicks);
  const t = ticksWithin(lo - KELVIN_OFFSET, hi - KELVIN_OFFSET, maxTicks);
  return { min: lo, max: hi, step: t.step, ticks: t.ticks.map((v) => v + KELVIN_OFFSET) };
}

/** task_config.preview_temperature_unit of a stored configuration (kelvin when absent or unknown). */
export function previewTemperatureUnit(config: unknown): TemperatureUnit {
  const u = (config as { preview_temperature_unit?: unknown } | null | undefined)?.preview_temperature_unit;
  return u === 'celsius' ? 'celsius' : 'kelvin';
}

/** A temperature given in kelvin as text in the unit shown, e.g. "654.0 K" or "380.8 °C". */
export function formatTemperature(T: number, unit: TemperatureUnit = 'kelvin', digits = 5): string {
  return unit === 'celsius' ? `${formatNumber(T - KELVIN_OFFSET, digits)} °C` : `${formatNumber(T, digits)} K`;
}

/** An axis label written for kelvin ("Temperature (K)") in the unit shown. */
export function temperatureLabel(label: string, unit: TemperatureUnit = 'kelvin'): string {
  return unit === 'celsius' ? label.replace(/\(K\)|\[K\]/, (m) => (m[0] === '(' ? '(°C)' : '[°C]')) : label;
}

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
  /**
   * The temperature axis (data in kelvin) with a secondary axis in the other unit: the top axis for 'x', the right
   * axis for 'y'. Degrees Celsius beside kelvin, or kelvin beside degrees Celsius when `temperatureUnit` is celsius.
   */
  celsius?: 'x' | 'y';
  /** The unit the temperature axis (`celsius`, or `temperatureAxis` without a secondary axis) is labelled in. */
  temperatureUnit?: TemperatureUnit;
  /** The temperature axis when no secondary axis is drawn (isobaric sections). */
  temperatureAxis?: 'x' | 'y';
  tickSize?: number;
  labelSize?: number;
  /** tick labels other than the tick's value (a log axis drawn on log10 of its data labels 10^k) */
  xTickLabel?: (t: number) => string;
  yTickLabel?: (t: number) => string;
}

/** Range of finite values, or undefined when there are none. */
export function finiteExtent(values: Iterable<number>): [number, number] | undefined {
  let lo = Infinity,
    hi = -Infinity;
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

  px(x: number): number {
    return this.sx.map(x);
  }
  py(y: number): number {
    return this.sy.map(y);
  }

  /** True when the data point maps inside the plot area (edges included). */
  contains(x: number, y: number): boolean {
    const X = this.px(x),
      Y = this.py(y),
      a = this.area,
      e = 1e-6;
    return X >= a.x - e && X <= a.x + a.width + e && Y >= a.y - e && Y <= a.y + a.height + e;
  }

  /** Frame, ticks, tick labels, axis labels and the optional Celsius axis. */
  drawAxes(
    xLabel: string,
    yLabel: string,
    opts: AxesOptions & { showXTickLabels?: boolean; xLabelOnly?: boolean } = {},
  ): void {
    const { svg, area } = this;
    const ts = opts.tickSize ?? 18,
      ls = opts.labelSize ?? 22;
    const bottom = area.y + area.height,
      right = area.x + area.width;
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
    // tick labels of a temperature axis shown in degrees Celsius: its data (and tick positions) are kelvin
    const tAxis = opts.celsius ?? opts.temperatureAxis;
    const inC = opts.temperatureUnit === 'celsius';
    const xOff = inC && tAxis === 'x' ? KELVIN_OFFSET : 0,
      yOff = inC && tAxis === 'y' ? KELVIN_OFFSET : 0;
    const xTick = opts.xTickLabel ?? ((t: number) => formatTick(t - xOff, this.xTicks.step)),
      yTick = opts.yTickLabel ?? ((t: number) => formatTick(t - yOff, this.yTicks.step));
    for (const t of this.xTicks.ticks) {
      const X = this.px(t);
      svg.line(X, bottom, X, bottom + 8, { stroke: '#000000', width: 1.5 });
      if (opts.celsius !== 'x') svg.line(X, area.y, X, area.y - 5, { stroke: '#000000', width: 1 });
      if (showX) svg.text(X, bottom + 12, xTick(t), { size: ts, anchor: 'middle', valign: 'top' });
    }
    for (const t of this.yTicks.ticks) {
      const Y = this.py(t);
      svg.line(area.x - 8, Y, area.x, Y, { stroke: '#000000', width: 1.5 });
      if (opts.celsius !== 'y') svg.line(right, Y, right + 5, Y, { stroke: '#000000', width: 1 });
      svg.text(area.x - 12, Y, yTick(t), { size: ts, anchor: 'end', valign: 'middle' });
    }
    if (showX && xLabel)
      svg.text(area.x + area.width / 2, bottom + 12 + ts * 1.3 + 10, xLabel, {
        size: ls,
        anchor: 'middle',
        valign: 'top',
      });
    if (yLabel) {
      const yTickW = Math.max(0, ...this.yTicks.ticks.map((t) => textWidth(yTick(t), ts)));
      const lx = area.x - 12 - yTickW - 14;
      svg.text(lx, area.y + area.height / 2, yLabel, { size: ls, anchor: 'middle', rotate: -90 });
    }
    // the secondary axis shows the other unit: degrees Celsius beside kelvin, kelvin beside degrees Celsius
    const other = inC ? 0 : KELVIN_OFFSET;
    if (opts.celsius === 'x') this.drawCelsiusTop(ts, ls, other);
    if (opts.celsius === 'y') this.drawCelsiusRight(ts, ls, other);
  }

  /** Secondary top axis: values t - offset at position t (offset 273.15: degrees Celsius; 0: kelvin). */
  private drawCelsiusTop(ts: number, ls: number, offset: number): void {
    const { svg, area } = this;
    const c = ticksWithin(this.xTicks.min - offset, this.xTicks.max - offset, 8);
    for (const t of c.ticks) {
      const X = this.px(t + offset);
      svg.line(X, area.y - 8, X, area.y, { stroke: '#000000', width: 1.5 });
      svg.text(X, area.y - 12, formatTick(t, c.step), { size: ts, anchor: 'middle', valign: 'bottom' });
    }
    svg.text(area.x + area.width / 2, area.y - 12 - ts * 1.2 - 10, offset ? 'Temperature (°C)' : 'Temperature (K)', {
      size: ls,
      anchor: 'middle',
      valign: 'bottom',
    });
  }

  private drawCelsiusRight(ts: number, ls: number, offset: number): void {
    const { svg, area } = this;
    const right = area.x + area.width;
    const c = ticksWithin(this.yTicks.min - offset, this.yTicks.max - offset, 8);
    let w = 0;
    for (const t of c.ticks) {
      const Y = this.py(t + offset);
      const s = formatTick(t, c.step);
      w = Math.max(w, textWidth(s, ts));
      svg.line(right, Y, right + 8, Y, { stroke: '#000000', width: 1.5 });
      svg.text(right + 12, Y, s, { size: ts, anchor: 'start', valign: 'middle' });
    }
    const lx = right + 12 + w + 14 + ls * 0.75;
    svg.text(lx, area.y + area.height / 2, offset ? 'Temperature (°C)' : 'Temperature (K)', {
      size: ls,
      anchor: 'middle',
      rotate: -90,
    });
  }

  /** Splits at non-finite points so gaps in the data (phase absent, no convergence) stay gaps. */
  private runs(points: ReadonlyArray<Point>): Point[][] {
    const out: Point[][] = [];
    let cur: Point[] = [];
    for (const [x, y] of points) {
      if (Number.isFinite(x) && Number.isFinite(y)) cur.push([this.px(x), this.py(y)]);
      else if (cur.length) {
        out.push(cur);
        cur = [];
      }
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
      if (run.length === 1)
        this.svg.circle(run[0][0], run[0][1], (style.width ?? 2.5) * 1.2, {
          stroke: 'none',
          fill: style.stroke ?? '#000000',
        });
      else this.svg.polyline(run, { width: 2.5, linecap: 'round', ...style });
    }
    this.svg.endGroup();
  }

  /** Filled polygon (a phase-diagram region); non-finite vertices are dropped. */
  region(points: ReadonlyArray<Point>, style: StrokeStyle = {}): void {
    const p = clipPolygon(
      points
        .filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y))
        .map(([x, y]) => [this.px(x), this.py(y)] as const),
      grow(this.area, CLIP_MARGIN),
    );
    if (p.length < 3) return;
    this.svg.beginGroup({ clip: this.clipId });
    this.svg.polygon(p, { stroke: 'none', fill: '#DCEBF7', ...style });
    this.svg.endGroup();
  }

  /** Straight segment between two data points (a tie-line), clipped. */
  segment(a: Point, b: Point, style: StrokeStyle = {}): void {
    if (![...a, ...b].every(Number.isFinite)) return;
    const seg = clipSegment(
      [this.px(a[0]), this.py(a[1])],
      [this.px(b[0]), this.py(b[1])],
      grow(this.area, CLIP_MARGIN),
    );
    if (!seg) return;
    this.svg.beginGroup({ clip: this.clipId });
    this.svg.line(seg[0][0], seg[0][1], seg[1][0], seg[1][1], { stroke: '#777777', width: 1, ...style });
    this.svg.endGroup();
  }

  /** Dashed vertical marker with a label written upwards along the line (a phase transition). */
  verticalMarker(x: number, label: string, style: StrokeStyle & { labelSize?: number } = {}): void {
    if (
      !Number.isFinite(x) ||
      x < Math.min(this.xTicks.min, this.xTicks.max) ||
      x > Math.max(this.xTicks.min, this.xTicks.max)
    )
      return;
    const X = this.px(x),
      { area } = this;
    this.svg.line(X, area.y, X, area.y + area.height, { stroke: '#555555', width: 1.5, dash: '8 6', ...style });
    if (label)
      this.svg.text(X - 7, area.y + 8, label, {
        size: style.labelSize ?? 16,
        anchor: 'end',
        rotate: -90,
        fill: '#333333',
        halo: true,
      });
  }

  /** Horizontal line at y from x0 to x1 (default: full width) with an optional label (an invariant). */
  horizontalLine(
    y: number,
    x0?: number,
    x1?: number,
    label?: string,
    style: StrokeStyle & { labelSize?: number; labelBelow?: boolean } = {},
  ): void {
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
      const lo = Math.max(Math.min(a, b), this.area.x),
        hi = Math.min(Math.max(a, b), this.area.x + this.area.width);
      // Above the line by default; below for invariants, where the boundaries meet the line from above.
      const below = style.labelBelow === true;
      this.svg.text((lo + hi) / 2, below ? Y + 6 : Y - 6, label, {
        size: style.labelSize ?? 15,
        anchor: 'middle',
        valign: below ? 'top' : 'baseline',
        fill: '#000000',
        halo: true,
      });
    }
  }

  /** Text centred at a data point (region labels); skipped when outside the area. */
  label(x: number, y: number, text: string, style: TextStyle = {}): void {
    if (!Number.isFinite(x) || !Number.isFinite(y) || !this.contains(x, y)) return;
    this.svg.text(this.px(x), this.py(y), text, { size: 18, anchor: 'middle', valign: 'middle', halo: true, ...style });
  }
}
