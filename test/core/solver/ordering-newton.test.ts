// A phase that orders (alcfe_b2's B2_BCC, (AL,FE,VA)(AL,FE,VA)(VA)) between its disordered saddle and its
// ordered minimum: the reduced Hessian is indefinite there and is shifted until positive definite
// (newton_system.cpp, linearize). The shift started at 1e-9 of the smallest diagonal entry, which the
// vacancies at y = 1e-14 put at 2e16 J/mol in every direction of the null space: a shift of 8e7 J/mol against
// an ordering curvature of a few J/mol, and Newton crept towards the ordered state by 6e-6 per iteration.
// It ran to its iteration limit at 689.72 K, X(FE) = 0.24166718 (a point of the diagram self-audit's scans),
// and at X(FE) = 0.2333 it stopped on the disordered state, 2.4 J/mol above the ordered one, and called it
// converged. Two stable sets of one phase whose midpoint lies below their chord are merged (newton.cpp).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibrium } from '../../../worker/core/equilibrium.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';

const db = openDatabase(path.join(SHARED_TDB_DIR, 'alcfe_b2.tdb'));
const solve = (x: number) =>
  equilibrium({
    database: db,
    components: ['AL', 'FE', 'VA'],
    phases: db.phasesFor(['AL', 'FE']),
    conditions: { T: 689.72, P: 101325, X: { FE: x } },
  });
/** |y(AL) on sublattice 1 - y(AL) on sublattice 2| of B2_BCC (variables AL, FE, VA, AL, FE, VA, VA) */
const order = (y: Float64Array) => Math.abs(y[0] - y[3]);

describe('Newton through the ordering of B2_BCC (Al-Fe, alcfe_b2)', () => {
  it.each([0.2333, 0.24166718, 0.2417, 0.25])('689.72 K, X(FE)=%s: the ordered state, in few iterations', (x) => {
    const r = solve(x);
    expect(r.converged, r.reason).toBe(true);
    expect(r.phases.map((p) => p.name)).toEqual(['B2_BCC']);
    expect(order(r.phases[0].y)).toBeGreaterThan(0.1);
    expect(r.iterations).toBeLessThan(40);
  });

  it('the ordered state is the lower one, and G is convex across the composition range', () => {
    const xs = Array.from({ length: 9 }, (_, i) => 0.23 + 0.0025 * i);
    const g = xs.map((x) => solve(x).GM);
    // the equilibrium G_M(x) of one phase is convex: each inner point lies below the chord of its neighbours
    for (let i = 1; i + 1 < xs.length; i++) expect(g[i]).toBeLessThan((g[i - 1] + g[i + 1]) / 2);
  });
});
