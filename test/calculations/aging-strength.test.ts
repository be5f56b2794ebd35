// The precipitates' yield-strength increment (worker/calculations/aging/strength.ts, Deschamps and Brechet, Acta
// Mater. 47 (1999) 293): Orowan's stress of a known distribution and the shearing stress of one size against their
// closed forms in N, r and f, the continuity at the transition radius, the phases' combination, and an Al-0.4Zr
// ageing curve at 723.15 K rising while the particles are sheared, peaking near r_c and falling as they coarsen.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { simulateAging } from '../../worker/calculations/aging/simulate.js';
import { combineStrengths, phaseStrength, type StrengthLaw } from '../../worker/calculations/aging/strength.js';
import type { StrengthInput } from '../../worker/calculations/aging/types.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

// aluminium: M = 3.06, G = 26.9 GPa, b = 0.286 nm, Gamma = G b^2 / 2; r_c = 3 nm
const AL: StrengthLaw = { M: 3.06, G: 26.9e9, b: 2.86e-10, beta: 0.5, rc: 3e-9 };
/** M 2 beta G b (Pa m): 3.06 x 26.9e9 x 2.86e-10 by hand */
const M2BGB = 23.5418;

describe('strength: closed forms', () => {
  it("Orowan's stress of a distribution above r_c: M 2 beta G b sqrt(sum 2 r_i N_i)", () => {
    // 5e21 m^-3 of 6 nm and 2e21 of 10 nm: 2 (3e13 + 2e13) = 1e14 particles per m^2 of slip plane, spacing 100 nm
    const s = phaseStrength(AL, [6e-9, 10e-9], [5e21, 2e21]);
    expect(s.total / 1e6).toBeCloseTo(235.418, 2);
    expect(s.orowan).toBe(s.total);
    expect(s.shearing).toBe(0);
  });

  it('one size: shearing M 2 beta G b sqrt(3f/2pi) r^1/2 / r_c^3/2 below r_c, Orowan M 2 beta G b sqrt(3f/2pi) / r above', () => {
    const N = 1e23;
    for (const r of [1e-9, 2e-9, 2.9e-9, 3e-9, 4e-9, 8e-9]) {
      const f = (4 / 3) * Math.PI * r ** 3 * N;
      const expected =
        r < AL.rc
          ? M2BGB * Math.sqrt((3 * f) / (2 * Math.PI)) * Math.sqrt(r) * AL.rc ** -1.5
          : (M2BGB * Math.sqrt((3 * f) / (2 * Math.PI))) / r;
      expect(phaseStrength(AL, [r], [N]).total / expected).toBeCloseTo(1, 5);
    }
    // by hand: 1.5 nm, 1e23 m^-3: sqrt(3e14) = 1.7321e7 m^-1, (1/2)^(3/2) = 0.35355; 23.5418 x 1.7321e7 x 0.35355
    expect(phaseStrength(AL, [1.5e-9], [1e23]).shearing / 1e6).toBeCloseTo(144.16, 1);
  });

  it('continuous at the transition radius: sheared just below r_c, bypassed at it, the same stress', () => {
    const below = phaseStrength(AL, [AL.rc * (1 - 1e-9)], [1e22]);
    const at = phaseStrength(AL, [AL.rc], [1e22]);
    expect(below.orowan).toBe(0);
    expect(at.shearing).toBe(0);
    expect(below.shearing / at.orowan).toBeCloseTo(1, 8);
    // the peak of the one-size curve at fixed f: r^1/2 rises to r_c, 1/r falls after it
    const f = 0.01;
    const at_f = (r: number) => phaseStrength(AL, [r], [f / ((4 / 3) * Math.PI * r ** 3)]).total;
    expect(at_f(2e-9)).toBeLessThan(at_f(3e-9));
    expect(at_f(4e-9)).toBeLessThan(at_f(3e-9));
  });

  it('no particles, no increment; the phases combined by quadrature or linearly', () => {
    expect(phaseStrength(AL, [1e-9, 2e-9], [0, 0])).toEqual({ shearing: 0, orowan: 0, total: 0 });
    expect(combineStrengths([3e6, 4e6], 'quadrature')).toBeCloseTo(5e6, 6);
    expect(combineStrengths([3e6, 4e6], 'linear')).toBeCloseTo(7e6, 6);
  });
});

describe('strength: Al-0.4Zr at 723.15 K to 1e9 s, Al3Zr on dislocations', () => {
  const strength: StrengthInput = {
    taylor_factor: 3.06,
    shear_modulus: 26.9e9,
    burgers_vector: 2.86e-10,
    line_tension_factor: 0.5,
    transition_radius: 3e-9,
    combination: 'quadrature',
  };
  it('under-aged, peak, over-aged: the increment rises, peaks near <r> = r_c and falls as the particles coarsen', () => {
    const r = simulateAging(
      {
        db: openDatabase(path.join(SHARED_TDB_DIR, 'kawin_AlScZr.tdb')),
        components: ['AL', 'ZR', 'VA'],
        elements: ['AL', 'ZR'],
      },
      {
        composition: { AL: 0.996, ZR: 0.004 },
        temperature: 723.15,
        end_time: 1e9,
        matrix: { phase: 'FCC_A1', lattice_parameter: 4.05e-10, atoms_per_cell: 4, dislocation_density: 1e15 },
        precipitates: [
          { phase: 'AL3ZR', interfacial_energy: 0.1, lattice_parameter: 4.05e-10, nucleation_site: 'dislocations' },
        ],
        outputs: 41,
        strength,
      },
    );
    if (r instanceof Error) throw r;
    const records = r.phases.AL3ZR!;
    const total = r.strength_total!;
    expect(total).toHaveLength(41);
    const peak = total.indexOf(Math.max(...total));
    expect(peak).toBeGreaterThan(5);
    expect(peak).toBeLessThan(35);
    const rPeak = records[peak]!.mean_radius;
    expect(rPeak).toBeGreaterThan(0.5 * strength.transition_radius);
    expect(rPeak).toBeLessThan(1.5 * strength.transition_radius);
    // rising to the peak, falling after it (one phase: the total is its own)
    for (let i = 1; i <= peak; i++) expect(total[i]!).toBeGreaterThanOrEqual(total[i - 1]!);
    for (let i = peak + 1; i < total.length; i++) expect(total[i]!).toBeLessThan(total[i - 1]!);
    expect(total.at(-1)!).toBeLessThan(0.2 * total[peak]!);
    // sheared particles carry the under-aged side, bypassed ones the over-aged side
    const early = records.findIndex((p) => p.volume_fraction > 0.01);
    expect(records[early]!.strength!.shearing).toBeGreaterThan(records[early]!.strength!.orowan);
    expect(records.at(-1)!.strength!.orowan).toBeGreaterThan(100 * records.at(-1)!.strength!.shearing);
    expect(total[peak]! / 1e6).toBeGreaterThan(100);
    records.forEach((p, i) => expect(p.strength!.total).toBe(total[i]));
  });
});
