// Validation kind "step" (worker/validation/kinds/step.ts) on the shared open cases, plus the
// contains_sets comparison it relies on (worker/validation/compare.ts) failing when a set is missing.
import { describe, expect, it } from 'vitest';
import { compareEntry } from '../../worker/validation/compare.js';
import { expectAllMatched } from '../validation/expect-matched.js';

describe('validation kind step', () => {
  it('matches every open step case', async () => {
    await expectAllMatched(['step']);
  });

  it('contains_sets: every expected set must be among the computed ones, in any order', () => {
    const e = {
      quantity: 'phase_regions_include',
      value: [['FCC_A1', 'LIQUID'], ['LIQUID']],
      compare: 'contains_sets',
    };
    expect(compareEntry(e, [['LIQUID'], ['BCT_A5', 'FCC_A1'], ['LIQUID', 'FCC_A1']]).ok).toBe(true);
    const miss = compareEntry(e, [['LIQUID'], ['BCT_A5', 'FCC_A1']]);
    expect(miss.ok).toBe(false);
    expect(miss.message).toBe('missing FCC_A1+LIQUID');
    expect(compareEntry(e, null).ok).toBe(false);
  });
});
