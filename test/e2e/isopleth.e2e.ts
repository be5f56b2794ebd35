// The isopleth result view end to end: a real PhaseDesk service with its bundled COST507 computes a small
// Al-4.4Cu-xMg isopleth (mass percent), the production renderer opens the completed task in headless Chromium, the
// view is checked against the result.json the service wrote (every line drawn, liquidus and solidus, the region
// labels, the axis in mass percent, T in K and in degrees C), and screenshots go to docs/screenshots/result-isopleth*.png.
// Any console error fails the run.
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
  type Served,
  type Service,
} from './harness.js';
import { checkDiagramLabels } from './labels-dom.js';
import type { IsoplethResult } from '../../contract/results/isopleth.js';

let svc: Service;
let served: Served;
let browser: Browser;
let page: Page;
let errors: string[];
let id = 0;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  svc = await startService({ PHASEDESK_POOL_SIZE: '1' });
  consoleCommand(svc, ['subscribe', 'local', 'COST507', '--status', 'active']);
  served = await serveRenderer(svc);
  const r = await apiCall<{ id: number }>(svc, 'POST', '/task', {
    title: 'Isopleth Al-4.4Cu-xMg (mass %)',
    task_config: {
      task_type: 'isopleth',
      tdb_code: 'COST507',
      condition: {
        components: ['AL', 'CU', 'MG'],
        composition_unit: 'mass_fraction',
        composition_start: { CU: 0.044, MG: 0 },
        composition_end: { CU: 0.044, MG: 0.02 },
        temperature_start: 650,
        temperature_end: 950,
        pressure: 101325,
        resolution: 7,
      },
    },
  });
  if (r.status !== 200) throw new Error(`POST /task: ${r.status} ${JSON.stringify(r.json)}`);
  id = r.json.id;
  browser = await launch();
  ({ page, errors } = await signedInPage(browser, svc, { viewport: { width: 1360, height: 1400 } }));
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await svc?.stop();
});

async function resultDoc(): Promise<IsoplethResult> {
  const end = Date.now() + 300_000;
  for (;;) {
    const t = (await apiCall<{ status: string; result?: string; logs?: string }>(svc, 'GET', `/task/${id}`)).json;
    if (t.status === 'completed') break;
    if (['failed', 'aborted'].includes(t.status)) throw new Error(`isopleth task ${t.status}: ${t.result}\n${t.logs}`);
    if (Date.now() > end) throw new Error(`isopleth task still ${t.status}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  const files = (await apiCall<{ files: string[] }>(svc, 'GET', `/task/${id}/result`)).json.files;
  const url = files.find((u) => new URL(u, svc.origin).pathname.endsWith('/result.json'))!;
  return (await (await fetch(new URL(url, svc.origin))).json()) as IsoplethResult;
}

describe('isopleth result view', () => {
  it('draws every line of result.json, the liquidus and solidus, region labels and the mass-percent axis; K and degrees C', async () => {
    const doc = await resultDoc();
    await page.goto(`${served.url}#/tasks/${id}`);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="result-view"]')?.getAttribute('data-state') === 'ready',
      undefined,
      { timeout: 30_000 },
    );
    const view = page.getByTestId('view-isopleth');
    await view.waitFor();
    expect(await page.getByTestId('isopleth-line').count()).toBe(doc.lines.length);
    const drawn = await page
      .getByTestId('isopleth-line')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-phase')));
    expect(drawn).toEqual(doc.lines.map((l) => l.phase));
    expect(await page.locator('polyline.liquidus').count()).toBe(doc.liquidus.length);
    expect(await page.locator('polyline.solidus').count()).toBe(doc.solidus.length);
    const labels = await page.getByTestId('region-label').evaluateAll((els) => els.map((e) => e.textContent));
    // in COST507's display names (aluminium family: the fcc matrix is α-Al)
    expect(labels).toEqual(expect.arrayContaining(['L', 'α-Al', 'α-Al + L']));
    expect(await page.getByTestId('isopleth-svg').innerHTML()).toContain('Mass percent Mg');
    // no label overlaps another, leaves the plot or is crossed by a line (labels-dom.ts)
    expect((await checkDiagramLabels(page, 'isopleth-svg')).problems).toEqual([]);
    await page.getByTestId('isopleth-svg').hover({ position: { x: 400, y: 200 } });
    await expect.poll(() => page.getByTestId('isopleth-readout').innerText()).toMatch(/MG = .* %, T = .* K/);
    await page.getByTestId('result-view').screenshot({ path: join(SCREENSHOTS, 'result-isopleth.png') });
    await page.getByTestId('isopleth-celsius').check();
    expect(await page.getByTestId('isopleth-svg').innerHTML()).toContain('Temperature [°C]');
    await page.getByTestId('isopleth-svg').hover({ position: { x: 400, y: 200 } });
    await expect.poll(() => page.getByTestId('isopleth-readout').innerText()).toMatch(/T = .* °C/);
    expect(errors).toEqual([]);
  }, 400_000);
});
