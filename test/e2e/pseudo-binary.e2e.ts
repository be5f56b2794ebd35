// A pseudo-binary section end to end: a real PhaseDesk service with alcrni.tdb imported, the New task form of the
// production renderer in headless Chromium fills an isopleth with end members NiAl and Cr (typed as text), the
// service computes it, and the isopleth view of the completed task is checked against its result.json: every line
// drawn, the axis titled in the end member's mole fraction with ticks from 0 to 1, the read-out in it, the region
// labels in display names. Screenshots: docs/screenshots/new-task-pseudo-binary.png, result-pseudo-binary.png. Any
// console error fails the run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  SCREENSHOTS,
  apiCall,
  consoleCommand,
  launch,
  serveRenderer,
  signedInPage,
  startService,
  waitCompleted,
  type Served,
  type Service,
} from './harness.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import type { IsoplethResult } from '../../contract/results/isopleth.js';

let svc: Service;
let served: Served;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  svc = await startService({ PHASEDESK_POOL_SIZE: '1' });
  consoleCommand(svc, [
    'db',
    'import',
    join(SHARED_TDB_DIR, 'alcrni.tdb'),
    '--code',
    'ALCRNI',
    '--name',
    'Al-Cr-Ni',
    '--level',
    'free',
    '--type',
    'superalloy',
    '--version',
    '1',
    '--support-tasks',
    'isopleth',
  ]);
  consoleCommand(svc, ['subscribe', 'local', 'ALCRNI', '--status', 'active']);
  served = await serveRenderer(svc);
  browser = await launch();
  ({ page, errors } = await signedInPage(browser, svc, { viewport: { width: 1360, height: 1400 } }));
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await svc?.stop();
});

async function resultDoc(id: number): Promise<IsoplethResult> {
  await waitCompleted(svc, id, 'pseudo-binary section');
  const files = (await apiCall<{ files: string[] }>(svc, 'GET', `/task/${id}/result`)).json.files;
  const url = files.find((u) => new URL(u, svc.origin).pathname.endsWith('/result.json'))!;
  return (await (await fetch(new URL(url, svc.origin))).json()) as IsoplethResult;
}

/** The New task form filled for the section NiAl-Cr, 1200-2200 K, and submitted: the new task's id. */
async function submitFromForm(): Promise<number> {
  await page.goto(`${served.url}#/new`);
  await page.getByTestId('task-form').waitFor();
  await page.selectOption('#task-type', 'isopleth');
  const dbs = (await apiCall<{ items: { id: string; code: string }[] }>(svc, 'GET', '/database?size=100')).json.items;
  await page.selectOption('#f-tdb_code', dbs.find((d) => d.code === 'ALCRNI')!.id);
  await page.fill('#f-title', 'Pseudo-binary NiAl-Cr');
  const on = page.locator('#f-components button[aria-pressed="true"]');
  while ((await on.count()) > 0) await on.first().click();
  for (const el of ['NI', 'AL', 'CR']) await page.locator(`#f-components button[data-element="${el}"]`).click();
  await page.fill('#f-end_members-start', 'NiAl');
  await page.fill('#f-end_members-end', 'Cr');
  await page.fill('#f-temperature_start', '1200');
  await page.fill('#f-temperature_end', '2200');
  await page.fill('#f-resolution', '7');
  await page.getByTestId('task-form').screenshot({ path: join(SCREENSHOTS, 'new-task-pseudo-binary.png') });
  await page.getByRole('button', { name: 'Submit task' }).click();
  const created = page.getByTestId('created');
  await created.waitFor({ timeout: 30_000 });
  return Number(/#(\d+)/.exec(await created.innerText())![1]);
}

describe('pseudo-binary section (isopleth with end members)', () => {
  it('is made in the New task form and drawn in the end member fraction with every line of result.json', async () => {
    const id = await submitFromForm();
    const doc = await resultDoc(id);
    expect(doc.config.condition).toMatchObject({ end_members: { start: 'NiAl', end: 'Cr' } });
    expect(doc.config.condition).not.toHaveProperty('composition_start');
    expect(doc.end_members!.axis_label).toBe('Mole fraction Cr');
    await page.goto(`${served.url}#/tasks/${id}`);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="result-view"]')?.getAttribute('data-state') === 'ready',
      undefined,
      { timeout: 30_000 },
    );
    await page.getByTestId('view-isopleth').waitFor();
    expect(await page.getByTestId('isopleth-line').count()).toBe(doc.lines.length);
    const svg = await page.getByTestId('isopleth-svg').innerHTML();
    expect(svg).toContain('Mole fraction Cr');
    expect(await page.locator('[data-testid="view-isopleth"] h2').first().innerText()).toBe(
      'Pseudo-binary section NiAl - Cr',
    );
    const labels = await page.getByTestId('region-label').evaluateAll((els) => els.map((e) => e.textContent));
    expect(labels).toEqual(expect.arrayContaining(['L']));
    await page.getByTestId('isopleth-svg').hover({ position: { x: 400, y: 200 } });
    await expect.poll(() => page.getByTestId('isopleth-readout').innerText()).toMatch(/^Cr = 0\.\d+, T = .* K/);
    await page.getByTestId('result-view').screenshot({ path: join(SCREENSHOTS, 'result-pseudo-binary.png') });
    expect(errors).toEqual([]);
  }, 400_000);
});
