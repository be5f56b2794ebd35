import { describe, expect, it } from 'vitest';
import {
  binaryPhaseDiagram,
  phaseFractionChart,
  pointTable,
  propertyChart,
  scheilChart,
} from '../../worker/plots/charts.js';
import {
  examplePhaseFraction,
  exampleProperties,
  exampleScheil,
  exampleBinary,
  examplePointTable,
} from './fixtures.js';
import { PALETTE } from '../../worker/plots/svg.js';
import { allText, findAll, parseXml, type XmlElement } from './xml.js';

const NASTY = `<b>"x"</b> & 'q'`;

function points(el: XmlElement): number[][] {
  return el.attrs.points.split(' ').map((p) => p.split(',').map(Number));
}

/** Plot areas are the clip-path rectangles the series are drawn in. */
function clipRects(root: XmlElement): Array<{ x: number; y: number; width: number; height: number }> {
  return findAll(root, 'clipPath').map((c) => {
    const r = c.children[0].attrs;
    return { x: Number(r.x), y: Number(r.y), width: Number(r.width), height: Number(r.height) };
  });
}

function tickNumbers(root: XmlElement): number[] {
  return allText(root)
    .filter((t) => /^-?\d+(\.\d+)?$/.test(t))
    .map(Number);
}

const all = {
  phaseFraction: () => phaseFractionChart(examplePhaseFraction()),
  property: () => propertyChart(exampleProperties()),
  scheil: () => scheilChart(exampleScheil()),
  binary: () => binaryPhaseDiagram(exampleBinary()),
  table: () => pointTable(examplePointTable()),
};

describe('every chart kind', () => {
  for (const [name, make] of Object.entries(all)) {
    it(`${name}: well-formed SVG, 1200 px wide, deterministic`, () => {
      const a = make();
      const root = parseXml(a);
      expect(root.name).toBe('svg');
      expect(root.attrs.xmlns).toBe('http://www.w3.org/2000/svg');
      expect(Number(root.attrs.width)).toBe(1200);
      expect(Number(root.attrs.height)).toBeGreaterThan(100);
      expect(make()).toBe(a);
      for (const t of findAll(root, 'text')) expect(t.text.length).toBeGreaterThan(0);
    });
  }
});

describe('phaseFractionChart', () => {
  const T = [300, 400, 500, 600, 700, 812.5];
  const input = {
    x: T,
    xLabel: 'Temperature (K)',
    celsiusAxis: true,
    series: [
      { name: 'FCC_A1', values: [1, 1, 0.8, 0.5, 0.2, 0] },
      { name: NASTY, values: [0, 0, 0.2, 0.5, 0.8, 1] },
    ],
    transitions: [{ x: 455.5, label: 'LIQUID <appears> 455.5 K' }],
  };

  it('labels the axes with units, the legend and the transitions, all escaped', () => {
    const svg = phaseFractionChart(input);
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('&lt;b&gt;&quot;x&quot;&lt;/b&gt; &amp; &apos;q&apos;');
    const texts = allText(parseXml(svg));
    expect(texts).toEqual(
      expect.arrayContaining([
        'Temperature (K)',
        'Temperature (°C)',
        'Phase fraction',
        'FCC_A1',
        NASTY,
        'LIQUID <appears> 455.5 K',
      ]),
    );
  });

  it('x ticks cover the data range', () => {
    const root = parseXml(phaseFractionChart(input));
    const ticks = tickNumbers(root);
    expect(Math.min(...ticks)).toBeLessThanOrEqual(300);
    expect(Math.max(...ticks)).toBeGreaterThanOrEqual(812.5);
  });

  it('maps series points inside the plot area, to the right places', () => {
    const root = parseXml(phaseFractionChart(input));
    const [area] = clipRects(root);
    const line = findAll(root, 'polyline').find((p) => p.attrs.stroke === PALETTE[0])!;
    const pts = points(line);
    expect(pts).toHaveLength(T.length);
    for (const [X, Y] of pts) {
      expect(X).toBeGreaterThanOrEqual(area.x);
      expect(X).toBeLessThanOrEqual(area.x + area.width);
      expect(Y).toBeGreaterThanOrEqual(area.y);
      expect(Y).toBeLessThanOrEqual(area.y + area.height);
    }
    // Fraction 1 is the top edge, 0 the bottom edge (the y axis is fixed to [0, 1]).
    expect(pts[0][1]).toBeCloseTo(area.y, 1);
    expect(pts[5][1]).toBeCloseTo(area.y + area.height, 1);
    // x is linear: equal steps in T give equal steps in pixels.
    expect(pts[2][0] - pts[1][0]).toBeCloseTo(pts[1][0] - pts[0][0], 1);
    // The transition marker is at 455.5 K, between the 400 K and 500 K points.
    const marker = findAll(root, 'line').find((l) => l.attrs['stroke-dasharray'] === '8 6')!;
    const mx = Number(marker.attrs.x1);
    expect(mx).toBeCloseTo(pts[1][0] + 0.555 * (pts[2][0] - pts[1][0]), 0);
  });

  it('refuses mismatched lengths with a clear error', () => {
    expect(() => phaseFractionChart({ ...input, series: [{ name: 'A', values: [1, 2] }] })).toThrow(
      /2 values for 6 x values/,
    );
    expect(() => phaseFractionChart({ ...input, x: 'nope' as unknown as number[] })).toThrow(/x must be an array/);
  });

  it('widens the y axis when amounts exceed 1 and shortens very long legend names', () => {
    const long = 'A'.repeat(80);
    const root = parseXml(
      phaseFractionChart({
        x: [1, 2, 3],
        xLabel: 'Temperature (K)',
        series: [{ name: long, values: [0.5, 1.7, 2.4] }],
      }),
    );
    expect(Math.max(...tickNumbers(root))).toBeGreaterThanOrEqual(2.4);
    const [area] = clipRects(root);
    for (const [, Y] of points(findAll(root, 'polyline').find((p) => p.attrs.stroke === PALETTE[0])!)) {
      expect(Y).toBeGreaterThanOrEqual(area.y);
      expect(Y).toBeLessThanOrEqual(area.y + area.height);
    }
    expect(allText(root)).not.toContain(long);
    expect(allText(root).some((t) => t.startsWith('AAAA') && t.endsWith('…'))).toBe(true);
    expect(area.width).toBeGreaterThan(0.5 * 1200);
  });

  it('draws nothing outside the data when values are missing', () => {
    const svg = phaseFractionChart({
      x: [1, 2, 3],
      xLabel: 'Mole fraction Zn',
      series: [{ name: 'A', values: [null, null, null] }],
    });
    const root = parseXml(svg);
    expect(findAll(root, 'polyline').filter((p) => p.attrs.stroke === PALETTE[0])).toHaveLength(0);
    expect(allText(root)).toContain('Mole fraction Zn');
  });
});

describe('propertyChart', () => {
  it('draws one panel per property with units and its own y range', () => {
    const T = [300, 500, 700, 900];
    const svg = propertyChart({ x: T, Cp: [25, 27, 29, 31], H: [-45000, -40000, -34000, -28000], S: [30, 42, 52, 60] });
    const root = parseXml(svg);
    expect(clipRects(root)).toHaveLength(3);
    const texts = allText(root);
    expect(texts).toEqual(expect.arrayContaining(['Cp (J/(mol·K))', 'H (J/mol)', 'S (J/(mol·K))', 'Temperature (K)']));
    const nums = tickNumbers(root);
    expect(Math.min(...nums)).toBeLessThanOrEqual(-45000);
    // Each curve fills its own panel: the H curve spans most of its panel height.
    const areas = clipRects(root);
    const lines = findAll(root, 'polyline');
    const hLine = lines
      .map(points)
      .find((p) => p.every(([, y]) => y >= areas[1].y && y <= areas[1].y + areas[1].height))!;
    const span = Math.max(...hLine.map((p) => p[1])) - Math.min(...hLine.map((p) => p[1]));
    expect(span).toBeGreaterThan(0.5 * areas[1].height);
  });

  it('needs at least one property', () => {
    expect(() => propertyChart({ x: [1, 2] })).toThrow(/no property/);
  });

  it('draws a series with its own dash pattern (the frozen Cp, dashed as in the app) and shows it in the legend', () => {
    const svg = propertyChart({
      x: [300, 400, 500],
      panels: [
        {
          label: 'Cp (J/(mol·K))',
          series: [
            { name: 'Cp equilibrium', values: [25, 40, 27] },
            { name: 'Cp frozen', values: [25, 26, 27], dash: '6 4' },
          ],
        },
      ],
    });
    const dashed = findAll(parseXml(svg), 'polyline').filter((p) => p.attrs['stroke-dasharray'] === '6 4');
    expect(dashed.length).toBe(1);
    expect(findAll(parseXml(svg), 'line').some((l) => l.attrs['stroke-dasharray'] === '6 4')).toBe(true);
  });
});

describe('scheilChart', () => {
  it('puts Scheil and lever rule side by side in one T-versus-fraction-solid plot', () => {
    const svg = scheilChart({
      scheil: { T: [900, 880, 850, 850], fs: [0, 0.4, 0.8, 1] },
      lever: { T: [900, 870, 860], fs: [0, 0.7, 1] },
      eutecticT: 850,
    });
    const root = parseXml(svg);
    const texts = allText(root);
    expect(texts).toEqual(
      expect.arrayContaining([
        'Scheil',
        'Lever rule (equilibrium)',
        'Fraction solid',
        'Temperature (K)',
        'Eutectic 850 K',
      ]),
    );
    const [area] = clipRects(root);
    const scheil = points(findAll(root, 'polyline').find((p) => p.attrs.stroke === PALETTE[0])!);
    // Fraction solid 0 at the left edge, 1 at the right edge; hotter is higher.
    expect(scheil[0][0]).toBeCloseTo(area.x, 1);
    expect(scheil[3][0]).toBeCloseTo(area.x + area.width, 1);
    expect(scheil[0][1]).toBeLessThan(scheil[2][1]);
    expect(() => scheilChart({ scheil: { T: [1, 2], fs: [0] } })).toThrow(/2 temperatures and 1 fractions/);
  });
});

describe('binaryPhaseDiagram', () => {
  const input = {
    xLabel: 'Mole fraction Zn',
    celsiusAxis: true,
    boundaries: [
      {
        phases: ['LIQUID', 'FCC_A1'],
        points: [
          { x: 0, T: 933.5 },
          { x: 0.5, T: 700 },
          { x: 0.88, T: 654 },
        ],
      },
      {
        phases: ['LIQUID', 'HCP_A3'],
        points: [
          { x: 1, T: 692.7 },
          { x: 0.88, T: 654 },
        ],
      },
    ],
    tieLines: [{ T: 800, x: [0.2, 0.35] as [number, number] }],
    invariants: [{ T: 654, phases: ['LIQUID', 'FCC_A1', 'HCP_A3'], x: [0.88, 0.67, 0.98], kind: 'eutectic' }],
    regionLabels: [
      { x: 0.5, T: 850, label: 'LIQUID' },
      { x: 0.5, T: 5000, label: 'off the chart' },
    ],
  };

  it('draws boundaries, tie-lines, invariant and labels inside the area, with a Celsius axis', () => {
    const root = parseXml(binaryPhaseDiagram(input));
    const [area] = clipRects(root);
    const texts = allText(root);
    expect(texts).toEqual(
      expect.arrayContaining([
        'Mole fraction Zn',
        'Temperature (K)',
        'Temperature (°C)',
        'LIQUID',
        'eutectic: LIQUID + FCC_A1 + HCP_A3  654 K',
      ]),
    );
    expect(texts).not.toContain('off the chart');
    const bounds = findAll(root, 'polyline').filter((p) => p.attrs.stroke === '#000000');
    expect(bounds).toHaveLength(2);
    for (const b of bounds)
      for (const [X, Y] of points(b)) {
        expect(X).toBeGreaterThanOrEqual(area.x - 1e-6);
        expect(X).toBeLessThanOrEqual(area.x + area.width + 1e-6);
        expect(Y).toBeGreaterThanOrEqual(area.y);
        expect(Y).toBeLessThanOrEqual(area.y + area.height);
      }
    // x axis is the full composition range: x = 0 on the left edge, x = 1 on the right edge.
    expect(points(bounds[0])[0][0]).toBeCloseTo(area.x, 1);
    expect(points(bounds[1])[0][0]).toBeCloseTo(area.x + area.width, 1);
    // The invariant line spans the outer phase compositions (0.67 .. 0.98) at 654 K, where the boundaries meet.
    const inv = findAll(root, 'line').find((l) => l.attrs['stroke-width'] === '2.5')!;
    expect(Number(inv.attrs.y1)).toBeCloseTo(points(bounds[1])[1][1], 1);
    const w = area.width;
    expect(Number(inv.attrs.x1)).toBeCloseTo(area.x + 0.67 * w, 0);
    expect(Number(inv.attrs.x2)).toBeCloseTo(area.x + 0.98 * w, 0);
    // T ticks cover the data (654 .. 933.5 K).
    const nums = tickNumbers(root);
    expect(nums.some((n) => n <= 654)).toBe(true);
    expect(nums.some((n) => n >= 933.5)).toBe(true);
  });

  it('fills regions under the boundaries and centres their label box on the centroid', () => {
    const root = parseXml(
      binaryPhaseDiagram({
        ...input,
        regionLabels: [],
        regions: [
          {
            label: 'L',
            fill: '#abcdef',
            points: [
              { x: 0, T: 700 },
              { x: 1, T: 700 },
              { x: 1, T: 900 },
              { x: 0, T: 900 },
            ],
          },
        ],
      }),
    );
    const poly = findAll(root, 'polygon').find((p) => p.attrs.fill === '#abcdef')!;
    expect(points(poly)).toHaveLength(4);
    const [area] = clipRects(root);
    const label = findAll(root, 'text').find((t) => t.text === 'L')!;
    const ys = points(poly).map((p) => p[1]);
    expect(Number(label.attrs.x)).toBeCloseTo(area.x + area.width / 2, 1);
    // y is the baseline: the text box (DejaVu ascent 0.928 em, descent 0.236 em) is centred on the region
    const size = Number(label.attrs['font-size']);
    expect(Number(label.attrs.y) - ((0.928 - 0.236) / 2) * size).toBeCloseTo(
      (Math.min(...ys) + Math.max(...ys)) / 2,
      1,
    );
  });

  it('refuses a boundary without points', () => {
    expect(() => binaryPhaseDiagram({ ...input, boundaries: [{ phases: ['A', 'B'] } as never] })).toThrow(
      /boundary 0 has no points/,
    );
  });
});

describe('pointTable', () => {
  it('accepts rows as arrays or as objects keyed by column', () => {
    const columns = [
      { key: 'phase', label: 'Phase' },
      { key: 'np', label: 'Amount (mol)' },
    ];
    const a = pointTable({
      columns,
      rows: [
        ['FCC_A1', 0.75],
        ['LIQUID', 0.25],
      ],
    });
    const b = pointTable({
      columns,
      rows: [
        { phase: 'FCC_A1', np: 0.75 },
        { phase: 'LIQUID', np: 0.25 },
      ],
    });
    expect(a).toBe(b);
    expect(allText(parseXml(a))).toEqual(['Phase', 'Amount (mol)', 'FCC_A1', '0.75', 'LIQUID', '0.25']);
    expect(() => pointTable({ columns: [], rows: [] })).toThrow(/columns/);
  });
});
