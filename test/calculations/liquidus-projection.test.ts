// liquidus_projection against independent global equilibria (worker/core/equilibrium.ts, cold starts, one at a
// time: nothing of the projection's searches is reused), on the systems of COST507 (Al-Cu-Mg, Al-Mg-Si), alcrni
// (Ni-Al-Cr) and MF Steel with its recommended selection (Fe-Cr-Ni, Fe-Cr-C):
//  - every invariant point is a four-phase equilibrium at its temperature: at the centroid of the four phases'
//    compositions the equilibria 0.1 K above and below differ and together hold the liquid and the three solids;
//  - every valley is a three-phase equilibrium along it: at each inner point the liquid is alone just above its
//    temperature with both solids' driving forces zero, and at the centroid of the liquid and the two solids a little
//    below, the equilibrium is the liquid and those two solids;
//  - every isotherm is the liquidus of the points on it: liquid alone above, a solid below, within the bound of
//    linear interpolation between the grid's states;
//  - every primary field's label point crystallises that phase first;
//  - the eutectics that bound the 2xxx and 3xx/6xxx alloys lie at their measured temperatures.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseName, isLiquidName } from '../../contract/phases.js';
import type { DatabasePhaseSelection } from '../../contract/phase-selection.js';
import type { LiquidusProjectionDocument } from '../../contract/results/liquidus_projection.js';
import { run } from '../../worker/calculations/liquidus_projection.js';
import { ISOTHERM_TOLERANCE } from '../../worker/mapping/liquidus/isotherms.js';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium, type EquilibriumResult } from '../../worker/core/equilibrium.js';
import { JobControl } from '../../worker/protocol.js';
import { parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-liquidus-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const P = 101325;
const COST507 = path.join(SHARED_TDB_DIR, 'COST507.tdb');
const MF_STEEL = path.join(SHARED_TDB_DIR, 'mf-steel.tdb');
const catalog = JSON.parse(readFileSync(path.resolve(__dirname, '../../databases/catalog.json'), 'utf8')) as {
  code: string;
  phase_selection?: DatabasePhaseSelection;
}[];
const RECOMMENDED = catalog.find((e) => e.code === 'MF_STEEL')!.phase_selection!;

interface Case {
  name: string;
  tdb: string;
  components: string[];
  grid: number;
  steel?: boolean;
}
const CASES: Case[] = [
  { name: 'COST507 Al-Cu-Mg', tdb: COST507, components: ['AL', 'CU', 'MG'], grid: 20 },
  { name: 'COST507 Al-Mg-Si', tdb: COST507, components: ['AL', 'MG', 'SI'], grid: 12 },
  { name: 'alcrni Ni-Al-Cr', tdb: path.join(SHARED_TDB_DIR, 'alcrni.tdb'), components: ['NI', 'AL', 'CR'], grid: 10 },
  { name: 'MF Steel Fe-Cr-Ni', tdb: MF_STEEL, components: ['FE', 'CR', 'NI'], grid: 8, steel: true },
  { name: 'MF Steel Fe-Cr-C', tdb: MF_STEEL, components: ['FE', 'CR', 'C'], grid: 10, steel: true },
];

let n = 0;
function project(c: Case, extra: Record<string, unknown> = {}): LiquidusProjectionDocument {
  const job = parsedJob('liquidus_projection', {
    taskUuid: 'l',
    ompThreads: 2,
    taskDir: path.join(tmp, `t${n++}`),
    control: new SharedArrayBuffer(16),
    ...(c.steel ? { database: { code: 'MF_STEEL', sha256: 'abc', phase_selection: RECOMMENDED } } : {}),
    config: { tdb_file: c.tdb, condition: { components: c.components, pressure: P, grid_divisions: c.grid, ...extra } },
  });
  run(job, new JobControl(new SharedArrayBuffer(16)));
  for (const f of ['result/result.csv', 'preview/liquidus_projection.svg', 'preview/liquidus_projection.png'])
    expect(readFileSync(path.join(job.taskDir, f)).length).toBeGreaterThan(0);
  return JSON.parse(
    readFileSync(path.join(job.taskDir, 'result', 'result.json'), 'utf8'),
  ) as LiquidusProjectionDocument;
}

/** Cold global equilibria with the projection's phases. */
function solverOf(c: Case, doc: LiquidusProjectionDocument) {
  const db = openDatabase(c.tdb);
  const components = [...c.components, 'VA'];
  const removed = new Set(doc.phase_selection.removed);
  const phases = db.phasesFor(c.components, true).filter((p) => !removed.has(p));
  const dependent = c.components[0]!;
  // a point on a side of the triangle gets 1e-9 of the missing corner (a solver condition is never exactly 0)
  const X = (x: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(x)
        .filter(([el]) => el !== dependent)
        .map(([el, v]) => [el, (v + 1e-9) / (1 + 3e-9)]),
    );
  return (T: number, x: Record<string, number>): EquilibriumResult =>
    equilibrium({ database: db, components, phases, conditions: { T, P, X: X(x) } });
}

const names = (r: EquilibriumResult) => [...new Set(r.phases.map((p) => baseName(p.name)))].sort();
const liquidAlone = (r: EquilibriumResult) => r.converged && r.phases.every((p) => isLiquidName(p.name));
const centroid = (xs: Record<string, number>[]) =>
  Object.fromEntries(Object.keys(xs[0]!).map((el) => [el, xs.reduce((s, x) => s + (x[el] ?? 0), 0) / xs.length]));
/** n points spread over a list (its inner points first, never more than it has) */
const spread = <T>(list: T[], k: number) =>
  list.length <= k ? list : Array.from({ length: k }, (_, i) => list[Math.floor(((i + 0.5) * list.length) / k)]!);

describe.each(CASES)('liquidus_projection of $name', (c) => {
  const doc = project(c);
  const solve = solverOf(c, doc);

  it('maps the whole triangle: every node has a liquidus or is listed, every invariant point is located', () => {
    expect(doc.grid.not_converged).toBe(doc.not_converged_nodes.length);
    expect(doc.grid.not_converged).toBeLessThanOrEqual(0.05 * doc.grid.nodes);
    expect(doc.primary_fields.length).toBeGreaterThanOrEqual(2);
    expect(doc.notes.filter((m) => /no located/.test(m))).toEqual([]);
  });

  it('each invariant point is a four-phase equilibrium at its temperature', () => {
    for (const v of doc.invariants) {
      expect(v.check.certified, `${v.reaction} at ${v.T}`).toBe(true);
      const x = centroid([v.x, ...v.phases.map((p) => v.solids[p]!)]);
      const above = solve(v.T + 0.1, x),
        below = solve(v.T - 0.1, x);
      expect(above.converged && below.converged).toBe(true);
      const union = [...new Set([...names(above), ...names(below)])].sort();
      expect(union, `${v.type} ${v.T}`).toEqual([doc.liquid, ...v.phases].sort());
      expect(names(above)).not.toEqual(names(below));
    }
  });

  it('each valley is a three-phase equilibrium along it', () => {
    for (const v of doc.valleys) {
      for (const p of spread(v.points.slice(1, -1), 3)) {
        const r = solve(p.T + 0.02, p.x);
        expect(liquidAlone(r), `${v.phases} at ${p.T}`).toBe(true);
        const solids = v.phases.map((ph) => r.metastable.find((m) => m.name === ph)!);
        // both driving forces zero within the valley's tolerance (0.02 K) times the entropy of melting
        for (const s of solids) expect(Math.abs(s.DF), `${s.name} at ${p.T}`).toBeLessThan(2);
        // inside the tie-triangle (where the two solids differ enough in composition to span one): L + both solids
        const apart = Math.max(...Object.keys(p.x).map((el) => Math.abs(solids[0]!.x[el]! - solids[1]!.x[el]!)));
        if (apart < 0.05) continue;
        const x = centroid([p.x, ...solids.map((s) => s.x)]);
        expect(names(solve(p.T - 0.05, x)), `${v.phases} at ${p.T}`).toEqual([doc.liquid, ...v.phases].sort());
      }
    }
  });

  it('each isotherm is the liquidus of the points on it', () => {
    // a crossing is on the liquidus within ISOTHERM_TOLERANCE where it was searched, and within the cubic's error
    // where the interpolant was trusted; twice the tolerance bounds both
    const tol = 2 * ISOTHERM_TOLERANCE;
    let checked = 0;
    for (const l of doc.isotherms)
      for (const x of spread(l.segments, 2).map((s) => s[0])) {
        expect(liquidAlone(solve(l.T + tol, x)), `${l.T} K at ${JSON.stringify(x)}`).toBe(true);
        expect(liquidAlone(solve(l.T - tol, x)), `${l.T} K at ${JSON.stringify(x)}`).toBe(false);
        checked++;
      }
    expect(checked).toBeGreaterThan(4);
  });

  it('each primary field crystallises its phase first', () => {
    // (a field too small to hold a grid node is labelled at the centroid of its valleys: no liquidus of its own)
    for (const f of doc.primary_fields.filter((k) => k.grid_nodes > 0)) {
      expect(liquidAlone(solve(f.at.T + 0.01, f.at.x)), f.phase).toBe(true);
      const below = names(solve(f.at.T - 0.01, f.at.x));
      expect(
        below.filter((p) => p !== doc.liquid),
        f.phase,
      ).toEqual([f.phase]);
    }
  });
});

describe('liquidus_projection: literature anchors', () => {
  it('Al-Cu-Mg: the ternary eutectic L -> (Al) + Al2Cu + Al2CuMg at 780 K (507 C), as measured', () => {
    const doc = project(CASES[0]!);
    const e = doc.invariants.find((v) => v.type === 'E' && [...v.phases].sort().join() === 'ALCU_THETA,FCC_A1,SPHASE');
    expect(e).toBeDefined();
    expect(Math.abs(e!.T - 780)).toBeLessThan(8);
  });

  it('Al-Mg-Si: the ternary eutectic L -> (Al) + Mg2Si + (Si) at 828 K (555 C), as measured', () => {
    const doc = project(CASES[1]!);
    const e = doc.invariants.find((v) => v.type === 'E' && [...v.phases].sort().join() === 'DIAMOND_A4,FCC_A1,MG2SI');
    expect(e).toBeDefined();
    expect(Math.abs(e!.T - 828)).toBeLessThan(8);
  });
});

describe('liquidus_projection of a section of a multicomponent alloy', () => {
  it('Al-Cu-Mg + 1 at.% Si: every node holds the Si, the four-phase points hold their four phases', () => {
    const c: Case = { name: 'Al-Cu-Mg-Si', tdb: COST507, components: ['AL', 'CU', 'MG', 'SI'], grid: 8 };
    const doc = project(c, { fixed_compositions: { SI: 0.01 } });
    expect(doc.fixed_compositions).toEqual({ SI: 0.01 });
    for (const row of doc.table.rows) expect(row[3]).toBeCloseTo(0.01, 12);
    const solve = solverOf(c, doc);
    for (const v of doc.invariants.filter((k) => k.check.certified)) {
      const x = centroid([v.x, ...v.phases.map((p) => v.solids[p]!)]);
      const union = [...new Set([...names(solve(v.T + 0.1, x)), ...names(solve(v.T - 0.1, x))])].sort();
      expect(union).toEqual([doc.liquid, ...v.phases].sort());
    }
    expect(doc.invariants.some((v) => v.check.certified)).toBe(true);
  });
});
