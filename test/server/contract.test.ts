// The contract suites of test/contract/ against the lab server: the same tests, with the fixture of
// test/server/lab-fixture.ts (PostgreSQL, the BullMQ queue and a queue worker) instead of the embedded service.
import { afterAll, describe, expect, it } from 'vitest';
import { serversMissing } from './servers.js';

if (serversMissing) {
  describe.skip(`contract suites on the lab server (skipped: ${serversMissing})`, () => {
    it('needs PostgreSQL and Redis', () => {});
  });
} else {
  process.env.PHASEDESK_TEST_LAB = '1';
  afterAll(() => {
    delete process.env.PHASEDESK_TEST_LAB;
  });
  await import('../contract/api.contract.test.js');
  await import('../contract/task-list.contract.test.js');
  await import('../contract/door.contract.test.js');
  await import('../contract/robustness.contract.test.js');
  await import('../contract/races.contract.test.js');
  const { labFixturesStarted } = await import('./lab-fixture.js');
  it('the suites ran on the lab server', () => {
    expect(labFixturesStarted()).toBeGreaterThanOrEqual(5);
  });
}
