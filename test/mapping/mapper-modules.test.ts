// The modules of the binary mapper on hand-made inputs (no database): labels and label anchors, the
// ordering groups and order parameter, the seed bisection between grid nodes, tracing of a synthetic
// lens by continuation in T with its two ends, the classification of region ends, and the assembly of
// invariants and congruent points from region ends.
import { describe, expect, test } from 'vitest';
import type { MapContext } from '../../worker/mapping/binary-context.js';
import type { BinaryState, RegionEnd, TracedRegion } from '../../worker/mapping/binary-types.js';
import { runSync } from '../../worker/mapping/field_search.js';
import {
  assembleDiagram,
  dedupePoints,
  mergeCongruentEnds,
  mergeInvariantEnds,
  type InvariantEnd,
} from '../../worker/mapping/invariants.js';
import { OrderModel, orderingGroups, orderParameter } from '../../worker/mapping/order-disorder.js';
import { interpolateLine, landauTc } from '../../worker/mapping/order-lines.js';
import { labelPhases, singlePhaseAnchors } from '../../worker/mapping/phase-labels.js';
import { classifyRegionEnd, criticalTemperature } from '../../worker/mapping/region-ends.js';
import { lensTasks, TraceScheduler } from '../../worker/mapping/scheduler.js';
import { bisectBetween, gridAxes, searchBetweenUnlike, type BetweenFindings } from '../../worker/mapping/seed-grid.js';
import { interpolateTieLine, mergeOverlappingTraces, RegionTracer } from '../../worker/mapping/tracing.js';
import type { BinaryRegion } from '../../worker/mapping/binary-types.js';

function state(T: number, X: number, phases: { base: string; x: number; NP?: number; eta?: number }[]): BinaryState {
  const ps = labelPhases(phases.map((p) => ({ ...p, NP: p.NP ?? 1 / phases.length })));
  return { ok: true, T, X, phases: ps, key: ps.map((p) => p.label).join('+') };
}

/**
 * A synthetic lens between pure A (melting at 1000 K) and pure B (melting at 800 K): with s = (1000 - T) / 200,
 * the solid boundary is x = s^2 and the liquid one x = sqrt(s); solid below 800 K, liquid above 1000 K.
 */
function lens(T: number, X: number): BinaryState {
  if (T >= 1000) return state(T, X, [{ base: 'LIQUID', x: X }]);
  if (T <= 800) return state(T, X, [{ base: 'SOLID', x: X }]);
  const s = (1000 - T) / 200,
    xs = s * s,
    xl = Math.sqrt(s);
  if (X < xs) return state(T, X, [{ base: 'SOLID', x: X }]);
  if (X > xl) return state(T, X, [{ base: 'LIQUID', x: X }]);
  return state(T, X, [
    { base: 'SOLID', x: xs },
    { base: 'LIQUID', x: xl },
  ]);
}

function context(log: string[] = []): MapContext {
  return {
    Tlo: 300,
    Thi: 1200,
    Xr: [0, 1],
    maxStep: 15,
    log: (s) => log.push(s),
    solver: null as never,
    order: new OrderModel(),
  };
}

describe('labels', () => {
  test('composition sets of one phase are numbered in order of x', () => {
    const ps = labelPhases([
      { base: 'FCC', x: 0.9, NP: 1 },
      { base: 'LIQUID', x: 0.5, NP: 1 },
      { base: 'FCC', x: 0.1, NP: 1 },
    ]);
    expect(ps.map((p) => p.label)).toEqual(['FCC', 'LIQUID', 'FCC#2']);
  });
  test('one anchor per connected single-phase component, at the member nearest its centroid', () => {
    // 3 rows x 4 columns: A A B B / A A B B / C C C C (C touching A and B is its own component)
    const keys = ['A', 'A', 'B', 'B', 'A', 'A', 'B', 'B', 'C', 'C', 'C', 'C'];
    const grid = keys.map((k, n) => ({
      ok: true,
      T: 100 * Math.floor(n / 4),
      X: (n % 4) / 3,
      key: k,
      phases: [{ label: k }],
    }));
    const anchors = singlePhaseAnchors(grid, 3, 4);
    expect(anchors.map((a) => a.label)).toEqual(['A', 'B', 'C']);
    expect(anchors[2]).toEqual({ label: 'C', T: 200, x: 1 / 3 });
  });
});

describe('order/disorder', () => {
  // B2-like phase: (AL,FE)0.5(AL,FE)0.5(VA)3
  const vars = [
    { sublattice: 0, species: 'AL' },
    { sublattice: 0, species: 'FE' },
    { sublattice: 1, species: 'AL' },
    { sublattice: 1, species: 'FE' },
    { sublattice: 2, species: 'VA' },
  ];
  test('equivalent sublattices form one group per species; a single-species sublattice none', () => {
    expect(orderingGroups(vars)).toEqual([
      [
        [0, 2],
        [1, 3],
      ],
    ]);
    expect(
      orderingGroups([
        { sublattice: 0, species: 'AL' },
        { sublattice: 0, species: 'FE' },
      ]),
    ).toEqual([]);
  });
  test('the order parameter is the largest site-fraction difference; below 1e-4 the disordered name', () => {
    const groups = orderingGroups(vars);
    expect(orderParameter(groups, [0.3, 0.7, 0.5, 0.5, 1])).toBeCloseTo(0.2, 12);
    const m = new OrderModel();
    m.add('B2_BCC', 'A2_BCC', groups);
    expect(m.stateName('B2_BCC', [0.5, 0.5, 0.5 + 5e-5, 0.5 - 5e-5, 1]).name).toBe('A2_BCC');
    expect(m.stateName('B2_BCC', [0.3, 0.7, 0.5, 0.5, 1]).name).toBe('B2_BCC');
    expect(m.stateName('LIQUID', [1]).name).toBe('LIQUID');
    expect(m.isOrderPair('A2_BCC', 'B2_BCC#2')).toBe(true);
    expect(m.isOrderPair('A2_BCC', 'LIQUID')).toBe(false);
  });
  test('T_c from eta^2 linear in T, and the located line interpolated in x', () => {
    // eta^2 = (900 - T) / 100: eta at 850 and 845
    expect(landauTc(850, Math.sqrt(0.5), Math.sqrt(0.55), 5)).toBeCloseTo(900, 9);
    expect(landauTc(850, 0.5, 0.4, 5)).toBeNull(); // eta growing with T: no falling eta^2
    expect(
      interpolateLine(
        [
          { T: 800, x: 0.2 },
          { T: 900, x: 0.4 },
        ],
        0.3,
      ),
    ).toBeCloseTo(850, 12);
  });
});

describe('seed grid', () => {
  test('axes: one row per 125 K at least 8, 21 columns', () => {
    const a = gridAxes([300, 2000], [0, 1]);
    expect(a.T.length).toBe(15);
    expect(a.X.length).toBe(21);
    expect(a.T[a.T.length - 1]).toBe(2000);
  });
  test('bisection between unlike neighbours lands in the narrow field between them', () => {
    const found: BetweenFindings = { twoPhase: [], secondOrder: [] };
    runSync(bisectBetween(new OrderModel(), lens(999.9, 0), lens(999.9, 0.5), found), (q) => lens(q.T, q.X));
    expect(found.twoPhase).toHaveLength(1);
    expect(found.twoPhase[0].key).toBe('SOLID+LIQUID');
  });
  test('no two-phase state between the two states of one ordered phase: a second-order point', () => {
    const order = new OrderModel();
    order.add('B2', 'A2', [[[0, 1]]]);
    const solve = (T: number, X: number) => state(T, X, [{ base: X < 0.3 ? 'A2' : 'B2', x: X }]);
    const found: BetweenFindings = { twoPhase: [], secondOrder: [] };
    runSync(bisectBetween(order, solve(700, 0.1), solve(700, 0.5), found), (q) => solve(q.T, q.X));
    expect(found.twoPhase).toEqual([]);
    expect(found.secondOrder).toHaveLength(1);
    expect(found.secondOrder[0]).toMatchObject({ ordered: 'B2', disordered: 'A2', T: 700 });
    expect(found.secondOrder[0].x).toBeCloseTo(0.3, 6);
  });
  test('a miscibility gap next to its own single-phase field: nothing to search between them', () => {
    // BCC + BCC#2 (x = 0.1 and 0.6) at X = 0.45 and single BCC at X = 0.7: the gap's second set ends in that field
    const gap = (T: number, X: number) =>
      X >= 0.1 && X <= 0.6
        ? state(T, X, [
            { base: 'BCC', x: 0.1 },
            { base: 'BCC', x: 0.6 },
          ])
        : state(T, X, [{ base: 'BCC', x: X }]);
    const asked: number[] = [];
    const found: BetweenFindings = { twoPhase: [], secondOrder: [] };
    runSync(searchBetweenUnlike(gap(800, 0.45), gap(800, 0.7), found), (q) => {
      asked.push(q.X);
      return gap(q.T, q.X);
    });
    expect(gap(800, 0.45).key).toBe('BCC+BCC#2');
    expect(asked).toEqual([]);
    // a field of another phase between them is still searched for
    const compound = (T: number, X: number) =>
      X > 0.69
        ? state(T, X, [{ base: 'SIGMA', x: X }])
        : X >= 0.61
          ? state(T, X, [
              { base: 'BCC', x: 0.61 },
              { base: 'SIGMA', x: 0.69 },
            ])
          : gap(T, X);
    runSync(searchBetweenUnlike(compound(800, 0.45), state(800, 0.7, [{ base: 'SIGMA', x: 0.7 }]), found), (q) =>
      compound(q.T, q.X),
    );
    expect(found.twoPhase.map((f) => f.key)).toEqual(['BCC+SIGMA']);
  });
  test('lens searches: one per change of the phase along a pure edge column', () => {
    const Ts = [700, 900, 1100];
    const grid = Ts.flatMap((T) => [0, 0.5, 1].map((X) => lens(T, X)));
    const tasks = lensTasks(grid, 3, 3, [0, 1]);
    expect(tasks.map((t) => [t.side, t.lo.T, t.hi.T])).toEqual([
      [0, 900, 1100],
      [1, 700, 900],
    ]);
    expect(lensTasks(grid, 3, 3, [0.2, 0.8])).toEqual([]);
  });
});

describe('tracing', () => {
  test('side by side on two threads: the two halves of a region give the region traced one after the other, each round one point per thread', () => {
    const alone = runSync(new RegionTracer(context()).trace(lens(900, 0.5)), (q) => lens(q.T, q.X));
    const rounds: number[] = [];
    const solver = {
      threads: 2,
      exhausted: false,
      budget: 1e9,
      checkCancel: () => {},
      solveRound: (reqs: { T: number; X: number }[]) => {
        rounds.push(reqs.length);
        return reqs.map((q) => lens(q.T, q.X));
      },
    };
    const ctx = { ...context(), solver: solver as never };
    const tracer = new RegionTracer(ctx);
    // a second seed on the same region waits for the first trace and is then covered by it
    new TraceScheduler(ctx, tracer, [lens(900, 0.5), lens(950, 0.5)], new WeakSet(), []).run(2, () => {});
    expect(tracer.regions).toHaveLength(1);
    const [r] = tracer.regions;
    expect(r.done).toBe(true);
    expect(r.ends.map((e) => [e.dir, e.kind, e.T])).toEqual(alone.ends.map((e) => [e.dir, e.kind, e.T]));
    expect(r.tl).toEqual(alone.tl);
    expect(Math.max(...rounds)).toBe(2);
    expect(rounds.filter((n) => n === 2).length).toBeGreaterThan(rounds.length / 2);
  });
  test('a lens is traced from one seed to both pure-element ends, located to 0.01 K', () => {
    const tracer = new RegionTracer(context());
    const r = runSync(tracer.trace(lens(900, 0.5)), (q) => lens(q.T, q.X));
    expect(r.labels).toEqual(['SOLID', 'LIQUID']);
    const low = r.ends.find((e) => e.dir === -1)!,
      high = r.ends.find((e) => e.dir === 1)!;
    expect(low.kind).toBe('pure_element');
    expect(high.kind).toBe('pure_element');
    expect(Math.abs(low.T - 800)).toBeLessThan(0.02);
    expect(Math.abs(high.T - 1000)).toBeLessThan(0.1);
    // every tie-line on the lens
    for (const t of r.tl) {
      const s = (1000 - t.T) / 200;
      expect(t.x[0]).toBeCloseTo(s * s, 9);
      expect(t.x[1]).toBeCloseTo(Math.sqrt(s), 9);
    }
    expect(tracer.covered(lens(850, 0.8))).toBe(true);
    expect(
      tracer.covered(
        state(850, 0.5, [
          { base: 'SOLID', x: 0.1 },
          { base: 'LIQUID', x: 0.2 },
        ]),
      ),
    ).toBe(false);
  });
  test('two traces of one region that overlap in T are merged, keeping the outer ends', () => {
    const tl = (T0: number, T1: number) =>
      [T0, (T0 + T1) / 2, T1].map((T) => ({ T, x: [0.2, 0.6] as [number, number] }));
    const end = (kind: RegionEnd['kind'], T: number, dir: 1 | -1): RegionEnd => ({
      kind,
      T,
      good: { T, x: [0.2, 0.6] },
      bad: null,
      dir,
    });
    const regions: TracedRegion[] = [
      {
        labels: ['A', 'B'],
        tl: tl(500, 700),
        ends: [end('range_edge', 700, 1), end('unresolved', 500, -1)],
        done: true,
      },
      {
        labels: ['A', 'B'],
        tl: tl(400, 600),
        ends: [end('unresolved', 600, 1), end('invariant', 400, -1)],
        done: true,
      },
    ];
    mergeOverlappingTraces(regions);
    expect(regions).toHaveLength(1);
    expect(regions[0].tl.map((t) => t.T)).toEqual([400, 500, 600, 700]);
    expect(regions[0].ends.map((e) => e.kind).sort()).toEqual(['invariant', 'range_edge']);
    expect(interpolateTieLine(regions[0].tl, 450)).toEqual([0.2, 0.6]);
  });
});

describe('region ends', () => {
  test('a miscibility gap closes at T_c from L^2 ~ (Tc - T)', () => {
    // L^2 = (1000 - T) / 1000
    const tl = [990, 995, 999].map((T) => {
      const L = Math.sqrt((1000 - T) / 1000);
      return { T, x: [0.5 - L / 2, 0.5 + L / 2] as [number, number] };
    });
    expect(criticalTemperature(tl, tl[2], 1)).toBeCloseTo(1000, 6);
    const log: string[] = [];
    const bad = state(999.01, 0.5, [{ base: 'FCC', x: 0.5 }]);
    const e = runSync(
      classifyRegionEnd(tl[2], bad, 1, ['FCC', 'FCC#2'], tl, (s) => log.push(s)),
      () => bad,
    );
    expect(e.kind).toBe('congruent');
    expect(e.T).toBeCloseTo(1000, 6);
  });
  test('a third phase beyond is an invariant; a collapsing tie-line at an edge a pure-element end', () => {
    const good = { T: 500, x: [0.2, 0.4] as [number, number] };
    const bad = state(499.99, 0.3, [
      { base: 'A', x: 0.2 },
      { base: 'C', x: 0.6 },
    ]);
    expect(
      runSync(
        classifyRegionEnd(good, bad, -1, ['A', 'B'], [good], () => {}),
        () => bad,
      ).kind,
    ).toBe('invariant');
    const edge = { T: 500, x: [0.001, 0.003] as [number, number] };
    const one = state(500.01, 0.002, [{ base: 'A', x: 0.002 }]);
    // traced towards the edge: the element's transition
    const before = { T: 499, x: [0.002, 0.006] as [number, number] };
    expect(
      runSync(
        classifyRegionEnd(edge, one, 1, ['A', 'B'], [before, edge], () => {}),
        () => one,
      ).kind,
    ).toBe('pure_element');
    // a trace with no tie-line before its last one is told by the element: its phase changes across the end
    // (a transition of the element) or not (a liquidus maximum next to it, Ni-V of COST507)
    const element = (Tm: number) => (q: { T: number; X: number }) =>
      q.X === 0 ? state(q.T, 0, [{ base: q.T < Tm ? 'A' : 'B', x: 0 }]) : one;
    expect(
      runSync(
        classifyRegionEnd(edge, one, 1, ['A', 'B'], [edge], () => {}),
        element(500.005),
      ).kind,
    ).toBe('pure_element');
    expect(
      runSync(
        classifyRegionEnd(edge, one, 1, ['A', 'B'], [edge], () => {}),
        element(499),
      ).kind,
    ).toBe('congruent');
    const mid = { T: 500, x: [0.499, 0.501] as [number, number] };
    expect(
      runSync(
        classifyRegionEnd(mid, one, 1, ['A', 'B'], [mid], () => {}),
        () => one,
      ).kind,
    ).toBe('congruent');
  });
});

describe('invariants', () => {
  const region = (phases: [string, string], Ts: number[], x: [number, number]): BinaryRegion => ({
    phases,
    tielines: Ts.map((T) => ({ T, x })),
    ends: { low: 'invariant', high: 'invariant' },
  });
  test('ends of the same three phases within MERGE_T are one invariant at their median; a field beyond is cut', () => {
    const regions = [
      region(['A', 'LIQUID'], [500.4, 520, 540], [0.2, 0.5]),
      region(['LIQUID', 'B'], [500, 520], [0.5, 0.8]),
    ];
    const phases = [
      { base: 'A', x: 0.2 },
      { base: 'LIQUID', x: 0.5 },
      { base: 'B', x: 0.8 },
    ];
    const cands: InvariantEnd[] = [
      { T: 500.4, phases, facts: [{ xs: [0.2, 0.5], side: 1 }], region: 0, dir: -1 },
      {
        T: 500.0,
        phases,
        facts: [
          { xs: [0.5, 0.8], side: 1 },
          { xs: [0.2, 0.8], side: -1 },
        ],
        region: 1,
        dir: -1,
      },
    ];
    const log: string[] = [];
    const inv = mergeInvariantEnds(cands, regions, (s) => log.push(s));
    expect(inv).toHaveLength(1);
    expect(inv[0]).toMatchObject({ kind: 'eutectic', reaction: 'LIQUID -> A + B' });
    expect(inv[0].T).toBeCloseTo(500.2, 9);
    expect(log[0]).toMatch(/taken as one at 500.20 K/);
    expect(regions[1].tielines[0].T).toBeCloseTo(500.2, 9); // cut where it ran below the invariant
  });
  test('the two sides of a congruent point close at one point, the mean of their ends', () => {
    const regions = [region(['L', 'C'], [900, 950], [0.3, 0.4]), region(['C', 'L'], [900, 950], [0.45, 0.5])];
    const pts = mergeCongruentEnds(
      [
        { region: 0, dir: 1, T: 1000.0, x: 0.42, pair: 'C+L' },
        { region: 1, dir: 1, T: 1000.06, x: 0.44, pair: 'C+L' },
      ],
      regions,
    );
    expect(pts).toHaveLength(1);
    expect(pts[0].T).toBeCloseTo(1000.03, 9);
    expect(pts[0].x).toBeCloseTo(0.43, 9);
    expect(regions[0].tielines[regions[0].tielines.length - 1]).toEqual({ T: pts[0].T, x: [pts[0].x, pts[0].x] });
  });
  test('repeated points are dropped', () => {
    const list = [
      { T: 1, x: 0.5 },
      { T: 1.05, x: 0.505 },
      { T: 2, x: 0.5 },
    ];
    dedupePoints(list, () => true);
    expect(list).toEqual([
      { T: 1, x: 0.5 },
      { T: 2, x: 0.5 },
    ]);
  });
  test('assembly: a gap closing is a critical point; ordered and disordered states meeting a field end an ordering line', () => {
    const order = new OrderModel();
    order.add('B2', 'A2', [[[0, 1]]]);
    const gap: TracedRegion = {
      labels: ['FCC', 'FCC#2'],
      tl: [
        { T: 900, x: [0.3, 0.7] },
        { T: 990, x: [0.45, 0.55] },
      ],
      done: true,
      ends: [
        { kind: 'congruent', T: 1000, good: { T: 990, x: [0.45, 0.55] }, bad: null, dir: 1 },
        { kind: 'range_edge', T: 900, good: { T: 900, x: [0.3, 0.7] }, bad: null, dir: -1 },
      ],
    };
    const ord: TracedRegion = {
      labels: ['L', 'B2'],
      tl: [
        { T: 700, x: [0.2, 0.3] },
        { T: 800, x: [0.2, 0.3] },
      ],
      done: true,
      ends: [
        {
          kind: 'invariant',
          T: 700,
          good: { T: 700, x: [0.2, 0.3] },
          bad: state(699.99, 0.25, [
            { base: 'L', x: 0.2 },
            { base: 'A2', x: 0.305 },
          ]),
          dir: -1,
        },
        { kind: 'range_edge', T: 800, good: { T: 800, x: [0.2, 0.3] }, bad: null, dir: 1 },
      ],
    };
    const secondOrder: { ordered: string; disordered: string; T: number; x: number }[] = [];
    const d = assembleDiagram([gap, ord], order, secondOrder, () => {});
    expect(d.criticalPoints).toEqual([{ phase: 'FCC', T: 1000, x: 0.5 }]);
    expect(d.regions[0].ends.high).toBe('critical');
    expect(d.regions[0].tielines[d.regions[0].tielines.length - 1]).toEqual({ T: 1000, x: [0.5, 0.5] });
    expect(d.regions[1].ends.low).toBe('order_disorder');
    expect(d.invariants).toEqual([]);
    expect(secondOrder).toEqual([{ ordered: 'B2', disordered: 'A2', T: 700, x: 0.3025 }]);
  });
  test('a field between the ordered and disordered state closing from one side only is a tricritical point', () => {
    const order = new OrderModel();
    order.add('B2', 'A2', [[[0, 1]]]);
    const field = (labels: [string, string], x: [number, number]): TracedRegion => ({
      labels,
      done: true,
      tl: [{ T: 900, x }],
      ends: [
        { kind: 'congruent', T: 941, good: { T: 940.99, x: [x[0] + 0.004, x[1] - 0.004] }, bad: null, dir: 1 },
        { kind: 'range_edge', T: 900, good: { T: 900, x }, bad: null, dir: -1 },
      ],
    });
    const one = assembleDiagram([field(['A2', 'B2'], [0.2, 0.3])], order, [], () => {});
    expect(one.congruentPoints).toEqual([]);
    expect(one.tricriticalPoints).toHaveLength(1);
    expect(one.tricriticalPoints[0]).toMatchObject({ phases: ['B2', 'A2'], T: 941 });
    expect(one.regions[0].ends.high).toBe('tricritical');
    // closed from both sides: a congruent ordering maximum
    const two = assembleDiagram(
      [field(['A2', 'B2'], [0.2, 0.26]), field(['B2', 'A2'], [0.24, 0.3])],
      order,
      [],
      () => {},
    );
    expect(two.tricriticalPoints).toEqual([]);
    expect(two.congruentPoints).toHaveLength(1);
    // a gap between two ordered sets of one phase (B2 + D03 of a four-sublattice phase) closing
    const gap = assembleDiagram([field(['B2', 'B2#2'], [0.2, 0.3])], order, [], () => {});
    expect(gap.criticalPoints).toEqual([]);
    expect(gap.tricriticalPoints[0].phases).toEqual(['B2', 'B2#2']);
  });
  test('a field traced across an invariant where a phase splits is cut there, each part ending on its own pair', () => {
    // Fe-Pd of mc_fe: bcc + fcc traced in one 15 K step across the monotectoid at 1038.65 K, where fcc splits into
    // 0.295 (above, with bcc and with the fcc gap) and 0.305 (below, with bcc)
    const regions = [
      { ...region(['BCC_A2', 'FCC_A1'], [1000, 1060], [0.02, 0.3]), tielines: [] as BinaryRegion['tielines'] },
      region(['FCC_A1', 'FCC_A1#2'], [1038.65, 1100], [0.295, 0.305]),
    ];
    regions[0].tielines = [
      { T: 1000, x: [0.018, 0.33] },
      { T: 1027.14, x: [0.02, 0.3147] },
      { T: 1042.14, x: [0.022, 0.292] },
      { T: 1060, x: [0.024, 0.28] },
    ];
    const phases = [
      { base: 'BCC_A2', x: 0.0216 },
      { base: 'FCC_A1', x: 0.295 },
      { base: 'FCC_A1', x: 0.305 },
    ];
    const inv = mergeInvariantEnds(
      [
        {
          T: 1038.65,
          phases,
          facts: [
            { xs: [0.295, 0.305], bases: ['FCC_A1', 'FCC_A1'], side: 1 },
            { xs: [0.0216, 0.305], bases: ['BCC_A2', 'FCC_A1'], side: -1 },
          ],
          region: 1,
          dir: -1,
        },
      ],
      regions,
      () => {},
    );
    expect(inv[0]).toMatchObject({ kind: 'monotectoid', reaction: 'FCC_A1 -> BCC_A2 + FCC_A1#2' });
    const bccFcc = regions.filter((r) => r.phases.join('+') === 'BCC_A2+FCC_A1');
    expect(bccFcc).toHaveLength(2);
    expect(bccFcc[0].tielines.map((t) => t.T)).toEqual([1000, 1027.14, 1038.65]);
    expect(bccFcc[0].tielines[2].x).toEqual([0.0216, 0.305]);
    expect(bccFcc[0].ends).toEqual({ low: 'invariant', high: 'invariant' });
    expect(bccFcc[1].tielines.map((t) => t.T)).toEqual([1038.65, 1042.14, 1060]);
    expect(bccFcc[1].tielines[0].x).toEqual([0.0216, 0.295]);
    // the gap's own region ends there already: nothing to cut
    expect(regions.find((r) => r.phases[1] === 'FCC_A1#2')!.tielines.map((t) => t.T)).toEqual([1038.65, 1100]);
  });
  test('one invariant seen with two phases at one composition in either order is merged', () => {
    // the high- and low-temperature forms of a line compound at its transition (Al8Cr5 at 1398 K in alcocrni)
    const regions = [
      region(['AL8CR5_H', 'BCC_A2'], [1398, 1450], [0.3846, 0.57]),
      region(['AL8CR5_L', 'BCC_A2'], [1300, 1398], [0.3846, 0.57]),
    ];
    const a = [
      { base: 'AL8CR5_H', x: 0.38461538 },
      { base: 'AL8CR5_L', x: 0.38461539 },
      { base: 'BCC_A2', x: 0.5732 },
    ];
    const b = [a[1], a[0], a[2]];
    const inv = mergeInvariantEnds(
      [
        { T: 1398.003, phases: a, facts: [{ xs: [0.3846, 0.57], side: 1 }], region: 0, dir: -1 },
        { T: 1398.002, phases: b, facts: [{ xs: [0.3846, 0.57], side: -1 }], region: 1, dir: 1 },
      ],
      regions,
      () => {},
    );
    expect(inv).toHaveLength(1);
    expect(inv[0].T).toBeCloseTo(1398.0025, 9);
  });
});
