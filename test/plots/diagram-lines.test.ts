// Line styles of a binary diagram preview: phase boundaries solid, second-order (order-disorder) lines
// dashed and Curie/Neel lines dotted, each of the two with a legend entry under the plot.
import { expect, test } from 'vitest';
import { BOUNDARY_STYLES, binaryPhaseDiagram } from '../../worker/plots/charts.js';
import { exampleBinary } from './fixtures.js';
import { allText, findAll, parseXml } from './xml.js';

const dashes = (svg: string) => findAll(parseXml(svg), 'polyline').map((p) => p.attrs['stroke-dasharray'] ?? '');

test('second-order and magnetic lines are dashed and dotted, with a legend; plain boundaries stay solid', () => {
  const base = exampleBinary();
  const plain = binaryPhaseDiagram(base);
  expect(dashes(plain).every((d) => d === '')).toBe(true);
  expect(allText(parseXml(plain)).join(' ')).not.toMatch(/second-order|Curie/);
  const line = [
    { x: 0.3, T: 400 },
    { x: 0.4, T: 500 },
    { x: 0.5, T: 520 },
  ];
  const svg = binaryPhaseDiagram({
    ...base,
    boundaries: [
      ...base.boundaries,
      { phases: ['B2', 'A2'], points: line, kind: 'second_order' },
      { phases: ['A2', 'A2'], points: line.map((p) => ({ x: p.x, T: p.T - 100 })), kind: 'magnetic' },
    ],
  });
  const d = dashes(svg);
  expect(d.filter((v) => v === BOUNDARY_STYLES.second_order.dash).length).toBeGreaterThanOrEqual(1);
  expect(d.filter((v) => v === BOUNDARY_STYLES.magnetic.dash).length).toBeGreaterThanOrEqual(1);
  const text = allText(parseXml(svg)).join(' ');
  expect(text).toContain(BOUNDARY_STYLES.second_order.legend);
  expect(text).toContain(BOUNDARY_STYLES.magnetic.legend);
  // the legend's sample lines carry the same dashes
  const legendLines = findAll(parseXml(svg), 'line').filter((l) => l.attrs['stroke-dasharray']);
  expect(legendLines.map((l) => l.attrs['stroke-dasharray']).sort()).toEqual(
    [BOUNDARY_STYLES.magnetic.dash, BOUNDARY_STYLES.second_order.dash].sort(),
  );
});
