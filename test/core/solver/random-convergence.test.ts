// Convergence at random points of every multicomponent database at hand: each answer converges or says that no
// equilibrium exists (a composition no allowed phase can take, a phase without a lower bound). A point equilibrium
// that finds no answer where one exists is a failure a user meets with no way around it, and the global-minimum
// check (global-minimum.test.ts) passes over such points. It found the simplex of the hull cycling in six components
// (hull.cpp), and with 1,500 points per system the failures that the entering rule of add_set and the retry with the
// amounts limited cure (docs/engine.md).
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibriumBatch, saysNoEquilibrium } from '../../../worker/core/equilibrium.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';
import { MULTICOMPONENT, rng } from './random-points.js';

/** Points per system, fewer where one costs a good part of a second (the 4-sublattice fcc of Al-Ni-Pt, the
 *  7-component Al alloy). */
const POINTS = 200;
const FEWER: Record<string, number> = { 'alnipt.tdb': 40, 'COST507.tdb': 40 };

/**
 * Points of this sample where the solver does not find the equilibrium, with what is known of the cause; listed, not
 * skipped: a listed point that converges fails the test too, so that the list shrinks with each fix. The last one,
 * COST507's Al-Cu-Fe-Mg-Mn-Si-Zn at 639.47 K (the iteration limit from the hull's seven vertices, also from nearby and
 * with the amounts limited), converges in the retry with the phase changes delayed, where an HCP_A3 inside its
 * spinodal splits: CUB_A13 + LAVES_C36 + BCC_B2 + CUZN_GAMMA + FCC_A1 + LAVES_C15.
 */
const KNOWN_FAILURES: { file: string; T: number; cause: string }[] = [];

describe('every random point converges or says that no equilibrium exists', () => {
  test.each(MULTICOMPONENT)(
    '%s %j',
    (file, elements) => {
      const points = FEWER[file] ?? POINTS;
      const db = openDatabase(path.join(SHARED_TDB_DIR, file));
      const rand = rng(elements.length * 97 + file.length);
      const conditions = Array.from({ length: points }, () => {
        const w = elements.map(() => -Math.log(rand()));
        const sum = w.reduce((a, b) => a + b, 0);
        return {
          T: 400 + 1600 * rand(),
          P: 101325,
          X: Object.fromEntries(elements.slice(1).map((e, k) => [e, Math.max(1e-3, w[k + 1] / sum)])),
        };
      });
      const components = db.info().elements.some((e) => e.name.toUpperCase() === 'VA') ? [...elements, 'VA'] : elements;
      const rs = equilibriumBatch({ database: db, components, phases: db.phasesFor(elements), conditions, threads: 2 });
      const failed = rs.flatMap((r, i) => (r.converged || saysNoEquilibrium(r) ? [] : [i]));
      const known = KNOWN_FAILURES.filter((k) => k.file === file);
      const unknown = failed.filter((i) => !known.some((k) => k.T === conditions[i].T));
      expect(
        unknown.map((i) => `${conditions[i].T} K ${JSON.stringify(conditions[i].X)}: ${rs[i].reason}`),
        file,
      ).toEqual([]);
      expect(
        known.filter((k) => !failed.some((i) => conditions[i].T === k.T)),
        'listed failures that now converge',
      ).toEqual([]);
    },
    300_000,
  );
});
