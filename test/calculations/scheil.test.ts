// scheil_solidification (worker/calculations/scheil_solidification.ts): fraction solid monotonic, a
// binary Scheil path ends at the eutectic that point equilibria confirm (liquid above, two solids and
// no liquid below), lever-rule solidus >= Scheil solidus, inhibit_phases honoured, cancel stops a long
// run, run() writes the files, and the shared validation cases of kind scheil match.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { CancelledError, JobControl } from '../../worker/protocol.js';
import { run } from '../../worker/calculations/scheil_solidification.js';
import { scheilSolidification, type ScheilRun } from '../../worker/scans/scheil/run.js';
import { xConditions } from '../../worker/scans/scheil/equilibria.js';
import { SetLabeler } from '../../worker/scans/scheil/phase-labels.js';
import type { EquilibriumResult } from '../../worker/core/equilibrium.js';
import type { ScheilDocument } from '../../contract/results/scheil_solidification.js';
import { parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { expectAllMatched } from '../validation/expect-matched.js';

const DBS = path.resolve(__dirname, '../../databases');
const agcu = openDatabase(path.join(DBS, 'agcu_hayes1986.tdb'));
const alzn = openDatabase(path.join(DBS, 'alzn_mey1993.tdb'));
const chen = openDatabase(path.join(SHARED_TDB_DIR, 'sl_chen.tdb'));
const phaseSetKey = (r: EquilibriumResult) =>
  r.phases
    .map((p) => (p.setNumber > 1 ? `${p.name}#${p.setNumber}` : p.name))
    .sort()
    .join('+');
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-scheil-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function expectMonotonic(r: ScheilRun): void {
  for (let i = 1; i < r.steps.length; i++) {
    expect(r.steps[i].T).toBeLessThan(r.steps[i - 1].T);
    expect(r.steps[i].fraction_solid).toBeGreaterThanOrEqual(r.steps[i - 1].fraction_solid);
    expect(r.steps[i].fraction_solid + r.steps[i].fraction_liquid).toBeCloseTo(1, 12);
  }
  for (const s of r.steps) expect(s.fraction_solid).toBeGreaterThanOrEqual(0);
  expect(r.steps[r.steps.length - 1].fraction_solid).toBeLessThanOrEqual(1);
  // phase totals add up to the solid formed
  const tot = Object.values(r.phase_totals).reduce((a, b) => a + b, 0);
  expect(tot).toBeCloseTo(r.steps[r.steps.length - 1].fraction_solid, 9);
}

const binaries = [
  {
    name: 'Ag-20Cu (agcu_hayes1986)',
    db: agcu,
    comps: ['AG', 'CU', 'VA'],
    x: { CU: 0.2 } as Record<string, number>,
    T0: 1300,
    eutectic: 1052,
  },
  {
    name: 'Al-10Zn (alzn_mey1993)',
    db: alzn,
    comps: ['AL', 'ZN', 'VA'],
    x: { ZN: 0.1 } as Record<string, number>,
    T0: 1000,
    eutectic: 654,
  },
];

describe('scheil_solidification', () => {
  for (const b of binaries) {
    it(`${b.name}: ends at the eutectic, confirmed by point equilibria`, () => {
      const r = scheilSolidification({
        database: b.db,
        components: b.comps.filter((c) => c !== 'VA'),
        composition: b.x,
        startTemperature: b.T0,
        temperatureStep: 2,
        threads: 2,
      });
      expectMonotonic(r);
      expect(r.end_reason).toBe('eutectic');
      const Te = r.solidus_temperature!;
      expect(Math.abs(Te - b.eutectic), `Scheil end ${Te} K`).toBeLessThan(3);
      expect(r.eutectic_phases).toHaveLength(2);
      // the last liquid: liquid at Te + 0.02 K, the two eutectic solids (and no liquid) at Te - 0.02 K
      const xl = r.steps[r.steps.length - 1].liquid_x;
      const above = equilibrium({
        database: b.db,
        components: b.comps,
        conditions: { T: Te + 0.02, X: xConditions(xl) },
      });
      const below = equilibrium({
        database: b.db,
        components: b.comps,
        conditions: { T: Te - 0.02, X: xConditions(xl) },
      });
      expect(
        above.phases.some((p) => p.name === 'LIQUID'),
        phaseSetKey(above),
      ).toBe(true);
      expect(
        below.phases.some((p) => p.name === 'LIQUID'),
        phaseSetKey(below),
      ).toBe(false);
      expect(below.phases).toHaveLength(2);
      // liquidus: first solid within 0.01 K
      const L = r.liquidus_temperature!;
      const xa = xConditions(Object.fromEntries(Object.entries(r.steps[0].liquid_x)));
      expect(
        equilibrium({ database: b.db, components: b.comps, conditions: { T: L + 0.01, X: xa } }).phases,
      ).toHaveLength(1);
      expect(
        equilibrium({ database: b.db, components: b.comps, conditions: { T: L - 0.01, X: xa } }).phases.length,
      ).toBeGreaterThan(1);
      // lever rule: monotonic, solidus above (or at) the Scheil end
      expect(r.lever_rule_solidus_temperature).not.toBeNull();
      expect(r.lever_rule_solidus_temperature!).toBeGreaterThanOrEqual(Te);
      for (let i = 1; i < r.lever_rule.length; i++) {
        expect(r.lever_rule[i].fraction_solid).toBeGreaterThanOrEqual(r.lever_rule[i - 1].fraction_solid - 1e-9);
      }
    });
  }

  it('ternary A-B-C (Chen 2009): monotonic, ALPHA then ALPHA+BETA then BETA', () => {
    const r = scheilSolidification({
      database: chen,
      components: ['A', 'B', 'C'],
      composition: { B: 0.25, C: 0.1 },
      startTemperature: 900,
      temperatureStep: 1,
    });
    expectMonotonic(r);
    const seq = r.steps.map((s) => s.phases_forming.join('+')).filter((s, i, a) => s && s !== a[i - 1]);
    expect(seq).toEqual(['ALPHA', 'ALPHA+BETA', 'BETA']);
    expect(r.liquidus_temperature!).toBeGreaterThan(800);
  });

  it('composition sets keep their label along the path (Cu-rich Ag-Cu: primary FCC stays FCC_A1)', () => {
    const l = new SetLabeler(['AG', 'CU']);
    expect(l.assign('FCC_A1', [{ x: { AG: 0.02, CU: 0.98 } }])).toEqual(['FCC_A1']);
    // the solver lists the new Ag-rich set first: labels follow the compositions, not the order
    expect(l.assign('FCC_A1', [{ x: { AG: 0.9, CU: 0.1 } }, { x: { AG: 0.05, CU: 0.95 } }])).toEqual([
      'FCC_A1#2',
      'FCC_A1',
    ]);
    expect(l.assign('FCC_A1', [{ x: { AG: 0.06, CU: 0.94 } }])).toEqual(['FCC_A1']);
    const r = scheilSolidification({
      database: agcu,
      components: ['AG', 'CU'],
      composition: { CU: 0.95 },
      startTemperature: 1400,
      temperatureStep: 5,
    });
    const seq = r.steps.map((q) => q.phases_forming.join('+')).filter((q, i, a) => q && q !== a[i - 1]);
    expect(seq).toEqual(['FCC_A1', 'FCC_A1+FCC_A1#2']);
    // the primary Cu-rich solid is most of the alloy; the Ag-rich eutectic solid is the rest
    expect(r.phase_totals.FCC_A1).toBeGreaterThan(0.9);
    expect(r.phase_totals['FCC_A1#2']).toBeLessThan(0.1);
  });

  it('inhibit_phases removes a phase from the path', () => {
    const r = scheilSolidification({
      database: chen,
      components: ['A', 'C'],
      composition: { C: 0.5 },
      startTemperature: 1100,
      temperatureStep: 5,
      inhibitPhases: ['BETA'],
    });
    expect(r.steps.every((s) => !s.phases_forming.includes('BETA'))).toBe(true);
    expect(r.steps.some((s) => s.phases_forming.includes('ALPHA'))).toBe(true);
    expect(() =>
      scheilSolidification({
        database: chen,
        components: ['A', 'C'],
        composition: { C: 0.5 },
        startTemperature: 1100,
        temperatureStep: 5,
        inhibitPhases: ['LIQUID'],
      }),
    ).toThrow(/liquid/i);
  });

  it('cancel stops a long run (CancelledError)', async () => {
    const control = new JobControl(new SharedArrayBuffer(16));
    const stamp = new SharedArrayBuffer(8);
    const w = new Worker(
      `
      const { workerData } = require('node:worker_threads');
      setTimeout(() => { new Float64Array(workerData.stamp)[0] = Date.now(); Atomics.store(new Int32Array(workerData.buffer, 0, 1), 0, 1); }, 300);`,
      { eval: true, workerData: { buffer: control.buffer, stamp } },
    );
    await new Promise((r) => w.once('online', r));
    let err: unknown;
    try {
      scheilSolidification({
        database: agcu,
        components: ['AG', 'CU'],
        composition: { CU: 0.2 },
        startTemperature: 1300,
        temperatureStep: 0.001,
        control,
      });
    } catch (e) {
      err = e;
    }
    const latency = Date.now() - new Float64Array(stamp)[0];
    await w.terminate();
    expect(err).toBeInstanceOf(CancelledError);
    console.log(`Scheil: cancel honoured ${latency} ms after the flag was set`);
  });

  it('run() writes result.json, result.csv and the scheil preview; summary line', () => {
    const dir = path.join(tmp, 'task');
    const control = new JobControl(new SharedArrayBuffer(16));
    const tdb = path.join(DBS, 'alzn_mey1993.tdb');
    const job = parsedJob('scheil_solidification', {
      taskUuid: 't',
      ompThreads: 1,
      taskDir: dir,
      control: control.buffer,
      config: {
        task_type: 'scheil_solidification',
        tdb_file: tdb,
        condition: {
          components: ['AL', 'ZN'],
          compositions: { AL: 0.9, ZN: 0.1 },
          start_temperature: 1000,
          temperature_step: 5,
          pressure: 101325,
        },
      },
    });
    const out = run(job, control);
    expect(out.summary).toMatch(
      /^liquidus \d+\.\d K, Scheil solidus \d+\.\d K \(eutectic\), lever-rule solidus \d+\.\d K$/,
    );
    const doc = JSON.parse(readFileSync(path.join(dir, 'result', 'result.json'), 'utf8')) as ScheilDocument;
    expect(doc.version).toBe(1);
    expect(doc.task_type).toBe('scheil_solidification');
    expect(doc.liquid_phase).toBe('LIQUID');
    expect(doc.end_reason).toBe('eutectic');
    expect(doc.provenance.database.code).toBeNull();
    expect(doc.steps.length).toBeGreaterThan(10);
    expect(doc.lever_rule.length).toBeGreaterThan(10);
    expect(doc.table.rows).toHaveLength(doc.steps.length);
    expect(readFileSync(path.join(dir, 'result', 'result.csv'), 'utf8').split('\r\n')[0]).toBe(
      'T [K],fraction_solid [-],fraction_liquid [-],solid_increment [-],phases_forming,"x(LIQUID,AL) [-]","x(LIQUID,ZN) [-]",' +
        '"w(LIQUID,AL) [-]","w(LIQUID,ZN) [-]",T_liquidus [K],T_scheil_end [K],T_equilibrium_solidus [K]',
    );
    expect(existsSync(path.join(dir, 'preview', 'scheil.svg'))).toBe(true);
    expect(existsSync(path.join(dir, 'preview', 'scheil.png'))).toBe(true);
  });

  it('matches the shared validation cases of kind scheil', async () => {
    await expectAllMatched(['scheil']);
  });
});
