// A two-phase field whose last tie-line is short ends at a congruent point only where both of its boundaries meet at
// one composition (region-ends.ts): Al-Fe of Sundman et al. (Calphad 33, 2009): liquid + Al13Fe4 narrows to 0.001 at
// the peritectic liquid + Al5Fe2 -> Al13Fe4 (1423.96 K), next to the metastable congruent melting of Al13Fe4. Beyond
// its last tie-line's midpoint lies liquid alone, which was taken for a congruent maximum; beyond its Al13Fe4
// boundary lies liquid + Al5Fe2, so the field ends on the invariant line. Al5Fe2 does melt congruently (1431.16 K),
// and its liquid + Al5Fe2 fields still close there.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { BinarySolver } from '../../worker/mapping/binary-solver.js';
import type { BinaryState } from '../../worker/mapping/binary-types.js';
import { MapLedger } from '../../worker/mapping/core/ledger.js';
import { runSync } from '../../worker/mapping/field_search.js';
import { OrderModel, resolveOrderDisorderOptions } from '../../worker/mapping/order-disorder.js';
import { classifyRegionEnd } from '../../worker/mapping/region-ends.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const db = openDatabase(path.join(SHARED_TDB_DIR, 'Al-Fe_sundman2009.tdb'));
const components = ['FE', 'AL', 'VA'];
const phases = db.phasesFor(['FE', 'AL']);
const solver = new BinarySolver(
  {
    database: db,
    components,
    phases,
    xComponent: 'AL',
    P: 101325,
    threads: 1,
    gridPdens: 30,
    budget: 1000,
    order: OrderModel.build(db, phases, components, resolveOrderDisorderOptions(undefined)),
  },
  new MapLedger(),
);
const solve = (q: { T: number; X: number }) => solver.solve(q.T, q.X);
const tie = (e: BinaryState) => ({ T: e.T, x: [e.phases[0].x, e.phases[1].x] as [number, number] });

/** The end of the field found at (T, X), traced upwards, with the state beyond at (Tbeyond, X). */
function upperEnd(T: number, Tbeyond: number, X: number, log: string[]) {
  const inside = solver.solve(T, X);
  expect(inside.phases).toHaveLength(2);
  const good = tie(inside);
  const beyond = solver.solve(Tbeyond, X);
  const labels = [inside.phases[0].label, inside.phases[1].label] as [string, string];
  return {
    good,
    beyond,
    end: runSync(
      classifyRegionEnd(good, beyond, 1, labels, [good], (s) => log.push(s)),
      solve,
    ),
  };
}

describe('a short tie-line closes at a congruent point only where both boundaries meet', () => {
  test('Al-Fe: liquid + Al13Fe4 ends on the peritectic liquid + Al5Fe2 -> Al13Fe4, not at a congruent point', () => {
    const log: string[] = [];
    const { good, beyond, end } = upperEnd(1423.951, 1423.956, 0.7527, log);
    expect(good.x[1] - good.x[0]).toBeLessThan(0.002);
    // beyond the midpoint of the last tie-line: liquid alone, what looked like a congruent maximum
    expect(beyond.key).toBe('LIQUID');
    expect(end.kind).toBe('invariant');
    // the state beyond is the neighbouring field, liquid + Al5Fe2, with the liquid at the field's boundary
    expect(end.bad?.phases.map((p) => p.base).sort()).toEqual(['AL5FE2', 'LIQUID']);
    const liquid = end.bad!.phases.find((p) => p.base === 'LIQUID')!;
    expect(Math.abs(liquid.x - good.x[1])).toBeLessThan(0.002);
    expect(log.some((l) => l.includes('no congruent point'))).toBe(true);
  });

  test('Al-Fe: liquid + Al5Fe2 closes at the congruent melting point of Al5Fe2', () => {
    const log: string[] = [];
    const { beyond, end } = upperEnd(1431.1577, 1431.1664, 0.715, log);
    expect(beyond.key).toBe('LIQUID');
    expect(end.kind).toBe('congruent');
  });
});
