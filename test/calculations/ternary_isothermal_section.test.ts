// ternary_isothermal_section task (worker/calculations/ternary_isothermal_section.ts): result.json with provenance,
// result.csv, the Gibbs-triangle preview, mass fractions on request, cancel; its configuration schema; the
// read-out helper the renderer uses (contract/results/ternary_isothermal_section.ts sectionAt).
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { validateTaskConfig } from '../../main/requests/task-config.js';
import { DEFAULT_WORK_BOUNDS } from '../../main/config.js';
import { checkTaskConfig } from '../../main/service/task-checks.js';
import { run } from '../../worker/calculations/ternary_isothermal_section.js';
import { CancelledError, JobControl, type TaskJob } from '../../worker/protocol.js';
import { sectionAt, type TernaryIsothermalSectionResult } from '../../contract/results/ternary_isothermal_section.js';
import { parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

function job(dir: string, condition: Record<string, unknown> = {}): TaskJob<'ternary_isothermal_section'> {
  return parsedJob('ternary_isothermal_section', {
    taskUuid: 't',
    ompThreads: 2,
    taskDir: dir,
    control: new SharedArrayBuffer(128),
    database: { code: 'CRTIV', sha256: 'abc' },
    config: {
      tdb_file: path.join(SHARED_TDB_DIR, 'crtiv_ghosh.tdb'),
      condition: {
        components: ['CR', 'TI', 'V'],
        temperature: 1400,
        pressure: 101325,
        map_options: { grid_divisions: 10 },
        ...condition,
      },
    },
  });
}

describe('ternary_isothermal_section task', () => {
  test('Cr-Ti-V at 1400 K: result.json, result.csv, preview, mass fractions, summary', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ternary-'));
    const j = job(dir, { composition_unit: 'mass_fraction' });
    const out = await run(j, new JobControl(j.control));
    expect(out.summary).toMatch(/^3 two-phase regions, 1 three-phase triangle; self-check (\d+) of \1 points agree$/);
    const doc = JSON.parse(
      readFileSync(path.join(dir, 'result', 'result.json'), 'utf8'),
    ) as TernaryIsothermalSectionResult;
    expect(doc.task_type).toBe('ternary_isothermal_section');
    expect(doc.provenance.database).toMatchObject({ code: 'CRTIV', file_name: 'crtiv_ghosh.tdb', sha256: 'abc' });
    expect(doc.config.tdb_file).toBe('crtiv_ghosh.tdb');
    expect(doc.components).toEqual(['CR', 'TI', 'V']);
    expect(doc.window).toEqual({ CR: [0, 1], TI: [0, 1], V: [0, 1] });
    const tri = doc.three_phase_triangles[0]!;
    expect(tri.refinement).toBeLessThanOrEqual(1e-5);
    for (const c of tri.corners) {
      expect(c.x.CR! + c.x.TI! + c.x.V!).toBeCloseTo(1, 9);
      // mass fractions from the ELEMENT masses: Cr 51.996, Ti 47.88, V 50.941
      const m = c.x.CR! * 51.996 + c.x.TI! * 47.88 + c.x.V! * 50.941;
      expect(c.w!.TI).toBeCloseTo((c.x.TI! * 47.88) / m, 9);
    }
    for (const r of doc.two_phase_regions) {
      expect(r.boundaries.map((b) => b.phase)).toEqual(r.phases);
      expect(r.boundaries[0]!.x).toHaveLength(r.tielines.length);
      expect(r.tielines[0]!.w).toHaveLength(2);
    }
    expect(doc.self_check!.disagreements).toEqual([]);
    const csv = readFileSync(path.join(dir, 'result', 'result.csv'), 'utf8').split('\r\n');
    expect(csv[0]).toMatch(
      /^kind,index,phases,phase_1,X1\(CR\) \[mole fraction\],X1\(TI\) \[mole fraction\],X1\(V\) \[mole fraction\],W1\(CR\) \[mass fraction\]/,
    );
    expect(csv.filter((l) => l.startsWith('triangle,'))).toHaveLength(1);
    expect(csv.filter((l) => l.startsWith('tie_line,')).length).toBe(
      doc.two_phase_regions.reduce((a, r) => a + r.tielines.length, 0),
    );
    const svg = readFileSync(path.join(dir, 'preview', 'isothermal_section.svg'), 'utf8');
    expect(svg).toContain('Cr-Ti-V isothermal section, T = 1400 K');
    // the triangles are labelled in the database's display names (worker/results/display-names.ts)
    for (const t of doc.three_phase_triangles) for (const p of t.display!.split(' + ')) expect(svg).toContain(p);
    expect(existsSync(path.join(dir, 'preview', 'isothermal_section.png'))).toBe(true);
  });

  test('the read-out: a triangle gives its corners with barycentric amounts, a region an interpolated tie-line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ternary-'));
    const j = job(dir);
    await run(j, new JobControl(j.control));
    const doc = JSON.parse(
      readFileSync(path.join(dir, 'result', 'result.json'), 'utf8'),
    ) as TernaryIsothermalSectionResult;
    const tri = doc.three_phase_triangles[0]!;
    const centroid = Object.fromEntries(
      doc.components.map((c) => [c, tri.corners.reduce((a, k) => a + k.x[c]!, 0) / 3]),
    );
    const at = sectionAt(doc, centroid)!;
    expect(at.kind).toBe('three_phase');
    for (const p of at.phases) expect(p.amount).toBeCloseTo(1 / 3, 9);
    const r = doc.two_phase_regions.find((q) => q.tielines.length > 3)!;
    // halfway between two traced tie-lines, 30 % of the way from phase 0's end to phase 1's
    const [t1, t2] = [r.tielines[1]!, r.tielines[2]!];
    const a = Object.fromEntries(doc.components.map((c) => [c, (t1.x[0][c]! + t2.x[0][c]!) / 2]));
    const b = Object.fromEntries(doc.components.map((c) => [c, (t1.x[1][c]! + t2.x[1][c]!) / 2]));
    const X = Object.fromEntries(doc.components.map((c) => [c, 0.7 * a[c]! + 0.3 * b[c]!]));
    const two = sectionAt(doc, X)!;
    expect(two.kind).toBe('two_phase');
    expect(two.phases.map((p) => p.phase)).toEqual(r.phases);
    expect(two.phases[0]!.amount).toBeCloseTo(0.7, 6);
    expect(two.phases[0]!.x.CR).toBeCloseTo(a.CR!, 6);
    // just beyond phase 0's end of that tie-line (away from phase 1): phase 0's single-phase field
    const beyond = Object.fromEntries(doc.components.map((c) => [c, a[c]! + 0.01 * (a[c]! - b[c]!)]));
    expect(sectionAt(doc, beyond)).toMatchObject({ kind: 'single_phase', phases: [{ phase: r.phases[0], amount: 1 }] });
  });

  test('a cancel set from another thread during the mapping stops it with CancelledError', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ternary-'));
    // a dense seed grid (1,891 nodes at GLOBAL_MIN_PDENS 300): far longer than the 0.3 s before the cancel
    const j = job(dir, { map_options: { grid_divisions: 60, GLOBAL_MIN_PDENS: 300 } });
    const control = new JobControl(j.control);
    const stamp = new SharedArrayBuffer(8);
    const w = new Worker(
      `
      const { workerData } = require('node:worker_threads');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      new Float64Array(workerData.stamp)[0] = performance.timeOrigin + performance.now();
      Atomics.store(new Int32Array(workerData.control), 0, 1);
    `,
      { eval: true, workerData: { control: j.control, stamp } },
    );
    let error: unknown;
    try {
      run(j, control);
    } catch (e) {
      error = e;
    }
    const stoppedAt = performance.timeOrigin + performance.now();
    void w.terminate();
    expect(error).toBeInstanceOf(CancelledError);
    expect(control.getProgress()).toBeLessThan(0.25);
    // reported, not asserted (no timed assertions): batches run in chunks of about 100 ms
    console.log(`cancel latency ${(stoppedAt - new Float64Array(stamp)[0]!).toFixed(0)} ms`);
  });

  test('configuration: 4xx texts name the field and the bound', () => {
    const base = {
      task_type: 'ternary_isothermal_section',
      tdb_code: 'X',
      condition: { components: ['AL', 'CR', 'NI'], temperature: 1273, pressure: 101325 },
    };
    expect(validateTaskConfig('ternary_isothermal_section', base)).toMatchObject({ ok: true });
    const bad = (condition: Record<string, unknown>) =>
      validateTaskConfig('ternary_isothermal_section', { ...base, condition: { ...base.condition, ...condition } });
    expect(bad({ components: ['AL', 'CR'] })).toEqual({
      ok: false,
      error: 'task_config.condition.components: must hold exactly 3 components',
    });
    expect(bad({ components: ['AL', 'AL', 'NI'] })).toMatchObject({
      error: 'task_config.condition.components: must hold 3 different elements (VA is added by the calculation)',
    });
    expect(bad({ temperature: 0 })).toMatchObject({
      error: 'task_config.condition.temperature: must be greater than 0',
    });
    expect(bad({ map_options: { grid_divisions: 61 } })).toMatchObject({
      error: 'task_config.condition.map_options.grid_divisions: must be at most 60',
    });
    expect(bad({ composition_unit: 'weight' })).toMatchObject({
      error: 'task_config.condition.composition_unit: must be one of: mole_fraction, mass_fraction',
    });
    expect(bad({ composition_window: [{ component: 'FE', min: 0, max: 0.5 }] })).toMatchObject({
      error: 'task_config.condition.composition_window.0.component: must be one of condition.components',
    });
    expect(bad({ composition_window: [{ component: 'CR', min: 0.5, max: 0.2 }] })).toMatchObject({
      error: 'task_config.condition.composition_window.0.max: must be greater than min',
    });
    expect(bad({ composition_window: [{ component: 'CR', min: 0, max: 1.5 }] })).toMatchObject({
      error: 'task_config.condition.composition_window.0.max: must be between 0 and 1',
    });
    // the work bounds at POST (main/service/task-checks.ts), as for the other task types
    const db = { code: 'ALCRNI', elements: ['AL', 'CR', 'NI', 'VA'], phases: ['LIQUID', 'B2', 'L12_FCC'] };
    const check = (condition: Record<string, unknown>) =>
      checkTaskConfig(
        'ternary_isothermal_section',
        { ...base, condition: { ...base.condition, ...condition } },
        db,
        DEFAULT_WORK_BOUNDS,
      );
    expect(check({})).toBeNull();
    expect(check({ map_options: { GLOBAL_MIN_PDENS: 5000 } })).toBe(
      'task_config.condition.map_options.GLOBAL_MIN_PDENS: must be at most 2000 (setting max_sampling_density)',
    );
    expect(check({ temperature: 20000 })).toBe(
      'task_config.condition.temperature: must be at most 10000 K (setting max_temperature)',
    );
    expect(check({ components: ['AL', 'CR', 'FE'] })).toMatch(
      /^task_config\.condition\.components: FE is not an element of database 'ALCRNI'/,
    );
    expect(check({ activated_phases: ['SIGMA'] })).toBe(
      "task_config.condition.activated_phases: SIGMA is not a phase of database 'ALCRNI' (nearest: LIQUID)",
    );
  });
});
