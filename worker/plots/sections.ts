// Isobaric sections of a composition-temperature-pressure phase diagram (binary_cpt_diagram preview):
// one panel per pressure, each a phase-set map of the grid (every node painted as the rectangle of
// the cell centred on it, runs of equal labels along x merged into one rectangle), with the bisected
// boundary points drawn on top and optional tie-lines. Plain data in, a complete SVG document out.
import { pressureText } from '../../contract/plots/names.js';
import {
  Panel,
  SvgBuilder,
  temperatureLabel,
  temperatureTicksWithin,
  textWidth,
  ticksWithin,
  type Rect,
  type TemperatureUnit,
  type Ticks,
} from './svg.js';
import { phaseSetFill } from '../../contract/plots/palette.js';

export interface IsobaricSection {
  P: number;
  /** nX * nT labels of this pressure, index = iT * nX + iX; -1 = not converged */
  labels: ArrayLike<number>;
  /** bisected boundary points inside this section */
  boundary?: { x: number; T: number }[];
  tielines?: { T: number; x: readonly [number, number] }[];
}

export interface IsobaricSectionsInput {
  title?: string;
  /** a line under the title (for example: the database has no molar volumes, pressure changes nothing) */
  note?: string;
  xLabel: string;
  xs: ArrayLike<number>;
  Ts: ArrayLike<number>;
  phaseSets: string[];
  sections: IsobaricSection[];
  width?: number;
  /** the unit of the temperature axis (Ts stay in kelvin; default kelvin) */
  temperatureUnit?: TemperatureUnit;
}

export { SECTION_FILLS, phaseSetFill } from '../../contract/plots/palette.js';

/** Pressure as text: Pa below 1e5, else bar/GPa style with the Pa value. */

/** Cell edges around node values: midpoints between nodes, the outer nodes' half cells clipped to the range. */
function cellEdges(v: ArrayLike<number>): number[] {
  const n = v.length;
  if (n === 1) return [v[0]! - 0.5, v[0]! + 0.5];
  const e = [v[0]!];
  for (let i = 1; i < n; i++) e.push((v[i - 1]! + v[i]!) / 2);
  e.push(v[n - 1]!);
  return e;
}

/** The phase sets drawn anywhere in the sections, in label order, with their names (-1: not converged). */
function usedPhaseSets(sections: IsobaricSection[], phaseSets: string[]): { k: number; name: string }[] {
  const used = new Set<number>();
  for (const s of sections) for (let i = 0; i < s.labels.length; i++) used.add(s.labels[i]!);
  return [...used].sort((a, b) => a - b).map((k) => ({ k, name: k < 0 ? 'not converged' : (phaseSets[k] ?? `#${k}`) }));
}

/** The axes and cell edges every panel shares. */
interface SectionGrid {
  input: IsobaricSectionsInput;
  xTicks: Ticks;
  yTicks: Ticks;
  /** cell edges along x and along T */
  xe: number[];
  te: number[];
}

/**
 * One pressure's panel: the phase-set map of its grid (runs of equal labels along x merged into one rectangle; a
 * node that did not converge white and crossed out in red), tie-lines and bisected boundary points on top, the
 * axes and the pressure above.
 */
function drawSection(svg: SvgBuilder, grid: SectionGrid, s: IsobaricSection, area: Rect, first: boolean): void {
  const { input, xe, te } = grid;
  const nX = input.xs.length,
    nT = input.Ts.length;
  const panel = new Panel(svg, area, grid.xTicks, grid.yTicks);
  svg.beginGroup({ clip: panel.clipId });
  for (let iT = 0; iT < nT; iT++) {
    let i0 = 0;
    for (let iX = 1; iX <= nX; iX++) {
      if (iX < nX && s.labels[iT * nX + iX] === s.labels[iT * nX + i0]) continue;
      const k = s.labels[iT * nX + i0]!;
      const X0 = panel.px(xe[i0]!),
        X1 = panel.px(xe[iX]!),
        Y0 = panel.py(te[iT + 1]!),
        Y1 = panel.py(te[iT]!);
      // a hair wider than the cell so that anti-aliasing leaves no seams between rectangles
      svg.rect(X0, Y0, X1 - X0 + 0.6, Y1 - Y0 + 0.6, { stroke: 'none', fill: k < 0 ? '#FFFFFF' : phaseSetFill(k) });
      if (k < 0) svg.line(X0, Y0, X1, Y1, { stroke: '#CC0000', width: 1 });
      i0 = iX;
    }
  }
  for (const t of s.tielines ?? [])
    svg.line(panel.px(t.x[0]), panel.py(t.T), panel.px(t.x[1]), panel.py(t.T), { stroke: '#777777', width: 1 });
  for (const b of s.boundary ?? []) svg.circle(panel.px(b.x), panel.py(b.T), 2.2, { stroke: 'none', fill: '#000000' });
  svg.endGroup();
  panel.drawAxes(input.xLabel, first ? temperatureLabel('Temperature (K)', input.temperatureUnit) : '', {
    grid: false,
    tickSize: 16,
    labelSize: 20,
    temperatureAxis: 'y',
    temperatureUnit: input.temperatureUnit,
  });
  svg.text(area.x + area.width / 2, area.y - 10, `P = ${pressureText(s.P)}`, {
    size: 20,
    anchor: 'middle',
    weight: 'bold',
  });
}

/** The longest prefix of a name that fits the width with an ellipsis (the whole name when it fits). */
function fitName(name: string, size: number, width: number): string {
  if (textWidth(name, size) <= width) return name;
  // by bisection: one measurement per halving, whatever the name's length
  let lo = 3,
    hi = name.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (textWidth(`${name.slice(0, mid)}…`, size) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${name.slice(0, lo)}…`;
}

/** The legend: a filled swatch and the name of each phase set, in columns from `top` down. */
function drawPhaseSetLegend(
  svg: SvgBuilder,
  legend: { k: number; name: string }[],
  { top, columns, size }: { top: number; columns: number; size: number },
): void {
  const colW = (svg.width - 80) / columns;
  legend.forEach((it, i) => {
    const col = i % columns,
      row = Math.floor(i / columns);
    const x = 40 + col * colW,
      y = top + row * size * 1.7;
    svg.rect(x, y, 34, size, { stroke: '#666666', width: 1, fill: phaseSetFill(it.k) });
    svg.text(x + 44, y + size / 2, fitName(it.name, size, colW - 50), { size, valign: 'middle' });
  });
}

export function isobaricSections(input: IsobaricSectionsInput): string {
  const { xs, Ts, sections } = input;
  const nX = xs.length,
    nT = Ts.length;
  if (!nX || !nT) throw new RangeError('isobaricSections: empty axes');
  for (const s of sections) {
    if (s.labels.length !== nX * nT)
      throw new RangeError(
        `isobaricSections: section at P = ${s.P} has ${s.labels.length} labels for ${nX} x ${nT} nodes`,
      );
  }
  const legend = usedPhaseSets(sections, input.phaseSets);

  const width = input.width ?? 1200;
  const nPanels = Math.max(1, sections.length);
  const legendSize = 16;
  const legendCols = Math.max(1, Math.min(3, Math.floor((width - 80) / 360)));
  const legendRows = Math.ceil(legend.length / legendCols);
  const top = (input.title ? 60 : 20) + (input.note ? 28 : 0),
    panelH = 520,
    left = 110,
    gap = 80;
  const legendTop = top + panelH + 110;
  const height = legendTop + legendRows * legendSize * 1.7 + 30;
  const svg = new SvgBuilder(width, height, { title: input.title });
  if (input.title) svg.text(width / 2, 16, input.title, { size: 24, weight: 'bold', anchor: 'middle', valign: 'top' });
  if (input.note)
    svg.text(width / 2, input.title ? 52 : 16, input.note, {
      size: 16,
      anchor: 'middle',
      valign: 'top',
      fill: '#B54708',
    });

  const panelW = (width - left - 30 - gap * (nPanels - 1)) / nPanels;
  const grid: SectionGrid = {
    input,
    xTicks: ticksWithin(
      xs[0]!,
      xs[nX - 1]! > xs[0]! ? xs[nX - 1]! : xs[0]! + 1,
      Math.max(5, Math.min(8, Math.floor(panelW / 55))),
    ),
    yTicks: temperatureTicksWithin(Ts[0]!, Ts[nT - 1]! > Ts[0]! ? Ts[nT - 1]! : Ts[0]! + 1, 8, input.temperatureUnit),
    xe: cellEdges(xs),
    te: cellEdges(Ts),
  };
  sections.forEach((s, p) => {
    const area: Rect = { x: left + p * (panelW + gap), y: top + 30, width: panelW, height: panelH - 30 };
    drawSection(svg, grid, s, area, p === 0);
  });
  drawPhaseSetLegend(svg, legend, { top: legendTop, columns: legendCols, size: legendSize });
  svg.text(
    40,
    legendTop - 30,
    'Black dots: boundaries located by bisection between grid nodes; grey lines: tie-lines.',
    { size: 15, fill: '#333333' },
  );
  return svg.toString();
}
