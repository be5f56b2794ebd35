// solution_treatment against hand checks: Whelan's dissolution time against the steady-state limit r^2 = r0^2 - kDt
// for a small supersaturation; on Al-10Zn (an Mey's Al-Zn) the solvus against direct equilibria just below and above
// it, incipient melting as the lower of the equilibrium and the Scheil solidus, the window from them and the margin,
// and the interface composition of a dissolving particle against the matrix of the two-phase equilibrium.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobControl } from '../../worker/protocol.js';
import { run } from '../../worker/calculations/solution_treatment.js';
import { whelanDissolution } from '../../worker/calculations/solution_treatment/dissolution.js';
import type { SolutionTreatmentDocument } from '../../contract/results/solution_treatment.js';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { ROOT } from '../service/helpers.js';
import { parsedJob } from '../support/jobs.js';

const ALZN = path.join(ROOT, 'databases', 'alzn_mey1993.tdb');
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-solution-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

function calc(condition: Record<string, unknown>): SolutionTreatmentDocument {
  const job = parsedJob('solution_treatment', {
    taskUuid: 's',
    ompThreads: 1,
    taskDir: path.join(tmp, `t${n++}`),
    control: new SharedArrayBuffer(16),
    config: { tdb_file: ALZN, condition: { components: ['AL', 'ZN'], pressure: 101325, ...condition } },
  });
  run(job, new JobControl(job.control));
  for (const f of ['result/result.csv', 'preview/solution_treatment.svg', 'preview/solution_treatment.png'])
    expect(readFileSync(path.join(job.taskDir, f)).length).toBeGreaterThan(0);
  return JSON.parse(readFileSync(path.join(job.taskDir, 'result', 'result.json'), 'utf8')) as SolutionTreatmentDocument;
}

describe("Whelan's dissolution", () => {
  it('approaches the steady-state time r0^2 / kD for a small k, is faster with the transient term, none for k <= 0', () => {
    const D = 1e-14,
      r0 = 1e-6;
    for (const k of [1e-4, 1e-3]) {
      const { time } = whelanDissolution({ k, D, radius: r0 });
      const steady = (r0 * r0) / (k * D);
      expect(time!).toBeLessThan(steady);
      // the transient term shortens it by about 2 sqrt(k/pi) of the time for small k (the tau-linear term)
      expect(time! / steady).toBeGreaterThan(1 - 3 * Math.sqrt(k / Math.PI));
    }
    const fast = whelanDissolution({ k: 0.5, D, radius: r0 });
    expect(fast.time!).toBeLessThan(0.8 * ((r0 * r0) / (0.5 * D)));
    expect(fast.curve[0]).toEqual({ t: 0, r: r0 });
    expect(fast.curve[fast.curve.length - 1]!.r).toBe(0);
    expect(whelanDissolution({ k: -0.1, D, radius: r0 }).time).toBeNull();
  });
});

describe('solution_treatment on Al-10Zn', () => {
  const db = openDatabase(ALZN);
  const amountOf = (T: number, phase: string) => {
    const r = equilibrium({
      database: db,
      components: ['AL', 'ZN', 'VA'],
      phases: undefined,
      conditions: { T, P: 101325, X: { ZN: 0.1 } },
    });
    expect(r.converged).toBe(true);
    return r.phases.filter((p) => p.name === phase).reduce((a, p) => a + p.NP, 0);
  };

  it('solvus, incipient melting, window and recommended temperature', () => {
    const d = calc({ compositions: { ZN: 0.1 }, temperature_start: 350, points: 61, safety_margin: 10 });
    expect(d.matrix_phase).toBe('FCC_A1');
    const solvus = d.solvus.HCP_A3!;
    expect(solvus).toBeGreaterThan(350);
    expect(amountOf(solvus - 0.05, 'HCP_A3')).toBeGreaterThan(0);
    expect(amountOf(solvus + 0.05, 'HCP_A3')).toBe(0);
    expect(d.incipient_melting).toBe(Math.min(d.solidus!, d.scheil_solidus!));
    expect(d.scheil_solidus!).toBeLessThanOrEqual(d.solidus! + 1e-6);
    const highest = Math.max(...Object.values(d.solvus).filter((t): t is number => t !== null));
    expect(d.window).toEqual([highest + 10, d.incipient_melting! - 10]);
    expect(d.recommended_temperature).toBe(d.incipient_melting! - 10);
    // the amounts table: one row per temperature, the phases as NP columns
    expect(d.table.rows).toHaveLength(61);
    expect(d.table.columns.map((c) => c.name)).toEqual(expect.arrayContaining(['T', 'NP(FCC_A1)', 'NP(HCP_A3)']));
  }, 60_000);

  it('dissolves an HCP particle with the interface composition of the FCC + HCP equilibrium', () => {
    const T = 500;
    const d = calc({
      compositions: { ZN: 0.05 },
      temperature_start: 350,
      points: 31,
      dissolution: { phase: 'HCP_A3', radius: 5e-7, temperature: T, diffusivity: { D0: 2.45e-5, Q: 120000 } },
    });
    const s = d.dissolution!;
    expect(s.solute).toBe('ZN');
    const two = equilibrium({
      database: db,
      components: ['AL', 'ZN', 'VA'],
      phases: ['FCC_A1', 'HCP_A3'],
      conditions: { T, P: 101325, X: { ZN: 0.5 } },
    });
    // the FCC set nearest the alloy (below the gap's critical point FCC comes in two sets)
    const fcc = two.phases
      .filter((p) => p.name === 'FCC_A1')
      .sort((a, b) => Math.abs(a.x.ZN! - 0.05) - Math.abs(b.x.ZN! - 0.05))[0]!;
    expect(s.c_interface).toBeCloseTo(fcc.x.ZN!, 6);
    expect(s.c_matrix).toBeCloseTo(0.05, 9);
    expect(s.diffusivity).toBeCloseTo(2.45e-5 * Math.exp(-120000 / (8.3145 * T)), 20);
    if (s.c_interface > s.c_matrix) expect(s.time).toBeGreaterThan(0);
    else expect(s.time).toBeNull();
  }, 60_000);
});
