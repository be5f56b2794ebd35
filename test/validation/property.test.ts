// Every case of the model kinds (property, relation, database, conversion) of the shared open
// validation set must match (formula sheet §11 shows they can).
import { describe, it } from 'vitest';
import { expectAllMatched } from './expect-matched.js';

describe('validation: property, relation, database, conversion', () => {
  it('matches every case within its tolerance', async () => {
    await expectAllMatched(['property', 'relation', 'database', 'conversion']);
  });
});
