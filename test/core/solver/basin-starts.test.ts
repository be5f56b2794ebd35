// The starts of the basin check (native-core/src/solver/basins.cpp, check_basins) on a phase with many equivalent
// sublattices. The ordering variants of one grid point of Ni-Pt's 4-sublattice FCC_L12 (Al-Ni-Pt, alnipt.tdb) are
// starts of equal driving force; they are taken by symmetry, without relaxing, and must not use up the phase's
// relaxations. When they did, the check stopped after one relaxation at 734.3 K and returned ordered FCC_L12 + A1,
// 1.28 J/mol of atoms above the ordered FCC_L12 + L12 state written out below. That state's Gibbs energy is
// evaluated here with the phase model alone, independently of the equilibrium solver.
import path from 'node:path';
import { expect, test } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibrium } from '../../../worker/core/equilibrium.js';
import { PhaseModel } from '../../../worker/core/models.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';

const ELEMENTS = ['AL', 'NI', 'PT'];
const T = 734.2870712280273;
const X = { NI: 0.5660198186337948, PT: 0.24716616634668628 };
/** Two FCC_L12 sets (site fractions AL, NI, PT on each of the four sublattices, then VA) and their moles of atoms. */
const LOWER_STATE = [
  {
    NP: 0.9467754437074141,
    y: [
      0.00004283746390042022, 0.08813951372213397, 0.911817648813964, 0.000004836259551171374, 0.9600134500117782,
      0.0399817137286718, 0.000004836259551171331, 0.9600134500117781, 0.03998171372867192, 0.7700324386158954,
      0.22333073252646432, 0.006636828857640168, 1,
    ],
  },
  {
    NP: 0.05322455629258613,
    y: [
      0.19561252822486364, 0.1681612018574005, 0.6362262699177358, 0.04851865188771232, 0.8918331330888577,
      0.05964821502342973, 0.04851865188771198, 0.8918331330888594, 0.05964821502342834, 0.04851865188771374,
      0.8918331330888558, 0.05964821502343031, 1,
    ],
  },
];

test('Al-Ni-Pt, 734.3 K: the answer lies no higher than an ordered FCC_L12 + L12 state of the same composition', () => {
  const db = openDatabase(path.join(SHARED_TDB_DIR, 'alnipt.tdb'));
  const model = PhaseModel.build(db, 'FCC_L12', [...ELEMENTS, 'VA'])!;
  const elements = model.info.elements;
  let G = 0;
  const x: Record<string, number> = Object.fromEntries(elements.map((e) => [e, 0]));
  for (const set of LOWER_STATE) {
    G += set.NP * model.evaluate(T, 101325, set.y, 0).GM;
    const moles = model.moles(set.y, 0);
    elements.forEach((e, k) => {
      x[e] += (set.NP * moles.M[k]) / moles.Nf;
    });
  }
  // the state written out has the composition asked
  for (const [e, v] of Object.entries(X)) expect(Math.abs(x[e] - v)).toBeLessThan(1e-12);

  const r = equilibrium({
    database: db,
    components: [...ELEMENTS, 'VA'],
    phases: db.phasesFor(ELEMENTS),
    conditions: { T, P: 101325, X },
  });
  expect(r.converged, r.reason).toBe(true);
  expect(r.GM).toBeLessThanOrEqual(G + 1e-3);
});
