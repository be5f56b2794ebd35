// The three ageing treatments of the aging task's speed goals (contract/tasks/aging-examples.ts: Al-0.4Zr 500 h at
// 723 K, Ni-9.8Al-8.3Cr 1e6 s at 1073 K, the 6xxx two-stage schedule with five precipitates) as a script author and
// a researcher run them: each kawin database imported with its mobility data, each task submitted and its result.json
// fetched through the TypeScript client, then opened in the production renderer in headless Chromium.
// Screenshots: docs/screenshots/result-aging-<case>.png. Any console error fails the run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PhaseDeskClient } from '../../clients/typescript/src/index.js';
import { AGING_EXAMPLES, type AgingExample } from '../../contract/tasks/aging-examples.js';
import type { AgingDocument } from '../../contract/results/aging.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import {
  SCREENSHOTS,
  consoleCommand,
  launch,
  openResultView,
  serveRenderer,
  signedInPage,
  startService,
  type Served,
  type Service,
} from './harness.js';

let svc: Service;
let served: Served;
let browser: Browser;
let page: Page;
let errors: string[];
let client: PhaseDeskClient;
const ids: Record<string, number> = {};

const codeOf = (e: AgingExample) => `AGING_${e.name.toUpperCase()}`;

/** Imports an example's shared database, its mobility data with it, as `phasedesk db import` does for a user. */
function importDatabase(e: AgingExample): void {
  const code = codeOf(e);
  consoleCommand(svc, [
    'db',
    'import',
    join(SHARED_TDB_DIR, e.tdb),
    ...['--code', code, '--name', e.tdb, '--level', 'free', '--type', 'alloy', '--version', '1'],
    ...['--support-tasks', 'point_calculation,aging'],
  ]);
  consoleCommand(svc, ['subscribe', 'local', code, '--status', 'active']);
}

beforeAll(async () => {
  svc = await startService();
  served = await serveRenderer(svc);
  client = new PhaseDeskClient({ baseUrl: svc.baseUrl, apiKey: svc.key });
  for (const e of AGING_EXAMPLES) {
    importDatabase(e);
    const created = await client.createTask({
      title: `Aging: ${e.what}`,
      task_config: { ...e.config, tdb_code: codeOf(e) } as Parameters<PhaseDeskClient['createTask']>[0]['task_config'],
    });
    ids[e.name] = created.id;
  }
  browser = await launch();
  ({ page, errors } = await signedInPage(browser, svc, { viewport: { width: 1360, height: 1500 } }));
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await svc?.stop();
});

/** The task's result.json through the client, after waiting for the task to complete. */
async function resultOf(e: AgingExample): Promise<AgingDocument> {
  const task = await client.waitForTask(ids[e.name]!);
  expect(task.status, task.result ?? '').toBe('completed');
  return JSON.parse(new TextDecoder().decode(await client.taskFile(ids[e.name]!, 'result.json'))) as AgingDocument;
}

describe.each(AGING_EXAMPLES.map((e) => [e.name, e] as const))('aging case %s', (name, e) => {
  it('completes through the client with the atoms accounted for and every precipitate reported', async () => {
    const doc = await resultOf(e);
    expect(doc.precipitates.map((p) => p.phase).sort()).toEqual(
      e.config.condition.precipitates.map((p) => p.phase).sort(),
    );
    expect(doc.mass_balance_error).toBeLessThan(1e-6);
    expect(doc.time.at(-1)).toBeCloseTo(doc.end_time, 6);
    // something precipitated: the supersaturated matrix gave at least one phase a positive driving force at the start
    const formed = doc.precipitates.filter((p) => (p.volume_fraction.at(-1) ?? 0) > 1e-4);
    expect(formed.length, name).toBeGreaterThan(0);
    for (const p of formed) {
      expect(p.number_density.at(-1)).toBeGreaterThan(0);
      expect(p.mean_radius.at(-1)).toBeGreaterThan(1e-10);
    }
  }, 600_000);

  it('opens in the app with its charts on log time axes; screenshot', async () => {
    await resultOf(e);
    await openResultView(page, served.url, ids[e.name]!);
    for (const id of ['density', 'radius', 'fraction', 'matrix']) await page.getByTestId(`plot-aging-${id}`).waitFor();
    const timeTicks = await page
      .locator('[data-testid="plot-aging-density"] text.tick[data-axis="x"]')
      .allTextContents();
    expect(timeTicks.length).toBeGreaterThan(1);
    expect(timeTicks.every((l) => /^10⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+$/.test(l))).toBe(true);
    const endTable = await page.getByTestId('aging-end').innerText();
    for (const p of e.config.condition.precipitates) expect(endTable).toContain(p.phase);
    await page.screenshot({ path: join(SCREENSHOTS, `result-aging-${name}.png`), fullPage: true });
    expect(errors).toEqual([]);
  }, 120_000);
});
