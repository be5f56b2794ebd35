// Preview charts of calculation results: plain data in, a complete SVG document out (PNG conversion is in png.ts).
// Phase fractions of a scan, thermodynamic properties, Scheil beside the lever rule, the binary phase diagram (its
// labels placed by diagram-labels.ts) and the table of an equilibrium point; chart-frame.ts has what they share.
//
// Conventions: temperatures in kelvin, compositions as mole fractions, fractions in [0, 1]. Missing
// values (NaN, null) break a line instead of being joined across. Bad input (length mismatch, empty
// arrays of the wrong shape) throws an Error with a message, never crashes the process.

import type { DisplayNamer } from '../../contract/plots/phase-names.js';
import {
  Panel,
  SvgBuilder,
  drawLegend,
  legendWidth,
  renderTable,
  resolveAxis,
  seriesColor,
  seriesDash,
  finiteExtent,
  formatTemperature,
  temperatureLabel,
  temperatureTicks,
  REGION_FILLS,
  type Cell,
  type LegendItem,
  type Rect,
  type Ticks,
} from './svg.js';
import {
  CELSIUS_RIGHT,
  DEFAULT_WIDTH,
  checkLengths,
  drawTitle,
  isArr,
  layout,
  num,
  zip,
  type CommonOptions,
} from './chart-frame.js';
import { diagramLabels } from './diagram-labels.js';

export interface Series {
  name: string;
  values: ReadonlyArray<number | null>;
  /** dash pattern instead of the palette's (the frozen Cp is dashed, as in the app) */
  dash?: string;
}
export interface Transition {
  x: number;
  label: string;
}

// ---------------------------------------------------------------------------------------------
// Phase fractions versus the scanned variable (line / step calculations)

export interface PhaseFractionChartInput extends CommonOptions {
  x: ReadonlyArray<number | null>;
  /** For example "Temperature (K)" or "Mole fraction Zn". */
  xLabel: string;
  series: ReadonlyArray<Series>;
  transitions?: ReadonlyArray<Transition>;
  yLabel?: string;
  /** Secondary top axis in degrees Celsius; only meaningful when x is a temperature in K. */
  celsiusAxis?: boolean;
}

export function phaseFractionChart(input: PhaseFractionChartInput): string {
  const series = input.series ?? [];
  checkLengths(input.x, series, 'phaseFractionChart');
  const width = input.width ?? DEFAULT_WIDTH,
    height = input.height ?? 800;
  const names = series.map((s) => s.name);
  const area = layout(width, height, {
    title: !!input.title,
    celsiusTop: input.celsiusAxis,
    legend: legendWidth(names),
  });
  const svg = new SvgBuilder(width, height, { title: input.title ?? 'Phase fractions' });
  drawTitle(svg, input.title);
  const unit = input.celsiusAxis ? input.temperatureUnit : undefined;
  const xt = temperatureTicks({ label: input.xLabel, maxTicks: 10 }, input.x.map(num), unit);
  // Phase fractions live in [0, 1]; the axis is fixed so charts of different scans compare directly.
  // Amounts in moles of a non-normalised system can exceed 1: then the axis follows the data.
  const ext = finiteExtent(series.flatMap((s) => s.values.map(num)));
  const yt =
    ext && (ext[1] > 1 + 1e-9 || ext[0] < -1e-9)
      ? resolveAxis({ label: '', maxTicks: 6 }, [0, 1, ...ext])
      : resolveAxis({ label: '', min: 0, max: 1, maxTicks: 6 }, []);
  const panel = new Panel(svg, area, xt, yt);
  panel.drawAxes(temperatureLabel(input.xLabel, unit), input.yLabel ?? 'Phase fraction', {
    celsius: input.celsiusAxis ? 'x' : undefined,
    temperatureUnit: unit,
  });
  for (const t of input.transitions ?? []) panel.verticalMarker(num(t.x), t.label);
  const legend: LegendItem[] = [];
  series.forEach((s, i) => {
    const color = seriesColor(i),
      dash = seriesDash(i);
    panel.series(zip(input.x, s.values), { stroke: color, dash: dash || undefined, width: 3 });
    legend.push({ name: s.name, color, dash });
  });
  drawLegend(svg, area.x + area.width + 20, area.y, legend);
  return svg.toString();
}

// ---------------------------------------------------------------------------------------------
// Thermodynamic properties versus T, one panel per property sharing the x axis

export interface PropertyPanelInput {
  /** Axis label with units, for example "Cp (J/(mol·K))". */
  label: string;
  /** One curve ... */
  values?: ReadonlyArray<number | null>;
  /** ... or several (per phase, or system and phases). */
  series?: ReadonlyArray<Series>;
}

export interface PropertyChartInput extends CommonOptions {
  x: ReadonlyArray<number | null>;
  xLabel?: string;
  /** Shorthands for the usual molar properties of the system; drawn first, in this order. */
  Cp?: ReadonlyArray<number | null>;
  H?: ReadonlyArray<number | null>;
  S?: ReadonlyArray<number | null>;
  /** Further panels (G, or per-phase curves). */
  panels?: ReadonlyArray<PropertyPanelInput>;
  transitions?: ReadonlyArray<Transition>;
  celsiusAxis?: boolean;
}

export function propertyChart(input: PropertyChartInput): string {
  const panels: PropertyPanelInput[] = [];
  if (input.Cp) panels.push({ label: 'Cp (J/(mol·K))', values: input.Cp });
  if (input.H) panels.push({ label: 'H (J/mol)', values: input.H });
  if (input.S) panels.push({ label: 'S (J/(mol·K))', values: input.S });
  panels.push(...(input.panels ?? []));
  if (!panels.length) throw new RangeError('propertyChart: no property to plot (give Cp, H, S or panels)');
  const perPanel = panels.map((p) => {
    const s: Series[] = [...(p.series ?? [])];
    if (p.values) s.unshift({ name: p.label.replace(/\s*\(.*$/, ''), values: p.values });
    checkLengths(input.x, s, `propertyChart panel ${JSON.stringify(p.label)}`);
    return s;
  });
  const width = input.width ?? DEFAULT_WIDTH;
  const gap = 30;
  const height = input.height ?? Math.min(1600, 200 + panels.length * 250);
  const allNames = [...new Set(perPanel.flatMap((s) => (s.length > 1 ? s.map((q) => q.name) : [])))];
  const lw = allNames.length ? legendWidth(allNames) : 0;
  const outer = layout(width, height, { title: !!input.title, celsiusTop: input.celsiusAxis, legend: lw });
  const svg = new SvgBuilder(width, height, { title: input.title ?? 'Thermodynamic properties' });
  drawTitle(svg, input.title);
  const unit = input.celsiusAxis ? input.temperatureUnit : undefined;
  const xLabel = temperatureLabel(input.xLabel ?? 'Temperature (K)', unit);
  const xt = temperatureTicks({ label: xLabel, maxTicks: 10 }, input.x.map(num), unit);
  const ph = (outer.height - gap * (panels.length - 1)) / panels.length;
  // Colours keyed by series name so a phase keeps its colour across panels.
  const colorOf = new Map<string, number>();
  const dashOf = new Map<string, string>();
  panels.forEach((p, k) => {
    const area: Rect = { x: outer.x, y: outer.y + k * (ph + gap), width: outer.width, height: ph };
    const series = perPanel[k];
    const yt = resolveAxis(
      { label: p.label, maxTicks: 6 },
      series.flatMap((s) => s.values.map(num)),
    );
    const panel = new Panel(svg, area, xt, yt);
    const last = k === panels.length - 1;
    panel.drawAxes(xLabel, p.label, {
      celsius: input.celsiusAxis && k === 0 ? 'x' : undefined,
      temperatureAxis: input.celsiusAxis ? 'x' : undefined,
      temperatureUnit: unit,
      showXTickLabels: last,
    });
    for (const t of input.transitions ?? []) panel.verticalMarker(num(t.x), k === 0 ? t.label : '');
    series.forEach((s, i) => {
      const key = series.length > 1 ? s.name : `\u0000single${k}`;
      if (!colorOf.has(key)) colorOf.set(key, series.length > 1 ? colorOf.size : 0);
      const ci = series.length > 1 ? colorOf.get(key)! : 0;
      panel.series(zip(input.x, s.values), {
        stroke: seriesColor(ci),
        dash: (s.dash ?? seriesDash(ci)) || undefined,
        width: 3,
      });
      if (s.dash !== undefined) dashOf.set(s.name, s.dash);
      void i;
    });
  });
  if (allNames.length) {
    drawLegend(
      svg,
      outer.x + outer.width + 20,
      outer.y,
      allNames.map((n) => {
        const ci = colorOf.get(n) ?? 0;
        return { name: n, color: seriesColor(ci), dash: dashOf.get(n) ?? seriesDash(ci) };
      }),
    );
  }
  return svg.toString();
}

// ---------------------------------------------------------------------------------------------
// Scheil solidification beside the lever rule (equilibrium solidification)

export interface SolidificationPath {
  /** Temperatures in K, decreasing along the path. */
  T: ReadonlyArray<number | null>;
  /** Fraction solid in [0, 1] at each temperature. */
  fs: ReadonlyArray<number | null>;
}

export interface ScheilChartInput extends CommonOptions {
  scheil: SolidificationPath;
  lever?: SolidificationPath;
  /** Scheil with back diffusion in the primary solid (task type solidification), between the two */
  backDiffusion?: SolidificationPath;
  /** Temperature where the Scheil path ends (eutectic); drawn as a dashed horizontal line. */
  eutecticT?: number;
  liquidusT?: number;
  xLabel?: string;
  yLabel?: string;
  /** Secondary right axis in degrees Celsius. */
  celsiusAxis?: boolean;
}

/**
 * Temperature on the y axis and fraction solid on the x axis, the metallurgical convention (as in
 * Thermo-Calc's and pycalphad-scheil's solidification plots), so the eutectic is a horizontal line.
 */
export function scheilChart(input: ScheilChartInput): string {
  const paths: Array<{ name: string; p: SolidificationPath }> = [{ name: 'Scheil', p: input.scheil }];
  if (input.lever) paths.push({ name: 'Lever rule (equilibrium)', p: input.lever });
  if (input.backDiffusion) paths.push({ name: 'Scheil with back diffusion', p: input.backDiffusion });
  for (const { name, p } of paths) {
    if (!p || !isArr(p.T) || !isArr(p.fs)) throw new TypeError(`scheilChart: ${name} path needs T and fs arrays`);
    if (p.T.length !== p.fs.length)
      throw new RangeError(`scheilChart: ${name} path has ${p.T.length} temperatures and ${p.fs.length} fractions`);
  }
  const width = input.width ?? DEFAULT_WIDTH,
    height = input.height ?? 800;
  const legend: LegendItem[] = [
    { name: 'Scheil', color: seriesColor(0), dash: '' },
    ...(input.lever ? [{ name: 'Lever rule (equilibrium)', color: seriesColor(1), dash: '10 6' }] : []),
    ...(input.backDiffusion ? [{ name: 'Scheil with back diffusion', color: seriesColor(2), dash: '' }] : []),
  ];
  const area = layout(width, height, {
    title: !!input.title,
    celsiusRight: input.celsiusAxis,
    legend: legendWidth(legend.map((l) => l.name)),
  });
  const svg = new SvgBuilder(width, height, { title: input.title ?? 'Solidification' });
  drawTitle(svg, input.title);
  const xt = resolveAxis({ label: '', min: 0, max: 1, maxTicks: 6 }, []);
  const temps = paths.flatMap(({ p }) => p.T.map(num));
  for (const v of [input.eutecticT, input.liquidusT]) if (v !== undefined) temps.push(num(v));
  // 3 % head-room below the lowest temperature so the eutectic plateau does not sit on the axis.
  const ext = temps.filter(Number.isFinite);
  if (ext.length) {
    const lo = Math.min(...ext),
      hi = Math.max(...ext);
    temps.push(lo - 0.03 * Math.max(hi - lo, 1));
  }
  const unit = input.temperatureUnit;
  const yt = temperatureTicks({ label: '', maxTicks: 8 }, temps, unit);
  const panel = new Panel(svg, area, xt, yt);
  panel.drawAxes(input.xLabel ?? 'Fraction solid', temperatureLabel(input.yLabel ?? 'Temperature (K)', unit), {
    celsius: input.celsiusAxis ? 'y' : undefined,
    temperatureAxis: 'y',
    temperatureUnit: unit,
  });
  if (input.liquidusT !== undefined)
    panel.horizontalLine(
      num(input.liquidusT),
      undefined,
      undefined,
      `Liquidus ${formatTemperature(num(input.liquidusT), unit)}`,
      { stroke: '#555555', width: 1.5, dash: '8 6' },
    );
  if (input.eutecticT !== undefined)
    panel.horizontalLine(
      num(input.eutecticT),
      undefined,
      undefined,
      `Eutectic ${formatTemperature(num(input.eutecticT), unit)}`,
      { stroke: '#555555', width: 1.5, dash: '8 6' },
    );
  paths.forEach(({ p }, i) => {
    panel.series(
      p.fs.map((f, j) => [num(f), num(p.T[j])] as const),
      { stroke: legend[i].color, dash: legend[i].dash || undefined, width: 3 },
    );
  });
  drawLegend(svg, area.x + area.width + (input.celsiusAxis ? CELSIUS_RIGHT : 20), area.y, legend);
  return svg.toString();
}

// ---------------------------------------------------------------------------------------------
// Binary phase diagram (T versus mole fraction)

export interface XT {
  x: number;
  T: number;
}

export interface BoundaryInput {
  /** The two phases the boundary separates, for example ["LIQUID", "FCC_A1"]. */
  phases?: ReadonlyArray<string>;
  points: ReadonlyArray<XT>;
  /** a first-order phase boundary (solid, the default), a second-order (order-disorder) transition line
   * (dashed) or a Curie/Neel line of a magnetic phase (dotted); the last two get a legend entry */
  kind?: BoundaryKind;
}

export type BoundaryKind = 'phase_boundary' | 'second_order' | 'magnetic' | 'spinodal' | 'coherent_spinodal';

/** Line styles and legend texts of the boundary kinds of a binary diagram. */
export const BOUNDARY_STYLES: Record<BoundaryKind, { dash?: string; width: number; legend?: string }> = {
  phase_boundary: { width: 2.5 },
  second_order: { dash: '12 7', width: 2.2, legend: 'second-order (order-disorder) transition' },
  magnetic: { dash: '2 6', width: 2.2, legend: 'Curie / Neel temperature (magnetic)' },
  spinodal: { dash: '9 6', width: 2.2, legend: 'chemical spinodal (d²G/dx² = 0)' },
  coherent_spinodal: { dash: '2 4 9 4', width: 2.2, legend: 'coherent spinodal (with the strain energy)' },
};

export interface TieLineInput {
  T: number;
  x: readonly [number, number] | ReadonlyArray<number>;
  phases?: ReadonlyArray<string>;
}

export interface InvariantInput {
  T: number;
  phases: ReadonlyArray<string>;
  /** Compositions of the phases at the invariant (same order as phases). */
  x: ReadonlyArray<number>;
  /** eutectic, peritectic, monotectic, ... (optional, printed in the label). */
  kind?: string;
}

export interface RegionLabelInput {
  x: number;
  T: number;
  label: string;
  /** further points known to lie in the field (the middles of a two-phase region's tie-lines), best first */
  inside?: ReadonlyArray<XT>;
}
export interface RegionInput {
  points: ReadonlyArray<XT>;
  label?: string;
  fill?: string;
}

export interface BinaryPhaseDiagramInput extends CommonOptions {
  boundaries: ReadonlyArray<BoundaryInput>;
  tieLines?: ReadonlyArray<TieLineInput>;
  invariants?: ReadonlyArray<InvariantInput>;
  regionLabels?: ReadonlyArray<RegionLabelInput>;
  /** Optional filled regions (drawn under everything else). */
  regions?: ReadonlyArray<RegionInput>;
  /** For example "Mole fraction Zn". */
  xLabel: string;
  yLabel?: string;
  /** Composition range; default [0, 1]. */
  xRange?: readonly [number, number];
  /** Temperature range; default: nice range around the data. */
  TRange?: readonly [number, number];
  /** Secondary right axis in degrees Celsius. */
  celsiusAxis?: boolean;
  /**
   * Points of the mapping whose equilibrium did not converge, each marked and explained under the plot: a cross where
   * the solver failed, a ring where it says no equilibrium exists (`none`).
   */
  notConverged?: ReadonlyArray<XT & { none?: boolean }>;
  /**
   * The database's display names (contract/plots/phase-names.ts): field and invariant labels print them instead of
   * the set labels the inputs give; without it the labels are printed as given.
   */
  phaseNames?: DisplayNamer;
  /** A line in red under the title: what makes the diagram incomplete (a large share of failed grid nodes). */
  warning?: string;
}

export function binaryPhaseDiagram(input: BinaryPhaseDiagramInput): string {
  if (!isArr(input.boundaries)) throw new TypeError('binaryPhaseDiagram: boundaries must be an array');
  for (const [i, b] of input.boundaries.entries()) {
    if (!b || !isArr(b.points)) throw new TypeError(`binaryPhaseDiagram: boundary ${i} has no points array`);
  }
  const width = input.width ?? DEFAULT_WIDTH,
    baseHeight = input.height ?? 900;
  const area = layout(width, baseHeight, { title: !!input.title, celsiusRight: input.celsiusAxis });
  const xr = input.xRange ?? [0, 1];
  const xt = resolveAxis({ label: input.xLabel, min: xr[0], max: xr[1], maxTicks: 11 }, []);
  let yt: Ticks;
  const unit = input.temperatureUnit;
  if (input.TRange)
    yt = temperatureTicks({ label: '', min: input.TRange[0], max: input.TRange[1], maxTicks: 10 }, [], unit);
  else {
    const temps: number[] = [];
    for (const b of input.boundaries) for (const p of b.points) temps.push(num(p?.T));
    for (const t of input.tieLines ?? []) temps.push(num(t?.T));
    for (const v of input.invariants ?? []) temps.push(num(v?.T));
    // Region labels do not widen the range: a label outside the mapped diagram is dropped, not chased.
    yt = temperatureTicks({ label: '', maxTicks: 10 }, temps, unit);
  }
  const labels = diagramLabels(input, area, xt, yt);
  // Fields too small for their names are listed under the plot, one row per entry.
  const lineKinds = (['second_order', 'magnetic', 'spinodal', 'coherent_spinodal'] as const).filter((k) =>
    input.boundaries.some((b) => b.kind === k && b.points.length > 1),
  );
  const failed = (input.notConverged ?? []).filter((p) => Number.isFinite(num(p?.x)) && Number.isFinite(num(p?.T)));
  const failedKinds = NOT_CONVERGED_KINDS.filter((k) => failed.some((p) => !!p.none === k.none));
  const legendRows = (labels.legend.length ? labels.legend.length + 1 : 0) + lineKinds.length + failedKinds.length;
  const height = baseHeight + legendRows * LEGEND_ROW;
  const svg = new SvgBuilder(width, height, { title: input.title ?? 'Binary phase diagram' });
  drawTitle(svg, input.title);
  if (input.warning)
    svg.text(width / 2, 46, input.warning, {
      size: 14,
      anchor: 'middle',
      valign: 'top',
      fill: NOT_CONVERGED_KINDS[0].colour,
    });
  const panel = new Panel(svg, area, xt, yt);
  (input.regions ?? []).forEach((r, i) => {
    panel.region(
      (r.points ?? []).map((p) => [num(p.x), num(p.T)] as const),
      { fill: r.fill ?? REGION_FILLS[i % REGION_FILLS.length] },
    );
  });
  panel.drawAxes(input.xLabel, temperatureLabel(input.yLabel ?? 'Temperature (K)', unit), {
    celsius: input.celsiusAxis ? 'y' : undefined,
    temperatureAxis: 'y',
    temperatureUnit: unit,
    grid: false,
  });
  for (const t of input.tieLines ?? []) {
    if (!t || !isArr(t.x) || t.x.length < 2) continue;
    panel.segment([num(t.x[0]), num(t.T)], [num(t.x[1]), num(t.T)], { stroke: '#8a8a8a', width: 1 });
  }
  for (const b of input.boundaries) {
    const style = BOUNDARY_STYLES[b.kind ?? 'phase_boundary'] ?? BOUNDARY_STYLES.phase_boundary;
    panel.series(
      b.points.map((p) => [num(p?.x), num(p?.T)] as const),
      style.dash
        ? { stroke: '#000000', width: style.width, dash: style.dash }
        : { stroke: '#000000', width: style.width },
    );
  }
  for (const v of input.invariants ?? []) {
    const xs = (v.x ?? []).map(num).filter(Number.isFinite);
    if (!xs.length || !Number.isFinite(num(v.T))) continue;
    panel.horizontalLine(num(v.T), Math.min(...xs), Math.max(...xs), undefined, { stroke: '#000000', width: 2.5 });
    for (const x of xs)
      if (panel.contains(x, num(v.T)))
        svg.circle(panel.px(x), panel.py(num(v.T)), 4.5, { stroke: 'none', fill: '#000000' });
  }
  drawNotConverged(svg, panel, failed);
  svg.beginGroup({ className: 'labels' });
  for (const l of labels.placed) {
    if (l.leader) svg.line(l.leader[0], l.leader[1], l.leader[2], l.leader[3], { stroke: '#555555', width: 1 });
    svg.text(l.x, l.baseline, l.text, {
      size: l.size,
      anchor: 'middle',
      halo: true,
      weight: l.bold ? 'bold' : 'normal',
    });
  }
  svg.endGroup();
  // the line styles other than a plain boundary, explained under the plot
  lineKinds.forEach((k, i) => {
    const y = baseHeight - 8 + i * LEGEND_ROW + LEGEND_ROW / 2;
    svg.line(area.x, y, area.x + 48, y, {
      stroke: '#000000',
      width: BOUNDARY_STYLES[k].width,
      dash: BOUNDARY_STYLES[k].dash,
      linecap: 'round',
    });
    svg.text(area.x + 60, y, BOUNDARY_STYLES[k].legend!, { size: 16, valign: 'middle', fill: '#333333' });
  });
  failedKinds.forEach((k, i) => {
    const y = baseHeight - 8 + (lineKinds.length + i) * LEGEND_ROW + LEGEND_ROW / 2;
    notConvergedMark(svg, area.x + 24, y, k.none);
    const n = failed.filter((p) => !!p.none === k.none).length;
    svg.text(area.x + 60, y, k.legend(n), { size: 16, valign: 'middle', fill: k.colour });
  });
  if (labels.legend.length) {
    const y0 = baseHeight - 8 + (lineKinds.length + failedKinds.length) * LEGEND_ROW;
    svg.text(area.x, y0, 'Labels that did not fit:', { size: 16, valign: 'top', fill: '#333333' });
    labels.legend.forEach((e, i) =>
      svg.text(area.x + 20, y0 + (i + 1) * LEGEND_ROW, e, { size: 16, valign: 'top', fill: '#333333' }),
    );
  }
  return svg.toString();
}

/** Height of one row of the small-field legend under a diagram, px. */
const LEGEND_ROW = 22;

const nodes = (n: number) => `${n} grid node${n === 1 ? '' : 's'}`;

/** The two kinds of points whose equilibrium did not converge: their marks' colour and legend rows. */
const NOT_CONVERGED_KINDS = [
  {
    none: false,
    colour: '#c0392b',
    legend: (n: number) => `equilibrium not converged at ${nodes(n)}: fields and boundaries may be missing there`,
  },
  {
    none: true,
    colour: '#7f7f7f',
    legend: (n: number) =>
      `no equilibrium exists at ${nodes(n)} (no allowed phase takes the composition, or a phase has no lower bound)`,
  },
] as const;

/** The legend row of the points whose equilibrium did not converge (`none`: where none exists). */
export function notConvergedLegend(n: number, none = false): string {
  return NOT_CONVERGED_KINDS[none ? 1 : 0].legend(n);
}

/** A cross (a ring where no equilibrium exists) centred at (X, Y) px. */
function notConvergedMark(svg: SvgBuilder, X: number, Y: number, none?: boolean): void {
  const r = 5;
  const stroke = NOT_CONVERGED_KINDS[none ? 1 : 0].colour;
  if (none) {
    svg.circle(X, Y, r, { stroke, width: 1.5, fill: 'none' });
    return;
  }
  svg.line(X - r, Y - r, X + r, Y + r, { stroke, width: 2 });
  svg.line(X - r, Y + r, X + r, Y - r, { stroke, width: 2 });
}

/** A mark at each point inside the plot whose equilibrium did not converge, in a group of its own. */
function drawNotConverged(svg: SvgBuilder, panel: Panel, points: ReadonlyArray<XT & { none?: boolean }>): void {
  if (!points.length) return;
  svg.beginGroup({ className: 'not-converged' });
  for (const p of points)
    if (panel.contains(num(p.x), num(p.T))) notConvergedMark(svg, panel.px(num(p.x)), panel.py(num(p.T)), p.none);
  svg.endGroup();
}

// ---------------------------------------------------------------------------------------------
// Phase table of a single equilibrium point

export type ColumnSpec = string | { key: string; label: string };

export interface PointTableInput {
  columns: ReadonlyArray<ColumnSpec>;
  /** Rows as arrays in column order, or objects keyed by column key. */
  rows: ReadonlyArray<ReadonlyArray<Cell> | Readonly<Record<string, Cell>>>;
  title?: string;
  width?: number;
  digits?: number;
}

export function pointTable(input: PointTableInput): string {
  if (!isArr(input.columns) || !input.columns.length)
    throw new RangeError('pointTable: columns must be a non-empty array');
  if (!isArr(input.rows)) throw new TypeError('pointTable: rows must be an array');
  const keys = input.columns.map((c) => (typeof c === 'string' ? c : c.key));
  const labels = input.columns.map((c) => (typeof c === 'string' ? c : c.label));
  const rows = input.rows.map((r) =>
    isArr(r) ? (r as ReadonlyArray<Cell>) : keys.map((k) => (r as Record<string, Cell>)[k]),
  );
  return renderTable(labels, rows, { title: input.title, width: input.width ?? DEFAULT_WIDTH, digits: input.digits });
}
