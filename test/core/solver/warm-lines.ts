// What the tests of the solver's economies along a warm-started line share (stale-grids.test.ts,
// kept-linearizations.test.ts): the 7-component Al alloy's line and the comparison of two runs of a line.
import path from 'node:path';
import { expect } from 'vitest';
import type { loadTestingCore } from '../../support/hooks/testing-core.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';
import { openDatabase } from '../../../worker/core/database.js';

export type WarmLine = ReturnType<ReturnType<typeof loadTestingCore>['warmSequence']>;

/** The arguments of warmSequence for a 7-component Al alloy on COST507, 950 -> 550 K every 4 K. */
export function alAlloyLine(): Parameters<ReturnType<typeof loadTestingCore>['warmSequence']> {
  const file = path.join(SHARED_TDB_DIR, 'COST507.tdb');
  const elements = ['AL', 'CU', 'FE', 'MG', 'MN', 'SI', 'ZN'];
  const X = { CU: 0.008, FE: 0.002, MG: 0.011, MN: 0.003, SI: 0.007, ZN: 0.001 };
  const phases = openDatabase(file)
    .phasesFor([...elements, 'VA'])
    .filter((p) => p !== 'GAS');
  const temperatures = Array.from({ length: 101 }, (_, i) => 950 - 4 * i);
  return [file, phases, [...elements, 'VA'], Object.keys(X), Object.values(X), temperatures];
}

/** The same phases at every point, and amounts, μ and G the same up to rounding. */
export function expectSameAnswers(a: WarmLine, b: WarmLine): void {
  expect(a.points.length).toBe(b.points.length);
  for (const [i, p] of a.points.entries()) {
    const q = b.points[i]!;
    expect([p.converged, p.phases], `point ${i}`).toEqual([q.converged, q.phases]);
    p.amounts.forEach((v, k) => expect(v, `point ${i} amount ${k}`).toBeCloseTo(q.amounts[k]!, 9));
    p.mu.forEach((v, k) => expect(v, `point ${i} mu ${k}`).toBeCloseTo(q.mu[k]!, 5));
    expect(p.GM, `point ${i} GM`).toBeCloseTo(q.GM, 6);
  }
}
