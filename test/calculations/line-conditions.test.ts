// line_calculation's extensions (worker/calculations/line_calculation/conditions.ts, worker/scans/fixed-phase-line.ts): an element
// held at an activity along a temperature line reproduces the composition its activity was taken from, and a phase
// held at an amount along a composition line gives the liquidus and solidus the temperature lines' transitions give.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobControl } from '../../worker/protocol.js';
import { run } from '../../worker/calculations/line_calculation.js';
import type { LineCalculationResult } from '../../contract/results/line_calculation.js';
import { run as runPoint } from '../../worker/calculations/point_calculation.js';
import type { PointCalculationResult } from '../../contract/results/point_calculation.js';
import { parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const ALZN = path.join(SHARED_TDB_DIR, 'alzn_mey.tdb');
const CFE = path.join(SHARED_TDB_DIR, 'cfe_broshe.tdb');
const ALCFE = path.join(SHARED_TDB_DIR, 'alcfe_b2.tdb');
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-linecond-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

/** Runs a calculation module on a validated configuration; its result.json. */
function calculate<T>(
  type: 'line_calculation' | 'point_calculation',
  tdb: string,
  condition: Record<string, unknown>,
): T {
  const taskDir = path.join(tmp, `t${n++}`);
  const config = { task_type: type, tdb_code: 'X', tdb_file: tdb, condition: { pressure: 101325, ...condition } };
  const common = { taskUuid: type, ompThreads: 1, taskDir, control: new SharedArrayBuffer(16), config };
  if (type === 'line_calculation') {
    const job = parsedJob('line_calculation', common);
    run(job, new JobControl(job.control));
  } else {
    const job = parsedJob('point_calculation', common);
    runPoint(job, new JobControl(job.control));
  }
  return JSON.parse(readFileSync(path.join(taskDir, 'result', 'result.json'), 'utf8')) as T;
}
const line = (tdb: string, condition: Record<string, unknown>) =>
  calculate<LineCalculationResult>('line_calculation', tdb, condition);
const column = (doc: LineCalculationResult, name: string) => {
  const i = doc.table.columns.findIndex((c) => c.name === name);
  expect(i, name).toBeGreaterThanOrEqual(0);
  return doc.table.rows.map((r) => r[i] as number);
};

describe('line_calculation with an activity held', () => {
  const feC = {
    components: ['FE', 'C'],
    // austenite alone at X(C) = 0.01 (in the two-phase ferrite + austenite field an activity fixes no overall composition)
    temperature_start: 1250,
    temperature_end: 1450,
    points: 5,
    reference_states: { C: 'GRAPHITE' },
    thermo_outputs: ['x(*)', 'acr(C)'],
  };
  it('a(C) taken along a line at fixed composition, held along a line, gives that composition back', () => {
    const closed = line(CFE, { ...feC, compositions_start: { C: 0.01 }, compositions_end: { C: 0.01 } });
    const activities = column(closed, 'acr(C)');
    for (const p of closed.points) expect(p.phases.map((q) => q.name)).toEqual(['FCC_A1']);
    // a(C) of austenite at X(C) = 0.01 against graphite: below 1 (no graphite) and falling with T (the Acm line rises)
    for (const a of activities) {
      expect(a).toBeGreaterThan(0);
      expect(a).toBeLessThan(1);
    }
    expect(activities[4]).toBeLessThan(activities[0]!);
    activities.forEach((a, i) => {
      const open = line(CFE, { ...feC, compositions_start: {}, compositions_end: {}, activities: { C: a } });
      expect(open.held_elements).toEqual(['C']);
      expect(open.alloy_temperatures).toBeUndefined();
      const xC = column(open, 'x(C)');
      // at the point the activity came from, the composition it came from
      expect(xC[i]).toBeCloseTo(0.01, 6);
      // and every point holds that activity; the carbon content follows T (more carbon at the same activity the hotter)
      for (const v of column(open, 'acr(C)')) expect(v).toBeCloseTo(a, 6);
      for (let k = 1; k < xC.length; k++) expect(xC[k]).toBeGreaterThan(xC[k - 1]!);
    });
  });

  it('a chemical potential held: the point calculations at that potential', () => {
    const open = line(CFE, {
      ...feC,
      compositions_start: {},
      compositions_end: {},
      chemical_potentials: { C: -40000 },
    });
    const xC = column(open, 'x(C)');
    expect(open.points.map((p) => p.T)).toEqual([1250, 1300, 1350, 1400, 1450]);
    for (const p of open.points) expect(p.converged).toBe(true);
    expect(xC.every((x) => x > 0 && x < 0.1)).toBe(true);
    open.points.forEach((p, i) => {
      const doc = calculate<PointCalculationResult>('point_calculation', CFE, {
        components: ['FE', 'C'],
        temperature: p.T,
        compositions: {},
        chemical_potentials: { C: -40000 },
      });
      expect(xC[i]).toBeCloseTo(doc.point.x.C!, 9);
    });
  });

  it('the other compositions as given: Fe-2Al-C (mole fractions) at the activity of X(C) = 0.01', () => {
    // a bcc-only database: the activity against SER (graphite)
    const ternary = { ...feC, components: ['FE', 'AL', 'C'], points: 3, reference_states: undefined };
    const closed = line(ALCFE, {
      ...ternary,
      compositions_start: { AL: 0.02, C: 0.01 },
      compositions_end: { AL: 0.02, C: 0.01 },
    });
    const activities = column(closed, 'acr(C)');
    activities.forEach((a, i) => {
      const open = line(ALCFE, {
        ...ternary,
        compositions_start: { AL: 0.02 },
        compositions_end: { AL: 0.02 },
        activities: { C: a },
      });
      expect(column(open, 'x(C)')[i]).toBeCloseTo(0.01, 6);
      for (const x of column(open, 'x(AL)')) expect(x).toBeCloseTo(0.02, 9);
    });
  });
});

describe('line_calculation with a phase held at an amount (temperature free)', () => {
  const xs = [0.1, 0.3, 0.5];
  const alzn = { components: ['AL', 'ZN'], temperature_start: 900, temperature_end: 900, points: 3 };
  const held = (amount: number) =>
    line(ALZN, {
      ...alzn,
      compositions_start: { ZN: xs[0] },
      compositions_end: { ZN: xs[2] },
      fixed_phases: { LIQUID: amount },
    });
  /** The T-step line's transition out of (LIQUID at 1) or into (LIQUID at 0) liquid alone / liquid at all. */
  const stepped = (x: number) =>
    line(ALZN, {
      ...alzn,
      temperature_start: 500,
      temperature_end: 1000,
      points: 51,
      compositions_start: { ZN: x },
      compositions_end: { ZN: x },
    });
  it('LIQUID at 1 along X(ZN) is the liquidus and LIQUID at 0 the solidus of the T-step lines (0.01 K)', () => {
    const liquidus = held(1);
    const solidus = held(0);
    expect(liquidus.fixed_phase!.temperatures).toHaveLength(3);
    expect(liquidus.axis.variable).toBe('X(ZN)');
    xs.forEach((x, i) => {
      const step = stepped(x);
      const liquidOnly = step.transitions.find((t) => t.phases_after.join() === 'LIQUID');
      const firstLiquid = step.transitions.find(
        (t) => t.appearing.includes('LIQUID') && !t.phases_before.includes('LIQUID'),
      );
      expect(liquidus.points[i]!.x.ZN).toBeCloseTo(x, 12);
      expect(Math.abs(liquidus.fixed_phase!.temperatures[i]! - liquidOnly!.T)).toBeLessThanOrEqual(0.01);
      expect(Math.abs(solidus.fixed_phase!.temperatures[i]! - firstLiquid!.T)).toBeLessThanOrEqual(0.01);
      // the points are the equilibria at the bracket's end on the phase's side: liquid alone / liquid at (nearly) 0
      expect(liquidus.points[i]!.phases.map((p) => p.name)).toEqual(['LIQUID']);
      const np = solidus.points[i]!.phases.find((p) => p.name === 'LIQUID')?.amount ?? 0;
      expect(np).toBeGreaterThan(0);
      expect(np).toBeLessThan(1e-3);
    });
    // the liquidus of Al-Zn falls with Zn (Al 933 K, Zn 693 K)
    const Ts = liquidus.fixed_phase!.temperatures;
    expect(Ts[0]).toBeGreaterThan(Ts[1]!);
    expect(Ts[1]).toBeGreaterThan(Ts[2]!);
  });
});
