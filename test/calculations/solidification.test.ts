// Scheil with back diffusion (worker/scans/scheil/back-diffusion.ts, task type solidification) at its limits: no back
// diffusion reproduces the classic Scheil path, complete back diffusion the lever rule (where the partition varies
// too), a fast diffuser's path lies between them; Clyne and Kurz's Omega against its closed form; and the task's
// files, parameters and order of phases.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobControl } from '../../worker/protocol.js';
import { run } from '../../worker/calculations/solidification.js';
import type { SolidificationDocument, SolidPathPoint } from '../../contract/results/solidification.js';
import { openDatabase } from '../../worker/core/database.js';
import { PhaseModel } from '../../worker/core/models.js';
import { backDiffusionUpdate, clyneKurzOmega } from '../../worker/scans/scheil/back-diffusion.js';
import { scheilSolidification } from '../../worker/scans/scheil/run.js';
import { ROOT } from '../service/helpers.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { parsedJob } from '../support/jobs.js';

const ALZN = path.join(ROOT, 'databases', 'alzn_mey1993.tdb');
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-solidification-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Fraction solid of a path at T: the last step at or above T (steps repeat at one T while the liquid relaxes). */
function fsAt(steps: readonly { T: number; fraction_solid: number }[], T: number): number {
  let f = 0;
  for (const s of steps) if (s.T >= T) f = s.fraction_solid;
  return f;
}

describe('Clyne and Kurz', () => {
  it('Omega: 0 without diffusion, 1/2 at complete diffusion, alpha (1 - e^(-1/alpha)) - e^(-1/(2 alpha))/2 between', () => {
    expect(clyneKurzOmega(0)).toBe(0);
    expect(clyneKurzOmega(1e-3)).toBeCloseTo(1e-3, 6);
    expect(clyneKurzOmega(1)).toBeCloseTo(1 - Math.exp(-1) - 0.5 * Math.exp(-0.5), 12);
    expect(clyneKurzOmega(1e6)).toBeCloseTo(0.5, 5);
    expect(clyneKurzOmega(Infinity)).toBe(0.5);
  });
});

describe('the limits of back diffusion (Al-10Zn)', () => {
  const db = openDatabase(ALZN);
  const base = {
    database: db,
    components: ['AL', 'ZN'],
    composition: { ZN: 0.1 },
    startTemperature: 950,
    temperatureStep: 1,
  };
  const classic = scheilSolidification({ ...base, leverRule: true });

  it('no back diffusion reproduces the classic Scheil path', () => {
    const none = scheilSolidification({
      ...base,
      leverRule: false,
      liquidUpdate: backDiffusionUpdate({ AL: 0, ZN: 0 }),
    });
    expect(none.steps.length).toBe(classic.steps.length);
    none.steps.forEach((s, i) => {
      expect(s.T).toBe(classic.steps[i]!.T);
      expect(Math.abs(s.fraction_solid - classic.steps[i]!.fraction_solid)).toBeLessThan(1e-9);
    });
    expect(none.solidus_temperature).toBe(classic.solidus_temperature);
  });

  it('complete back diffusion reproduces the lever rule', () => {
    const full = scheilSolidification({ ...base, leverRule: false, liquidUpdate: backDiffusionUpdate({ ZN: 1 }) });
    for (const p of classic.lever_rule.filter((q) => q.fraction_solid > 0 && q.fraction_solid < 0.99))
      expect(Math.abs(fsAt(full.steps, p.T) - p.fraction_solid)).toBeLessThan(2e-3);
    expect(Math.abs(full.solidus_temperature! - classic.lever_rule_solidus_temperature!)).toBeLessThan(1.5);
  });
});

describe('solidification', () => {
  function calc(tdb: string, condition: Record<string, unknown>): SolidificationDocument {
    const job = parsedJob('solidification', {
      taskUuid: 's',
      ompThreads: 1,
      taskDir: path.join(tmp, `t${Math.random().toString(36).slice(2)}`),
      control: new SharedArrayBuffer(16),
      config: { tdb_file: tdb, condition: { pressure: 101325, ...condition } },
    });
    run(job, new JobControl(job.control));
    for (const f of ['result/result.csv', 'preview/solidification.svg', 'preview/solidification.png'])
      expect(readFileSync(path.join(job.taskDir, f)).length).toBeGreaterThan(0);
    return JSON.parse(readFileSync(path.join(job.taskDir, 'result', 'result.json'), 'utf8')) as SolidificationDocument;
  }
  const between = (d: SolidificationDocument) => {
    const temps = d.lever_rule.filter((q) => q.fraction_solid > 0.05 && q.fraction_solid < 0.95).map((q) => q.T);
    expect(temps.length).toBeGreaterThan(3);
    for (const T of temps) {
      const f = (p: SolidPathPoint[]) => fsAt(p, T);
      expect(f(d.path)).toBeGreaterThanOrEqual(f(d.scheil_path) - 2e-3);
      expect(f(d.path)).toBeLessThanOrEqual(f(d.lever_rule) + 2e-3);
    }
  };

  it('Al-10Zn with given diffusivities: Omega from alpha = 4 D t_f / lambda^2, the path between Scheil and the lever rule', () => {
    const d = calc(ALZN, {
      components: ['AL', 'ZN'],
      compositions: { ZN: 0.1 },
      start_temperature: 950,
      temperature_step: 1,
      cooling_rate: 1,
      solid_diffusivities: { ZN: { D0: 2.45e-5, Q: 120000 } },
    });
    expect(d.primary_phase).toBe('FCC_A1');
    expect(d.arm_spacing_source).toBe('derived from the cooling rate');
    expect(d.secondary_arm_spacing).toBeCloseTo(50e-6, 12);
    expect(d.local_solidification_time).toBeCloseTo((d.liquidus! - d.scheil_solidus!) / 1, 6);
    const zn = d.back_diffusion.find((b) => b.element === 'ZN')!;
    const Tmid = 0.5 * (d.liquidus! + d.scheil_solidus!);
    expect(zn.diffusivity).toBeCloseTo(2.45e-5 * Math.exp(-120000 / (8.3145 * Tmid)), 20);
    expect(zn.alpha).toBeCloseTo((4 * zn.diffusivity! * d.local_solidification_time!) / 50e-6 ** 2, 9);
    expect(zn.omega).toBeCloseTo(clyneKurzOmega(zn.alpha!), 12);
    expect(d.solidus!).toBeGreaterThan(d.scheil_solidus!);
    expect(d.solidus!).toBeLessThan(d.lever_rule_solidus! + 1);
    between(d);
    expect(d.phases_in_order[0]).toBe('FCC_A1');
    expect(d.microsegregation.length).toBeGreaterThan(10);
    // the profile after back diffusion: the same slices, the first one richer in zinc than it formed
    expect(d.final_profile.map((p) => p.fraction_solid)).toEqual(d.microsegregation.map((p) => p.fraction_solid));
    expect(d.final_profile[0]!.x.ZN!).toBeGreaterThan(d.microsegregation[0]!.x.ZN!);
    expect(d.solute_trapping).toBeNull();
    // the latent heat released: about aluminium's enthalpy of fusion in this database (H of pure liquid - H of pure
    // fcc at the melting point, 933.47 K), a little less for the zinc; released where the solid forms
    const db = openDatabase(ALZN);
    const h = (phase: string) => {
      const m = PhaseModel.build(db, phase, ['AL', 'VA'])!;
      return m.properties(933.47, 101325, m.siteFractions(phase === 'LIQUID' ? [{ AL: 1 }] : [{ AL: 1 }, { VA: 1 }]))
        .HM;
    };
    const fusion = h('LIQUID') - h('FCC_A1');
    const total = d.latent_heat[d.latent_heat.length - 1]!.cumulative;
    expect(total).toBeGreaterThan(0.7 * fusion);
    expect(total).toBeLessThan(1.1 * fusion);
    expect(d.latent_heat.filter((p) => p.T > d.liquidus!).every((p) => p.released === 0)).toBe(true);
  }, 60_000);

  it('Al-10Zn with solute trapping: the front velocity from the cooling rate over the thermal gradient', () => {
    const d = calc(ALZN, {
      components: ['AL', 'ZN'],
      compositions: { ZN: 0.1 },
      start_temperature: 950,
      temperature_step: 1,
      cooling_rate: 100,
      solute_trapping: { thermal_gradient: 1e3 },
    });
    expect(d.solute_trapping).toEqual({
      interface_velocity: 0.1,
      velocity_source: 'cooling rate / thermal gradient',
      diffusive_speed: 2,
      velocity_ratio: 0.05,
    });
    // k_v = (k_e + 0.05)/1.05 on the first solid: above the equilibrium partition's solid, below the liquid's
    const first = d.microsegregation[0]!.x.ZN!;
    expect(first).toBeGreaterThan((0.05 / 1.05) * 0.1);
    expect(first).toBeLessThan(0.1);
  }, 60_000);

  it('Fe-C with carbon a fast diffuser (and no data for iron): its path lies between Scheil and the lever rule', () => {
    const d = calc(path.join(SHARED_TDB_DIR, 'cfe_broshe.tdb'), {
      components: ['FE', 'C'],
      compositions: { C: 0.004 },
      composition_unit: 'mass_fraction',
      start_temperature: 1820,
      temperature_step: 1,
      cooling_rate: 10,
    });
    expect(d.back_diffusion.find((b) => b.element === 'C')!.omega).toBe(0.5);
    between(d);
  }, 60_000);
});
