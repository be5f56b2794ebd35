// Drives the production renderer in headless Chromium against a real PhaseDesk service:
// key screen, database list/search/detail/phases, a point_calculation through the generated form (with a
// client-side field error first), the task list until the task is terminal, the detail with its log,
// cancelling a queued task and deleting another. Any console error fails the run. Screenshots go to docs/screenshots.
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
  startService,
  watchErrors,
  type Served,
  type Service,
} from './harness.js';

const TERMINAL = ['completed', 'failed', 'aborted'];
let svc: Service;
let served: Served;
let browser: Browser;
let page: Page;
let errors: string[];
let db: { id: string; code: string; element_list: string[] };

async function shot(name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
/** Select elements in a picker (the form keeps components across task types, so only press unpressed ones). */
async function pick(pickerId: string, els: string[]) {
  for (const el of els) {
    const b = page.locator(`#${pickerId} button[data-element="${el}"]`);
    if ((await b.getAttribute('aria-pressed')) !== 'true') await b.click();
    expect(await b.getAttribute('aria-pressed')).toBe('true');
  }
}
async function nav(label: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // One pool slot so a long test task keeps the next one queued (cancel scenario); test calculation types on
  // so that the long task exists (it is created through the API: the renderer never offers test types).
  svc = await startService({ PHASEDESK_TEST_CALCULATIONS: '1', PHASEDESK_POOL_SIZE: '1' });
  served = await serveRenderer(svc);
  console.log(`renderer served by ${served.mode} at ${served.url}; service ${svc.baseUrl}`);
  const list = await apiCall<{ items: { id: string; code: string; element_list: string[] }[] }>(
    svc,
    'GET',
    '/database?search=ALZN',
  );
  if (!list.json.items[0])
    throw new Error(`bundled database ALZN_MEY1993 not imported; service output:\n${svc.output()}`);
  db = list.json.items[0];
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
  errors = watchErrors(page);
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await svc?.stop();
});

describe('renderer against a real service', () => {
  it('asks for the key, checks it with GET /key/info and shows its owner', async () => {
    await page.goto(served.url);
    await expect(page.getByRole('heading', { name: 'API key' }).isVisible()).resolves.toBe(true);
    await page.fill('#api-key', svc.key);
    await page.press('#api-key', 'Enter'); // keyboard submit
    const info = page.getByTestId('key-info');
    await info.waitFor();
    const text = await info.innerText();
    expect(text).toContain('local');
    expect(text).toMatch(/Last used\s+\S/);
    expect(await page.evaluate(() => localStorage.getItem('phasedesk.apiKey'))).toBe(svc.key);
    await shot('key');
  });

  it('lists, searches and pages databases, and queries phases for picked elements', async () => {
    await nav('Databases');
    const table = page.getByTestId('db-table');
    await table.waitFor();
    const all = await table.locator('tbody tr').count();
    expect(all).toBeGreaterThanOrEqual(1);
    await shot('databases');
    await page.fill('#db-search', 'ZN');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Clear “ZN”').waitFor();
    const rows = await table.locator('tbody tr').allInnerTexts();
    expect(rows.length).toBeGreaterThanOrEqual(1);
    for (const r of rows) expect(r.toUpperCase()).toContain('ZN');
    await page.getByRole('link', { name: db.code }).click();
    await page.getByRole('heading', { name: new RegExp(db.code) }).waitFor();
    await page.locator('#phase-query-elements button[data-element="AL"]').click();
    // Keyboard: the picker's buttons take focus and toggle with Space.
    await page.locator('#phase-query-elements button[data-element="ZN"]').focus();
    await page.keyboard.press('Space');
    expect(await page.locator('#phase-query-elements button[data-element="ZN"]').getAttribute('aria-pressed')).toBe(
      'true',
    );
    await page.getByRole('button', { name: 'Find phases' }).click();
    const result = page.getByTestId('phase-result');
    await result.waitFor();
    expect(await result.innerText()).toMatch(/LIQUID/);
    // Elements outside element_list cannot be picked.
    expect(await page.locator('#phase-query-elements button:has-text("Fe")').first().isDisabled()).toBe(true);
    await shot('database-detail');
  });

  it('submits a point_calculation through the generated form, field errors next to the field first', async () => {
    await nav('New task');
    await page.selectOption('#task-type', 'point_calculation');
    await page.selectOption('#f-tdb_code', db.id);
    await page.fill('#f-title', 'Al-Zn at 600 K');
    await pick('f-components', ['AL', 'ZN']);
    await page.locator('.phases .chip').first().waitFor();
    // °C helper writes K into the field the API gets.
    await page.getByLabel('Temperature in degrees Celsius').fill('326.85');
    await page.getByLabel('Temperature in degrees Celsius').press('Tab');
    expect(Number(await page.inputValue('#f-temperature'))).toBeCloseTo(600, 6);
    // Composition keeps the sum at 1: the first picked component (AL) is the balance, ZN is typed.
    await page.locator('#f-compositions input[type="number"]:not([readonly])').first().fill('0.3');
    expect(Number(await page.locator('#f-compositions input[readonly]').inputValue())).toBeCloseTo(0.7, 9);
    await page.fill('#f-pressure', '0');
    await page.getByRole('button', { name: 'Submit task' }).click();
    const perr = page.locator('.field:has(#f-pressure) .field-error');
    await perr.waitFor();
    expect(await perr.innerText()).toContain('must be greater than 0');
    await shot('new-task-field-error');
    await page.getByLabel('Pressure in bar').fill('1');
    await page.getByLabel('Pressure in bar').press('Tab');
    expect(Number(await page.inputValue('#f-pressure'))).toBe(100000);
    await page.getByRole('button', { name: 'Submit task' }).click();
    await page.getByTestId('created').waitFor();
    expect(await page.locator('.field-error').count()).toBe(0);
    // docs/screenshots/new-task.png is taken by tasks-ui.e2e.ts (with progress, filters and settings in use)
  });

  it('shows the task in the list, polls it to a terminal status and shows its log and stored config', async () => {
    await nav('Tasks');
    const row = page.locator('[data-testid="task-table"] tbody tr', { hasText: 'Al-Zn at 600 K' });
    await row.waitFor();
    await page.waitForFunction(
      (t) => {
        const s = [...document.querySelectorAll('[data-testid="task-table"] tbody tr')]
          .find((r) => r.textContent?.includes('Al-Zn at 600 K'))
          ?.querySelector('[data-status]')
          ?.getAttribute('data-status');
        return s && t.includes(s);
      },
      TERMINAL,
      { timeout: 60_000 },
    );
    // docs/screenshots/tasks.png is taken by tasks-ui.e2e.ts (with progress, filters and settings in use)
    await row.getByRole('link', { name: 'Al-Zn at 600 K' }).click();
    const status = await page.getByTestId('task-status').getAttribute('data-status');
    expect(TERMINAL).toContain(status);
    const logs = await page.getByTestId('task-logs').innerText();
    expect(logs.trim().length).toBeGreaterThan(0);
    expect(logs).not.toBe('No log output yet.');
    const cfg = JSON.parse(await page.getByTestId('task-config').innerText()) as {
      condition: { temperature: number; compositions: Record<string, number> };
    };
    expect(cfg.condition.temperature).toBeCloseTo(600, 6);
    expect(cfg.condition.compositions.ZN).toBeCloseTo(0.3, 9);
    expect(cfg.condition.compositions.AL).toBeCloseTo(0.7, 9);
    if (status === 'completed') await page.getByTestId('files-result').waitFor();
    // docs/screenshots/task-detail.png is taken by tasks-ui.e2e.ts (with progress, filters and settings in use)
  });

  it('cancels a queued task and deletes a running one', async () => {
    const sleeper = await apiCall<{ id: number }>(svc, 'POST', '/task', {
      title: 'Long test task',
      task_config: { task_type: '__test_sleep', tdb_code: db.code, seconds: 600 },
    });
    expect(sleeper.status).toBe(200);
    await nav('New task');
    await page.selectOption('#f-tdb_code', db.id);
    await page.fill('#f-title', 'Queued behind the long task');
    await pick('f-components', ['AL', 'ZN']);
    await page.getByRole('button', { name: 'Submit task' }).click();
    await page.getByTestId('created').waitFor();
    await nav('Tasks');
    const queued = page.locator('[data-testid="task-table"] tbody tr', { hasText: 'Queued behind the long task' });
    await queued.getByRole('button', { name: 'Cancel' }).click();
    await queued.locator('[data-status="aborted"]').waitFor();
    const long = page.locator(`[data-testid="task-table"] tbody tr[data-task-id="${sleeper.json.id}"]`);
    await long.getByRole('button', { name: 'Delete' }).click();
    await long.getByRole('button', { name: 'Confirm delete' }).click();
    await long.waitFor({ state: 'detached' });
    const gone = await apiCall<{ error: string }>(svc, 'GET', `/task/${sleeper.json.id}`);
    expect(gone.status).toBe(404);
    await page.getByText(`Task #${sleeper.json.id} deleted.`).waitFor();
    // Client-side filter by status.
    await page.selectOption('#flt-status', 'aborted');
    const visible = await page
      .locator('[data-testid="task-table"] tbody tr [data-status]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    expect(visible.length).toBeGreaterThanOrEqual(1);
    expect(new Set(visible)).toEqual(new Set(['aborted']));
    await page.selectOption('#flt-status', '');
    await shot('tasks-after-cancel-delete');
  });

  it('lists the result, preview and VTK files of a completed task with working download links', async () => {
    // A test calculation that writes one file of each kind (the solver's own files come with the core).
    const t = await apiCall<{ id: number }>(svc, 'POST', '/task', {
      title: 'Completed test task with files',
      task_config: { task_type: '__test_write', tdb_code: db.code },
    });
    expect(t.status).toBe(200);
    await page.goto(`${served.url}#/tasks/${t.json.id}`);
    await page.locator('[data-testid="task-status"][data-status="completed"]').waitFor({ timeout: 60_000 });
    for (const kind of ['result', 'preview', 'vtk']) {
      await page.getByTestId(`files-${kind}`).waitFor(); // file lists load after the status turns completed
      const link = page.getByTestId(`files-${kind}`).getByRole('link');
      expect(await link.count()).toBe(1);
      expect(await link.innerText()).toBe(`Download ${kind}.txt`);
      const res = await page.request.get((await link.getAttribute('href'))!);
      expect(res.status()).toBe(200);
      expect(await res.text()).toMatch(new RegExp(`^${kind} of `));
    }
    expect(await page.getByTestId('task-logs').innerText()).toContain('test files written');
    await shot('task-detail-files');
  });

  it('every open task type: the generated form produces a config the API accepts', async () => {
    const types = [
      'point_calculation',
      'line_calculation',
      'binary_equilibrium',
      'thermodynamic_properties_next',
      'scheil_solidification',
      'binary_cpt_diagram',
    ];
    for (const t of types) {
      await nav('New task');
      await page.selectOption('#task-type', t);
      await page.selectOption('#f-tdb_code', db.id);
      await page.fill('#f-title', `Form check ${t}`);
      await pick('f-components', ['AL', 'ZN']);
      if (t === 'binary_cpt_diagram') await page.selectOption('#f-x_component', 'ZN');
      await page.getByRole('button', { name: 'Submit task' }).click();
      await page.locator('[data-testid="created"], .field-error, [data-testid="form-error"]').first().waitFor();
      const problems = await page.locator('.field-error, [data-testid="form-error"]').allInnerTexts();
      expect({ type: t, problems }).toEqual({ type: t, problems: [] });
      await page.getByTestId('created').waitFor();
      if (t === 'binary_cpt_diagram') await shot('new-task-cpt');
    }
    const list = await apiCall<{ data: { title: string; task_type: string }[] }>(
      svc,
      'GET',
      '/task/list?items_per_page=100',
    );
    for (const t of types)
      expect(list.json.data.some((x) => x.title === `Form check ${t}` && x.task_type === t)).toBe(true);
  });

  it('shows an API error next to the field it names (database without an active subscription)', async () => {
    consoleCommand(svc, ['subscribe', 'local', db.code, '--status', 'inactive']);
    await nav('New task');
    await page.selectOption('#task-type', 'point_calculation');
    await page.selectOption('#f-tdb_code', db.id);
    await page.fill('#f-title', 'Refused: no subscription');
    await pick('f-components', ['AL', 'ZN']);
    // The phase lookup is refused too (403) and shown in the phase picker; the browser logs that 403.
    await page.getByRole('button', { name: 'Submit task' }).click();
    const err = page.locator('.field:has(#f-tdb_code) .field-error');
    await err.waitFor();
    expect(await err.innerText()).toContain(`does not allow access to Db code '${db.code}'`);
    await shot('new-task-api-error');
    consoleCommand(svc, ['subscribe', 'local', db.code, '--status', 'active']);
    // Failed requests (403) are logged by Chromium as resource errors; they are expected in this test only.
    for (let i = errors.length - 1; i >= 0; i--) if (/status of 403/.test(errors[i]!)) errors.splice(i, 1);
  });

  it('logged no console error', () => {
    expect(errors).toEqual([]);
  });
});
