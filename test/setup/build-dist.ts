// Global setup of every vitest run: brings dist/ up to date with the sources before any test file starts.
// The calculation hosts (dist/worker/host.js, forked by the scheduler), the preview renderer process and the CLI
// tests (dist/main/cli.js in child processes) run compiled code; `tsc -b` rebuilds exactly what changed since the
// last build and costs a fraction of a second when nothing did, so no test runs code older than its sources. The test
// hooks (test/support/hooks: the __test_* calculations and the test-only addon's loader) are built beside dist/worker
// here, and only here: the production build leaves them out.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export default function setup(): void {
  const r = spawnSync(process.execPath, ['bin/build.js', 'tsc', 'test-hooks'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, PHASEDESK_BUILD_QUIET: '1' },
  });
  // tsc emits every file even when some do not type-check, so the tests still run today's code; the errors are shown
  // above and `npm test` stops on them before vitest starts.
  if (r.error) throw r.error;
  if (r.status !== 0)
    console.warn('test setup: the TypeScript build reported errors (see above); dist/ was written anyway');
}
