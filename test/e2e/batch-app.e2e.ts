// A batch through the app in headless Chromium against a real service: New task -> Batch, a table of 20 Al-Zn
// alloys pasted as a spreadsheet copies it (tabs), two temperatures, submitted; the result's 40 rows are plotted
// (an output against a composition input, then coloured by a third column), filtered, sorted and exported as shown;
// a workbook opened in the form becomes its table; then the task list deletes several tasks at once. Screenshots:
// batch-form.png, batch-result.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import writeXlsxFile from 'write-excel-file/node';
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

let svc: Service;
let served: Served;
let browser: Browser;
let page: Page;
let errors: string[];
let batchId = 0;

/** 20 alloys: a label and x(ZN) from 0.02 to 0.40, tab-separated as a spreadsheet copies cells. */
const TABLE = [
  'label\tZN',
  ...Array.from({ length: 20 }, (_, i) => `alloy ${i + 1}\t${((i + 1) * 0.02).toFixed(2)}`),
].join('\n');

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  svc = await startService();
  served = await serveRenderer(svc);
  browser = await launch();
  ({ page, errors } = await signedInPage(browser, svc, {
    viewport: { width: 1360, height: 1000 },
    acceptDownloads: true,
  }));
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await svc?.stop();
});

describe('a batch in the app', () => {
  it('New task -> Batch takes a pasted table and temperatures, and submits one task', async () => {
    const dbs = (await apiCall<{ items: { id: string; code: string }[] }>(svc, 'GET', '/database?size=100')).json.items;
    await page.goto(`${served.url}#/new`);
    await page.getByTestId('task-form').waitFor();
    await page.selectOption('#task-type', 'equilibrium_batch');
    await page.selectOption('#f-tdb_code', dbs.find((d) => d.code === 'ALZN_MEY1993')!.id);
    await page.fill('#f-title', '20 Al-Zn alloys at 500 and 600 K');
    for (const el of ['AL', 'ZN']) await page.locator(`#f-components button[data-element="${el}"]`).click();
    await page.getByTestId('batch-table-text').fill(TABLE);
    expect(await page.getByTestId('batch-table-rows').innerText()).toBe('20 rows');
    // the spreadsheet's tabs are read as commas
    expect(await page.getByTestId('batch-table-text').inputValue()).toContain('alloy 1,0.02');
    await page.fill('#f-table-temperatures', '500, 600');
    await page.screenshot({ path: join(SCREENSHOTS, 'batch-form.png'), fullPage: true });
    await page.getByRole('button', { name: 'Submit task' }).click();
    const created = page.getByTestId('created');
    await created.waitFor({ timeout: 30_000 });
    batchId = Number(/#(\d+)/.exec(await created.innerText())![1]);
    const cfg = JSON.parse((await apiCall<{ description: string }>(svc, 'GET', `/task/${batchId}`)).json.description);
    expect(cfg.task_type).toBe('equilibrium_batch');
    expect(cfg.condition.table.temperatures).toEqual([500, 600]);
    expect(cfg.condition.composition_unit).toBeUndefined();
    await waitCompleted(svc, batchId, 'batch');
  });

  it('plots, filters, sorts and exports the 40 rows', async () => {
    await openResultView(page, served.url, batchId);
    await page.getByTestId('view-batch').waitFor();
    expect(await page.getByTestId('batch-counts').innerText()).toContain('40 of 40 rows: 40 ok');
    await expect.poll(() => page.getByTestId('batch-plot-count').innerText()).toContain('40 of 40 rows plotted');
    expect(await page.getByTestId('batch-plot-x').inputValue()).toBe('input_x(ZN)');
    await page.selectOption('[data-testid="batch-plot-y"]', 'G');
    await page.selectOption('[data-testid="batch-plot-color"]', 'input_T');
    expect(await page.locator('[data-testid="batch-plot"] circle').count()).toBe(40);
    await page.getByTestId('batch-plot-legend').waitFor();
    // the whole table, not only result.json's first rows: sorted by G, descending on the second click
    await page.getByTestId('batch-table').getByRole('button', { name: 'G', exact: true }).click();
    await page.getByTestId('batch-table').getByRole('button', { name: /^G/ }).click();
    const gs = (await page.locator('[data-testid="batch-table"] th').allInnerTexts()).findIndex((t) => /^G\b/.test(t));
    const column = await page.locator(`[data-testid="batch-table"] tbody tr td:nth-child(${gs + 1})`).allInnerTexts();
    const values = column.map(Number);
    expect(values).toHaveLength(40);
    expect([...values].sort((a, b) => b - a)).toEqual(values);
    await page.getByTestId('batch-filter-text').fill('alloy 20');
    await expect.poll(() => page.locator('[data-testid="batch-table"] tbody tr').count()).toBe(2);
    const download = page.waitForEvent('download');
    await page.getByTestId('batch-table-csv').click();
    const csv = readFileSync((await (await download).path())!, 'utf8')
      .trim()
      .split('\n');
    expect(csv).toHaveLength(3);
    expect(csv[1]).toContain('alloy 20');
    await page.getByTestId('batch-filter-text').fill('');
    await page.getByTestId('result-view').screenshot({ path: join(SCREENSHOTS, 'batch-result.png') });
    expect(errors).toEqual([]);
  });

  it('a workbook opened in the form becomes the table (its first sheet, read in the page)', async () => {
    const xlsx = join(mkdtempSync(join(tmpdir(), 'phasedesk-e2e-xlsx-')), 'alloys.xlsx');
    await writeXlsxFile(
      [
        [{ value: 'label' }, { value: 'ZN' }],
        [{ value: 'a' }, { value: 0.05 }],
        [{ value: 'b' }, { value: 0.1 }],
      ],
      { sheet: 'alloys' },
    ).toFile(xlsx);
    await page.goto(`${served.url}#/new`);
    await page.getByTestId('task-form').waitFor();
    await page.selectOption('#task-type', 'equilibrium_batch');
    await page.getByTestId('batch-table-file').setInputFiles(xlsx);
    await expect.poll(() => page.getByTestId('batch-table-text').inputValue()).toBe('label,ZN\na,0.05\nb,0.1');
    expect(await page.getByTestId('batch-table-rows').innerText()).toBe('2 rows');
  });

  it('the task list deletes several tasks at once', async () => {
    const ids: number[] = [];
    for (const t of [650, 700]) {
      const r = await apiCall<{ id: number }>(svc, 'POST', '/task', {
        title: `to delete ${t}`,
        task_config: {
          task_type: 'point_calculation',
          tdb_code: 'ALZN_MEY1993',
          condition: { components: ['AL', 'ZN'], temperature: t, pressure: 101325, compositions: { ZN: 0.3 } },
        },
      });
      ids.push(r.json.id);
    }
    await page.goto(`${served.url}#/tasks`);
    for (const id of ids) await page.locator(`tr[data-task-id="${id}"] [data-testid="task-select"]`).check();
    await page.getByTestId('task-bulk-delete').click();
    await page.getByTestId('task-bulk-confirm').click();
    await expect.poll(() => page.getByRole('status').first().innerText()).toContain('2 tasks deleted');
    for (const id of ids) expect((await apiCall(svc, 'GET', `/task/${id}`)).status).toBe(404);
    expect((await apiCall(svc, 'GET', `/task/${batchId}`)).status).toBe(200);
  });
});
