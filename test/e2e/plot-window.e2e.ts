// The pan and zoom arithmetic of the result plots (renderer/src/lib/plot-window.ts), run in Node. Lives with the e2e
// tests because it imports renderer sources (excluded from the root config).
import { describe, expect, it } from 'vitest';
import {
  boxContains,
  centredFromPx,
  centredToPx,
  insidePlot,
  panCentredWindow,
  panRangeWindow,
  plotAreaBox,
  rangeFrame,
  shiftRangeWindow,
  zoomCentredWindow,
  zoomRangeWindow,
  type RangeWindow,
} from '../../renderer/src/lib/plot-window.js';

const full: RangeWindow = { x: [0, 1], T: [300, 1300] };

describe('plot window', () => {
  it('zooms an x–T window about a data point, which keeps its place, within the bounds', () => {
    const z = zoomRangeWindow(full, full, 0.25, 500, 0.5)!;
    expect(z.x).toEqual([0.125, 0.625]);
    expect(z.T).toEqual([400, 900]);
    expect((0.25 - z.x[0]) / (z.x[1] - z.x[0])).toBeCloseTo((0.25 - full.x[0]) / (full.x[1] - full.x[0]), 12);
    expect(zoomRangeWindow(full, full, 0.5, 800, 2)).not.toBeNull();
    expect(zoomRangeWindow(full, full, 0.5, 800, 2.5)).toBeNull(); // past twice the full span
    expect(zoomRangeWindow(full, full, 0.5, 800, 1e-7)).toBeNull(); // below a 1e-6 window
  });

  it('pans an x–T window with the pointer: right moves x down, down moves T up', () => {
    const p = panRangeWindow(full, 100, 50, 500, 400);
    expect(p.x).toEqual([-0.2, 0.8]);
    expect(p.T).toEqual([425, 1425]);
    expect(shiftRangeWindow(full, -0.1, 0.1)).toEqual({ x: [-0.1, 0.9], T: [400, 1400] });
  });

  it('tells the plot area from the margins', () => {
    const M = { l: 70, r: 20, t: 16, b: 46 };
    expect(insidePlot(70, 16, 800, 520, M)).toBe(true);
    expect(insidePlot(780, 474, 800, 520, M)).toBe(true);
    expect(insidePlot(69, 100, 800, 520, M)).toBe(false);
    expect(insidePlot(100, 475, 800, 520, M)).toBe(false);
    const area = plotAreaBox(800, 520, M);
    expect(area).toEqual({ x: 70, y: 16, width: 710, height: 458 });
    expect(plotAreaBox(50, 520, M).width).toBe(10);
    expect(boxContains(area, [780, 474])).toBe(true);
    expect(boxContains(area, [781, 474])).toBe(false);
  });

  it('scales a window onto the plot area with a tick per 100 px of x and 8 on T', () => {
    const M = { l: 70, r: 20, t: 16, b: 46 };
    const f = rangeFrame(full, 800, 520, M);
    expect([f.sx(0), f.sx(1), f.sy(300), f.sy(1300)]).toEqual([70, 780, 474, 16]);
    expect(f.nx).toBe(8);
    expect(f.xt[0]).toBe(0);
    expect(f.xt[f.xt.length - 1]).toBe(1);
    expect(f.yt).toContain(1000);
    expect(rangeFrame(full, 200, 520, M).nx).toBe(3);
  });

  it('maps a centred window both ways, zooms about a pixel within the scale bounds and pans', () => {
    const win = { cx: 0.5, cy: 0.4, k: 500 };
    const q = centredToPx(win, 800, 600, [0.6, 0.5]);
    expect(q).toEqual([450, 250]);
    expect(centredFromPx(win, 800, 600, q[0], q[1])[0]).toBeCloseTo(0.6, 12);
    const z = zoomCentredWindow(win, 800, 600, 450, 250, 2, 100, 10_000);
    expect(z.k).toBe(1000);
    const back = centredFromPx(z, 800, 600, 450, 250);
    expect(back[0]).toBeCloseTo(0.6, 12);
    expect(back[1]).toBeCloseTo(0.5, 12);
    expect(zoomCentredWindow(win, 800, 600, 400, 300, 100, 100, 10_000).k).toBe(10_000);
    expect(zoomCentredWindow(win, 800, 600, 400, 300, 0.01, 100, 10_000).k).toBe(100);
    expect(panCentredWindow(win, 500, 50, -100)).toEqual({ cx: 0.4, cy: 0.2, k: 500 });
  });
});
