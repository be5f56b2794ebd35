// Geometry of the preview SVGs: everything drawn under the plot's clip path is clipped to the plot in
// pixel space (worker/plots/svg.ts), and svgGeometryProblems (worker/plots/png.ts) refuses, before resvg
// sees it, geometry that made resvg abort the process: a polyline entirely outside its clip rectangle,
// non-finite coordinates, an empty clip rectangle.
import { describe, expect, it } from 'vitest';
import { Panel, SvgBuilder, clipPolygon, clipPolyline, clipSegment, niceTicks } from '../../worker/plots/svg.js';
import { isPng, svgGeometryProblems, svgToPng } from '../../worker/plots/png.js';

const rect = { x: 120, y: 70, width: 970, height: 735 };

function doc(body: string, clip = '<rect x="120" y="70" width="970" height="735"/>'): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900" viewBox="0 0 1200 900">\n` +
    `<defs><clipPath id="clip0">${clip}</clipPath></defs>\n<g clip-path="url(#clip0)">\n${body}\n</g>\n</svg>\n`
  );
}

describe('geometry validation before rendering', () => {
  it('refuses a polyline lying entirely outside its clip rectangle (the C-Fe x(C) 0..0.3 preview)', () => {
    // The pure-carbon boundary at x(C) = 1 on an axis that ends at 0.3: a vertical line far right of the plot.
    const bad = doc(
      '<polyline points="3353.33,805 3353.33,497.52 3353.33,130.84" stroke="#000000" stroke-width="2.5" fill="none"/>',
    );
    expect(svgGeometryProblems(bad)).toEqual(['<polyline> lies entirely outside its clip rectangle']);
    expect(() => svgToPng(bad)).toThrow(/invalid geometry: <polyline> lies entirely outside its clip rectangle/);
  });

  it('accepts geometry that touches the plot, including a vertical line inside it', () => {
    const ok = doc(
      '<polyline points="600,805 600,130" stroke="#000000" stroke-width="2.5" fill="none"/>\n' +
        '<polyline points="-50,400 1500,400" stroke="#000000" stroke-width="2.5" fill="none"/>\n<line x1="1089" y1="70" x2="1300" y2="70"/>',
    );
    expect(svgGeometryProblems(ok)).toEqual([]);
    expect(isPng(svgToPng(ok))).toBe(true);
  });

  it('refuses non-finite numbers, malformed points and empty or missing clip rectangles', () => {
    expect(svgGeometryProblems(doc('<polyline points="1,2 NaN,4"/>'))).toEqual([
      '<polyline> points are malformed or not finite',
    ]);
    expect(svgGeometryProblems(doc('<polyline points="1,2 3"/>'))).toEqual([
      '<polyline> points are malformed or not finite',
    ]);
    expect(svgGeometryProblems(doc('<line x1="Infinity" y1="0" x2="5" y2="5"/>'))).toEqual([
      '<line> x1="Infinity" is not a finite number',
    ]);
    expect(svgGeometryProblems(doc('<circle cx="5" cy="5" r="NaN"/>'))).toEqual([
      '<circle> r="NaN" is not a finite number',
    ]);
    expect(svgGeometryProblems(doc('', '<rect x="120" y="70" width="0" height="735"/>'))[0]).toMatch(
      /^clip rectangle clip0 is empty or not finite/,
    );
    expect(svgGeometryProblems(doc('').replace('url(#clip0)', 'url(#clip9)'))).toEqual([
      'clip path clip9 is not defined',
    ]);
  });

  it('an SvgBuilder refuses an empty or non-finite clip rectangle', () => {
    const svg = new SvgBuilder(100, 100);
    expect(() => svg.clipRect({ x: 0, y: 0, width: 0, height: 10 })).toThrow(RangeError);
    expect(() => svg.clipRect({ x: NaN, y: 0, width: 10, height: 10 })).toThrow(RangeError);
  });
});

describe('clipping in pixel space', () => {
  it('clipSegment keeps the part inside, or nothing', () => {
    expect(clipSegment([0, 400], [2000, 400], rect)).toEqual([
      [120, 400],
      [1090, 400],
    ]);
    expect(clipSegment([3353, 805], [3353, 130], rect)).toBeUndefined();
    expect(clipSegment([600, 805], [600, 130], rect)).toEqual([
      [600, 805],
      [600, 130],
    ]);
    expect(clipSegment([0, 0], [NaN, 5], rect)).toBeUndefined();
  });

  it('clipPolyline splits a line that leaves and re-enters the rectangle into runs inside it', () => {
    const runs = clipPolyline(
      [
        [200, 100],
        [200, 2000],
        [300, 2000],
        [300, 100],
      ],
      rect,
    );
    expect(runs).toEqual([
      [
        [200, 100],
        [200, 805],
      ],
      [
        [300, 805],
        [300, 100],
      ],
    ]);
    expect(
      clipPolyline(
        [
          [3353, 805],
          [3353, 130],
        ],
        rect,
      ),
    ).toEqual([]);
    expect(clipPolyline([[200, 100]], rect)).toEqual([[[200, 100]]]);
    expect(clipPolyline([[0, 0]], rect)).toEqual([]);
  });

  it('clipPolygon cuts a region to the rectangle and drops one outside it', () => {
    const p = clipPolygon(
      [
        [0, 0],
        [2000, 0],
        [2000, 2000],
        [0, 2000],
      ],
      rect,
    );
    const xs = p.map((q) => q[0]),
      ys = p.map((q) => q[1]);
    expect([Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]).toEqual([120, 1090, 70, 805]);
    expect(
      clipPolygon(
        [
          [2000, 0],
          [3000, 0],
          [3000, 100],
        ],
        rect,
      ).length,
    ).toBeLessThan(3);
  });

  it('a Panel draws nothing for data outside its axes, and the document passes the validation', () => {
    const svg = new SvgBuilder(1200, 900);
    const panel = new Panel(svg, rect, niceTicks(0, 0.3, 6), niceTicks(300, 2000, 8));
    panel.series(
      [
        [1, 300],
        [1, 2000],
      ],
      { stroke: '#000000' },
    ); // x = 1 on an axis ending at 0.3
    panel.segment([0.5, 1000], [0.9, 1000]);
    panel.region([
      [0.5, 300],
      [0.9, 300],
      [0.9, 900],
    ]);
    panel.horizontalLine(1000, 0.2, 1); // cut at the right edge of the plot
    panel.series(
      [
        [0.1, 500],
        [0.2, 900],
        [0.6, 1200],
      ],
      { stroke: '#ff0000' },
    );
    const text = svg.toString();
    expect(text.match(/<polyline/g)).toHaveLength(1);
    expect(text).not.toContain('<polygon');
    expect(text.match(/<line [^>]*stroke-width="2"[^>]*>/g)).toHaveLength(1);
    expect(text).toMatch(/<line x1="[\d.]+" y1="[\d.]+" x2="1094"/);
    expect(svgGeometryProblems(text)).toEqual([]);
  });
});
