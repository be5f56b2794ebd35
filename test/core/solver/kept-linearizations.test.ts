// A composition set's linearisation is kept while its site fractions have not moved (newton_system.cpp,
// linearize_if_moved): the step at another μ follows from it through the μ columns, and the metastable sets'
// relaxation at the converged μ leaves a set where it was linearised once its step is below 1e-10. The economy must
// change no answer beyond rounding: warm-started lines of a 7-component aluminium alloy and of a stainless steel give
// the same phases, amounts, G and μ as with every set linearised anew each time (PHASEDESK_SOLVER_RELINEARIZE), with
// far fewer linearisations.
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { loadTestingCore } from '../../support/hooks/testing-core.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';
import { openDatabase } from '../../../worker/core/database.js';
import { STEEL_TDB, steelSystem } from '../../../scripts/steel-sweep.js';
import { alAlloyLine, expectSameAnswers, type WarmLine } from './warm-lines.js';

const testing = loadTestingCore();

afterEach(() => {
  delete process.env.PHASEDESK_SOLVER_RELINEARIZE;
});

/** The line with the linearisations kept, then with every set linearised each time. */
function bothWays(run: () => WarmLine): { kept: WarmLine; anew: WarmLine } {
  const kept = run();
  process.env.PHASEDESK_SOLVER_RELINEARIZE = '1';
  const anew = run();
  delete process.env.PHASEDESK_SOLVER_RELINEARIZE;
  return { kept, anew };
}

describe('kept linearisations change no answer', () => {
  test('a 7-component Al alloy on COST507, 950 -> 550 K every 4 K, warm-started', () => {
    const both = bothWays(() => testing.warmSequence(...alAlloyLine()));
    expect(both.kept.points.every((p) => p.converged)).toBe(true);
    expectSameAnswers(both.kept, both.anew);
    // the economy acts: a third fewer linearisations at least
    expect(both.kept.linearizations).toBeLessThan((2 / 3) * both.anew.linearizations);
  }, 120_000);

  test('316L on MF Steel, 1800 -> 1400 K every 10 K, warm-started', () => {
    const file = path.join(SHARED_TDB_DIR, STEEL_TDB);
    const sys = steelSystem(openDatabase(file), '316L');
    const xs = Object.keys(sys.X);
    const temperatures = Array.from({ length: 41 }, (_, i) => 1800 - 10 * i);
    const both = bothWays(() =>
      testing.warmSequence(
        file,
        sys.phases,
        sys.components,
        xs,
        xs.map((e) => sys.X[e]!),
        temperatures,
      ),
    );
    expect(both.kept.points.every((p) => p.converged)).toBe(true);
    expectSameAnswers(both.kept, both.anew);
    expect(both.kept.linearizations).toBeLessThan(both.anew.linearizations);
  }, 120_000);
});
