// Phase addition below saturation (native-core/src/solver/feasibility.cpp, add_set). A set that enters next to a
// stable set of another phase at nearly its composition makes the amounts all but undetermined: the three Laves
// phases of Cr-Ti-V (C14, C15, C36) lie within a few J/mol and 0.001 in composition of each other, and Newton's
// first step with LAVES_C15 beside LAVES_C36 moved 0.3 of the atoms' amounts to 13, until it ended with LIQUID
// at 1094 K ("a sampled point of BCC_A2 stays below the tangent hyperplane by 8749 J/mol"), 3 of 300 random
// ternary points; Cr-Fe-Nb near 1410 K failed the same way with FCC_A1 entering beside BCC_A2. The entering set now
// takes the other one's place; checked here: convergence, and no state of any phase below the answer's tangent
// (sampled independently of the solver, global-minimum.ts).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibrium } from '../../../worker/core/equilibrium.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';
import { checkGlobalMinima } from './global-minimum.js';

const ELEMENTS: Record<string, string[]> = {
  'crtiv_ghosh.tdb': ['CR', 'TI', 'V'],
  'CrFeNb_Jacob2016.tdb': ['CR', 'FE', 'NB'],
  'alfeo.tdb': ['AL', 'FE', 'O'],
};

/** Converged to `phases` at the conditions asked, and no state of any phase below the answer's tangent. */
function expectGlobalEquilibrium(file: string, T: number, X: Record<string, number>, phases: readonly string[]): void {
  const db = openDatabase(path.join(SHARED_TDB_DIR, file));
  const elements = ELEMENTS[file]!;
  const r = equilibrium({
    database: db,
    components: [...elements, 'VA'],
    phases: db.phasesFor(elements),
    conditions: { T, P: 101325, X },
  });
  expect(r.converged, r.reason).toBe(true);
  expect(
    r.phases
      .filter((p) => p.NP > 1e-9)
      .map((p) => p.name)
      .sort(),
  ).toEqual(phases);
  for (const [e, x] of Object.entries(X)) expect(Math.abs(r.x[e] - x)).toBeLessThan(1e-9);
  const check = checkGlobalMinima({
    db,
    elements,
    temperatures: [T],
    compositions: [X],
    samples: 4000,
    seed: 5,
    tolerance: 1,
  });
  expect(check.checked).toBe(1);
  expect(check.violations).toEqual([]);
}

describe('a phase entering at the composition of a stable one', () => {
  it.each([
    [
      'crtiv_ghosh.tdb',
      1093.5794830322266,
      { TI: 0.21559043955802917, V: 0.1651511597517803 },
      ['BCC_A2', 'LAVES_C15'],
    ],
    [
      'crtiv_ghosh.tdb',
      1151.0185241699219,
      { TI: 0.18663749742507935, V: 0.1498450006786921 },
      ['BCC_A2', 'LAVES_C15'],
    ],
    [
      'crtiv_ghosh.tdb',
      1296.1284637451172,
      { TI: 0.2629716188907623, V: 0.09013262773008072 },
      ['BCC_A2', 'LAVES_C36'],
    ],
    [
      'CrFeNb_Jacob2016.tdb',
      1412.056589126587,
      { FE: 0.8141219394207001, NB: 0.13117688268016114 },
      ['FCC_A1', 'LAVES_C14'],
    ],
    [
      'CrFeNb_Jacob2016.tdb',
      1410.315227508545,
      { FE: 0.8812003798484802, NB: 0.06018322636111911 },
      ['FCC_A1', 'LAVES_C14'],
    ],
  ] as const)('%s at %s K, %j converges to the global minimum', expectGlobalEquilibrium);
});

// Newton's first step after a phase enters with a large driving force can take one amount far beyond the atoms of the
// system (Cr-Fe-Nb at 1916.5 K: LIQUID added to BCC_A2 + LAVES_C14 was to take 11 moles of atoms of one); the sets
// that should stay left and the iteration cycled. A cold start that does not converge is retried with that step
// limited (equilibrium.cpp, with_amounts_limited).
describe('a step beyond the atoms of the system: the retry with the amounts limited', () => {
  it.each([
    [
      'CrFeNb_Jacob2016.tdb',
      1916.5136337280273,
      { FE: 0.29297767460346225, NB: 0.23231028834029857 },
      ['LAVES_C14', 'LIQUID'],
    ],
    [
      'CrFeNb_Jacob2016.tdb',
      1939.7053241729736,
      { FE: 0.27007498490810394, NB: 0.2425127259320834 },
      ['LAVES_C14', 'LIQUID'],
    ],
    [
      'CrFeNb_Jacob2016.tdb',
      // eslint-disable-next-line no-loss-of-precision -- the shortest text that reads back as this double
      1435.8901977539062,
      { FE: 0.853838719367981, NB: 0.11749166757264963 },
      ['FCC_A1', 'LAVES_C14'],
    ],
    ['alfeo.tdb', 1714.8279190063477, { FE: 0.23422744166851045, O: 0.7370983961597556 }, ['GAS', 'SPINEL_B']],
  ] as const)('%s at %s K, %j converges to the global minimum', expectGlobalEquilibrium);
});
