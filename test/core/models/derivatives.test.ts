// Exact gradients and Hessians over z = (T, P, y) against central finite differences, for every model
// family of the formula sheet: RK/Muggianu (§2), IHJ magnetic (§3.2), Xiong + Einstein + two-state
// (§3.3, §4), order-disorder with interstitials and partitioned magnetism (§5), B/F symmetry (§5.5),
// pressure/volume (§6), ionic liquid (§7), charged CEF phase (§7.4), gas with R T ln P (§6.1).
import { describe, expect, it } from 'vitest';
import { fdCheck, haveTdb, interiorPoint, model } from './helpers.js';

// Temperatures avoid the breakpoints of the unary functions (700 K for Al), where dG/dT jumps.
const CASES: Array<[string, string, string[], number, number]> = [
  ['alzn_mey.tdb', 'LIQUID', ['AL', 'ZN'], 710, 101325],
  ['alzn_mey.tdb', 'HCP_A3', ['AL', 'ZN', 'VA'], 500, 101325],
  ['alcrni.tdb', 'LIQUID', ['AL', 'CR', 'NI'], 1800, 101325],
  ['alcrni.tdb', 'L12_FCC', ['AL', 'CR', 'NI'], 600, 101325],
  ['alcrni.tdb', 'B2', ['AL', 'CR', 'NI', 'VA'], 900, 101325],
  ['alcocrni.tdb', 'FCC_A1', ['AL', 'CO', 'CR', 'NI', 'VA'], 800, 101325],
  ['alcocrni.tdb', 'BCC_B2', ['AL', 'CO', 'CR', 'NI', 'VA'], 1000, 101325],
  ['alcocrni.tdb', 'SIGMA_SGTE', ['AL', 'CO', 'CR', 'NI', 'VA'], 1100, 101325],
  ['alcfe_b2.tdb', 'B2_BCC', ['AL', 'C', 'FE', 'VA'], 300, 101325],
  ['femn.tdb', 'LIQUID', ['FE', 'MN', 'VA'], 300, 101325],
  ['femn.tdb', 'LIQUID', ['FE', 'MN', 'VA'], 1500, 101325],
  ['femns.tdb', 'IONIC_LIQ', ['FE', 'MN', 'S', 'VA'], 1600, 101325],
  ['Al-Fe_sundman2009.tdb', 'BCC_4SL', ['AL', 'FE', 'VA'], 750, 101325],
  ['pycalphad_inline_fe_magnetic_volume.tdb', 'BCC_A2', ['FE'], 500, 1e10],
  ['pycalphad_inline_fe_molar_volume.tdb', 'BCC_A2', ['FE'], 1200, 2e9],
  ['pycalphad_inline_reciprocal.tdb', 'FCC_A1_NO_VA', ['AL', 'C', 'MO', 'NB'], 1000, 101325],
  ['alcocrni.tdb', 'GAS', ['AL', 'CO', 'CR', 'NI'], 3000, 2e5],
];

describe.skipIf(!haveTdb)('phase-model derivatives match finite differences', () => {
  for (const [file, phase, comps, T, P] of CASES) {
    it(`${file} ${phase} at ${T} K, ${P} Pa`, () => {
      const m = model(file, phase, comps);
      for (const seed of [1, 7]) {
        const y = interiorPoint(m, seed);
        const err = fdCheck(m, T, P, y);
        expect(err.grad).toBeLessThan(2e-5);
        expect(err.hess).toBeLessThan(2e-4);
      }
    });
  }
});
