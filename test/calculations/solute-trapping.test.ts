// Solute trapping (Aziz 1982; worker/scans/scheil/solute-trapping.ts) on Al-10Zn: k_v by hand; V -> 0 is the path
// without trapping; at V/V_D = 1 the first solid's partition coefficient is (k_e + 1)/2 of the same step's equilibrium;
// V >> V_D freezes the alloy at its own composition just below the liquidus.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { backDiffusionUpdate } from '../../worker/scans/scheil/back-diffusion.js';
import type { SolidSlice } from '../../worker/scans/scheil/final-profile.js';
import { azizPartition, trappedSplit } from '../../worker/scans/scheil/solute-trapping.js';
import { scheilSolidification } from '../../worker/scans/scheil/run.js';
import { ROOT } from '../service/helpers.js';
import { validateTaskConfig } from '../../main/requests/task-config.js';

const db = openDatabase(path.join(ROOT, 'databases', 'alzn_mey1993.tdb'));

/** The Scheil path of Al-10Zn at V/V_D = beta, with the solid each step forms. */
function pathAt(beta: number | undefined) {
  const slices: SolidSlice[] = [];
  const run = scheilSolidification({
    database: db,
    components: ['AL', 'ZN'],
    composition: { ZN: 0.1 },
    startTemperature: 950,
    temperatureStep: 1,
    leverRule: false,
    liquidUpdate: backDiffusionUpdate({}, slices),
    soluteTrapping: beta,
  });
  return { run, slices };
}

describe('solute trapping', () => {
  it("Aziz's k_v = (k_e + V/V_D)/(1 + V/V_D) by hand, and the split it gives", () => {
    expect(azizPartition(0.1, 1, 2)).toBeCloseTo(0.6 / 1.5, 14);
    expect(azizPartition(0.1, 0, 2)).toBe(0.1);
    expect(azizPartition(0.1, 1e9, 2)).toBeCloseTo(1, 8);
    // a step leaving 0.8 liquid at beta = 1: w = 1/2, f_L = (0.8 - 0.5)/0.5 = 0.6, the solid doubled
    const s = trappedSplit({ fL: 0.8, xL: { A: 0.7, B: 0.3 }, solids: [{ label: 'S', NP: 0.2 }], latent: 10 }, 1);
    expect(s.fL).toBeCloseTo(0.6, 14);
    expect(s.solids[0]!.NP).toBeCloseTo(0.4, 14);
    expect(s.latent).toBeCloseTo(20, 12);
    expect(trappedSplit({ fL: 0.4, xL: null, solids: [{ label: 'S', NP: 0.6 }], latent: 1 }, 1).fL).toBe(0);
    // f_L = 0.4 <= w = 1/2: the whole step freezes at its material's composition, 0.4 x_L + 0.6 x_S (B: 0.12 + 0.03)
    const all = trappedSplit(
      {
        fL: 0.4,
        xL: { A: 0.7, B: 0.3 },
        solids: [{ label: 'S', NP: 0.6, state: { phase: 'S', x: { A: 0.95, B: 0.05 }, y: new Float64Array() } }],
        latent: 1,
      },
      1,
    );
    expect(all.solids[0]!.NP).toBeCloseTo(1, 14);
    expect(all.solids[0]!.state!.x.B).toBeCloseTo(0.15, 14);
  });

  it('V -> 0 is the path without trapping', () => {
    const none = pathAt(undefined).run;
    for (const beta of [0, 1e-12]) {
      const slow = pathAt(beta).run;
      expect(slow.steps.length).toBe(none.steps.length);
      slow.steps.forEach((s, i) => {
        expect(s.T).toBe(none.steps[i]!.T);
        expect(Math.abs(s.fraction_solid - none.steps[i]!.fraction_solid)).toBeLessThan(1e-9);
      });
      expect(slow.solidus_temperature).toBe(none.solidus_temperature);
    }
  }, 60_000);

  it('V/V_D = 1: the first solid has k_v = (k_e + 1)/2 against the liquid of the same equilibrium', () => {
    const eq = pathAt(undefined),
      trapped = pathAt(1);
    // the first step below the liquidus starts from the alloy in both paths: the same equilibrium
    const liquid = eq.run.steps.find((s) => s.solid_increment > 0)!.liquid_x;
    const ke = eq.slices[0]!.x.ZN! / liquid.ZN!;
    expect(ke).toBeLessThan(0.6);
    expect(trapped.slices[0]!.x.ZN! / liquid.ZN!).toBeCloseTo(azizPartition(ke, 1, 1), 9);
    expect(trapped.run.steps.find((s) => s.solid_increment > 0)!.solid_increment).toBeCloseTo(
      2 * eq.run.steps.find((s) => s.solid_increment > 0)!.solid_increment,
      12,
    );
    // less segregation: both reach the eutectic, less liquid left for it with trapping
    const eutectic = (r: typeof eq.run) => r.steps[r.steps.length - 1]!.solid_increment;
    expect(eq.run.end_reason).toBe('eutectic');
    expect(eutectic(trapped.run)).toBeLessThan(0.7 * eutectic(eq.run));
  }, 60_000);

  it('V >> V_D freezes the alloy at its own composition within a step below the liquidus', () => {
    const { run, slices } = pathAt(1e6);
    expect(run.end_reason).toBe('liquid_exhausted');
    expect(run.liquidus_temperature! - run.solidus_temperature!).toBeLessThan(1);
    const solid = slices.reduce((a, s) => a + s.df * s.x.ZN!, 0) / slices.reduce((a, s) => a + s.df, 0);
    expect(Math.abs(solid - 0.1)).toBeLessThan(1e-5);
  }, 60_000);

  it.each([
    [{ interface_velocity: -1 }, /^task_config\.condition\.solute_trapping\.interface_velocity: must be at least 0/],
    [{ thermal_gradient: 0 }, /^task_config\.condition\.solute_trapping\.thermal_gradient: must be greater than 0/],
    [
      { interface_velocity: 0.1, diffusive_speed: -2 },
      /^task_config\.condition\.solute_trapping\.diffusive_speed: must be greater than 0/,
    ],
    [{}, /^task_config\.condition\.solute_trapping\.interface_velocity: give either interface_velocity or/],
    [
      { interface_velocity: 0.1, thermal_gradient: 1e6 },
      /^task_config\.condition\.solute_trapping\.interface_velocity: give either/,
    ],
  ])('solute_trapping %j is a 400 naming the field', (trapping, message) => {
    const r = validateTaskConfig('solidification', {
      task_type: 'solidification',
      tdb_code: 'ALZN',
      condition: {
        components: ['AL', 'ZN'],
        compositions: { ZN: 0.1 },
        pressure: 101325,
        start_temperature: 950,
        temperature_step: 1,
        cooling_rate: 1,
        solute_trapping: trapping,
      },
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(message);
  });
});
