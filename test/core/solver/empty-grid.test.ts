// A system no phase of the database can hold (Al and Nd of al2o3_nd2o3_zro2.tdb: every phase needs oxygen) has
// no grid point to sample: the convex hull has only the fake points of the free elements, and the answer is
// "not converged", for one point and for a batch over threads, never a crash of the process.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibrium, equilibriumBatch } from '../../../worker/core/equilibrium.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';

const db = openDatabase(path.join(SHARED_TDB_DIR, 'al2o3_nd2o3_zro2.tdb'));

describe('a system without grid points', () => {
  it('Al-Nd in an oxide database: not converged', () => {
    const r = equilibrium({ database: db, components: ['AL', 'ND', 'VA'], conditions: { T: 300, X: { ND: 1e-10 } } });
    expect(r.converged).toBe(false);
    expect(r.phases).toEqual([]);
  });

  it('the same over a batch on two threads', () => {
    const rs = equilibriumBatch({
      database: db,
      components: ['AL', 'ND', 'VA'],
      threads: 2,
      conditions: [0.1, 0.5, 0.9].map((x) => ({ T: 1000, X: { ND: x } })),
    });
    expect(rs.map((r) => r.converged)).toEqual([false, false, false]);
  });
});
