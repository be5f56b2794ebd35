// The whole vocabulary of shared/validation/README.md: the shared open set must stay fully matched, and
// the project's own cases (test/validation/own-cases.json: every kind, condition form and quantity, values
// calculated by hand in the case notes, test databases in test/validation/tdb) must all be computed
// (no unsupported entry) and matched.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSummary, runValidation, type ValidationReport } from '../../worker/validation/runner.js';
import { SHARED_CASES, SHARED_TDB_DIR } from '../support/shared.js';

const OWN_CASES = path.join(__dirname, 'own-cases.json');

function misses(report: ValidationReport): string[] {
  const out: string[] = [];
  for (const c of report.cases) {
    for (const e of c.entries.filter((x) => x.verdict !== 'matched')) {
      out.push(
        `${c.id} ${e.quantity}: ${e.verdict} computed=${JSON.stringify(e.computed)} expected=${JSON.stringify(e.expected)} ${e.message ?? ''}`,
      );
    }
  }
  return out;
}

describe('validation vocabulary', () => {
  it('computes and matches every own case (no unsupported entry)', async () => {
    const report = await runValidation(OWN_CASES, { tdbDir: SHARED_TDB_DIR });
    console.log(formatSummary(report));
    const unsupported = report.cases.flatMap((c) =>
      c.entries.filter((e) => e.verdict === 'unsupported').map((e) => `${c.id} ${e.quantity}: ${e.message}`),
    );
    expect(unsupported).toEqual([]);
    expect(misses(report)).toEqual([]);
    // every kind of the README is exercised
    for (const k of [
      'equilibrium',
      'property',
      'derivative',
      'metastable',
      'boundary',
      'invariant',
      'step',
      'map',
      'scheil',
      'literature',
      'conversion',
      'database',
      'relation',
    ])
      expect(report.summary[k]?.total ?? 0, `own cases of kind ${k}`).toBeGreaterThan(0);
  });

  it('still matches every case of the shared open set', async () => {
    const report = await runValidation(SHARED_CASES);
    console.log(formatSummary(report));
    expect(misses(report)).toEqual([]);
    expect(report.cases.length).toBe(87);
  });
});
