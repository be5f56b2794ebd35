// The pure helpers behind the result views (renderer/src/lib/results*.ts), run in Node: CSV export identical to
// the service's result.csv writer, tick steps, gaps for non-converged points, the scan axis, the C–P–T grid layout
// and axis mapping. Lives with the e2e tests because it imports renderer sources (excluded from the root config).
import { describe, expect, it } from 'vitest';

import { tableToCsv as serviceCsv } from '../../contract/results/common.js';
import { cptIndex } from '../../contract/results/binary_cpt_diagram.js';
import {
  checkResult,
  phaseAmounts,
  regionAt,
  scanAxis,
  tableToCsv,
  transitionAt,
  type ResultTable,
  type ScanPoint,
} from '../../renderer/src/lib/results.js';
import {
  chartTicks,
  fmt,
  linePath,
  linearScale,
  log10OrNull,
  logAxisTicks,
  tickStep,
  ticks,
} from '../../renderer/src/lib/results-plot.js';
import {
  axisMapping,
  axisTicks,
  cellEdges,
  cellIndex,
  DEFAULT_MAPPING,
  gridTable,
  labelCounts,
  normalizer,
} from '../../renderer/src/lib/results-cpt.js';
import { binaryFixture, cptFixture, lineFixture } from './fixtures/results.js';

describe('result view helpers', () => {
  it('client-side CSV equals the service writer byte for byte (quotes, commas, nulls, non-finite)', () => {
    const t: ResultTable = {
      columns: [
        { name: 'T', unit: 'K' },
        { name: 'phase, set', unit: '' },
        { name: 'GM', unit: 'J/mol' },
      ],
      rows: [
        [500, 'FCC_A1+"x"', -1234.5],
        [510, null, Number.NaN],
        [520, 'a\nb', 1e-12],
      ],
    };
    expect(tableToCsv(t)).toBe(serviceCsv(t));
    expect(tableToCsv(t).split('\r\n')[0]).toBe('T [K],"phase, set",GM [J/mol]');
  });

  it('ticks follow the 1-2-5 sequence and cover the domain', () => {
    expect(tickStep(0, 1, 5)).toBeCloseTo(0.2, 12);
    expect(tickStep(400, 1000, 6)).toBe(100);
    expect(tickStep(0, 0.07, 6)).toBeCloseTo(0.01, 12);
    expect(ticks(400, 1000, 6)).toEqual([400, 500, 600, 700, 800, 900, 1000]);
    const s = linearScale([0, 10], [100, 200]);
    expect(s(5)).toBe(150);
    expect(s.invert(175)).toBe(7.5);
    expect(fmt(1e9)).toBe('1e9');
    expect(fmt(-22975.95, 7)).toBe('-22975.95');
  });

  it('log axes: ticks at the decades as powers of ten, thinned over many decades, 1-2-5 within one', () => {
    // 1e-2 s to 1e6 s, room for 9 labels: every decade, at log10 of the value
    const time = logAxisTicks(-2, 6, 9);
    expect(time.major.map((t) => t.at)).toEqual([-2, -1, 0, 1, 2, 3, 4, 5, 6]);
    expect(time.major.at(-1)!.label).toBe('10⁶');
    // 2 … 9 of each decade as minor grid lines: log10(2) above 10^-2 first, 9 per decade in all
    expect(time.minor[0]).toBeCloseTo(-2 + Math.log10(2), 12);
    expect(time.minor).toHaveLength(8 * 8);
    // 10^5 to 10^25 m^-3 with room for 6: every fifth decade
    expect(logAxisTicks(5, 25, 6).major.map((t) => t.label)).toEqual(['10⁵', '10¹⁰', '10¹⁵', '10²⁰', '10²⁵']);
    expect(logAxisTicks(5, 25, 6).minor).toEqual([]);
    // 10^8 to 10^23 with room for 6: every third
    expect(logAxisTicks(8, 23, 6).major.map((t) => t.at)).toEqual([9, 12, 15, 18, 21]);
    // 0.3 nm to 4 nm: less than two decades, so 1, 2 and 5 of each, as numbers
    const r = logAxisTicks(Math.log10(0.3), Math.log10(4), 6).major;
    expect(r.map((t) => t.label)).toEqual(['0.5', '1', '2']);
    expect(r[0]!.at).toBeCloseTo(Math.log10(0.5), 12);
    // a narrow zoom, 700 to 760: the values' own 1-2-5 ticks, placed at their log10
    const narrow = logAxisTicks(Math.log10(700), Math.log10(760), 6).major;
    expect(narrow.map((t) => t.label)).toEqual(['700', '710', '720', '730', '740', '750', '760']);
    expect(narrow[2]!.at).toBeCloseTo(Math.log10(720), 12);
    expect([log10OrNull(1000), log10OrNull(0), log10OrNull(-1), log10OrNull(null)]).toEqual([3, null, null, null]);
    // a linear axis in °C over a kelvin range: ticks at round Celsius values, placed in K
    const c = chartTicks([573.15, 773.15], { log: false, offset: 273.15, count: 4 }).major;
    expect(c.map((t) => t.label)).toEqual(['300', '350', '400', '450', '500']);
    expect(c[0]!.at).toBeCloseTo(573.15, 9);
  });

  it('a non-converged point breaks the curve instead of being bridged', () => {
    const id = (v: number) => v;
    expect(linePath([0, 1, 2, 3], [0, 1, null, 3], id, id)).toBe('M0.00,0.00L1.00,1.00M3.00,3.00');
    const doc = lineFixture() as unknown as { points: ScanPoint[] };
    const liq = phaseAmounts(doc.points, 'LIQUID');
    expect(liq[37]).toBeNull();
    expect(liq[0]).toBe(0);
  });

  it('scan axis: named by line_calculation, derived for properties results', () => {
    const doc = lineFixture() as unknown as {
      axis: { variable: string; label: string; unit: string };
      points: ScanPoint[];
      transitions: never[];
    };
    expect(scanAxis(doc).key).toBe('T');
    const { axis: _a, ...noAxis } = doc;
    expect(scanAxis(noAxis).key).toBe('T'); // T varies
    const iso = { points: doc.points.map((p, i) => ({ ...p, T: 700, x: { AL: 1 - i / 50, ZN: i / 50 } })) };
    const ax = scanAxis(iso);
    expect(ax.key).toBe('x');
    expect(ax.element).toBe('ZN'); // both change equally; the rising one reads left to right
    expect(ax.values[50]).toBe(1);
    expect(
      transitionAt(
        {
          s: 0.5,
          T: 700,
          x: { AL: 0.4, ZN: 0.6 },
          appearing: [],
          disappearing: [],
          phases_before: [],
          phases_after: [],
        },
        ax,
      ),
    ).toBeCloseTo(0.6, 12);
  });

  it('C–P–T grid: the flat index of the contract, counts, edges, mapping and log normalisation', () => {
    const doc = cptFixture() as unknown as Parameters<typeof cellIndex>[0];
    const nX = doc.axes.x.length;
    const nT = doc.axes.T.length;
    expect(cellIndex(doc, 3, 4, 2)).toBe(cptIndex(nX, nT, 3, 4, 2));
    const c0 = labelCounts(doc, 0);
    expect([...c0.values()].reduce((a, b) => a + b, 0)).toBe(nX * nT);
    expect(labelCounts(doc).get(-1)).toBe(1);
    expect(cellEdges([0, 0.5, 1])).toEqual([-0.25, 0.25, 0.75, 1.25]);
    expect(axisMapping(null)).toEqual(DEFAULT_MAPPING);
    // the bare-string axis form of older documents, outside today's result type
    expect(
      axisMapping({
        x: { variable: 'pressure' },
        y: 'composition',
        z: { variable: 'temperature' },
      } as unknown as Parameters<typeof axisMapping>[0]),
    ).toEqual({ x: 'pressure', y: 'composition', z: 'temperature' });
    expect(
      axisMapping({ x: { variable: 'pressure' }, y: { variable: 'pressure' }, z: { variable: 'temperature' } }),
    ).toEqual(DEFAULT_MAPPING);
    const np = normalizer(doc, 'pressure'); // log scale 1e5 .. 1e9
    expect(np(1e7)).toBeCloseTo(0.5, 12);
    expect(axisTicks(doc, 'pressure').map((t) => t.text)).toEqual(['1e5', '1e6', '1e7', '1e8', '1e9']);
    expect(checkResult({ ...doc, labels: doc.labels.slice(1) })).toMatch(/labels holds/);
    expect(checkResult(doc)).toBeNull();
    // Grid table rows follow the flat index: row n is (x[n % nX], T[(n / nX) % nT], P[n / (nX nT)]).
    const g = gridTable(doc);
    const n = cellIndex(doc, 7, 5, 1);
    expect(g.rows[n]).toEqual([doc.axes.x[7], doc.axes.T[5], doc.axes.P[1], '', -1, 0]); // the fixture's non-converged cell
    expect(g.rows.length).toBe(doc.labels.length);
  });

  it('binary read-out: region under the pointer, tie-line interpolated in T, lever rule', () => {
    const doc = binaryFixture() as unknown as Parameters<typeof regionAt>[0];
    // FCC_A1 + LIQUID at 702.5 K: tie-lines at 700 K (0.46, 0.7925) and 705 K (0.45, 0.775).
    const r = regionAt(doc, 0.6, 702.5)!;
    expect(r.phases).toEqual(['FCC_A1', 'LIQUID']);
    expect(r.x[0]).toBeCloseTo(0.455, 12);
    expect(r.x[1]).toBeCloseTo(0.78375, 12);
    expect(r.fractionRight).toBeCloseTo((0.6 - 0.455) / (0.78375 - 0.455), 12);
    expect(regionAt(doc, 0.2, 900)).toBeNull(); // liquid field
  });
});
