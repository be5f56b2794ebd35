// potential_diagram against closed forms and independent equilibria:
//  - stoichiometric oxides of a metal A (AO, A2O3) on a chemical-potential axis: each boundary is the reaction's
//    Gibbs energy, mu(O) = G(AO) - G(A) and G(A2O3) - 2 G(AO), straight lines in T; with a second held element B
//    (a compound AB) at one temperature, the predominance diagram's three lines and their junction;
//  - Cu-O (cuo.tdb) in log10 a(O) against T: the Cu + Cu2O boundary equals the potential of a closed two-phase
//    equilibrium at each temperature, the label point of every field and both sides of every boundary are
//    equilibria with the field's and the boundary's phases, the Cu + Cu2O + liquid junction, and the two liquids
//    (a composition jump of one phase set) on their line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobControl } from '../../worker/protocol.js';
import { run } from '../../worker/calculations/potential_diagram.js';
import type { PotentialDiagramDocument } from '../../contract/results/potential_diagram.js';
import { GAS_CONSTANT as R } from '../../contract/results/common.js';
import { equilibrium, type EquilibriumResult } from '../../worker/core/equilibrium.js';
import { openDatabase } from '../../worker/core/database.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { parsedJob } from '../support/jobs.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-potential-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

const OXIDES = path.join(tmp, 'oxides.tdb');
writeFileSync(
  OXIDES,
  `ELEMENT VA VACUUM 0 0 0 !
ELEMENT A METAL 10 0 0 !
ELEMENT B METAL 20 0 0 !
ELEMENT O AO 16 0 0 !
PHASE METAL % 1 1 !
CONSTITUENT METAL :A: !
PARAMETER G(METAL,A;0) 1 0; 6000 N !
PHASE AO % 2 1 1 !
CONSTITUENT AO :A:O: !
PARAMETER G(AO,A:O;0) 1 -400000+100*T; 6000 N !
PHASE A2O3 % 2 2 3 !
CONSTITUENT A2O3 :A:O: !
PARAMETER G(A2O3,A:O;0) 1 -1100000+250*T; 6000 N !
PHASE OXYGEN % 1 1 !
CONSTITUENT OXYGEN :O: !
PARAMETER G(OXYGEN,O;0) 1 0; 6000 N !
PHASE AB % 2 1 1 !
CONSTITUENT AB :A:B: !
PARAMETER G(AB,A:B;0) 1 -50000; 6000 N !
`,
);
// AO's field 1500 J/mol wide in mu(O), a quarter of the grid step: most columns have no node in it
const THIN = path.join(tmp, 'thin.tdb');
writeFileSync(THIN, readFileSync(OXIDES, 'utf8').replace('-1100000+250*T', `${3 * -400000 + 1500}+300*T`));
const CUO = path.join(SHARED_TDB_DIR, 'cuo.tdb');
const CUO_PHASES = ['FCC_A1', 'CU2O', 'CUO', 'IONIC_LIQ'];

function calc(tdb: string, condition: Record<string, unknown>): PotentialDiagramDocument {
  const j = parsedJob('potential_diagram', {
    taskUuid: 'p',
    ompThreads: 2,
    taskDir: path.join(tmp, `t${n++}`),
    control: new SharedArrayBuffer(16),
    config: { tdb_file: tdb, condition: { pressure: 101325, ...condition } },
  });
  run(j, new JobControl(new SharedArrayBuffer(16)));
  for (const f of ['result/result.csv', 'preview/potential_diagram.svg', 'preview/potential_diagram.png'])
    expect(readFileSync(path.join(j.taskDir, f)).length).toBeGreaterThan(0);
  return JSON.parse(readFileSync(path.join(j.taskDir, 'result', 'result.json'), 'utf8')) as PotentialDiagramDocument;
}

const sameSets = (a: string[][], b: string[][]) =>
  JSON.stringify(a.map((s) => s.join('+')).sort()) === JSON.stringify(b.map((s) => s.join('+')).sort());
const boundaryOf = (doc: PotentialDiagramDocument, a: string, b: string) =>
  doc.boundaries.filter((l) => sameSets(l.phases, [[a], [b]]));

describe('potential_diagram of stoichiometric oxides (closed forms)', () => {
  it('mu(O) against T: the A | AO and AO | A2O3 lines are the reactions Gibbs energies', () => {
    const doc = calc(OXIDES, {
      components: ['A', 'O'],
      x_axis: { quantity: 'temperature', start: 500, end: 1500 },
      y_axis: { quantity: 'chemical_potential', element: 'O', start: -420000, end: -180000 },
      grid_points: 41,
    });
    expect(doc.fields.map((f) => f.phases.join('+')).sort()).toEqual(['A2O3', 'AO', 'METAL']);
    const step = 240000 / 40;
    const lines: [string, string, (T: number) => number][] = [
      ['METAL', 'AO', (T) => -400000 + 100 * T],
      ['AO', 'A2O3', (T) => -1100000 + 250 * T - 2 * (-400000 + 100 * T)],
    ];
    for (const [a, b, mu] of lines) {
      const pts = boundaryOf(doc, a, b).flatMap((l) => l.points);
      expect(pts.length, `${a} | ${b}`).toBeGreaterThan(30);
      for (const p of pts) expect(Math.abs(p.y - mu(p.x)), `${a} | ${b} at ${p.x} K`).toBeLessThan(step / 1000);
    }
    expect(doc.junctions).toEqual([]);
    expect(doc.table.rows).toHaveLength(41 * 41);
  }, 60_000);

  it('a field narrower than the grid step keeps both its lines (the edges across it bisected twice)', () => {
    const doc = calc(THIN, {
      components: ['A', 'O'],
      activated_phases: ['METAL', 'AO', 'A2O3'],
      x_axis: { quantity: 'temperature', start: 500, end: 1500 },
      y_axis: { quantity: 'chemical_potential', element: 'O', start: -420000, end: -180000 },
      grid_points: 41,
    });
    // in most columns no node falls in AO's field
    expect(doc.table.rows.filter((r) => r[2] === 'AO').length).toBeLessThan(20);
    const lines: [string, string, (T: number) => number][] = [
      ['METAL', 'AO', (T) => -400000 + 100 * T],
      ['AO', 'A2O3', (T) => -400000 + 100 * T + 1500],
    ];
    for (const [a, b, mu] of lines) {
      const pts = boundaryOf(doc, a, b).flatMap((l) => l.points);
      expect(pts.length, `${a} | ${b}`).toBeGreaterThan(30);
      for (const p of pts) expect(Math.abs(p.y - mu(p.x)), `${a} | ${b} at ${p.x} K`).toBeLessThan(240000 / 40 / 1000);
    }
  }, 60_000);

  it('above the potential of pure oxygen no equilibrium exists: the diagram says how much of it is missing', () => {
    const doc = calc(OXIDES, {
      components: ['A', 'O'],
      x_axis: { quantity: 'temperature', start: 500, end: 1500 },
      y_axis: { quantity: 'chemical_potential', element: 'O', start: -300000, end: 100000 },
      grid_points: 21,
    });
    // OXYGEN (G = 0) would take every atom without bound once mu(O) > 0: the nodes there have no equilibrium
    const above = doc.table.rows.filter((r) => (r[1] as number) > 1e-9);
    expect(above.length).toBeGreaterThan(0);
    for (const r of above) expect(r[2]).toBe('not converged');
    expect(doc.convergence_warning?.share).toBeCloseTo(above.length / 441, 6);
    expect(doc.convergence_warning?.message).toMatch(/^incomplete: \d+ of 441 grid nodes/);
    expect(doc.fields.map((f) => f.phases.join('+')).sort()).toEqual(['A2O3', 'AO', 'METAL']);
  }, 60_000);

  it('mu(O) against mu(B) at 1000 K: the predominance diagram of A, AB and AO, its junction', () => {
    const T = 1000;
    const gAO = -400000 + 100 * T,
      gAB = -50000;
    const doc = calc(OXIDES, {
      components: ['A', 'B', 'O'],
      activated_phases: ['METAL', 'AO', 'AB'],
      temperature: T,
      x_axis: { quantity: 'chemical_potential', element: 'B', start: -100000, end: 0 },
      y_axis: { quantity: 'chemical_potential', element: 'O', start: -400000, end: -200000 },
      grid_points: 41,
    });
    const tol = 200000 / 40 / 1000;
    for (const p of boundaryOf(doc, 'METAL', 'AB').flatMap((l) => l.points)) expect(p.x).toBeCloseTo(gAB, -1);
    for (const p of boundaryOf(doc, 'METAL', 'AO').flatMap((l) => l.points))
      expect(Math.abs(p.y - gAO)).toBeLessThan(tol);
    // AB + O = AO + B: mu(O) - mu(B) = G(AO) - G(AB)
    const diagonal = boundaryOf(doc, 'AB', 'AO').flatMap((l) => l.points);
    expect(diagonal.length).toBeGreaterThan(10);
    for (const p of diagonal) expect(Math.abs(p.y - p.x - (gAO - gAB))).toBeLessThan(2 * tol);
    expect(doc.junctions).toHaveLength(1);
    expect(doc.junctions[0]!.x).toBeCloseTo(gAB, -2);
    expect(doc.junctions[0]!.y).toBeCloseTo(gAO, -2);
  }, 60_000);
});

describe('potential_diagram of Cu-O, log10 a(O) against T (independent equilibria)', () => {
  const db = openDatabase(CUO);
  const P = 101325;
  const doc = calc(CUO, {
    components: ['CU', 'O'],
    activated_phases: CUO_PHASES,
    x_axis: { quantity: 'temperature', start: 600, end: 1800 },
    y_axis: { quantity: 'log10_activity', element: 'O', reference_state: 'GAS', start: -12, end: 0 },
    grid_points: 41,
  });
  const gasRef = (T: number) =>
    equilibrium({
      database: db,
      components: ['O', 'VA'],
      phases: ['GAS'],
      conditions: { T, P },
      options: { singleSet: true },
    }).GM;
  const open = (T: number, logA: number): EquilibriumResult =>
    equilibrium({
      database: db,
      components: ['CU', 'O', 'VA'],
      phases: CUO_PHASES,
      conditions: { T, P, MU: { O: gasRef(T) + R * T * Math.log(10) * logA } },
    });
  const setOf = (r: EquilibriumResult) =>
    r.phases
      .map((p) => p.name)
      .sort()
      .join('+');
  const closed = (T: number, xO: number) =>
    equilibrium({
      database: db,
      components: ['CU', 'O', 'VA'],
      phases: CUO_PHASES,
      conditions: { T, P, X: { O: xO } },
    });
  /** a line's crossings: its points but the junctions it ends at */
  const isJunction = (p: { x: number; y: number }) => doc.junctions.some((j) => j.x === p.x && j.y === p.y);

  it('Cu + Cu2O lies at the oxygen potential of the closed two-phase equilibrium at every temperature', () => {
    const line = boundaryOf(doc, 'FCC_A1', 'CU2O')
      .flatMap((l) => l.points)
      .filter((p) => !isJunction(p));
    expect(line.length).toBeGreaterThan(20);
    for (const p of line.filter((_, i) => i % 4 === 0)) {
      const r = closed(p.x, 0.2);
      expect(setOf(r)).toBe('CU2O+FCC_A1');
      const logA = (r.mu.O! - gasRef(p.x)) / (R * p.x * Math.log(10));
      expect(Math.abs(p.y - logA), `at ${p.x} K`).toBeLessThan(1e-3);
    }
  });

  it('every field label point is an equilibrium of its phases; each boundary has its two sets on either side', () => {
    expect(doc.fields.map((f) => f.phases.join('+')).sort()).toEqual(['CU2O', 'CUO', 'FCC_A1', 'IONIC_LIQ']);
    for (const f of doc.fields) expect(setOf(open(f.x, f.y))).toBe(f.phases.join('+'));
    for (const b of doc.boundaries.filter((l) => l.phases[0].join() !== l.phases[1].join())) {
      const want = b.phases.map((s) => s.join('+')).sort();
      for (const p of b.points.filter((q, i) => i % 5 === 2 && !isJunction(q))) {
        const seen = new Set(
          [
            [0.5, 0],
            [-0.5, 0],
            [0, 0.005],
            [0, -0.005],
          ].map(([dx, dy]) => setOf(open(p.x + dx!, p.y + dy!))),
        );
        for (const s of want) expect(seen, `${want.join(' | ')} at ${p.x} K, ${p.y}`).toContain(s);
      }
    }
  }, 60_000);

  it('the Cu + Cu2O + liquid junction lies at the eutectic of the closed system, found by bisection in T', () => {
    const j = doc.junctions.find((k) => sameSets(k.phases, [['FCC_A1'], ['CU2O'], ['IONIC_LIQ']]));
    expect(j).toBeDefined();
    // X(O) = 0.2 is Cu + Cu2O below the eutectic and Cu2O + liquid above it
    let [lo, hi] = [1300, 1400];
    expect(setOf(closed(lo, 0.2))).toBe('CU2O+FCC_A1');
    expect(setOf(closed(hi, 0.2))).toBe('CU2O+IONIC_LIQ');
    for (let k = 0; k < 30; k++) {
      const mid = 0.5 * (lo + hi);
      if (setOf(closed(mid, 0.2)) === 'CU2O+FCC_A1') lo = mid;
      else hi = mid;
    }
    expect(Math.abs(j!.x - lo), `junction ${j!.x} K, eutectic ${lo} K`).toBeLessThan(0.5);
    const logA = (closed(lo - 0.01, 0.2).mu.O! - gasRef(lo)) / (R * lo * Math.log(10));
    expect(Math.abs(j!.y - logA)).toBeLessThan(0.01);
  });

  it('the two liquids: a line across which the liquid composition jumps, from the Cu2O field', () => {
    const gap = doc.boundaries.filter((l) => l.phases[0].join() === 'IONIC_LIQ' && l.phases[1].join() === 'IONIC_LIQ');
    expect(gap.length).toBeGreaterThan(0);
    for (const p of gap.flatMap((l) => l.points).filter((q) => q.x > 1530 && q.x < 1590)) {
      const below = open(p.x, p.y - 0.003).x.O!;
      const above = open(p.x, p.y + 0.003).x.O!;
      expect(above - below, `at ${p.x} K`).toBeGreaterThan(0.05);
    }
  });
});
