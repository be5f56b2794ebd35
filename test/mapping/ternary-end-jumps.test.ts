// A tie-line end that jumps across a tie-triangle of two sets of one phase (worker/mapping/ternary/trace.ts
// continuous): in alcrni at 1273 K the ordered end of the A2 + B2 region jumps from the antisite B2
// (x(Al, Ni, Cr) = 0.5775, 0.3413, 0.0812) to the vacancy-rich B2 (0.5657, 0.4050, 0.0293) across the
// A2 + B2 + B2 triangle with the Al-Cr A2 at 0.4556, 0.0034, 0.5410. The point equilibrium inside gives the three
// sets (Gibbs phase rule: three phases at fixed T and P in a ternary); the map drew A2 + B2 tie-lines across it.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
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
});
