// What every chart of charts.ts shares: the default size and options, the checks and conversions of the input
// arrays (a missing value becomes NaN, which breaks a line instead of joining across it) and the outer layout (plot
// area inside the margins, room for a Celsius axis and a legend column, the title).
import { SvgBuilder, type Point, type Rect, type TemperatureUnit } from './svg.js';

export const DEFAULT_WIDTH = 1200;

export interface CommonOptions {
  title?: string;
  width?: number;
  height?: number;
  /** The unit a temperature axis (data in kelvin) and temperatures in labels are shown in (default kelvin). */
  temperatureUnit?: TemperatureUnit;
}

/** Array check that does not narrow ReadonlyArray inputs to any[] (TypeScript's Array.isArray does). */
export function isArr(v: unknown): boolean {
  return Array.isArray(v);
}

export function num(v: number | null | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : NaN;
}

/** Every series an array of values, one for each x value; else an Error naming the chart (`what`) and the series. */
export function checkLengths(
  x: ReadonlyArray<unknown>,
  series: ReadonlyArray<{ name: string; values: ReadonlyArray<unknown> }>,
  what: string,
): void {
  if (!isArr(x)) throw new TypeError(`${what}: x must be an array`);
  for (const s of series) {
    if (!s || !isArr(s.values)) throw new TypeError(`${what}: series ${JSON.stringify(s?.name)} has no values array`);
    if (s.values.length !== x.length) {
      throw new RangeError(
        `${what}: series ${JSON.stringify(s.name)} has ${s.values.length} values for ${x.length} x values`,
      );
    }
  }
}

export function zip(x: ReadonlyArray<number | null>, y: ReadonlyArray<number | null>): Point[] {
  return x.map((v, i) => [num(v), num(y[i])] as const);
}

/** Room for the right-hand Celsius axis (tick labels and its title). */
export const CELSIUS_RIGHT = 110;

/** Outer layout: plot area inside margins, legend column on the right when there is a legend. */
export function layout(
  width: number,
  height: number,
  o: { title?: boolean; celsiusTop?: boolean; celsiusRight?: boolean; legend?: number },
): Rect {
  const top = (o.title ? 50 : 20) + (o.celsiusTop ? 75 : 20);
  const left = 120;
  const right = (o.celsiusRight ? CELSIUS_RIGHT : 30) + (o.legend ? o.legend + 20 : 0);
  const bottom = 95;
  return { x: left, y: top, width: Math.max(100, width - left - right), height: Math.max(100, height - top - bottom) };
}

export function drawTitle(svg: SvgBuilder, title: string | undefined): void {
  if (title) svg.text(svg.width / 2, 16, title, { size: 24, weight: 'bold', anchor: 'middle', valign: 'top' });
}
