// Runs every case of the kinds implemented so far (property, relation, database, conversion) from
// the shared open validation set and requires all of them to match (formula sheet §11 shows they can).
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatSummary, runValidation } from '../../worker/validation/runner.js';
import { SHARED_CASES } from '../support/shared.js';

const CASES = SHARED_CASES;
const KINDS = ['property', 'relation', 'database', 'conversion'];

describe('validation: property, relation, database, conversion', () => {
  it('matches every case within its tolerance', async () => {
    const report = await runValidation(CASES, { kinds: KINDS });
    console.log(formatSummary(report));
    const bad = report.cases.filter((c) => c.verdict !== 'matched');
    for (const c of bad) {
      for (const e of c.entries.filter((x) => x.verdict !== 'matched')) {
        console.log(`${c.id} ${e.quantity} ${e.phase ?? ''}: ${e.verdict} computed=${JSON.stringify(e.computed)} expected=${JSON.stringify(e.expected)} ${e.message ?? ''}`);
      }
    }
    for (const k of KINDS) expect(report.summary[k]?.total ?? 0).toBeGreaterThan(0);
    expect(bad.map((c) => c.id)).toEqual([]);
  });
});
