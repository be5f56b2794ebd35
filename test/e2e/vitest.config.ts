// End-to-end tests run on their own (`npm run test:e2e`), never by the default `vitest run`
// (the root config only includes test/**/*.test.ts and excludes test/e2e).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/e2e/**/*.e2e.ts'],
    // dist/ and the test hooks (the services of these tests run the __test_* calculations) brought up to date
    globalSetup: ['test/setup/build-dist.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
