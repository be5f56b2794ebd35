// Legends and the plain table document of the SVG previews.
import { SvgBuilder, formatNumber, textWidth } from './svg-builder.js';

export interface LegendItem {
  name: string;
  color: string;
  dash?: string;
  width?: number;
}

/** Legend entries longer than this are shortened with an ellipsis so the plot keeps its width. */
export const LEGEND_MAX_CHARS = 28;

export function legendName(name: string): string {
  const chars = [...String(name ?? '')];
  return chars.length > LEGEND_MAX_CHARS ? `${chars.slice(0, LEGEND_MAX_CHARS - 1).join('')}…` : chars.join('');
}

/** Legend box; returns its size. Placed by the caller (usually to the right of the plot area). */
export function drawLegend(
  svg: SvgBuilder,
  x: number,
  y: number,
  items: ReadonlyArray<LegendItem>,
  size = 18,
): { width: number; height: number } {
  if (!items.length) return { width: 0, height: 0 };
  const row = size * 1.6,
    swatch = 40,
    pad = 10;
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
export function renderTable(
  columns: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>,
  opts: TableOptions = {},
): string {
  const size = opts.fontSize ?? 18,
    digits = opts.digits ?? 6;
  const rowH = Math.round(size * 1.9),
    pad = 14,
    margin = 30;
  const text = rows.map((r) => columns.map((_, j) => cellText(r[j], digits)));
  const numeric = columns.map(
    (_, j) => rows.length > 0 && rows.every((r) => r[j] === null || r[j] === undefined || typeof r[j] === 'number'),
  );
  const natural = columns.map(
    (c, j) => Math.max(textWidth(c, size) * 1.08, ...text.map((r) => textWidth(r[j], size))) + 2 * pad,
  );
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
  if (opts.title) {
    svg.text(margin, y, opts.title, { size: size * 1.25, weight: 'bold', valign: 'top' });
    y += titleH;
  }
  svg.rect(margin, y, tableW, rowH, { stroke: 'none', fill: '#eef2f6' });
  for (let i = 0; i < rows.length; i++)
    if (i % 2 === 1) svg.rect(margin, y + rowH * (i + 1), tableW, rowH, { stroke: 'none', fill: '#f7f7f7' });
  const xs: number[] = [];
  let acc = margin;
  for (const w of colW) {
    xs.push(acc);
    acc += w;
  }
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
  svg.line(margin, y + rowH * (rows.length + 1), margin + tableW, y + rowH * (rows.length + 1), {
    stroke: '#000000',
    width: 2,
  });
  return svg.toString();
}
