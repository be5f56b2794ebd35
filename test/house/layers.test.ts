// The one direction of imports between the layers (.dependency-cruiser.cjs, read its header): contract/ pure,
// the renderer on contract/ only, main/ from entries to routes, requests, services and the store, worker/ from
// the calculations down to the core. dependency-cruiser resolves every import of the TypeScript and Svelte sources.
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cruise } from 'dependency-cruiser';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);

async function violations(extraRules: object[] = []): Promise<string[]> {
  const config = require(path.join(ROOT, '.dependency-cruiser.cjs'));
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const result = await cruise(['contract', 'main', 'worker', 'renderer/src'], {
      ...config.options,
      ruleSet: { forbidden: [...config.forbidden, ...extraRules] },
      validate: true,
    });
    const output = result.output as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
    return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
  } finally {
    process.chdir(cwd);
  }
}

describe('layers', () => {
  it('no import goes against the layers', async () => {
    expect(await violations()).toEqual([]);
  }, 120_000);

  it('a rule against an import that exists is reported (the check can fail)', async () => {
    const found = await violations([
      { name: 'probe', severity: 'error', from: { path: '^worker/calculations/' }, to: { path: '^worker/core/' } },
    ]);
    expect(found.some((v) => v.startsWith('probe: worker/calculations/'))).toBe(true);
  }, 120_000);
});
