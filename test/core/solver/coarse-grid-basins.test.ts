// The basin check on the coarse grid of a diagram's seed points (worker/mapping/binary.ts solves them with
// pdens 30). On a phase whose site fractions have one degree of freedom (a binary solution on one mixing
// sublattice) the check reads the driving force along the path from a grid point to a known maximum from the
// grid points on that path, evaluating points only where the grid is coarser than an eighth of the path
// (basins.cpp, uphill_to_known), and takes a stable set that is a minimum of G - mu.M for a maximum from the
// start. On a coarse grid that reading has the fewest points: here the answers with pdens 20 and 30 must equal
// those on a grid four times finer, on the magnetic one-sublattice solutions where the check finds basins
// between sampled points (a magnetically induced miscibility gap), and the Co-rich HCP + HCP gap of Co-Cr must
// be found at 723.9 K.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibrium } from '../../../worker/core/equilibrium.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';

/** J/mol of atoms: the same minimum found on both grids agrees far closer than this. */
const SAME_G = 1e-6;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) + 0.5) / 4294967296;
}

function open(file: string) {
  const database = openDatabase(path.join(SHARED_TDB_DIR, file));
  const hasVa = database.info().elements.some((e) => e.name.toUpperCase() === 'VA');
  return { database, components: (a: string, b: string) => (hasVa ? [a, b, 'VA'] : [a, b]) };
}

describe('the basin check on a coarse grid', () => {
  test('Co-Cr (alcocrni), 723.9 K, x(CR) = 0.015: HCP + HCP with the ferromagnetic Co-rich set at x = 0.007', () => {
    const { database, components } = open('alcocrni.tdb');
    for (const pdens of [20, 30]) {
      const r = equilibrium({
        database,
        components: components('CO', 'CR'),
        conditions: { T: 723.9, X: { CR: 0.015 } },
        options: { pdens },
      });
      expect(r.converged, r.reason).toBe(true);
      const xs = r.phases
        .filter((p) => p.name === 'HCP_A3')
        .map((p) => p.x.CR)
        .sort((a, b) => a - b);
      expect(r.phases).toHaveLength(2);
      expect(xs).toHaveLength(2);
      expect(xs[0]).toBeCloseTo(0.0071, 3);
      expect(xs[1]).toBeCloseTo(0.3625, 3);
    }
  });

  const SYSTEMS: [string, string, string][] = [
    ['crfe_bcc_magnetic.tdb', 'CR', 'FE'],
    ['femn.tdb', 'FE', 'MN'],
    ['alcocrni.tdb', 'CO', 'CR'],
    ['alcocrni.tdb', 'AL', 'CO'],
    ['COST507.tdb', 'CU', 'FE'],
  ];
  test.each(SYSTEMS)('%s %s-%s: random points on the seed grid equal a grid four times finer', (file, a, b) => {
    const { database, components } = open(file);
    const rand = rng(41);
    const higher: string[] = [];
    for (let i = 0; i < 120; i++) {
      const conditions = { T: 300 + 1700 * rand(), X: { [b]: rand() } };
      const coarse = equilibrium({ database, components: components(a, b), conditions, options: { pdens: 30 } });
      const fine = equilibrium({ database, components: components(a, b), conditions, options: { pdens: 120 } });
      expect(coarse.converged, coarse.reason).toBe(true);
      expect(fine.converged, fine.reason).toBe(true);
      if (Math.abs(coarse.GM - fine.GM) > SAME_G) {
        higher.push(
          `${conditions.T.toFixed(1)} K x=${conditions.X[b].toFixed(4)}: ${coarse.phases.map((p) => p.name).join('+')} ` +
            `${coarse.GM.toFixed(4)} vs ${fine.phases.map((p) => p.name).join('+')} ${fine.GM.toFixed(4)}`,
        );
      }
    }
    expect(higher).toEqual([]);
  });
});
