// Pan and zoom of the interactive result plots, as pure functions of the window in view. Two kinds of window:
// an x–T window (BinaryDiagram, IsoplethView: a data range per axis, the plot stretched to fill the frame) and a
// centred window (TernarySection: a data centre and a scale in pixels per unit, one for both axes).

import { linearScale, ticks, type Scale } from './results-plot.js';

export type Range = [number, number];
/** The data ranges in view along x and T. */
export interface RangeWindow {
  x: Range;
  T: Range;
}
/** The data point at the centre of the frame and the scale in pixels per data unit. */
export interface CentredWindow {
  cx: number;
  cy: number;
  k: number;
}
export interface Margins {
  l: number;
  r: number;
  t: number;
  b: number;
}

/** A wheel step zooms by this factor; the zoom buttons and keys by ZOOM_STEP. */
export const WHEEL_STEP = 1.2;
export const ZOOM_STEP = 1.5;

/** The pointer's position in pixels relative to the element whose handler receives the event. */
export function pointerOffset(e: MouseEvent): [number, number] {
  const r = (e.currentTarget as Element).getBoundingClientRect();
  return [e.clientX - r.left, e.clientY - r.top];
}

/** The factor a wheel event scales the data span in view by: below 1 (zoom in) when the wheel turns away. */
export function wheelSpanFactor(e: WheelEvent): number {
  return e.deltaY < 0 ? 1 / WHEEL_STEP : WHEEL_STEP;
}

/** Starts a drag on a primary-button press (capturing the pointer so the drag continues outside); false otherwise. */
export function beginDrag(e: PointerEvent): boolean {
  if (e.button !== 0) return false;
  (e.currentTarget as Element).setPointerCapture(e.pointerId);
  return true;
}

/** Whether the pixel (px, py) lies in the plot area of a width × height frame with margins M. */
export function insidePlot(px: number, py: number, width: number, height: number, M: Margins): boolean {
  return px >= M.l && px <= width - M.r && py >= M.t && py <= height - M.b;
}

/**
 * The window scaled by `factor` about the data point (cx, cT), which stays under the pointer; null (no zoom) when
 * its x span would exceed twice the full window's or fall below 1e-6.
 */
export function zoomRangeWindow(
  win: RangeWindow,
  full: RangeWindow,
  cx: number,
  cT: number,
  factor: number,
): RangeWindow | null {
  const x: Range = [cx - (cx - win.x[0]) * factor, cx + (win.x[1] - cx) * factor];
  const T: Range = [cT - (cT - win.T[0]) * factor, cT + (win.T[1] - cT) * factor];
  if (x[1] - x[0] > 2 * (full.x[1] - full.x[0]) || x[1] - x[0] < 1e-6) return null;
  return { x, T };
}

/**
 * The window after a drag of (dxPx, dyPx) pixels (right, down) from `start`, the window when the drag began, over a
 * plot area of plotWidth × plotHeight pixels: the data under the pointer follows it (T grows upwards).
 */
export function panRangeWindow(
  start: RangeWindow,
  dxPx: number,
  dyPx: number,
  plotWidth: number,
  plotHeight: number,
): RangeWindow {
  const dx = (dxPx / plotWidth) * (start.x[1] - start.x[0]);
  const dT = (dyPx / plotHeight) * (start.T[1] - start.T[0]);
  return { x: [start.x[0] - dx, start.x[1] - dx], T: [start.T[0] + dT, start.T[1] + dT] };
}

/** The window moved by fractions (fx, fT) of its spans (a key press pans by a tenth). */
export function shiftRangeWindow(win: RangeWindow, fx: number, fT: number): RangeWindow {
  const dx = (win.x[1] - win.x[0]) * fx;
  const dT = (win.T[1] - win.T[0]) * fT;
  return { x: [win.x[0] + dx, win.x[1] + dx], T: [win.T[0] + dT, win.T[1] + dT] };
}

/** Pixel of the data point p in a width × height frame (y grows upwards in data, downwards in pixels). */
export function centredToPx(win: CentredWindow, width: number, height: number, p: [number, number]): [number, number] {
  return [width / 2 + (p[0] - win.cx) * win.k, height / 2 - (p[1] - win.cy) * win.k];
}

/** Data point at the pixel (px, py): the inverse of centredToPx. */
export function centredFromPx(
  win: CentredWindow,
  width: number,
  height: number,
  px: number,
  py: number,
): [number, number] {
  return [win.cx + (px - width / 2) / win.k, win.cy - (py - height / 2) / win.k];
}

/** The window with its scale multiplied by `factor` (clamped to [kMin, kMax]) about the pixel (px, py), which keeps its data point. */
export function zoomCentredWindow(
  win: CentredWindow,
  width: number,
  height: number,
  px: number,
  py: number,
  factor: number,
  kMin: number,
  kMax: number,
): CentredWindow {
  const p = centredFromPx(win, width, height, px, py);
  const k = Math.min(kMax, Math.max(kMin, win.k * factor));
  return { k, cx: p[0] - (px - width / 2) / k, cy: p[1] + (py - height / 2) / k };
}

/** The window after a drag of (dxPx, dyPx) pixels from a drag that began with the centre `start` at scale k. */
export function panCentredWindow(
  start: { cx: number; cy: number },
  k: number,
  dxPx: number,
  dyPx: number,
): CentredWindow {
  return { k, cx: start.cx - dxPx / k, cy: start.cy + dyPx / k };
}

/** Scales and ticks of an x–T window in a width × height frame with margins M: an x tick per 100 px (at least 3), 8 on T. */
export function rangeFrame(
  win: RangeWindow,
  width: number,
  height: number,
  M: Margins,
): { sx: Scale; sy: Scale; nx: number; xt: number[]; yt: number[] } {
  const nx = Math.max(3, Math.floor(width / 100));
  return {
    sx: linearScale(win.x, [M.l, Math.max(M.l + 10, width - M.r)]),
    sy: linearScale(win.T, [height - M.b, M.t]),
    nx,
    xt: ticks(win.x[0], win.x[1], nx),
    yt: ticks(win.T[0], win.T[1], 8),
  };
}

/** The plot area of a width × height frame with margins M (at least 10 px wide), as a box for label placement. */
export function plotAreaBox(
  width: number,
  height: number,
  M: Margins,
): { x: number; y: number; width: number; height: number } {
  return { x: M.l, y: M.t, width: Math.max(10, width - M.l - M.r), height: height - M.t - M.b };
}

/** Whether the point p lies in the box b (edges included). */
export function boxContains(
  b: { x: number; y: number; width: number; height: number },
  p: readonly [number, number],
): boolean {
  return p[0] >= b.x && p[0] <= b.x + b.width && p[1] >= b.y && p[1] <= b.y + b.height;
}
