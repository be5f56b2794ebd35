// The liquidus projection end to end: Al-Cu-Mg on the bundled COST507 made in the New task form and submitted, then
// opened in the production renderer in headless Chromium: every valley of result.json drawn with its arrow, every
// invariant point marked and listed in the reaction table (K and degrees C), the primary fields labelled in display
// names; the screenshot goes to docs/screenshots/result-liquidus-projection.png. Any console error fails the run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  SCREENSHOTS,
  apiCall,
  launch,
  openResultView,
  serveRenderer,
  signedInPage,
  startService,
  waitCompleted,
  type Served,
  type Service,
} from './harness.js';
import type { LiquidusProjectionDocument } from '../../contract/results/liquidus_projection.js';
import { checkDiagramLabels } from './labels-dom.js';

let svc: Service;
let served: Served;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  svc = await startService({ PHASEDESK_POOL_SIZE: '1' });
  served = await serveRenderer(svc);
  browser = await launch();
  ({ page, errors } = await signedInPage(browser, svc, { viewport: { width: 1360, height: 1500 } }));
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await svc?.stop();
});

async function resultDoc(id: number): Promise<LiquidusProjectionDocument> {
  await waitCompleted(svc, id, 'liquidus projection');
  const files = (await apiCall<{ files: string[] }>(svc, 'GET', `/task/${id}/result`)).json.files;
  const url = files.find((u) => new URL(u, svc.origin).pathname.endsWith('/result.json'))!;
  return (await (await fetch(new URL(url, svc.origin))).json()) as LiquidusProjectionDocument;
}

describe('liquidus projection', () => {
  it('made in the New task form, drawn with its valleys, invariant points, reaction table and labelled fields', async () => {
    await page.goto(served.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New task', exact: true }).click();
    await page.selectOption('#task-type', 'liquidus_projection');
    const dbs = (await apiCall<{ items: { id: string; code: string }[] }>(svc, 'GET', '/database?size=100')).json.items;
    await page.selectOption('#f-tdb_code', dbs.find((d) => d.code === 'COST507')!.id);
    await page.fill('#f-title', 'Al-Cu-Mg liquidus');
    for (const el of ['AL', 'CU', 'MG']) await page.locator(`#f-components button[data-element="${el}"]`).click();
    await page.fill('#f-grid_divisions', '16');
    await page.getByRole('button', { name: 'Submit task' }).click();
    await page.locator('[data-testid="created"], .field-error, [data-testid="form-error"]').first().waitFor();
    expect(await page.locator('.field-error, [data-testid="form-error"]').allInnerTexts()).toEqual([]);
    const list = await apiCall<{ data: { id: number; title: string }[] }>(svc, 'GET', '/task/list?items_per_page=10');
    const id = list.json.data.find((t) => t.title === 'Al-Cu-Mg liquidus')!.id;

    const doc = await resultDoc(id);
    expect(doc.corners).toEqual(['AL', 'CU', 'MG']);
    expect(doc.invariants.length).toBeGreaterThan(5);
    await openResultView(page, served.url, id);
    await page.getByTestId('view-liquidus-projection').waitFor();
    expect(await page.getByTestId('valley').count()).toBe(doc.valleys.length);
    expect(await page.locator('[data-testid="valley"] polygon.arrow').count()).toBe(
      doc.valleys.filter((v) => v.points.length > 1).length,
    );
    expect(await page.getByTestId('invariant-point').count()).toBe(doc.invariants.length);
    expect(await page.locator('[data-testid="invariant-table"] tbody tr').count()).toBe(doc.invariants.length);
    // the Al-rich ternary eutectic, in display names, in the table
    const table = await page.getByTestId('invariant-table').innerText();
    expect(table).toMatch(/E\d+\s+7\d\d\.\d+\s+5\d\d\.\d+/);
    expect(await page.getByTestId('isotherm').count()).toBe(doc.isotherms.length);
    const labels = await page.getByTestId('region-label').evaluateAll((els) => els.map((e) => e.textContent));
    expect(labels.length).toBeGreaterThanOrEqual(Math.min(8, doc.primary_fields.length));
    // in the database's display names (COST507: the aluminium family's), as result.json gives them
    expect(labels).toContain(doc.primary_fields.find((f) => f.phase === 'FCC_A1')!.display);
    // the labels of the screenshot: apart, inside the view, off the valleys and the outline, the corner names and tags
    const labelCheck = await checkDiagramLabels(page, 'liquidus-svg');
    expect(labelCheck.labels.length).toBeGreaterThan(0);
    expect(labelCheck.problems).toEqual([]);
    await page.getByTestId('result-view').screenshot({ path: join(SCREENSHOTS, 'result-liquidus-projection.png') });
    expect(errors).toEqual([]);
  }, 400_000);
});
