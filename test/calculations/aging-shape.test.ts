// Non-spherical precipitates in the KWN model (worker/calculations/aging/shape.ts): the area factor against the
// spheroid's surface integrated numerically, the kinetic factor (capacitance over the equivalent sphere's radius)
// against the slender-needle and thin-disk limits, both 1 for a sphere and continuous as the aspect ratio reaches 1;
// the nucleus's r*, barrier, Zeldovich factor and attachment scaled by the area factor; and a sphere, given or left
// out, runs the same simulation to the bit while a needle of the same interface energy nucleates later.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { RateModel } from '../../worker/calculations/aging/kinetics.js';
import { nucleation } from '../../worker/calculations/aging/nucleation.js';
import { phaseContexts } from '../../worker/calculations/aging/setup.js';
import { AgingThermo } from '../../worker/calculations/aging/thermo.js';
import { shapeFactors } from '../../worker/calculations/aging/shape.js';
import { simulateAging } from '../../worker/calculations/aging/simulate.js';
import type { AgingConfig, AgingResult, PrecipitateShape } from '../../worker/calculations/aging/types.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

/** The surface of a spheroid of equatorial semi-axis `a` and polar `c`, Simpson's rule on the meridian angle. */
function spheroidArea(a: number, c: number, n = 4000): number {
  const f = (t: number) =>
    2 * Math.PI * a * Math.sin(t) * Math.sqrt(a * a * Math.cos(t) ** 2 + c * c * Math.sin(t) ** 2);
  const h = Math.PI / n;
  let s = f(0) + f(Math.PI);
  for (let i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * f(i * h);
  return (s * h) / 3;
}

/** The surface over the equivalent sphere's: a needle has semi-axes a, a, alpha a; a plate alpha a, alpha a, a. */
function areaRatio(kind: 'needle' | 'plate', alpha: number): number {
  const [a, c] = kind === 'needle' ? [1, alpha] : [alpha, 1];
  const R = Math.cbrt(a * a * c);
  return spheroidArea(a, c) / (4 * Math.PI * R * R);
}

const needle = (aspect_ratio: number): PrecipitateShape => ({ kind: 'needle', aspect_ratio });
const plate = (aspect_ratio: number): PrecipitateShape => ({ kind: 'plate', aspect_ratio });

describe('shape factors', () => {
  it('a sphere, and a spheroid of aspect ratio 1, have both factors 1', () => {
    for (const s of [undefined, { kind: 'sphere' as const }, needle(1), plate(1)])
      expect(shapeFactors(s)).toEqual({ area: 1, kinetic: 1 });
  });

  it.each([1.5, 3, 10, 40])(
    'the area factor of a needle and a plate of aspect ratio %d is the integrated surface',
    (alpha) => {
      expect(shapeFactors(needle(alpha)).area / areaRatio('needle', alpha)).toBeCloseTo(1, 9);
      expect(shapeFactors(plate(alpha)).area / areaRatio('plate', alpha)).toBeCloseTo(1, 9);
      // a sphere has the least surface for its volume
      expect(shapeFactors(needle(alpha)).area).toBeGreaterThan(1);
      expect(shapeFactors(plate(alpha)).area).toBeGreaterThan(1);
    },
  );

  it('the kinetic factor: a slender needle C = c / ln(2 alpha), a thin disk C = 2 (alpha a) / pi', () => {
    // needle of semi-axes a = 1, c = alpha: R = alpha^(1/3); plate of radius alpha, half-thickness 1: R = alpha^(2/3)
    const alpha = 1e4;
    expect(shapeFactors(needle(alpha)).kinetic / (alpha / Math.log(2 * alpha) / Math.cbrt(alpha))).toBeCloseTo(1, 6);
    expect(shapeFactors(plate(alpha)).kinetic / ((2 * alpha) / Math.PI / alpha ** (2 / 3))).toBeCloseTo(1, 3);
  });

  it('both factors are continuous as the aspect ratio reaches 1 (the series below e = 1e-4, the closed forms above)', () => {
    for (const s of [needle, plate]) {
      const series = shapeFactors(s(1 + 1e-9));
      const closed = shapeFactors(s(1 + 1e-6));
      for (const f of [series, closed]) {
        expect(f.area).toBeCloseTo(1, 5);
        expect(f.kinetic).toBeCloseTo(1, 5);
      }
      // e^2 = 2 (alpha - 1) to first order: the factors move by O(alpha - 1) from 1 on both sides of the switch
      const justBelow = shapeFactors(s(1 + 4.9e-9));
      const justAbove = shapeFactors(s(1 + 5.1e-9));
      expect(Math.abs(justBelow.area - justAbove.area)).toBeLessThan(1e-9);
      expect(Math.abs(justBelow.kinetic - justAbove.kinetic)).toBeLessThan(1e-9);
    }
  });

  it('the nucleus of area factor g: r* times g, the barrier times g^3, Z times g^-3/2, the attachment times g^3', () => {
    const q = { drivingForce: 2000, molarVolume: 1e-5, gamma: 0.1, T: 700, spacing: 4e-10 };
    const common = { ...q, diffusionResistance: 1e20, sites: 1e28, t: 1e3 };
    const sphere = nucleation(common)!;
    const g = shapeFactors(needle(8)).area;
    const n = nucleation({ ...common, areaFactor: g })!;
    expect(n.criticalRadius / sphere.criticalRadius).toBeCloseTo(g, 12);
    expect(n.barrier / sphere.barrier).toBeCloseTo(g ** 3, 12);
    // Z = V_m / (2 pi N_A r*^2) sqrt(g gamma / kT) and beta* = 4 pi g r*^2 / a^4 / resistance, with r* = g r*_sphere
    expect(n.zeldovich / sphere.zeldovich).toBeCloseTo(g ** -1.5, 12);
    expect(n.attachment / sphere.attachment).toBeCloseTo(g ** 3, 12);
  });
});

describe('KWN with a shape: Al-0.4Zr at 723.15 K, 100 h, Al3Zr on dislocations', () => {
  const sys = {
    db: openDatabase(path.join(SHARED_TDB_DIR, 'kawin_AlScZr.tdb')),
    components: ['AL', 'ZR', 'VA'],
    elements: ['AL', 'ZR'],
  };
  const config = (shape?: PrecipitateShape): AgingConfig => ({
    composition: { AL: 0.996, ZR: 0.004 },
    temperature: 723.15,
    end_time: 3.6e5,
    matrix: { phase: 'FCC_A1', lattice_parameter: 4.05e-10, atoms_per_cell: 4, dislocation_density: 1e15 },
    precipitates: [
      { phase: 'AL3ZR', interfacial_energy: 0.1, nucleation_site: 'dislocations', lattice_parameter: 4.05e-10, shape },
    ],
    outputs: 21,
    psd_times: [3.6e5],
  });
  const run = (shape?: PrecipitateShape): AgingResult => {
    const r = simulateAging(sys, config(shape));
    if (r instanceof Error) throw r;
    return r;
  };

  it('growth: a needle at R grows k/g times a sphere at R/g (the same Gibbs-Thomson shift, k times the flux)', () => {
    const thermo = new AgingThermo(sys, 'FCC_A1', 101325);
    const alloy = { AL: 0.997, ZR: 0.003 };
    const rates = new RateModel(thermo, alloy, 4.05e-10);
    const state = thermo.matrixAt(723.15, alloy);
    const growth = (shape?: PrecipitateShape) => {
      const [ctx] = phaseContexts(config(shape), 1.0e-5, 4.05e-10) as Exclude<ReturnType<typeof phaseContexts>, Error>;
      return { rate: rates.rates(ctx!, state, alloy, 100)!.growth, factors: ctx!.shape };
    };
    const sphere = growth();
    const slim = growth(needle(6));
    const { area: g, kinetic: k } = slim.factors;
    for (const R of [1e-9, 3e-9, 1e-8]) {
      expect(slim.rate(R) / ((k / g) * sphere.rate(R / g))).toBeCloseTo(1, 12);
      // not merely proportional: the needle's own capillarity
      expect(Math.abs(slim.rate(R) / sphere.rate(R) - k)).toBeGreaterThan(1e-3);
    }
  });

  it('a sphere given, a needle of aspect ratio 1 and no shape at all give the same result to the bit', () => {
    const none = run();
    expect(run({ kind: 'sphere' })).toEqual(none);
    expect(run(needle(1))).toEqual(none);
    expect(none.phases.AL3ZR!.at(-1)!.volume_fraction).toBeGreaterThan(0.015);
  });

  it('a needle of aspect ratio 3 (area factor 1.18, barrier x1.65) nucleates later: fewer particles by the time the sphere has its peak', () => {
    const sphere = run();
    const slim = run(needle(3));
    const at = sphere.time.findIndex((t) => t >= 1000);
    expect(slim.phases.AL3ZR![at]!.number_density).toBeLessThan(0.5 * sphere.phases.AL3ZR![at]!.number_density);
    expect(slim.mass_balance_error).toBeLessThan(1e-9);
  });
});
