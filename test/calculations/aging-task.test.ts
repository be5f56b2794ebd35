// The aging task module (worker/calculations/aging.ts) on kawin's Al-Sc-Zr database: a ramp-and-hold schedule's
// result files (the recorded temperature, the size distributions at output_times, result.csv's columns, the preview's
// schedule panel in the unit chosen), a needle and the strength increment in the files, cancellation inside the time
// loop, and the inputs refused before the run (an element without a diffusivity, a precipitate the phase selection
// leaves out); the log axis of the preview.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgingDocument } from '../../contract/results/aging.js';
import { run } from '../../worker/calculations/aging.js';
import { decadeLabel, decadeTicks } from '../../worker/plots/kinetics.js';
import { CancelledError, JobControl, type TaskJob } from '../../worker/protocol.js';
import { parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { alZrAgingCondition } from '../support/aging.js';

const TDB = path.join(SHARED_TDB_DIR, 'kawin_AlScZr.tdb');
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-aging-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const CONDITION = alZrAgingCondition({ from: 573, ramp: 3600, end: 3.6e5, output_times: [1800, 3.6e4], points: 41 });

let n = 0;
function job(condition: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): TaskJob<'aging'> {
  return parsedJob('aging', {
    taskUuid: 'aging',
    ompThreads: 1,
    taskDir: path.join(tmp, `task-${n++}`),
    control: new SharedArrayBuffer(128),
    config: { tdb_file: TDB, ...extra, condition: { ...CONDITION, ...condition } },
  });
}

describe('the aging task', () => {
  it('a ramp and a hold: the recorded temperature, the distributions at output_times, the table, the preview in °C', () => {
    const j = job({}, { preview_temperature_unit: 'celsius' });
    const control = new JobControl(j.control);
    const out = run(j, control);
    expect(out.summary).toMatch(/AL3ZR f = 0\.015/);
    expect(control.getProgress()).toBeGreaterThan(0.5);
    const doc = JSON.parse(readFileSync(path.join(j.taskDir, 'result', 'result.json'), 'utf8')) as AgingDocument;
    doc.time.forEach((t, i) => {
      const expected = t < 3600 ? 573 + ((723.15 - 573) * t) / 3600 : 723.15;
      expect(Math.abs(doc.temperature[i]! - expected)).toBeLessThanOrEqual(0.5);
    });
    expect(doc.schedule).toEqual(CONDITION.schedule);
    expect(doc.end_time).toBe(3.6e5);
    expect(doc.size_distributions.map((d) => [d.time, d.phase])).toEqual([
      [1800, 'AL3ZR'],
      [3.6e4, 'AL3ZR'],
    ]);
    expect(doc.size_distributions[1]!.number.some((x) => x > 0)).toBe(true);
    const csv = readFileSync(path.join(j.taskDir, 'result', 'result.csv'), 'utf8').split('\r\n');
    expect(csv[0]).toBe(
      'time [s],T [K],N(AL3ZR) [m^-3],r_mean(AL3ZR) [m],r_critical(AL3ZR) [m],f_volume(AL3ZR) [-],J_nucleation(AL3ZR) [m^-3 s^-1],driving_force(AL3ZR) [J/mol],"x(FCC_A1,AL) [-]","x(FCC_A1,ZR) [-]"',
    );
    expect(csv.filter((l) => l.length > 0)).toHaveLength(1 + 41);
    const svg = readFileSync(path.join(j.taskDir, 'preview', 'aging.svg'), 'utf8');
    expect(svg).toContain('Temperature (°C)');
    expect(svg).toContain(decadeLabel(5));
  }, 120_000);

  it('a needle and the strength asked for: the shape and the increments in result.json, result.csv and the preview', () => {
    const j = job({
      precipitates: [
        { phase: 'AL3ZR', interfacial_energy: 0.1, nucleation_site: 'dislocations' },
        { phase: 'AL3SC', interfacial_energy: 0.1, shape: { kind: 'needle', aspect_ratio: 4 } },
      ],
      strength: {
        shear_modulus: 26.9e9,
        burgers_vector: 2.86e-10,
        transition_radius: 3e-9,
        transition_radii: { al3sc: 2e-9 },
        combination: 'linear',
      },
    });
    run(j, new JobControl(j.control));
    const doc = JSON.parse(readFileSync(path.join(j.taskDir, 'result', 'result.json'), 'utf8')) as AgingDocument;
    expect(doc.precipitates.map((p) => p.shape)).toEqual([
      { kind: 'sphere', aspect_ratio: 1 },
      { kind: 'needle', aspect_ratio: 4 },
    ]);
    expect(doc.strength).toMatchObject({ taylor_factor: 3.06, line_tension_factor: 0.5, combination: 'linear' });
    const [zr, sc] = doc.precipitates.map((p) => p.strength!);
    expect([zr!.transition_radius, sc!.transition_radius]).toEqual([3e-9, 2e-9]);
    expect(Math.max(...zr!.total)).toBeGreaterThan(1e8);
    doc.time.forEach((_, i) => expect(doc.strength!.total[i]).toBeCloseTo(zr!.total[i]! + sc!.total[i]!, 0));
    const header = readFileSync(path.join(j.taskDir, 'result', 'result.csv'), 'utf8').split('\r\n')[0]!;
    expect(header).toContain('dsigma_shearing(AL3ZR) [Pa],dsigma_orowan(AL3ZR) [Pa],dsigma(AL3ZR) [Pa]');
    expect(header).toContain('dsigma(AL3SC) [Pa],dsigma_precipitates [Pa]');
    const svg = readFileSync(path.join(j.taskDir, 'preview', 'aging.svg'), 'utf8');
    expect(svg).toContain('Strength Δσ (MPa)');
    expect(svg).toContain('total (linear)');
  }, 120_000);

  it('stops inside the time loop when the task is cancelled', () => {
    let reports = 0;
    const control = {
      get cancelled() {
        return reports > 2;
      },
      setProgress() {
        reports++;
      },
    } as unknown as JobControl;
    expect(() => run(job(), control)).toThrow(CancelledError);
    expect(reports).toBe(3);
  });

  it('an element without a diffusivity is refused before the run, naming the input to give', () => {
    const j = job({
      components: ['AL', 'SC'],
      compositions: { SC: 0.002 },
      precipitates: [{ phase: 'AL3SC', interfacial_energy: 0.1 }],
    });
    expect(() => run(j, new JobControl(j.control))).toThrow(
      /^condition\.diffusivities: no diffusivity of SC in FCC_A1 .*give diffusivities\.SC as \{D0, Q\}/,
    );
  });

  it('a precipitate the phase selection leaves out is refused', () => {
    const j = job({ inhibit_phases: ['AL3*'] });
    expect(() => run(j, new JobControl(j.control))).toThrow(
      /^condition\.precipitates\.0\.phase: AL3ZR is left out by the phase selection/,
    );
  });
});

describe('the log time axis of the preview', () => {
  it('ticks at whole decades covering the data, at most about ten; labels 10^k', () => {
    expect(decadeTicks([-2.5, 5.6])).toEqual({ min: -3, max: 6, step: 1, ticks: [-3, -2, -1, 0, 1, 2, 3, 4, 5, 6] });
    expect(decadeTicks([0, 30]).ticks).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30]);
    expect(decadeTicks([2, 2])).toMatchObject({ min: 2, max: 3 });
    expect(decadeLabel(-12)).toBe('10⁻¹²');
    expect(decadeLabel(3)).toBe('10³');
  });
});
