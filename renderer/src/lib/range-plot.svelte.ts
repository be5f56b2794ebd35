// The pan-and-zoom state of an x–T plot (BinaryDiagram, IsoplethView) in runes: the frame's width (bound to its
// container), the window in view, the drag under way and the data point under the pointer, with the wheel and
// pointer handlers of the plot's <svg> (the arithmetic is plot-window.ts).
import {
  beginDrag,
  insidePlot,
  panRangeWindow,
  pointerOffset,
  rangeFrame,
  wheelSpanFactor,
  zoomRangeWindow,
  type Margins,
  type RangeWindow,
} from './plot-window.js';

export class RangePlot {
  width = $state(800);
  /** the window the user chose; null: the full window */
  view = $state<RangeWindow | null>(null);
  hover = $state<{ x: number; T: number } | null>(null);
  drag = $state<{ px: number; py: number; start: RangeWindow } | null>(null);
  readonly height: number;
  readonly M: Margins;
  readonly #full: () => RangeWindow;
  win = $derived.by((): RangeWindow => this.view ?? this.#full());
  frame = $derived.by(() => rangeFrame(this.win, this.width, this.height, this.M));

  /** `full`: the whole plot's window (read again whenever it changes) */
  constructor(full: () => RangeWindow, height: number, M: Margins) {
    this.#full = full;
    this.height = height;
    this.M = M;
  }

  /** Zoom by `factor` about the pixel (px, py); never out past twice the full window, never in below a 1e-6 window. */
  zoomAt(px: number, py: number, factor: number): void {
    const { sx, sy } = this.frame;
    this.view = zoomRangeWindow(this.win, this.#full(), sx.invert(px), sy.invert(py), factor) ?? this.view;
  }
  centerZoom(factor: number): void {
    const { sx, sy } = this.frame;
    this.zoomAt((sx.range[0] + sx.range[1]) / 2, (sy.range[0] + sy.range[1]) / 2, factor);
  }
  onWheel = (e: WheelEvent): void => {
    e.preventDefault();
    this.zoomAt(...pointerOffset(e), wheelSpanFactor(e));
  };
  onDown = (e: PointerEvent): void => {
    if (beginDrag(e)) this.drag = { px: e.clientX, py: e.clientY, start: { x: [...this.win.x], T: [...this.win.T] } };
  };
  onMove = (e: PointerEvent): void => {
    const [px, py] = pointerOffset(e);
    const { sx, sy } = this.frame;
    if (this.drag) {
      this.view = panRangeWindow(
        this.drag.start,
        e.clientX - this.drag.px,
        e.clientY - this.drag.py,
        sx.range[1] - sx.range[0],
        sy.range[0] - sy.range[1],
      );
    }
    // read after the pan: the read-out is in the scales of the new view
    const f = this.frame;
    this.hover = insidePlot(px, py, this.width, this.height, this.M)
      ? { x: f.sx.invert(px), T: f.sy.invert(py) }
      : null;
  };
  onUp = (): void => {
    this.drag = null;
  };
}
