// A field where the point solver's cold start does not converge (alcfe_b2.tdb, the A2 + B2 field of Fe-Al
// between about 565 and 620 K at its middle compositions) is traced through: the retry of a failed point
// starts from the trace's last tie-line (worker/mapping/binary-solver.ts solveRequest). Before, the field
// broke into two pieces with unresolved ends and a gap of 60 K.
import path from 'node:path';
import { expect, test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { mapBinary } from '../../worker/mapping/binary.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

test('alcfe_b2: the A2 + B2 field is one region across 500-700 K, on the tie-lines of point equilibria', () => {
  const db = openDatabase(path.join(SHARED_TDB_DIR, 'alcfe_b2.tdb'));
  const d = mapBinary({ database: db, components: ['AL', 'FE'], T: [500, 700], X: [0.6, 0.85], threads: 1 });
  const fields = d.regions.filter((r) => r.phases.join('+') === 'B2_BCC+A2_BCC');
  expect(fields).toHaveLength(1);
  expect(fields[0].ends).toEqual({ low: 'range_edge', high: 'range_edge' });
  const tl = fields[0].tielines;
  expect(tl[0].T).toBe(500);
  expect(tl[tl.length - 1].T).toBe(700);
  // where the cold start converges (600 K, x = 0.72) its tie-line is the traced one
  const near = tl.reduce((a, b) => (Math.abs(b.T - 600) < Math.abs(a.T - 600) ? b : a));
  const r = equilibrium({
    database: db,
    components: ['AL', 'FE', 'VA'],
    phases: db.phasesFor(['AL', 'FE']),
    conditions: { T: near.T, X: { FE: 0.72 } },
  });
  expect(r.converged).toBe(true);
  const xs = r.phases
    .filter((p) => p.NP > 1e-10)
    .map((p) => p.x.FE)
    .sort((a, b) => a - b);
  expect(xs[0]).toBeCloseTo(near.x[0], 3);
  expect(xs[1]).toBeCloseTo(near.x[1], 3);
});
