// A tie-line end that jumps across a tie-triangle of two sets of one phase (worker/mapping/ternary/trace.ts
// continuous): in alcrni at 1273 K the ordered end of the A2 + B2 region jumps from the antisite B2
// (x(Al, Ni, Cr) = 0.5775, 0.3413, 0.0812) to the vacancy-rich B2 (0.5657, 0.4050, 0.0293) across the
// A2 + B2 + B2 triangle with the Al-Cr A2 at 0.4556, 0.0034, 0.5410. The point equilibrium inside gives the three
// sets (Gibbs phase rule: three phases at fixed T and P in a ternary); the map drew A2 + B2 tie-lines across it.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { mapTernary } from '../../worker/mapping/ternary.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

describe('a tie-triangle of one phase', () => {
  test('Al-Ni-Cr at 1273 K: the A2 + B2 + B2 triangle is mapped and the point equilibria agree', () => {
    const db = openDatabase(path.join(SHARED_TDB_DIR, 'alcrni.tdb'));
    const s = mapTernary({ database: db, components: ['AL', 'NI', 'CR'], T: 1273, threads: 2 });
    const triangle = s.triangles.find((t) => [...t.labels!].sort().join(' + ') === 'A2 (B2) + B2 (B2) + B2 (B2)#2');
    expect(triangle).toBeDefined();
    const corners = [...triangle!.corners].sort((a, b) => a[1] - b[1]);
    const want = [
      [0.4556, 0.0034, 0.541],
      [0.5775, 0.3413, 0.0812],
      [0.5657, 0.405, 0.0293],
    ];
    corners.forEach((c, i) => c.forEach((v, k) => expect(v).toBeCloseTo(want[i]![k]!, 3)));
    expect(s.selfCheck!.disagreements).toEqual([]);
  }, 120_000);

  test('the three B2 sets are a true minimum: one B2 between the two Al-rich sets lies above their tangent plane', () => {
    // the antisite B2 (Ni and Al antisites on the first sublattice) and the vacancy-rich B2 (constitutional vacancies
    // there) are two minima of one B2 model; along the segment between them the best single B2 (one composition set,
    // site fractions relaxed) rises above the plane of the three-phase equilibrium, so the three sets are no artefact
    const db = openDatabase(path.join(SHARED_TDB_DIR, 'alcrni.tdb'));
    const at = (ni: number, cr: number, singleSet = false) =>
      equilibrium({
        database: db,
        components: ['AL', 'CR', 'NI', 'VA'],
        phases: singleSet ? ['B2'] : undefined,
        conditions: { T: 1273, P: 101325, X: { CR: cr, NI: ni } },
        options: { singleSet },
      });
    const three = at(0.137, 0.3649);
    expect(three.phases.filter((p) => p.name === 'B2' && p.NP > 1e-3)).toHaveLength(3);
    const plane = (ni: number, cr: number) => (1 - ni - cr) * three.mu.AL! + ni * three.mu.NI! + cr * three.mu.CR!;
    const above = [0.25, 0.5, 0.75].map((f) => {
      const ni = 0.3413 + f * (0.405 - 0.3413),
        cr = 0.0812 + f * (0.0293 - 0.0812);
      const one = at(ni, cr, true);
      expect(one.converged).toBe(true);
      return one.GM - plane(ni, cr);
    });
    for (const dG of above) expect(dG).toBeGreaterThan(5);
    expect(Math.max(...above)).toBeGreaterThan(50);
  });
});
