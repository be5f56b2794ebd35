// The basin check (native-core/src/solver/basins.cpp) next to a stable set of a phase with one degree of freedom. The
// fcc of Co-W in mc_fe_v2.059 has a magnetically induced miscibility gap from x(W) 0.027 to 0.053 between 1181 and
// about 1245 K, narrower than the distance (kApart, 0.1 in every site fraction) within which grid points around a
// stable set were left out as lying in its own basin. At 1180.72 K and x(W) = 0.1385 the hull gave fcc at 0.053 +
// CO3MO, the grid points around the Co-rich basin at 0.027 lie below that tangent, and the basin itself, 1.4 J/mol
// above it, was never tried: the answer stood 0.7 J/mol of atoms above fcc at 0.027 + CO3MO, and the diagram drew
// the monotectoid 0.7 K low without the gap above it. The lower state is written out here and its Gibbs energy
// evaluated with the phase models alone, independently of the equilibrium solver.
import path from 'node:path';
import { expect, test } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibrium } from '../../../worker/core/equilibrium.js';
import { PhaseModel } from '../../../worker/core/models.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';

const T = 1180.7167;
const X_W = 0.1385;
/** fcc (CO, W : VA) at x(W) = 0.027018 and CO3MO (CO : W), x(W) = 0.25 */
const FCC_Y = [0.972982, 0.027018, 1];
const CO3MO_Y = [1, 1];

test('Co-W (mc_fe), 1180.72 K: the Co-rich basin of a narrow fcc gap next to the stable fcc set is found', () => {
  const database = openDatabase(path.join(SHARED_TDB_DIR, 'mc_fe_v2.059.pycalphad.tdb'));
  const components = ['CO', 'W', 'VA'];
  const gm = (phase: string, y: number[]) =>
    PhaseModel.build(database, phase, components)!.evaluate(T, 101325, y, 0).GM;
  const f = (X_W - FCC_Y[1]) / (0.25 - FCC_Y[1]);
  const lower = (1 - f) * gm('FCC_A1', FCC_Y) + f * gm('CO3MO', CO3MO_Y);
  const r = equilibrium({ database, components, conditions: { T, X: { W: X_W } } });
  expect(r.converged, r.reason).toBe(true);
  expect(r.GM).toBeLessThanOrEqual(lower + 1e-6);
  const fcc = r.phases.filter((p) => p.name === 'FCC_A1' && p.NP > 1e-9);
  expect(fcc).toHaveLength(1);
  expect(fcc[0].x.W).toBeCloseTo(0.027, 3);
}, 60_000);
