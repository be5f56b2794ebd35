// The solver's grid energies come from linear tables in the parameter values (PhaseModel::
// compile_points, native-core/src/models/point_tables.cpp), stored in single precision: they must lie within the
// model's stated rounding bound (energy_rounding_bound) of the point-by-point model for every phase of every shared
// database, magnetic phases included, at low and high T, and that bound must be a small one.
import { readFileSync, readdirSync } from 'node:fs';
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
      idx.forEach((i, j) => {
        Y[p * k + i] = weights[j]! / sum;
      });
    }
  }
  return Y;
}

// mf-mobility.tdb holds mobility parameters only (no ELEMENT, no PHASE): nothing to tabulate, and refused alone.
const FILES = haveTdb
  ? readdirSync(TDB_DIR)
      .filter((f) => f.toLowerCase().endsWith('.tdb') && f !== 'mf-mobility.tdb')
      .sort()
  : [];

/** Each uncharged phase of a shared database with site fractions, its model over all the file's elements, and 12 random rows. */
function forEachModel(file: string, seed: number, visit: (m: PhaseModel, Y: Float64Array, name: string) => void): void {
  const db = loadCore().Database.fromFile(`${TDB_DIR}/${file}`);
  const info = db.info();
  const elements = info.elements.map((e) => e.name).filter((e) => e !== '/-');
  const rand = seededRandom(file.length * seed);
  for (const phase of info.phases) {
    if (phase.refusal) continue;
    let m: PhaseModel | null;
    try {
      m = PhaseModel.build(db, phase.name, elements);
    } catch {
      continue;
    }
    if (!m || m.variables.length === 0 || m.info.charged) continue;
    visit(m, randomRows(m, 12, rand), phase.name);
  }
}

describe.skipIf(!haveTdb)('tabulated grid energies equal the model', () => {
  // Phases with Einstein, two-state or volume terms have no table (energiesTabulated -> null): the
  // solver evaluates them point by point, and such files compare nothing here.
  let total = 0;
  it.each(FILES)('%s', (file) => {
    let compared = 0;
    forEachModel(file, 7919, (m, Y, name) => {
      for (const T of [300, 1150, 2500]) {
        const tab = m.energiesTabulated(T, 101325, Y);
        if (!tab) continue;
        const bound = m.tabulatedRoundingBound(T, 101325, Y)!;
        const ref = m.energies(T, 101325, Y);
        const scale = Math.max(1, ...Array.from(ref, (v) => (Number.isFinite(v) ? Math.abs(v) : 0)));
        // single precision: a few 1e-7 of the terms' size, never the size of a re-scan's decisions (kJ/mol)
        expect(bound, `${name} T=${T} bound`).toBeLessThanOrEqual(1e-5 * scale);
        for (let i = 0; i < ref.length; i++) {
          if (!Number.isFinite(ref[i]!)) {
            expect(Number.isFinite(tab[i]!)).toBe(false);
            continue;
          }
          expect(Math.abs(tab[i]! - ref[i]!), `${name} T=${T} point ${i}`).toBeLessThanOrEqual(bound);
          compared++;
        }
      }
    });
    total += compared;
  });
  it('compared thousands of points', () => {
    expect(total).toBeGreaterThan(5000);
  });
});

// The basin check gives a magnetic phase the wide window of narrow basins only below 1.2 times the largest
// magnetic ordering temperature of its grid points, which it computes from the grid's tables
// (native-core/src/solver/basins.cpp, magnetic_basin_possible): per point that temperature must be the T* the
// model reports where the phase has a moment (IHJ; Xiong's is at least its T_C), and the tabulated largest the
// largest of the points.
describe.skipIf(!haveTdb)('magnetic ordering temperatures of the grid equal the model', () => {
  let magnetic = 0;
  it.each(FILES)('%s', (file) => {
    const text = readFileSync(`${TDB_DIR}/${file}`, 'utf8').toUpperCase();
    forEachModel(file, 104729, (m, Y, name) => {
      const k = m.variables.length;
      const neel = text.includes(`NT(${name.toUpperCase()},`); // Xiong's model: T* is the larger of T_C and T_N
      for (const T of [300, 1150]) {
        const temps = m.orderingTemperatures(T, 101325, Y);
        let highest = 0;
        for (let i = 0; i < temps.length; i++) {
          const props = m.properties(T, 101325, Y.subarray(i * k, (i + 1) * k));
          const label = `${name} T=${T} point ${i}`;
          const tol = 1e-9 * Math.max(1, Math.abs(props.TC));
          if (props.BMAGN === 0) expect(temps[i], label).toBe(0);
          else if (neel) expect(temps[i]!, label).toBeGreaterThanOrEqual(props.TC - tol);
          else expect(Math.abs(temps[i]! - props.TC), label).toBeLessThanOrEqual(tol);
          highest = Math.max(highest, temps[i]!);
        }
        if (highest > 0) magnetic++;
        const tab = m.orderingTemperatureMaxTabulated(T, 101325, Y);
        if (tab !== null)
          expect(Math.abs(tab - highest), `${name} T=${T}`).toBeLessThanOrEqual(1e-9 * Math.max(1, highest));
      }
    });
  });
  it('compared magnetic phases', () => {
    expect(magnetic).toBeGreaterThan(50);
  });
});
