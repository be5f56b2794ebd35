// COST507 Nb-Ti: its BCC_B2 (DIS_PART BCC_A2) has G(BCC_B2,TI:NB;0) = 11000 J/mol and no NB:TI counterpart, so the
// two sublattices are not equivalent in this binary. The state with equal sublattices is no stationary point of G
// (its slope along the ordering coordinate is 11000 J/mol), and the bcc orders partly at every composition, with no
// transition anywhere: 0.65 / 0.35 at x = 0.5, 1500 K (833 J/mol below the equal-sublattice state); next to an element
// the dilute constituent's fractions on the two sublattices stand in the ratio exp(22000 / RT) (8.0e-4 / 2.0e-4 at
// x(TI) = 0.9995 next to the melting point of Ti, 1.7 J/mol below the equal-sublattice state). Judged by an
// absolute site-fraction tolerance, the bcc within ~1e-4 of either element was called A2 and the rest B2: second-order
// lines along both edges, and the lens under the melting point of Ti closed as a "congruent point" where its label
// changed. Judged relative to the constituent's fraction (worker/system/ordering.ts), it is one state throughout.
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { PointConverter } from '../../worker/system/point-converter.js';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import type { NativeDatabase } from '../../worker/core/native.js';
import { mapBinary } from '../../worker/mapping/binary.js';
import type { BinaryState, StateRequest, TracedRegion } from '../../worker/mapping/binary-types.js';
import { runSync } from '../../worker/mapping/field_search.js';
import { assembleDiagram } from '../../worker/mapping/invariants.js';
import { OrderModel } from '../../worker/mapping/order-disorder.js';
import { labelPhases } from '../../worker/mapping/phase-labels.js';
import { classifyRegionEnd } from '../../worker/mapping/region-ends.js';

import { classifyOrdering, type OrderingModel } from '../../worker/system/ordering.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

describe('COST507 Nb-Ti: the induced order of BCC_B2 is one state up to the elements', () => {
  let db: NativeDatabase;
  beforeAll(() => {
    db = openDatabase(path.join(SHARED_TDB_DIR, 'COST507.tdb'));
  });

  test('next to the melting point of Ti: one lens closing at the element, no congruent point, no second-order line', () => {
    const d = mapBinary({ database: db, components: ['NB', 'TI'], T: [1900, 2000], threads: 2 });
    expect(d.congruentPoints).toEqual([]);
    expect(d.orderDisorder.secondOrderLines.flatMap((l) => l.points)).toEqual([]);
    const lenses = d.regions.filter((r) => r.phases.includes('LIQUID'));
    expect(lenses.map((r) => [...r.phases].sort().join('+'))).toEqual(['BCC_B2+LIQUID']);
    expect(lenses[0].ends.low).toBe('pure_element');
    const melting = d.pureTransitions.filter((p) => p.x === 1);
    expect(melting).toHaveLength(1);
    expect(melting[0].T).toBeCloseTo(1941, 0);
  }, 30_000);

  test('point equilibria: the bcc is B2 next to either element as in the middle', () => {
    const comps = ['NB', 'TI', 'VA'];
    const conv = new PointConverter(db, comps);
    for (const [T, x] of [
      [1941.1, 0.9995],
      [1900, 0.99999],
      [1500, 0.5],
      [2700, 1e-5],
    ]) {
      const r = equilibrium({ database: db, components: comps, conditions: { T, X: { TI: x } } });
      expect(r.converged).toBe(true);
      const bcc = r.phases.filter((p) => p.name === 'BCC_B2');
      expect(bcc, `${T} K x(TI)=${x}: ${r.phases.map((p) => p.name).join('+')}`).toHaveLength(1);
      expect(conv.ordering(bcc[0])?.structure, `${T} K x(TI)=${x}`).toBe('B2');
    }
  });
});

test('ordering criterion: a site-fraction difference counts relative to the constituent fraction', () => {
  const b2: OrderingModel = { phase: 'BCC_B2', lattice: 'BCC', sublattices: [0, 1], ratios: [0.5, 0.5] };
  // induced order of a dilute constituent (COST507 Nb-Ti, x(NB) = 5e-4): the difference exceeds the fraction itself
  expect(
    classifyOrdering(b2, [
      { NB: 7.96e-4, TI: 1 - 7.96e-4 },
      { NB: 2.04e-4, TI: 1 - 2.04e-4 },
    ]).ordered,
  ).toBe(true);
  expect(
    classifyOrdering(b2, [
      { NB: 1.6e-9, TI: 1 - 1.6e-9 },
      { NB: 4e-10, TI: 1 - 4e-10 },
    ]).ordered,
  ).toBe(true);
  // a symmetric model's disordered set next to an element: equal up to the rounding of the majority's 1 - x
  expect(
    classifyOrdering(b2, [
      { NB: 1e-9, TI: 1 - 1e-9 },
      { NB: 1e-9 + 1e-24, TI: 1 - 1e-9 + 4e-16 },
    ]).ordered,
  ).toBe(false);
  // in the middle the tolerance is the absolute one of a second-order transition (1e-4)
  expect(
    classifyOrdering(b2, [
      { NB: 0.5 + 4e-5, TI: 0.5 - 4e-5 },
      { NB: 0.5 - 4e-5, TI: 0.5 + 4e-5 },
    ]).ordered,
  ).toBe(false);
  expect(
    classifyOrdering(b2, [
      { NB: 0.5 + 1e-4, TI: 0.5 - 1e-4 },
      { NB: 0.5 - 1e-4, TI: 0.5 + 1e-4 },
    ]).ordered,
  ).toBe(true);
});

// The region end as the absolute tolerance made it (the states as the mapper met them at 1941.04-1941.05 K): the lens
// BCC_A2 + LIQUID, 1.9e-5 wide, goes on as BCC_B2 + LIQUID 2e-5 lower in x, so the midpoint of its last tie-line is
// liquid beyond, and pure Ti is liquid on both sides of the end: it was taken for a congruent point. A field that
// goes on beyond under another label of one phase ends on the second-order line, whatever labels a state.
test('a lens going on beyond as the ordered state of its solid ends on a second-order line, not at a congruent point', () => {
  const state = (T: number, X: number, phases: { base: string; x: number }[]): BinaryState => {
    const ps = labelPhases(phases.map((p) => ({ ...p, NP: 1 / phases.length })));
    return { ok: true, T, X, phases: ps, key: ps.map((p) => p.label).join('+') };
  };
  // beyond the end: B2 below x 0.99990, the B2 + LIQUID lens up to 0.99992, liquid above (pure Ti included)
  const beyond = (q: StateRequest) =>
    q.X < 0.9999
      ? state(q.T, q.X, [{ base: 'BCC_B2', x: q.X }])
      : q.X <= 0.99992
        ? state(q.T, q.X, [
            { base: 'BCC_B2', x: 0.9999 },
            { base: 'LIQUID', x: 0.99992 },
          ])
        : state(q.T, q.X, [{ base: 'LIQUID', x: q.X }]);
  const good = { T: 1941.0407, x: [0.999918, 0.999937] as [number, number] };
  const bad = beyond({ T: 1941.0507, X: 0.9999275 });
  const end = runSync(
    classifyRegionEnd(good, bad, 1, ['BCC_A2', 'LIQUID'], [good], () => {}),
    beyond,
  );
  expect(end.kind).toBe('invariant');
  expect(end.bad?.key).toBe('BCC_B2+LIQUID');
  const order = new OrderModel();
  order.add('BCC_B2', 'BCC_A2', [
    [
      [0, 2],
      [1, 3],
    ],
  ]);
  const lens: TracedRegion = {
    labels: ['BCC_A2', 'LIQUID'],
    tl: [{ T: 1940.99, x: [0.99998, 0.99999] }, good],
    done: true,
    ends: [{ kind: 'pure_element', T: 1940.985, good: { T: 1940.99, x: [0.99998, 0.99999] }, bad: null, dir: -1 }, end],
  };
  const secondOrder: { ordered: string; disordered: string; T: number; x: number }[] = [];
  const points = assembleDiagram([lens], order, secondOrder, () => {});
  expect(points.congruentPoints).toEqual([]);
  expect(points.invariants).toEqual([]);
  expect(points.regions[0].ends.high).toBe('order_disorder');
  expect(secondOrder).toHaveLength(1);
  expect(secondOrder[0]).toMatchObject({ ordered: 'BCC_B2', disordered: 'BCC_A2' });
});
