// The microsegregation profile after back diffusion (worker/scans/scheil/final-profile.ts) on Al-10Zn: without back
// diffusion it is the profile as formed; with complete back diffusion the primary solid is uniform at the lever
// rule's solid at its solidus (the alloy's composition); in between every element's amount in the profile and the
// remaining liquid is the alloy's.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { backDiffusionUpdate } from '../../worker/scans/scheil/back-diffusion.js';
import { finalProfile, type SolidSlice } from '../../worker/scans/scheil/final-profile.js';
import { scheilSolidification } from '../../worker/scans/scheil/run.js';
import { ROOT } from '../service/helpers.js';

const db = openDatabase(path.join(ROOT, 'databases', 'alzn_mey1993.tdb'));
const X0 = 0.1;

/** The path with back diffusion 2 Omega of zinc, its slices and their final profile. */
function pathWith(twoOmega: number) {
  const slices: SolidSlice[] = [];
  const twoOmegas = { AL: 0, ZN: twoOmega };
  const run = scheilSolidification({
    database: db,
    components: ['AL', 'ZN'],
    composition: { ZN: X0 },
    startTemperature: 950,
    temperatureStep: 1,
    leverRule: false,
    liquidUpdate: backDiffusionUpdate(twoOmegas, slices, 'FCC_A1'),
  });
  return { run, slices, profile: finalProfile(slices, twoOmegas, 'AL') };
}

describe('the profile after back diffusion', () => {
  it('without back diffusion it is the profile as formed', () => {
    const { slices, profile } = pathWith(0);
    expect(slices.length).toBeGreaterThan(50);
    profile.forEach((p, i) => {
      expect(p.fraction_solid).toBe(slices[i]!.fs);
      expect(Math.abs(p.x.ZN! - slices[i]!.x.ZN!)).toBeLessThan(1e-15);
    });
    // the solid as formed is not uniform: the first solid is zinc-poor, the last rich
    expect(profile[profile.length - 1]!.x.ZN! - profile[0]!.x.ZN!).toBeGreaterThan(0.05);
  }, 60_000);

  it('with complete back diffusion the solid is uniform at the alloy composition (the lever rule at its solidus)', () => {
    const { run, slices, profile } = pathWith(1);
    const last = slices[slices.length - 1]!;
    expect(last.fs + last.df).toBeGreaterThan(0.99);
    const zn = profile.filter((_, i) => slices[i]!.equilibrated).map((p) => p.x.ZN!);
    expect(zn.length).toBe(profile.length);
    expect(Math.max(...zn) - Math.min(...zn)).toBeLessThan(1e-12);
    expect(Math.abs(zn[0]! - X0)).toBeLessThan(2e-3);
    expect(run.end_reason).toBe('liquid_exhausted');
  }, 60_000);

  it.each([0.3, 0.8])(
    '2 Omega = %s: the profile and the remaining liquid hold the alloy at every step',
    (twoOmega) => {
      const { run, slices, profile } = pathWith(twoOmega);
      // the steps that formed a slice, in order (the path's last step solidifies the rest without one)
      const formed = run.steps.filter((s) => s.solid_increment > 0);
      let checked = 0;
      slices.forEach((last, i) => {
        const liquid = formed[i]!.liquid_x;
        // the update clamps a liquid it would leave with a negative amount of zinc (its last drop): no balance there
        if (liquid.ZN === 0) return;
        const upTo = finalProfile(slices.slice(0, i + 1), { AL: 0, ZN: twoOmega }, 'AL');
        for (const e of ['AL', 'ZN']) {
          const inSolid = upTo.reduce((a, p, j) => a + p.x[e]! * slices[j]!.df, 0);
          const total = inSolid + (1 - last.fs - last.df) * liquid[e]!;
          expect(Math.abs(total - (e === 'ZN' ? X0 : 1 - X0))).toBeLessThan(1e-12);
        }
        checked++;
      });
      expect(checked).toBeGreaterThan(slices.length - 3);
      // the early solid gained zinc from the later, less than complete homogenisation would give it
      expect(profile[0]!.x.ZN!).toBeGreaterThan(slices[0]!.x.ZN!);
      expect(profile[0]!.x.ZN!).toBeLessThan(X0);
    },
    60_000,
  );
});
