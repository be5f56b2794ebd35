// Diagram labels (contract/plots/labels.ts) on real diagrams: each diagram is mapped by the worker code from a
// bundled or shared database, its preview SVG is written as the calculation writes it, and the labels are read
// back from the SVG (test/plots/preview-svg.ts): no two label boxes intersect, every box lies inside the plot area,
// no box is crossed by a boundary polyline or an invariant line or covers another text, and every leader line ends
// at its own label. Composition-set names
// agree between regions, invariants and single-phase labels.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { baseName } from '../../contract/phases.js';
import { openDatabase } from '../../worker/core/database.js';
import { mapBinary } from '../../worker/mapping/binary.js';
import { diagramChart } from '../../worker/calculations/binary_equilibrium.js';
import { harmonizeSetNames } from '../../worker/plots/set-names.js';
import {
  boxesIntersect,
  placeLabels,
  placePointTags,
  segmentHitsBox,
  segmentsCross,
  tagDropped,
  type Segment,
} from '../../contract/plots/labels.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { namerFor } from '../../contract/plots/phase-names.js';
import { checkBoxes, checkLeaders, checkTextsFit, readPreview } from './preview-svg.js';

const BUNDLED = path.resolve(__dirname, '../../databases');

const CASES: Array<{ file: string; T: [number, number] }> = [
  { file: path.join(BUNDLED, 'alzn_mey1993.tdb'), T: [400, 1000] },
  { file: path.join(BUNDLED, 'agcu_hayes1986.tdb'), T: [500, 1400] },
  { file: path.join(BUNDLED, 'cuni_mey1992.tdb'), T: [300, 1800] },
  { file: path.join(SHARED_TDB_DIR, 'cumg.tdb'), T: [300, 1400] },
  { file: path.join(SHARED_TDB_DIR, 'pbsn.tdb'), T: [300, 650] },
];

describe.each(CASES.map((c) => [path.basename(c.file), c] as const))('labels of the %s diagram', (_name, c) => {
  const db = openDatabase(c.file);
  const els = db
    .info()
    .elements.map((e) => e.name.toUpperCase())
    .filter((n) => n !== 'VA' && n !== '/-') as [string, string];
  const d = harmonizeSetNames(mapBinary({ database: db, components: els, T: c.T, threads: 1 }));
  const drawn = readPreview(diagramChart(d));

  it('labels every field and invariant, as a name or as a number explained under the plot', () => {
    const texts = drawn.boxes.map((b) => b.text);
    const svg = diagramChart(d);
    for (const r of d.regions) {
      const name = `${r.phases[0]} + ${r.phases[1]}`;
      expect(texts.includes(name) || svg.includes(`: ${name}<`), name).toBe(true);
    }
    expect(drawn.boxes.length).toBeGreaterThanOrEqual(d.regions.length);
  });

  it('no two label boxes intersect, none leaves the plot area, none is crossed by a boundary', () => {
    checkBoxes(drawn);
  });

  it('the same with the display names the calculation prints (contract/plots/phase-names.ts)', () => {
    const named = readPreview(diagramChart(d, undefined, undefined, undefined, [], namerFor(null)));
    checkBoxes(named);
    expect(named.boxes.map((b) => b.text).join('|')).not.toMatch(/FCC_A1|LIQUID/);
  });

  it('leader lines pass through no label but their own; no text leaves the picture', () => {
    checkLeaders(drawn);
    checkTextsFit(drawn);
  });

  it('composition sets carry the same names in regions, invariants and single-phase labels', () => {
    const regionNames = new Set(d.regions.flatMap((r) => r.phases));
    for (const v of d.invariants) {
      const bases = v.phases.map((p) => baseName(p.name));
      for (const p of v.phases) {
        // a set of a phase that shows two sets in this invariant is named by some region too
        if (bases.filter((b) => b === baseName(p.name)).length > 1) expect(regionNames.has(p.name), p.name).toBe(true);
      }
      for (const p of v.phases) expect(v.reaction).toContain(p.name);
    }
    for (const l of d.singlePhaseLabels) {
      if ([...regionNames].some((n) => baseName(n) === baseName(l.label)))
        expect(regionNames.has(l.label), l.label).toBe(true);
    }
  });
});

describe('placeLabels', () => {
  const area = { x: 0, y: 0, width: 400, height: 300 };
  it('moves a label off a boundary that runs through its anchor, staying on the anchor side', () => {
    const wall: Segment = [200, 0, 200, 300];
    const { placed, dropped } = placeLabels([{ key: 'a', text: 'LIQUID', size: 16, anchor: [195, 150] }], {
      area,
      segments: [wall],
    });
    expect(dropped).toEqual([]);
    expect(segmentHitsBox(wall, placed[0]!.box)).toBe(false);
    expect(placed[0]!.box.x + placed[0]!.box.width).toBeLessThanOrEqual(200);
    expect(placed[0]!.leader).toBeUndefined();
  });

  it('gives a field too small for its name a leader line, and drops what fits nowhere', () => {
    // a 20 x 20 px cell closed on all sides inside a 400 x 300 plot
    const cell: Segment[] = [
      [190, 140, 210, 140],
      [210, 140, 210, 160],
      [210, 160, 190, 160],
      [190, 160, 190, 140],
    ];
    const r = placeLabels([{ key: 'a', text: 'FCC_A1 + HCP_A3', size: 16, anchor: [200, 150] }], {
      area,
      segments: cell,
    });
    expect(r.placed[0]!.leader).toBeDefined();
    expect(cell.some((s) => segmentHitsBox(s, r.placed[0]!.box))).toBe(false);
    const none = placeLabels([{ key: 'a', text: 'FCC_A1 + HCP_A3', size: 16, anchor: [200, 150], leader: false }], {
      area,
      segments: cell,
    });
    expect(none.placed).toEqual([]);
    expect(none.dropped.map((q) => q.key)).toEqual(['a']);
  });

  it('keeps two labels with the same anchor apart', () => {
    const { placed } = placeLabels(
      [
        { key: 'a', text: 'LIQUID', size: 16, anchor: [200, 150] },
        { key: 'b', text: 'LIQUID', size: 16, anchor: [200, 150] },
      ],
      { area, segments: [] },
    );
    expect(placed).toHaveLength(2);
    expect(boxesIntersect(placed[0]!.box, placed[1]!.box)).toBe(false);
  });

  it('numbers the labels that were dropped, among those placed, and explains the numbers in a legend', () => {
    const cell: Segment[] = [
      [190, 140, 230, 140],
      [230, 140, 230, 180],
      [230, 180, 190, 180],
      [190, 180, 190, 140],
    ];
    const opts = { area, segments: cell };
    const first = placeLabels(
      [
        { key: 'a', text: 'FCC_A1 + HCP_A3', size: 16, anchor: [210, 160], leader: false },
        { key: 'b', text: 'LIQUID', size: 16, anchor: [100, 100] },
      ],
      opts,
    );
    expect(first.dropped.map((r) => r.key)).toEqual(['a']);
    const { tags, legend } = tagDropped(first.dropped, first.placed, opts, 11);
    expect(tags.map((t) => [t.key, t.text])).toEqual([['a', '1']]);
    expect(legend).toEqual([{ tag: '1', text: 'FCC_A1 + HCP_A3' }]);
    expect(boxesIntersect(tags[0]!.box, first.placed[0]!.box)).toBe(false);
    expect(cell.some((s) => segmentHitsBox(s, tags[0]!.box))).toBe(false);
    expect(tagDropped([], first.placed, opts, 11)).toEqual({ tags: [], legend: [] });
  });

  it('numbers only the dropped labels whose number found a place, 1, 2, … in order', () => {
    // a: no room for its label nor its number (a 6 x 6 cell); b, c: numbered; the legend says which is which
    const cell = (x: number, y: number, w: number): Segment[] => [
      [x, y, x + w, y],
      [x + w, y, x + w, y + w],
      [x + w, y + w, x, y + w],
      [x, y + w, x, y],
    ];
    const opts = { area, segments: [...cell(20, 20, 6), ...cell(100, 100, 30), ...cell(200, 100, 30)], maxLeader: 0 };
    const first = placeLabels(
      [
        { key: 'a', text: 'SIGMA_D8B + MU_D85', size: 16, anchor: [23, 23], leader: false },
        { key: 'b', text: 'LAVES_C14 + FCC_A1', size: 16, anchor: [115, 115], leader: false },
        { key: 'c', text: 'M23C6 + BCC_A2', size: 16, anchor: [215, 115], leader: false },
      ],
      opts,
    );
    const { tags, legend } = tagDropped(first.dropped, first.placed, opts, 11);
    expect(legend).toEqual([
      { tag: '–', text: 'SIGMA_D8B + MU_D85' },
      { tag: '1', text: 'LAVES_C14 + FCC_A1' },
      { tag: '2', text: 'M23C6 + BCC_A2' },
    ]);
    expect(tags.map((t) => [t.key, t.text])).toEqual([
      ['b', '1'],
      ['c', '2'],
    ]);
  });

  it('tags of points close together go to different sides, clear of the other marks', () => {
    // three invariant points 6-12 px apart, as U14, U15, U17 of a liquidus projection
    const points: [number, number][] = [
      [300, 300],
      [306, 296],
      [296, 308],
      [500, 100],
    ];
    const tags = placePointTags(points, ['U14', 'U15', 'U17', 'E1'], 10);
    for (let i = 0; i < tags.length; i++)
      for (let j = i + 1; j < tags.length; j++)
        expect(boxesIntersect(tags[i]!.box, tags[j]!.box), `${i} ${j}`).toBe(false);
    for (const [k, t] of tags.entries())
      for (const [j, [x, y]] of points.entries())
        if (j !== k)
          expect(boxesIntersect(t.box, { x: x - 3.5, y: y - 3.5, width: 7, height: 7 }), `${k} ${j}`).toBe(false);
    // a point alone keeps the first place: above and to the right of it
    expect([tags[3]!.anchor, tags[3]!.x > 500, tags[3]!.y < 100]).toEqual(['start', true, true]);
  });

  it('segment tests', () => {
    expect(segmentHitsBox([0, 0, 10, 10], { x: 4, y: 4, width: 1, height: 1 })).toBe(true);
    expect(segmentHitsBox([0, 0, 10, 0], { x: 4, y: 1, width: 1, height: 1 })).toBe(false);
    expect(segmentsCross([0, 0, 10, 10], [0, 10, 10, 0])).toBe(true);
    expect(segmentsCross([0, 0, 1, 1], [2, 2, 3, 0])).toBe(false);
  });
});
