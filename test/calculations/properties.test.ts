// thermodynamic_properties_next (worker/calculations/thermodynamic_properties_next.ts): Cp_equilibrium
// is dH/dT along the equilibrium (checked against a central finite difference of H from independent
// point equilibria, away from transitions), equals Cp_frozen where one phase is stable, transitions
// agree with point equilibria on either side, cancel stops a long scan, run() writes the files.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { CancelledError, JobControl } from '../../worker/protocol.js';
import { parsedJob } from '../support/jobs.js';
import { propertiesScan, run } from '../../worker/calculations/thermodynamic_properties_next.js';
import type { EquilibriumResult } from '../../worker/core/equilibrium.js';
import type { PropertiesDocument } from '../../contract/results/thermodynamic_properties_next.js';

const ALZN = path.resolve(__dirname, '../../databases/alzn_mey1993.tdb');
const db = openDatabase(ALZN);
const comps = ['AL', 'ZN', 'VA'];
const phaseSetKey = (r: EquilibriumResult) =>
  r.phases
    .map((p) => (p.setNumber > 1 ? `${p.name}#${p.setNumber}` : p.name))
    .sort()
    .join('+');

/** A properties job on Al-Zn (the calculation reads the task_config like the service hands it over). */
function job(condition: Record<string, unknown>, dir = '/nonexistent', threads = 2) {
  return parsedJob('thermodynamic_properties_next', {
    taskUuid: 't',
    ompThreads: threads,
    taskDir: dir,
    control: new SharedArrayBuffer(16),
    config: {
      task_type: 'thermodynamic_properties_next',
      tdb_file: ALZN,
      condition: { components: ['AL', 'ZN'], pressure: 101325, ...condition },
    },
  });
}
const scanOf = (condition: Record<string, unknown>, control = new JobControl(new SharedArrayBuffer(16))) =>
  propertiesScan(job(condition), control);

const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-props-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function H(T: number, xzn: number): { HM: number; key: string } {
  const r = equilibrium({ database: db, components: comps, conditions: { T, P: 101325, X: { ZN: xzn } } });
  expect(r.converged, r.reason).toBe(true);
  return { HM: r.HM, key: phaseSetKey(r) };
}

/** A control block cancelled from another thread after `ms` (the scan blocks this thread in native code). */
function cancelLater(buffer: SharedArrayBuffer, stamp: SharedArrayBuffer, ms: number): Worker {
  return new Worker(
    `
    const { workerData } = require('node:worker_threads');
    setTimeout(() => {
      new Float64Array(workerData.stamp)[0] = Date.now();
      Atomics.store(new Int32Array(workerData.buffer, 0, 1), 0, 1);
    }, ${ms});`,
    { eval: true, workerData: { buffer, stamp } },
  );
}

describe('thermodynamic_properties_next', () => {
  const scan = scanOf({
    temperature_start: 450,
    temperature_end: 950,
    compositions_start: { ZN: 0.3 },
    compositions_end: { ZN: 0.3 },
    points: 101,
  });

  it('converges everywhere and finds the transitions of Al-30Zn, confirmed by point equilibria', () => {
    expect(scan.points.every((p) => p.converged)).toBe(true);
    expect(scan.points).toHaveLength(101);
    // at least FCC+HCP or gap -> FCC -> FCC+LIQUID -> LIQUID
    expect(scan.transitions.length).toBeGreaterThanOrEqual(2);
    for (const t of scan.transitions) {
      expect(H(t.T - 0.01, 0.3).key).toBe(t.phases_before.join('+'));
      expect(H(t.T + 0.01, 0.3).key).toBe(t.phases_after.join('+'));
    }
    const last = scan.points[scan.points.length - 1];
    expect(last.phases.map((p) => p.name)).toEqual(['LIQUID']);
  });

  it('Cp_equilibrium agrees with a central finite difference of H away from transitions', () => {
    const h = 0.01;
    let checked = 0,
      twoPhase = 0;
    for (const p of scan.points.filter((_, i) => i % 4 === 1)) {
      if (scan.transitions.some((t) => Math.abs(t.T - p.T) < 0.5)) continue;
      const lo = H(p.T - h, 0.3),
        hi = H(p.T + h, 0.3);
      if (lo.key !== hi.key) continue;
      const fd = (hi.HM - lo.HM) / (2 * h);
      expect(p.Cp_equilibrium, `T=${p.T}`).not.toBeNull();
      expect(Math.abs(p.Cp_equilibrium! - fd), `T=${p.T} Cp=${p.Cp_equilibrium} fd=${fd}`).toBeLessThan(
        2e-3 * Math.abs(fd) + 1e-3,
      );
      checked++;
      if (p.phases.length > 1) twoPhase++;
    }
    expect(checked).toBeGreaterThan(15);
    expect(twoPhase).toBeGreaterThan(3);
  });

  it('Cp_equilibrium equals Cp_frozen in single-phase regions and exceeds it where phases melt', () => {
    let single = 0,
      melting = 0;
    for (const p of scan.points) {
      expect(p.Cp_frozen).toBeCloseTo(
        p.phases.reduce((a, q) => a + q.amount * q.CPM, 0),
        9,
      );
      if (p.phases.length === 1) {
        expect(Math.abs(p.Cp_equilibrium! - p.Cp_frozen), `T=${p.T}`).toBeLessThan(1e-6 * Math.abs(p.Cp_frozen) + 1e-8);
        single++;
      }
      if (p.phases.some((q) => q.name === 'LIQUID') && p.phases.length === 2) {
        // melting absorbs heat: the latent-heat term makes the equilibrium Cp much larger
        expect(p.Cp_equilibrium!).toBeGreaterThan(p.Cp_frozen + 10);
        melting++;
      }
    }
    expect(single).toBeGreaterThan(10);
    expect(melting).toBeGreaterThan(3);
  });

  it('a composition scan at fixed T is supported (x interpolated linearly)', () => {
    const s = scanOf({
      temperature_start: 700,
      temperature_end: 700,
      compositions_start: { ZN: 0.05 },
      compositions_end: { ZN: 0.95 },
      points: 19,
    });
    expect(s.points[0].x.ZN).toBeCloseTo(0.05, 12);
    expect(s.points[18].x.ZN).toBeCloseTo(0.95, 12);
    expect(s.transitions.length).toBeGreaterThanOrEqual(2);
    for (const t of s.transitions) {
      const a = equilibrium({ database: db, components: comps, conditions: { T: 700, X: { ZN: t.x.ZN - 2e-5 } } });
      const b = equilibrium({ database: db, components: comps, conditions: { T: 700, X: { ZN: t.x.ZN + 2e-5 } } });
      expect(phaseSetKey(a)).toBe(t.phases_before.join('+'));
      expect(phaseSetKey(b)).toBe(t.phases_after.join('+'));
    }
  });

  it('cancel stops a long scan (CancelledError)', async () => {
    const control = new JobControl(new SharedArrayBuffer(16));
    const stamp = new SharedArrayBuffer(8);
    const w = cancelLater(control.buffer, stamp, 300);
    await new Promise((r) => w.once('online', r));
    let err: unknown;
    try {
      scanOf(
        {
          temperature_start: 300,
          temperature_end: 1200,
          compositions_start: { ZN: 0.3 },
          compositions_end: { ZN: 0.6 },
          points: 400000,
        },
        control,
      );
    } catch (e) {
      err = e;
    }
    const latency = Date.now() - new Float64Array(stamp)[0];
    await w.terminate();
    expect(err).toBeInstanceOf(CancelledError);
    expect(control.getProgress()).toBeLessThan(1);
    console.log(`properties scan: cancel honoured ${latency} ms after the flag was set`);
  });

  it('run() writes result.json, result.csv and the properties preview', () => {
    const dir = path.join(tmp, 'task');
    const j = job(
      {
        compositions_start: { ZN: 0.3 },
        compositions_end: { ZN: 0.3 },
        temperature_start: 600,
        temperature_end: 900,
        points: 31,
        thermo_outputs: ['Cp', 'mu(*)', 'NP(*)'],
      },
      dir,
      1,
    );
    j.database = { code: 'ALZN', sha256: 'x'.repeat(64) };
    const control = new JobControl(j.control);
    const out = run(j, control);
    expect(out.summary).toMatch(/^31 points 600\.0-900\.0 K, \d+ transitions?, Cp_equilibrium/);
    const doc = JSON.parse(readFileSync(path.join(dir, 'result', 'result.json'), 'utf8')) as PropertiesDocument;
    expect(doc.version).toBe(1);
    expect(doc.task_type).toBe('thermodynamic_properties_next');
    expect(doc.cp_definition).toMatch(/Cp_equilibrium/);
    expect(doc.points).toHaveLength(31);
    expect(doc.points[0]).toHaveProperty('Cp_frozen');
    expect(doc.provenance.database.code).toBe('ALZN');
    expect(doc.table.columns.map((c) => c.name)).toEqual(expect.arrayContaining(['Cp', 'mu(AL)', 'mu(ZN)']));
    const csv = readFileSync(path.join(dir, 'result', 'result.csv'), 'utf8');
    expect(csv.split('\r\n')[0]).toContain('Cp [J/(mol K)]');
    expect(existsSync(path.join(dir, 'preview', 'properties.svg'))).toBe(true);
    expect(existsSync(path.join(dir, 'preview', 'properties.png'))).toBe(true);
  });
});
