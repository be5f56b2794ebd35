// The global minimum, checked against states sampled independently of the solver (global-minimum.ts): every
// binary system the diagram self-audit covers (the binary files, and the assessed pairs of every
// multicomponent file) and every multicomponent database at hand, at random temperatures and compositions.
// It finds, for example, COST507's Al-N, N-Ti and N-V answers up to 9 kJ/mol above a bcc state with nitrogen
// when a DIS_PART phase its ordered phase cannot contain is left out (disordered-part.test.ts), and a second
// liquid of Mg-Mn-Zn in Al-Cu-Fe-Mg-Mn-Si-Zn at 1267 K, 420 J/mol below the tangent, when the basin check skips
// one-sublattice solutions of three or more species (basins.cpp).
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { SUITE_PAIRS, auditSystems } from '../../../worker/mapping/audit-systems.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';
import { checkGlobalMinima } from './global-minimum.js';
import { MULTICOMPONENT, rng } from './random-points.js';

const ROOT = path.resolve(__dirname, '../../..');
/** J/mol of atoms. The solver keeps a state within 1 J/mol of a basin it cannot converge with next to a
 *  critical point (certify.cpp, kBasinKeep); anything further below the tangent is a missed minimum. */
const TOLERANCE = 1;

/** temperatures in 300-2000 K and compositions (mole fractions of all elements but the first, each >= 0.005) */
function points(elements: string[], nT: number, nX: number, seed: number) {
  const rand = rng(seed);
  const temperatures = Array.from({ length: nT }, () => 300 + 1700 * rand());
  const compositions = Array.from({ length: nX }, () => {
    const w = elements.map(() => -Math.log(rand()));
    const sum = w.reduce((a, b) => a + b, 0);
    return Object.fromEntries(elements.slice(1).map((e, k) => [e, Math.max(0.005, w[k + 1] / sum)]));
  });
  return { temperatures, compositions };
}

// the databases of which the diagram audit takes a few pairs (with their recommended selection) are left out here
const systems = auditSystems([path.join(ROOT, 'databases'), SHARED_TDB_DIR], { scope: 'tests' }).systems.filter(
  (s) => !SUITE_PAIRS[path.basename(s.file)],
);

describe('no sampled state lies below the tangent of an equilibrium', () => {
  test.each(systems.map((s, i) => [s.name, s, i] as const))(
    '%s',
    (name, s, i) => {
      const r = checkGlobalMinima({
        db: s.db,
        elements: s.elements,
        ...points(s.elements, 3, 8, 1000 + i),
        samples: 1500,
        seed: 7 + i,
        tolerance: TOLERANCE,
      });
      expect(r.violations, name).toEqual([]);
    },
    120_000,
  );

  test.each(MULTICOMPONENT)(
    '%s %j',
    (file, elements) => {
      const db = openDatabase(path.join(SHARED_TDB_DIR, file));
      const r = checkGlobalMinima({
        db,
        elements,
        ...points(elements, 3, 10, elements.length * 31),
        samples: 3000,
        seed: 11,
        tolerance: TOLERANCE,
      });
      expect(r.checked).toBeGreaterThan(0);
      expect(r.violations, file).toEqual([]);
    },
    300_000,
  );
});
