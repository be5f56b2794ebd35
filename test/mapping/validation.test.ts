// The shared validation cases of the kinds map, boundary, invariant and literature.
import { test } from 'vitest';
import { expectAllMatched } from '../validation/expect-matched.js';

test('validation kinds map, boundary, invariant, literature: every case matches', async () => {
  await expectAllMatched(['map', 'boundary', 'invariant', 'literature']);
}, 300_000);
