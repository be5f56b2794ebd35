// Runs every case of the solver's kinds (equilibrium, metastable, derivative, conversion) from the
// shared open validation set, prints matched / total per kind, and requires every case to match.
// (Issue 4 asks for at least 95%; the open set is at 100% now, so any regression fails.)
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatSummary, runValidation } from '../../worker/validation/runner.js';
import { SHARED_CASES } from '../support/shared.js';

const KINDS = ['equilibrium', 'metastable', 'derivative', 'conversion'];

describe('validation: equilibrium, metastable, derivative, conversion', () => {
  it('finds the shared cases', () => {
    expect(existsSync(SHARED_CASES), `${SHARED_CASES} (the shared validation set beside the repository)`).toBe(true);
  });

  it('matches every case within its tolerance', async () => {
    const report = await runValidation(SHARED_CASES, { kinds: KINDS });
    console.log(formatSummary(report));
    const bad = report.cases.filter((c) => c.verdict !== 'matched');
    for (const c of bad) {
      for (const e of c.entries.filter((x) => x.verdict !== 'matched')) {
        console.log(`${c.id} ${e.quantity}: ${e.verdict} computed=${JSON.stringify(e.computed)} expected=${JSON.stringify(e.expected)} ${e.message ?? ''}`);
      }
    }
    for (const k of KINDS) expect(report.summary[k]?.total ?? 0).toBeGreaterThan(0);
    expect(bad.map((c) => c.id)).toEqual([]);
  });
});
