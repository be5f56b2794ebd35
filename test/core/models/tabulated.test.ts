// The solver's grid energies come from linear tables in the parameter values (PhaseModel::
// compile_points, native-core/src/models/phase_model.cpp): they must equal the point-by-point model
// for every phase of every shared database, magnetic phases included, at low and high T.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCore } from '../../../worker/core/native.js';
import { PhaseModel } from '../../../worker/core/models.js';
import { seededRandom } from '../../support/random.js';
import { TDB_DIR, haveTdb } from './helpers.js';

function randomRows(m: PhaseModel, n: number, rand: () => number): Float64Array {
  const k = m.variables.length;
  const Y = new Float64Array(n * k);
  for (let p = 0; p < n; p++) {
    for (let sub = 0; sub < m.info.numSublattices; sub++) {
      const idx = m.variables.map((v, i) => (v.sublattice === sub ? i : -1)).filter((i) => i >= 0);
      // every third point pushes one constituent to the edge (y ln y cut-off, dilute limits)
      const weights = idx.map(() => rand() ** 3 + (p % 3 === 0 ? 0 : 1e-3));
      const sum = weights.reduce((a, b) => a + b, 0);
      idx.forEach((i, j) => { Y[p * k + i] = weights[j]! / sum; });
    }
  }
  return Y;
}

describe.skipIf(!haveTdb)('tabulated grid energies equal the model', () => {
  // Phases with Einstein, two-state or volume terms have no table (energiesTabulated -> null): the
  // solver evaluates them point by point, and such files compare nothing here.
  let total = 0;
  const files = haveTdb ? readdirSync(TDB_DIR).filter((f) => f.toLowerCase().endsWith('.tdb')).sort() : [];
  it.each(files)('%s', (file) => {
    const db = loadCore().Database.fromFile(`${TDB_DIR}/${file}`);
    const info = db.info();
    const elements = info.elements.map((e) => e.name).filter((e) => e !== '/-');
    const rand = seededRandom(file.length * 7919);
    let compared = 0;
    for (const phase of info.phases) {
      if (phase.refusal) continue;
      let m: PhaseModel | null;
      try { m = PhaseModel.build(db, phase.name, elements); } catch { continue; }
      if (!m || m.variables.length === 0 || m.info.charged) continue;
      const Y = randomRows(m, 12, rand);
      for (const T of [300, 1150, 2500]) {
        const tab = m.energiesTabulated(T, 101325, Y);
        if (!tab) continue;
        const ref = m.energies(T, 101325, Y);
        for (let i = 0; i < ref.length; i++) {
          if (!Number.isFinite(ref[i]!)) { expect(Number.isFinite(tab[i]!)).toBe(false); continue; }
          expect(Math.abs(tab[i]! - ref[i]!), `${phase.name} T=${T} point ${i}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(ref[i]!)));
          compared++;
        }
      }
    }
    total += compared;
  });
  it('compared thousands of points', () => { expect(total).toBeGreaterThan(5000); });
});
