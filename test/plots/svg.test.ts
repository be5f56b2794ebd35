import { describe, expect, it } from 'vitest';
import {
  LinearScale,
  Panel,
  SvgBuilder,
  escapeXml,
  fmt,
  formatNumber,
  formatTick,
  niceNumber,
  niceTicks,
  renderTable,
  resolveAxis,
  ticksWithin,
} from '../../worker/plots/svg.js';
import { allText, findAll, parseXml } from './xml.js';
import { seededRandom } from '../support/random.js';

function mantissa(step: number): number {
  return Number((step / 10 ** Math.floor(Math.log10(step) + 1e-12)).toPrecision(6));
}

describe('nice numbers', () => {
  it('rounds to 1, 2, 5 or 10 times a power of ten', () => {
    expect(niceNumber(0.6, true)).toBe(0.5);
    expect(niceNumber(0.73, true)).toBe(1);
    expect(niceNumber(0.73, false)).toBe(1);
    expect(niceNumber(130, true)).toBe(100);
    expect(niceNumber(130, false)).toBe(200);
    expect(niceNumber(3.2, true)).toBe(5);
    expect(niceNumber(7.1, true)).toBe(10);
  });

  it('gives the familiar axes', () => {
    expect(niceTicks(300, 1000, 10).ticks).toEqual([300, 400, 500, 600, 700, 800, 900, 1000]);
    expect(niceTicks(0, 1, 6).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0.05, 0.3, 6).ticks).toEqual([0, 0.1, 0.2, 0.3]);
    expect(niceTicks(0.05, 0.3, 12).ticks).toEqual([0.05, 0.1, 0.15, 0.2, 0.25, 0.3]);
    expect(niceTicks(-45210, 20315, 6).step).toBe(20000);
  });

  it('ticks cover the data range with 1-2-5 steps for random ranges', () => {
    const r = seededRandom(42);
    for (let i = 0; i < 400; i++) {
      const scale = 10 ** Math.floor(r() * 16 - 8);
      const a = (r() - 0.5) * 2000 * scale;
      const b = a + r() * 1000 * scale + 1e-12 * scale;
      const n = 2 + Math.floor(r() * 10);
      const t = niceTicks(a, b, n);
      expect(t.min).toBeLessThanOrEqual(a + Math.abs(a) * 1e-12);
      expect(t.max).toBeGreaterThanOrEqual(b - Math.abs(b) * 1e-12);
      expect(t.ticks[0]).toBe(t.min);
      expect(t.ticks[t.ticks.length - 1]).toBe(t.max);
      expect([1, 2, 5, 10]).toContain(mantissa(t.step));
      // Loose labelling: never more than about twice the requested tick count.
      expect(t.ticks.length).toBeLessThanOrEqual(2 * n + 1);
      for (let k = 1; k < t.ticks.length; k++) expect(t.ticks[k]).toBeGreaterThan(t.ticks[k - 1]);
    }
  });

  it('handles degenerate and invalid ranges', () => {
    const one = niceTicks(5, 5);
    expect(one.min).toBeLessThan(5);
    expect(one.max).toBeGreaterThan(5);
    expect(niceTicks(0, 0).ticks.length).toBeGreaterThan(1);
    expect(niceTicks(NaN, Infinity).ticks).toEqual(niceTicks(0, 1).ticks);
    const rev = niceTicks(10, 0);
    expect(rev.min).toBe(0);
    expect(rev.max).toBe(10);
  });

  it('keeps fixed ranges and prints ticks without float noise', () => {
    const t = ticksWithin(300 - 273.15, 1000 - 273.15, 8);
    expect(t.ticks[0]).toBeGreaterThanOrEqual(26.85);
    expect(t.ticks[t.ticks.length - 1]).toBeLessThanOrEqual(726.85);
    const t3 = niceTicks(0, 0.3, 4);
    expect(t3.ticks.map((v) => formatTick(v, t3.step))).toEqual(['0.0', '0.2', '0.4']);
    const t4 = niceTicks(0, 0.7, 8);
    expect(t4.ticks[3]).toBe(0.3); // not 0.30000000000000004
    expect(t4.ticks.map((v) => formatTick(v, t4.step))).toEqual([
      '0.0',
      '0.1',
      '0.2',
      '0.3',
      '0.4',
      '0.5',
      '0.6',
      '0.7',
    ]);
    expect(formatTick(-0, 1)).toBe('0');
    const fixed = resolveAxis({ label: '', min: 0, max: 1 }, [5, 7]);
    expect([fixed.min, fixed.max]).toEqual([0, 1]);
    const auto = resolveAxis({ label: '' }, [612.4, 933.1, NaN]);
    expect(auto.min).toBeLessThanOrEqual(612.4);
    expect(auto.max).toBeGreaterThanOrEqual(933.1);
  });
});

describe('formatting and escaping', () => {
  it('escapes markup characters and drops characters XML forbids', () => {
    expect(escapeXml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;',
    );
    expect(escapeXml('a\u0000b\u0007c')).toBe('abc');
    expect(escapeXml('°C µ −')).toBe('°C µ −');
  });

  it('formats numbers compactly and deterministically', () => {
    expect(fmt(1.005)).toBe('1');
    expect(fmt(12.3456)).toBe('12.35');
    expect(fmt(-0.001)).toBe('0');
    expect(fmt(NaN)).toBe('0');
    expect(formatNumber(-31245.8)).toBe('-31245.8');
    expect(formatNumber(0.000012345)).toBe('1.2345e-5');
    expect(formatNumber(1 / 3)).toBe('0.333333');
    expect(formatNumber(100000)).toBe('100000');
  });
});

describe('SvgBuilder and Panel', () => {
  it('maps linearly and inverts', () => {
    const s = new LinearScale(300, 1000, 100, 800);
    expect(s.map(300)).toBe(100);
    expect(s.map(1000)).toBe(800);
    expect(s.invert(s.map(650))).toBeCloseTo(650, 12);
  });

  it('produces a well-formed document whose series points lie in the plot area', () => {
    const svg = new SvgBuilder(1200, 800, { title: 'a < b & c' });
    const area = { x: 120, y: 60, width: 900, height: 600 };
    const xs = [310, 450, 777, 990];
    const ys = [0.03, 0.5, 0.97, 0.2];
    const p = new Panel(svg, area, niceTicks(310, 990), niceTicks(0, 1));
    p.drawAxes('Temperature (K)', 'Phase fraction', { celsius: 'x' });
    p.series(
      xs.map((x, i) => [x, ys[i]] as const),
      { stroke: '#123456' },
    );
    const root = parseXml(svg.toString());
    expect(root.name).toBe('svg');
    expect(root.attrs.width).toBe('1200');
    const line = findAll(root, 'polyline').find((e) => e.attrs.stroke === '#123456')!;
    const pts = line.attrs.points.split(' ').map((q) => q.split(',').map(Number));
    expect(pts).toHaveLength(xs.length);
    pts.forEach(([X, Y], i) => {
      expect(X).toBeGreaterThanOrEqual(area.x);
      expect(X).toBeLessThanOrEqual(area.x + area.width);
      expect(Y).toBeGreaterThanOrEqual(area.y);
      expect(Y).toBeLessThanOrEqual(area.y + area.height);
      // Higher values are higher on the screen (smaller SVG y).
      if (i > 0) expect(Math.sign(pts[i - 1][1] - Y)).toBe(Math.sign(ys[i] - ys[i - 1]));
    });
    const texts = allText(root);
    expect(texts).toContain('Temperature (K)');
    expect(texts).toContain('Temperature (°C)');
    expect(texts).toContain('Phase fraction');
    // The Celsius axis labels are K - 273.15: 100 °C sits at 373.15 K.
    expect(texts).toContain('100');
    expect(findAll(root, 'title')[0].text).toBe('a < b & c');
  });

  it('breaks lines at missing values instead of joining across them', () => {
    const svg = new SvgBuilder(400, 300);
    const p = new Panel(svg, { x: 50, y: 20, width: 300, height: 230 }, niceTicks(0, 10), niceTicks(0, 1));
    p.series(
      [
        [0, 0.1],
        [1, 0.2],
        [2, NaN],
        [3, 0.4],
        [4, 0.5],
        [5, NaN],
        [6, 0.7],
      ],
      { stroke: '#ff0000' },
    );
    const root = parseXml(svg.toString());
    expect(findAll(root, 'polyline').filter((e) => e.attrs.stroke === '#ff0000')).toHaveLength(2);
    expect(findAll(root, 'circle').filter((e) => e.attrs.fill === '#ff0000')).toHaveLength(1);
  });

  it('rejects a nonsensical canvas size', () => {
    expect(() => new SvgBuilder(0, 100)).toThrow(RangeError);
    expect(() => new SvgBuilder(100, NaN)).toThrow(RangeError);
  });

  it('renders a table with every cell, escaped', () => {
    const doc = renderTable(
      ['Phase', 'x(Zn)'],
      [
        ['FCC_A1<&>', 0.25],
        ['LIQUID', null],
      ],
      { title: 'T = 700 K' },
    );
    const root = parseXml(doc);
    const texts = allText(root);
    expect(texts).toEqual(expect.arrayContaining(['T = 700 K', 'Phase', 'x(Zn)', 'FCC_A1<&>', '0.25', 'LIQUID', '–']));
    expect(doc).toContain('FCC_A1&lt;&amp;&gt;');
  });
});
