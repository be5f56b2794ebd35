// Every case of the solver's kinds (equilibrium, metastable, derivative, conversion) of the shared
// open validation set must match. (The goal is at least 95%; the open set is at 100% now, so
// any regression fails.)
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHARED_CASES } from '../support/shared.js';
import { expectAllMatched } from './expect-matched.js';

describe('validation: equilibrium, metastable, derivative, conversion', () => {
  it('finds the shared cases', () => {
    expect(existsSync(SHARED_CASES), `${SHARED_CASES} (the shared validation set beside the repository)`).toBe(true);
  });

  it('matches every case within its tolerance', async () => {
    await expectAllMatched(['equilibrium', 'metastable', 'derivative', 'conversion']);
  });
});
