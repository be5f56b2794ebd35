// Phase identity (worker/system/ordering.ts): every composition set of a phase with an order-disorder
// description says whether it is ordered and names its structure; line scans report second-order
// (order-disorder) transitions and keep the identity of composition sets where one of them vanishes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stateAt } from '../../worker/scans/scan-path.js';
import { scanLine } from '../../worker/scans/line-scan.js';
import { PointConverter } from '../../worker/system/point-converter.js';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';

import { classifyOrdering, orderingModelOf, type OrderingModel } from '../../worker/system/ordering.js';

import { JobControl } from '../../worker/protocol.js';
import { parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const tdb = (f: string) => path.join(SHARED_TDB_DIR, f);
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-ordering-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const phase = (name: string, ratios: number[], constituents: string[][], options = '', disorderedPart = '') => ({
  name,
  options,
  siteRatios: ratios,
  constituents,
  disorderedPart,
});
const y = (...fractions: number[]) => fractions.map((f) => ({ AL: f, FE: 1 - f }));

describe('ordering classification', () => {
  const b2 = orderingModelOf(phase('B2_BCC', [0.5, 0.5, 3], [['AL', 'FE'], ['AL', 'FE'], ['VA']], '', 'BCC_A2'))!;
  const l12 = orderingModelOf(
    phase(
      'L12_FCC',
      [0.75, 0.25],
      [
        ['AL', 'NI'],
        ['AL', 'NI'],
      ],
      '',
      'FCC_A1',
    ),
  )!;
  const bcc4 = orderingModelOf(
    phase(
      'BCC_4SL',
      [0.25, 0.25, 0.25, 0.25, 3],
      [['AL', 'FE'], ['AL', 'FE'], ['AL', 'FE'], ['AL', 'FE'], ['VA']],
      'B',
      'BCC_A2',
    ),
  )!;
  const fcc4 = orderingModelOf(
    phase(
      'FCC_4SL',
      [0.25, 0.25, 0.25, 0.25, 1],
      [['AL', 'FE'], ['AL', 'FE'], ['AL', 'FE'], ['AL', 'FE'], ['VA']],
      'F',
      'FCC_A1',
    ),
  )!;

  it('finds the equivalent sublattices and the lattice', () => {
    expect(b2).toMatchObject({ lattice: 'BCC', sublattices: [0, 1] });
    expect(l12).toMatchObject({ lattice: 'FCC', sublattices: [0, 1] });
    expect(bcc4).toMatchObject({ lattice: 'BCC', sublattices: [0, 1, 2, 3] });
    // phases without an order-disorder description have no ordering model
    expect(
      orderingModelOf(
        phase(
          'AL8FE5_D82',
          [8, 5],
          [
            ['AL', 'FE'],
            ['AL', 'FE'],
          ],
        ),
      ),
    ).toBeNull();
    expect(orderingModelOf(phase('LIQUID', [1], [['AL', 'FE']]))).toBeNull();
    expect(orderingModelOf(phase('SIGMA', [8, 18, 4], [['AL', 'NI'], ['AL', 'CR', 'NI'], ['CR']]))).toBeNull();
  });

  it('names two-sublattice structures', () => {
    const yy = (a: number, b: number) => [...y(a, b), { VA: 1 }];
    expect(classifyOrdering(b2, yy(0.3, 0.3))).toEqual({ ordered: false, structure: 'A2', label: 'A2 (B2_BCC)' });
    expect(classifyOrdering(b2, yy(0.3, 0.30005))).toMatchObject({ ordered: false });
    expect(classifyOrdering(b2, yy(0.1, 0.5))).toEqual({ ordered: true, structure: 'B2', label: 'B2 (B2_BCC)' });
    expect(
      classifyOrdering(l12, [
        { AL: 0.05, NI: 0.95 },
        { AL: 0.8, NI: 0.2 },
      ]),
    ).toMatchObject({ ordered: true, structure: 'L12' });
    expect(
      classifyOrdering(l12, [
        { AL: 0.1, NI: 0.9 },
        { AL: 0.1, NI: 0.9 },
      ]),
    ).toMatchObject({ ordered: false, structure: 'A1' });
  });

  it('tells the ordered variants of the four-sublattice models apart', () => {
    const s = (m: OrderingModel, ...f: number[]) => classifyOrdering(m, [...y(...f), { VA: 1 }]).structure;
    expect(s(bcc4, 0.2, 0.2, 0.2, 0.2)).toBe('A2');
    expect(s(bcc4, 0.05, 0.05, 0.8, 0.8)).toBe('B2');
    expect(s(bcc4, 0.05, 0.8, 0.05, 0.8)).toBe('B32');
    expect(s(bcc4, 0.0, 0.0, 1.0, 0.0)).toBe('D03');
    expect(s(bcc4, 0.03, 0.03, 0.74, 0.23)).toBe('D03');
    expect(s(fcc4, 0.1, 0.1, 0.1, 0.1)).toBe('A1');
    expect(s(fcc4, 0.0, 0.0, 0.0, 1.0)).toBe('L12');
    expect(s(fcc4, 0.0, 1.0, 0.0, 1.0)).toBe('L10');
    // symmetry-equivalent sublattices of an ordered state converge less tightly: equal within 2% of the spread
    expect(s(fcc4, 0.0418, 0.0416, 0.0103, 0.0104)).toBe('L10');
  });
});

describe('ordering in equilibrium results', () => {
  const point = (file: string, components: string[], T: number, X: Record<string, number>) => {
    const db = openDatabase(tdb(file));
    const r = equilibrium({ database: db, components, conditions: { T, P: 101325, X } });
    expect(r.converged, r.reason).toBe(true);
    return new PointConverter(db, components).point(r);
  };

  it('disordered alpha-Fe (Fe-5Al, 1000 K) is A2, not B2; Fe-30Al at 800 K is B2', () => {
    expect(point('alfe.tdb', ['AL', 'FE', 'VA'], 1000, { AL: 0.05 }).phases.map((p) => p.ordering?.label)).toEqual([
      'A2 (B2_BCC)',
    ]);
    expect(point('alfe.tdb', ['AL', 'FE', 'VA'], 800, { AL: 0.3 }).phases.map((p) => p.ordering?.label)).toEqual([
      'B2 (B2_BCC)',
    ]);
  });

  it('disordered Co-Cr FCC is A1 (L12_FCC); Ni-13Al-8Cr at 1200 K has ordered L12 beside disordered A1', () => {
    expect(point('alcocrni.tdb', ['CO', 'CR', 'VA'], 1200, { CR: 0.2 }).phases.map((p) => p.ordering?.label)).toEqual([
      'A1 (L12_FCC)',
    ]);
    const two = point('alcrni.tdb', ['AL', 'CR', 'NI', 'VA'], 1200, { AL: 0.13, CR: 0.08 }).phases;
    expect(two.map((p) => p.ordering?.structure).sort()).toEqual(['A1', 'L12']);
  });

  it('Ni-Pt (alnipt) at 712.5 K, x(PT)=0.174 is A1 + L12, below the single disordered FCC the grid alone certified', () => {
    const db = openDatabase(tdb('alnipt.tdb'));
    const comps = ['NI', 'PT', 'VA'];
    const r = equilibrium({ database: db, components: comps, conditions: { T: 712.5, P: 101325, X: { PT: 0.174 } } });
    expect(r.converged, r.reason).toBe(true);
    const p = new PointConverter(db, comps).point(r).phases;
    expect(p.map((q) => q.ordering?.structure).sort()).toEqual(['A1', 'L12']);
    // the single disordered FCC at this composition (one set, no ordering) lies 0.68 J/mol higher
    const single = equilibrium({
      database: db,
      components: comps,
      conditions: { T: 712.5, P: 101325, X: { PT: 0.174 } },
      options: { singleSet: true },
    });
    expect(single.GM - r.GM).toBeGreaterThan(0.5);
  });

  it('Fe3Al in the four-sublattice model is D03 (Al-Fe, Sundman 2009, 600 K)', () => {
    const p = point('Al-Fe_sundman2009.tdb', ['AL', 'FE', 'VA'], 600, { AL: 0.26 }).phases;
    expect(p.map((q) => q.ordering?.label)).toEqual(['D03 (BCC_4SL)']);
  });
});

describe('line scans: second-order transitions and set identity', () => {
  let n = 0;
  const job = (file: string, components: string[], X: Record<string, number>, T0: number, T1: number, points: number) =>
    parsedJob('line_calculation', {
      taskUuid: 'o',
      ompThreads: 1,
      taskDir: path.join(tmp, `t${n++}`),
      control: new SharedArrayBuffer(16),
      config: {
        task_type: 'line_calculation',
        tdb_code: 'X',
        tdb_file: tdb(file),
        condition: {
          components,
          compositions_start: X,
          compositions_end: X,
          temperature_start: T0,
          temperature_end: T1,
          pressure: 101325,
          points,
        },
      },
    });

  it('Fe-30Al (alfe) reports the B2 -> A2 transition, confirmed by point equilibria 0.05 K on either side', () => {
    const scan = scanLine(
      job('alfe.tdb', ['AL', 'FE', 'VA'], { AL: 0.3 }, 800, 1600, 41),
      new JobControl(new SharedArrayBuffer(16)),
    );
    const od = scan.transitions.filter((t) => t.kind === 'order_disorder');
    expect(od).toHaveLength(1);
    expect(od[0].ordering_changes).toEqual([{ phase: 'B2_BCC', before: 'B2', after: 'A2' }]);
    expect(od[0].dT).toBeLessThanOrEqual(0.01);
    const db = openDatabase(tdb('alfe.tdb'));
    const conv = new PointConverter(db, ['AL', 'FE', 'VA']);
    for (const [dT, want] of [
      [-0.05, 'B2'],
      [0.05, 'A2'],
    ] as const) {
      const r = equilibrium({
        database: db,
        components: ['AL', 'FE', 'VA'],
        conditions: { T: od[0].T + dT, P: 101325, X: { AL: 0.3 } },
      });
      expect(r.phases.map((p) => conv.ordering(p)?.structure)).toEqual([want]);
    }
  });

  it('Al-Zn X(ZN)=0.4: where the FCC gap closes (622.5 K) the surviving set keeps its label and amount', () => {
    const scan = scanLine(
      job('alzn_mey.tdb', ['AL', 'ZN'], { ZN: 0.4 }, 560, 700, 29),
      new JobControl(new SharedArrayBuffer(16)),
    );
    const close = scan.transitions.find((t) => t.T > 621 && t.T < 624)!;
    expect(close.phases_before).toEqual(['FCC_A1', 'FCC_A1#2']);
    expect(close.disappearing).toHaveLength(1);
    const survivor = close.phases_after[0];
    // the survivor is the set that held almost everything just below the closing, not the vanishing one
    const below = scan.edges.find((e) => Math.abs(e.s - close.s) < 1e-4 && stateAt(scan.path, e.s).T < close.T)!;
    const amount = below.r.phases.find((p) => (p.setNumber > 1 ? `${p.name}#${p.setNumber}` : p.name) === survivor)!.NP;
    expect(amount).toBeGreaterThan(0.5);
  });

  it('Ni-13Al-8Cr (alcrni): the set that dissolves at the gamma-prime solvus is the ordered L12 one', () => {
    const scan = scanLine(
      job('alcrni.tdb', ['AL', 'CR', 'NI', 'VA'], { AL: 0.13, CR: 0.08 }, 1200, 1500, 31),
      new JobControl(new SharedArrayBuffer(16)),
    );
    const solvus = scan.transitions.find((t) => t.disappearing.length === 1 && t.T > 1250 && t.T < 1400)!;
    expect(solvus, JSON.stringify(scan.transitions)).toBeDefined();
    expect(solvus.structures[solvus.disappearing[0]]).toBe('L12');
    const doc = scan.results.map((r) => r.phases.map((p) => p.setNumber));
    // the matrix keeps one number along the whole line
    const matrixNumber = solvus.phases_after.map((l) => (l.includes('#') ? Number(l.split('#')[1]) : 1))[0];
    expect(doc.every((sets) => sets.includes(matrixNumber))).toBe(true);
  });
});
