// Runs the shared open validation cases of some kinds, prints matched / total per kind and every
// miss, and requires each kind to be present and every case to match.
import { expect } from 'vitest';
import { formatSummary, runValidation } from '../../worker/validation/runner.js';
import { SHARED_CASES } from '../support/shared.js';

export async function expectAllMatched(kinds: string[]): Promise<void> {
  const report = await runValidation(SHARED_CASES, { kinds });
  console.log(formatSummary(report));
  const bad = report.cases.filter((c) => c.verdict !== 'matched');
  for (const c of bad) {
    for (const e of c.entries.filter((x) => x.verdict !== 'matched')) {
      console.log(
        `${c.id} ${e.quantity} ${e.phase ?? ''}: ${e.verdict} computed=${JSON.stringify(e.computed)} expected=${JSON.stringify(e.expected)} ${e.message ?? ''}`,
      );
    }
  }
  for (const k of kinds) expect(report.summary[k]?.total ?? 0, `cases of kind ${k}`).toBeGreaterThan(0);
  expect(bad.map((c) => c.id)).toEqual([]);
}
