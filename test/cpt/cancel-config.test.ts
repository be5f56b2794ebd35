// binary_cpt_diagram: cancel during the grid, refusal of a bad ui_metadata.axis_config by the task
// schema, and a grid with a degenerate axis (one composition) computed without failure.
import { describe, expect, it } from 'vitest';
import { parsedJob } from '../support/jobs.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { computeCpt, readInput, run, stepAxis } from '../../worker/calculations/binary_cpt_diagram.js';
import { CancelledError, CONTROL_BYTES, JobControl } from '../../worker/protocol.js';
import { validateTaskConfig } from '../../main/requests/task-config.js';

const TDB = resolve(__dirname, '../../databases/cuni_mey1992.tdb');
const condition = {
  components: ['CU', 'NI'],
  x_component: 'NI',
  composition_start: 0,
  composition_end: 1,
  composition_step: 0.1,
  temperature_start: 1200,
  temperature_end: 1800,
  temperature_step: 50,
  pressure_start: 1e5,
  pressure_end: 1e6,
  pressure_points: 2,
  pressure_scale: 'linear',
};

function job(cond: Record<string, unknown>, control: JobControl, extra: Record<string, unknown> = {}) {
  return parsedJob('binary_cpt_diagram', {
    taskUuid: 't',
    ompThreads: 1,
    taskDir: mkdtempSync(join(tmpdir(), 'cpt-cancel-')),
    control: control.buffer,
    config: { tdb_code: 'CUNI', tdb_file: TDB, condition: cond, ...extra },
  });
}

describe('binary_cpt_diagram cancel', () => {
  it('stops with CancelledError soon after the flag is set from another thread', () => {
    const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
    // a grid of ~1.5e5 nodes: far longer than the 0.3 s before the cancel
    const big = { ...condition, composition_step: 0.005, temperature_step: 5, pressure_points: 6 };
    const stamp = new SharedArrayBuffer(8);
    // plain-JS worker: sleeps 300 ms, records the time, sets the cancel flag (Int32 index 0)
    const w = new Worker(
      `
      const { workerData } = require('node:worker_threads');
      const flags = new Int32Array(workerData.control);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      new Float64Array(workerData.stamp)[0] = performance.timeOrigin + performance.now();
      Atomics.store(flags, 0, 1);
    `,
      { eval: true, workerData: { control: control.buffer, stamp } },
    );
    let error: unknown;
    try {
      run(job(big, control), control);
    } catch (e) {
      error = e;
    }
    const stoppedAt = performance.timeOrigin + performance.now();
    void w.terminate();
    expect(error).toBeInstanceOf(CancelledError);
    // stopped during the grid (progress 0..0.7), long before it could have finished
    expect(control.getProgress()).toBeLessThan(0.7);
    const latency = stoppedAt - new Float64Array(stamp)[0]!;
    // reported, not asserted (no timed assertions): the relay thread of worker/scans/chunked-solver.ts hands the flag to the
    // native batch within 20 ms, which stops after the equilibria in flight
    console.log(`cancel latency ${latency.toFixed(0)} ms, progress at stop ${control.getProgress().toFixed(3)}`);
  });
});

describe('binary_cpt_diagram task_config', () => {
  const base = { task_type: 'binary_cpt_diagram', tdb_code: 'CUNI', condition };
  it('accepts a valid axis_config and refuses a bad one', () => {
    const good = validateTaskConfig('binary_cpt_diagram', {
      ...base,
      ui_metadata: {
        axis_config: {
          x: { variable: 'composition', component: 'NI' },
          y: { variable: 'temperature' },
          z: { variable: 'pressure' },
        },
      },
    });
    expect(good.ok).toBe(true);
    const bad = validateTaskConfig('binary_cpt_diagram', {
      ...base,
      ui_metadata: {
        axis_config: { x: { variable: 'density' }, y: { variable: 'temperature' }, z: { variable: 'pressure' } },
      },
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/axis_config\.x\.variable/);
    const noComponent = validateTaskConfig('binary_cpt_diagram', {
      ...base,
      ui_metadata: {
        axis_config: { x: { variable: 'composition' }, y: { variable: 'temperature' }, z: { variable: 'pressure' } },
      },
    });
    expect(noComponent.ok).toBe(false);
  });
});

describe('binary_cpt_diagram grid axes', () => {
  it('steps include the end value', () => {
    expect(stepAxis(0, 1, 0.3, 'c')).toEqual([0, 0.3, 0.6, 0.9, 1]);
    expect(stepAxis(0.1, 0.5, 0.1, 'c')).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(stepAxis(300, 310, 50, 'T')).toEqual([300, 310]);
  });

  it('a grid beyond MAX_NODES is refused with a message before any equilibrium', () => {
    const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
    expect(() => readInput(job({ ...condition, composition_step: 1e-4, temperature_step: 0.1 }, control))).toThrow(
      /at most 1000000 are allowed/,
    );
  });

  it('a single composition (flat axis) is computed: boundaries become segments', () => {
    const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
    const input = readInput(job(condition, control));
    // one composition in the middle of the Cu-Ni lens: liquid above, FCC below, lens between
    const comp = computeCpt({ ...input, xs: [0.5] }, 1, control);
    expect(comp.dims).toEqual([1, 13, 2]);
    expect(comp.phaseSets).toEqual(expect.arrayContaining(['FCC_A1', 'LIQUID']));
    expect(comp.surface.polys).toHaveLength(0);
    expect(comp.surface.lines.length).toBeGreaterThan(0);
    expect(comp.boundary.every((b) => b.axis === 'T' || b.axis === 'P')).toBe(true);
  });
});
