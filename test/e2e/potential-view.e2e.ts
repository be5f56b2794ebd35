// The potential diagram end to end: Cu-O (cuo.tdb) imported as a user would, a diagram of log10 a(O) (against the gas)
// over 600-1800 K made in the New task form (the axes' quantities, the held element and its reference state) and
// submitted, then opened in the production renderer in headless Chromium: every boundary and junction of result.json
// drawn, every field labelled in display names, T in K and in degrees C; the screenshot goes to docs/screenshots/result-potential.png.
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
  openResultView,
  serveRenderer,
  signedInPage,
  startService,
  waitCompleted,
  type Served,
  type Service,
} from './harness.js';
import { checkDiagramLabels } from './labels-dom.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import type { PotentialDiagramDocument } from '../../contract/results/potential_diagram.js';

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
    join(SHARED_TDB_DIR, 'cuo.tdb'),
    '--code',
    'CUO',
    '--name',
    'Cu-O',
    '--level',
    'free',
    '--type',
    'oxide',
    '--version',
    '1',
    '--support-tasks',
    'potential_diagram',
  ]);
  consoleCommand(svc, ['subscribe', 'local', 'CUO', '--status', 'active']);
  served = await serveRenderer(svc);
  browser = await launch();
  ({ page, errors } = await signedInPage(browser, svc, { viewport: { width: 1360, height: 1300 } }));
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await svc?.stop();
});

async function resultDoc(id: number): Promise<PotentialDiagramDocument> {
  await waitCompleted(svc, id, 'potential diagram');
  const files = (await apiCall<{ files: string[] }>(svc, 'GET', `/task/${id}/result`)).json.files;
  const url = files.find((u) => new URL(u, svc.origin).pathname.endsWith('/result.json'))!;
  return (await (await fetch(new URL(url, svc.origin))).json()) as PotentialDiagramDocument;
}

describe('potential diagram', () => {
  it('made in the New task form, drawn with its boundaries, junctions and labelled fields; K and degrees C', async () => {
    await page.goto(served.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New task', exact: true }).click();
    await page.selectOption('#task-type', 'potential_diagram');
    const dbs = (await apiCall<{ items: { id: string; code: string }[] }>(svc, 'GET', '/database?size=100')).json.items;
    await page.selectOption('#f-tdb_code', dbs.find((d) => d.code === 'CUO')!.id);
    await page.fill('#f-title', 'Cu-O: log10 a(O) against T');
    for (const el of ['CU', 'O']) await page.locator(`#f-components button[data-element="${el}"]`).click();
    // the form opens with a temperature axis of 600-1800 K and log10 a from -12 to 0
    expect(await page.inputValue('#f-x_axis-quantity')).toBe('temperature');
    expect(await page.inputValue('#f-y_axis-start')).toBe('-12');
    await page.selectOption('#f-y_axis-element', 'O');
    await page.fill('#f-y_axis-reference_state', 'GAS');
    await page.fill('#f-grid_points', '41');
    await page.getByRole('button', { name: 'Submit task' }).click();
    await page.locator('[data-testid="created"], .field-error, [data-testid="form-error"]').first().waitFor();
    expect(await page.locator('.field-error, [data-testid="form-error"]').allInnerTexts()).toEqual([]);
    const list = await apiCall<{ data: { id: number; title: string }[] }>(svc, 'GET', '/task/list?items_per_page=10');
    const id = list.json.data.find((t) => t.title === 'Cu-O: log10 a(O) against T')!.id;

    const doc = await resultDoc(id);
    expect(doc.y_axis).toMatchObject({ element: 'O', reference_state: 'GAS' });
    await openResultView(page, served.url, id);
    await page.getByTestId('view-potential').waitFor();
    expect(await page.getByTestId('potential-boundary').count()).toBe(doc.boundaries.length);
    expect(await page.locator('[data-testid="potential-svg"] circle.junction').count()).toBe(doc.junctions.length);
    const labels = await page.getByTestId('region-label').evaluateAll((els) => els.map((e) => e.textContent));
    // in the database's display names, as result.json gives them beside the database's names
    expect(doc.fields.map((f) => f.phases.join('+')).sort()).toEqual(['CU2O', 'CUO', 'FCC_A1', 'IONIC_LIQ']);
    expect(labels.sort()).toEqual(doc.fields.map((f) => f.display).sort());
    expect(labels).toContain('Cu₂O');
    expect(await page.getByTestId('potential-svg').innerHTML()).toContain('log10 a(O), reference GAS');
    // no label overlaps another, leaves the plot or is crossed by a line (labels-dom.ts)
    expect((await checkDiagramLabels(page, 'potential-svg')).problems).toEqual([]);
    await page.getByTestId('result-view').screenshot({ path: join(SCREENSHOTS, 'result-potential.png') });
    await page.getByTestId('potential-celsius').check();
    expect(await page.getByTestId('potential-svg').innerHTML()).toContain('Temperature [°C]');
    expect(errors).toEqual([]);
  }, 400_000);
});
