// Preview of a kinetics result against time on a log axis (task type aging): panels stacked over one time axis,
// each with its series on a linear or a log axis. A log axis is drawn on log10 of its data with its ticks at whole
// decades labelled 10^k; values at or below 0 on it are gaps.
import { Panel, SvgBuilder, drawLegend, legendWidth, resolveAxis, seriesColor, seriesDash, type Ticks } from './svg.js';
import { DEFAULT_WIDTH, checkLengths, drawTitle, layout, num, type CommonOptions } from './chart-frame.js';
import type { Series } from './charts.js';
import { decadeLabel } from '../../contract/plots/decades.js';

export { decadeLabel };

/** A series with its own colour (the temperature of a schedule) leaves the palette to the phases. */
export interface KineticsSeries extends Series {
  color?: string;
}

export interface KineticsPanel {
  /** axis label with its unit, e.g. "Number density (m⁻³)" */
  label: string;
  /** a log axis (the values' decades) */
  log?: boolean;
  series: ReadonlyArray<KineticsSeries>;
}

export interface KineticsChartInput extends CommonOptions {
  /** s, > 0 */
  time: ReadonlyArray<number>;
  panels: ReadonlyArray<KineticsPanel>;
}

const log10 = (v: number | null | undefined) => {
  const x = num(v);
  return x > 0 ? Math.log10(x) : NaN;
};

/** Whole decades covering the finite values (at least one), at most about ten ticks. */
export function decadeTicks(logValues: Iterable<number>): Ticks {
  let lo = Infinity,
    hi = -Infinity;
  for (const v of logValues)
    if (Number.isFinite(v)) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  if (!(lo <= hi)) return { min: 0, max: 1, step: 1, ticks: [0, 1] };
  let a = Math.floor(lo + 1e-9),
    b = Math.ceil(hi - 1e-9);
  if (b <= a) b = a + 1;
  const step = Math.max(1, Math.ceil((b - a) / 10));
  a = Math.floor(a / step) * step;
  b = Math.ceil(b / step) * step;
  const ticks: number[] = [];
  for (let k = a; k <= b; k += step) ticks.push(k);
  return { min: a, max: b, step, ticks };
}

export function kineticsChart(input: KineticsChartInput): string {
  const panels = input.panels.filter((p) => p.series.length > 0);
  if (!panels.length) throw new RangeError('kineticsChart: no series to plot');
  for (const p of panels) checkLengths(input.time, p.series, `kineticsChart panel ${JSON.stringify(p.label)}`);
  const width = input.width ?? DEFAULT_WIDTH;
  const gap = 30;
  const height = input.height ?? Math.min(1600, 200 + panels.length * 230);
  const names = [...new Set(panels.flatMap((p) => p.series.map((s) => s.name)))];
  const outer = layout(width, height, { title: !!input.title, legend: legendWidth(names) });
  const svg = new SvgBuilder(width, height, { title: input.title ?? 'Precipitation kinetics' });
  drawTitle(svg, input.title);
  const x = input.time.map(log10);
  const xt = decadeTicks(x);
  const ph = (outer.height - gap * (panels.length - 1)) / panels.length;
  const colorOf = new Map<string, number>();
  const legend = new Map<string, { color: string; dash: string }>();
  panels.forEach((p, k) => {
    const area = { x: outer.x, y: outer.y + k * (ph + gap), width: outer.width, height: ph };
    const values = p.series.map((s) => s.values.map((v) => (p.log ? log10(v) : num(v))));
    const yt = p.log ? decadeTicks(values.flat()) : resolveAxis({ label: p.label, maxTicks: 5 }, values.flat());
    const panel = new Panel(svg, area, xt, yt);
    panel.drawAxes('Time (s)', p.label, {
      showXTickLabels: k === panels.length - 1,
      xTickLabel: decadeLabel,
      yTickLabel: p.log ? decadeLabel : undefined,
    });
    p.series.forEach((s, i) => {
      // a phase keeps its colour across panels: the name before its first space ("AL3ZR mean" is AL3ZR's)
      const key = s.name.split(' ')[0]!;
      if (!s.color && !colorOf.has(key)) colorOf.set(key, colorOf.size);
      const color = s.color ?? seriesColor(colorOf.get(key)!);
      const dash = s.dash ?? (p.series.length > 1 && key === s.name ? seriesDash(i) : '');
      panel.series(
        x.map((t, j) => [t, values[i]![j]!] as const),
        { stroke: color, dash: dash || undefined, width: 3 },
      );
      if (!legend.has(s.name)) legend.set(s.name, { color, dash });
    });
  });
  drawLegend(
    svg,
    outer.x + outer.width + 20,
    outer.y,
    [...legend].map(([name, l]) => ({ name, ...l })),
  );
  return svg.toString();
}
