// binary_equilibrium task (worker/calculations/binary_equilibrium.ts): result.json per
// notes/results-schema.md with provenance, result.csv, the phase_diagram preview, summary, cancel.
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { run } from '../../worker/calculations/binary_equilibrium.js';
import { openDatabase } from '../../worker/core/database.js';
import { mapBinary } from '../../worker/mapping/binary.js';
import { CancelledError, JobControl } from '../../worker/protocol.js';
import type { BinaryEquilibriumResult } from '../../contract/results/binary_equilibrium.js';
import { parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

function job(dir: string, extra: Record<string, unknown> = {}) {
  return parsedJob('binary_equilibrium', {
    taskUuid: 't',
    ompThreads: 2,
    taskDir: dir,
    control: new SharedArrayBuffer(16),
    database: { code: 'ALZN', sha256: 'abc' },
    config: {
      task_type: 'binary_equilibrium',
      tdb_file: path.join(SHARED_TDB_DIR, 'alzn_mey.tdb'),
      condition: {
        components: ['AL', 'ZN'],
        compositions_start: { ZN: 0 },
        compositions_end: { ZN: 1 },
        temperature_start: 400,
        temperature_end: 1000,
        pressure: 101325,
      },
      ...extra,
    },
  });
}

describe('binary_equilibrium task', () => {
  test('Al-Zn: result.json, result.csv, preview and summary', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'binary-eq-'));
    const j = job(dir);
    const out = await run(j, new JobControl(j.control));
    expect(out.summary).toMatch(
      /^\d+ two-phase regions, 2 invariants \(eutectic 65\d\.\d K, monotectoid 55\d\.\d K\), 1 critical point/,
    );
    const doc = JSON.parse(readFileSync(path.join(dir, 'result', 'result.json'), 'utf8')) as BinaryEquilibriumResult;
    expect(doc.version).toBe(1);
    expect(doc.task_type).toBe('binary_equilibrium');
    expect(doc.provenance.database).toMatchObject({ code: 'ALZN', file_name: 'alzn_mey.tdb', sha256: 'abc' });
    expect(doc.config.tdb_file).toBe('alzn_mey.tdb');
    expect(doc.components).toEqual(['AL', 'ZN']);
    expect(doc.x_component).toBe('ZN');
    expect(doc.temperature_range).toEqual([400, 1000]);
    expect(doc.composition_range).toEqual([0, 1]);
    const pairs = doc.two_phase_regions.map((r) => r.phases.join('+'));
    expect(pairs).toEqual(
      expect.arrayContaining(['FCC_A1+HCP_A3', 'FCC_A1+FCC_A1#2', 'FCC_A1+LIQUID', 'LIQUID+HCP_A3']),
    );
    for (const r of doc.two_phase_regions) {
      for (let k = 1; k < r.tielines.length; k++) expect(r.tielines[k].T).toBeGreaterThanOrEqual(r.tielines[k - 1].T);
      for (const t of r.tielines) expect(t.x[0]).toBeLessThanOrEqual(t.x[1] + 1e-12);
    }
    const eut = doc.invariants.find((v) => v.kind === 'eutectic')!;
    expect(eut.reaction).toBe('LIQUID -> FCC_A1 + HCP_A3');
    expect(eut.phases.map((p) => p.name)).toEqual(['FCC_A1', 'LIQUID', 'HCP_A3']);
    expect(doc.invariants.find((v) => v.kind === 'monotectoid')!.reaction).toBe('FCC_A1#2 -> FCC_A1 + HCP_A3');
    expect(doc.critical_points).toHaveLength(1);
    expect(doc.critical_points[0].phase).toBe('FCC_A1');
    expect(doc.single_phase_regions.map((l) => l.label)).toEqual(
      expect.arrayContaining(['LIQUID', 'FCC_A1', 'HCP_A3']),
    );
    expect(doc.boundaries).toHaveLength(2 * doc.two_phase_regions.length);
    expect(doc.table.rows.length).toBe(doc.two_phase_regions.reduce((a, r) => a + r.tielines.length, 0));
    const csv = readFileSync(path.join(dir, 'result', 'result.csv'), 'utf8');
    expect(csv.split('\r\n')[0]).toBe(
      'region,phases,T [K],phase_left,X_left(ZN) [mole fraction],phase_right,X_right(ZN) [mole fraction]',
    );
    const svg = readFileSync(path.join(dir, 'preview', 'phase_diagram.svg'), 'utf8');
    expect(svg).toContain('Mole fraction Zn');
    expect(svg).toContain('eutectic');
    expect(existsSync(path.join(dir, 'preview', 'phase_diagram.png'))).toBe(true);
  }, 120_000);

  test('a partial composition range and the x component from compositions_start', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'binary-eq-'));
    const j = job(dir);
    (j.config.condition as Record<string, unknown>).compositions_start = { AL: 0.5 };
    (j.config.condition as Record<string, unknown>).compositions_end = { AL: 1 };
    await run(j, new JobControl(j.control));
    const doc = JSON.parse(readFileSync(path.join(dir, 'result', 'result.json'), 'utf8')) as BinaryEquilibriumResult;
    expect(doc.x_component).toBe('AL');
    expect(doc.composition_range).toEqual([0.5, 1]);
  }, 120_000);

  test('cancel: a cancelled job throws CancelledError', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'binary-eq-'));
    const j = job(dir);
    const control = new JobControl(j.control);
    control.cancel();
    await expect(async () => run(j, control)).rejects.toBeInstanceOf(CancelledError);
  });

  test('cancel while tracing: the mapping stops with CancelledError at the next check', () => {
    const db = openDatabase(path.join(SHARED_TDB_DIR, 'alzn_mey.tdb'));
    let checks = 0;
    const control = {
      get cancelled() {
        return ++checks > 40;
      },
      setProgress: () => {},
    };
    expect(() => mapBinary({ database: db, components: ['AL', 'ZN'], T: [300, 1000], threads: 2, control })).toThrow(
      CancelledError,
    );
    expect(checks).toBe(41); // stopped at the first check after the flag was set
  });

  test('a narrow window (640-660 K, X(ZN) 0.6-1) still finds the eutectic and its three phases', () => {
    const db = openDatabase(path.join(SHARED_TDB_DIR, 'alzn_mey.tdb'));
    const d = mapBinary({ database: db, components: ['AL', 'ZN'], T: [640, 660], X: [0.6, 1], threads: 2 });
    const eut = d.invariants.find((v) => v.kind === 'eutectic');
    expect(eut).toBeDefined();
    expect(Math.abs(eut!.T - 654.0)).toBeLessThan(0.5);
    expect(eut!.phases.map((p) => p.name)).toEqual(['FCC_A1', 'LIQUID', 'HCP_A3']);
    for (const r of d.regions)
      for (const t of r.tielines) {
        expect(t.T).toBeGreaterThanOrEqual(640 - 1e-9);
        expect(t.T).toBeLessThanOrEqual(660 + 1e-9);
      }
  });

  test('order_disorder options are honoured and reported', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'binary-eq-'));
    const j = job(dir, { order_disorder: { enabled: false, stability_filter: false } });
    const out = await run(j, new JobControl(j.control));
    const doc = JSON.parse(readFileSync(path.join(dir, 'result', 'result.json'), 'utf8')) as BinaryEquilibriumResult;
    expect(doc.order_disorder.options).toMatchObject({
      enabled: false,
      stability_filter: false,
      trace_boundaries: true,
    });
    expect(out.logs.join('\n')).toContain('order/disorder handling disabled');
  }, 120_000);

  test('a diagram of which no equilibrium converges fails with the reason, not as an empty diagram', () => {
    // V-O with gas and halite (a pycalphad test file): every equilibrium of the seed grid fails
    const dir = mkdtempSync(path.join(tmpdir(), 'binary-eq-'));
    const j = job(dir, {
      tdb_file: path.join(SHARED_TDB_DIR, 'pycalphad_inline_V_O_gas_halite.tdb'),
      condition: {
        components: ['V', 'O'],
        compositions_start: { O: 0 },
        compositions_end: { O: 1 },
        temperature_start: 300,
        temperature_end: 2000,
        pressure: 101325,
      },
    });
    expect(() => run(j, new JobControl(j.control))).toThrow(
      /^no equilibrium of the diagram converged \((\d+) of \1\); the first: seed grid: equilibrium not converged at T=/,
    );
    expect(existsSync(path.join(dir, 'result', 'result.json'))).toBe(false);
  });
});
