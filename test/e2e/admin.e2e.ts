// The console screens in headless Chromium against a real service: console token, Keys (create, shown
// once, use, disable/enable, rename, delete), Manage databases (import a TDB upload with its report, a malformed
// upload refused with FILE:LINE next to the file field, disable/enable as /api/v2 sees it), Settings (local API
// address, curl example, save for next start). Any console error fails the run. Screenshots go to docs/screenshots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  REPO,
  SCREENSHOTS,
  launch,
  serveRenderer,
  startService,
  watchErrors,
  type Served,
  type Service,
} from './harness.js';

let svc: Service;
let served: Served;
let browser: Browser;
let page: Page;
let errors: string[];
let token: string;

async function shot(name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
async function nav(label: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
}
async function v2(method: string, path: string, key: string) {
  const r = await fetch(`${svc.baseUrl}${path}`, { method, headers: { Authorization: `Bearer ${key}` } });
  return { status: r.status, json: (await r.json()) as any };
}
/** Chromium logs every non-2xx fetch as a resource error; drop exactly the ones a step expects. */
function expectResourceErrors(status: number, count: number) {
  const idx = errors.map((e, i) => (new RegExp(`status of ${status}`).test(e) ? i : -1)).filter((i) => i >= 0);
  expect(idx.length).toBe(count);
  for (const i of idx.reverse()) errors.splice(i, 1);
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  svc = await startService();
  served = await serveRenderer(svc);
  if (served.mode !== 'service') throw new Error('the console API needs the renderer on the service origin');
  token = readFileSync(join(svc.dataDir, 'console-token'), 'utf8').trim();
  expect(svc.output()).toContain(`Console token: ${token}`);
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
  errors = watchErrors(page);
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await svc?.stop();
});

describe('console screens against a real service', () => {
  it('asks for the console token once and rejects a malformed one', async () => {
    await page.goto(`${served.url}#/keys`);
    await page.getByTestId('console-token-form').waitFor();
    await page.fill('#console-token', 'not-a-token');
    await page.getByRole('button', { name: 'Use token' }).click();
    expect(await page.locator('#console-token-err').innerText()).toMatch(/pdc_/);
    await page.fill('#console-token', token);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByTestId('keys-table').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('phasedesk.consoleToken'))).toBe(token);
  });

  it('creates a key (shown once, usable at once), renames, disables, enables and deletes keys', async () => {
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.locator('.field:has(#key-name) .field-error').innerText()).toBe('is required');
    await page.fill('#key-name', 'lab scripts');
    await page.getByRole('button', { name: 'Create key' }).click();
    const value = page.getByTestId('new-key-value');
    await value.waitFor();
    const key = (await value.innerText()).trim();
    expect(key).toMatch(/^tk_[A-Za-z0-9]{32}$/);
    const info = await v2('GET', '/key/info', key);
    expect(info.status).toBe(200);
    expect(info.json).toMatchObject({ key_name: 'lab scripts', user: { username: 'local' } });
    // This window had no API key yet: use the new one here, which unlocks the other screens.
    await page.getByRole('button', { name: 'Use in this window' }).click();
    expect(await page.evaluate(() => localStorage.getItem('phasedesk.apiKey'))).toBe(key);
    await page.reload();
    const row = page.locator('[data-testid="keys-table"] tbody tr', { hasText: 'lab scripts' });
    await row.waitFor();
    await row.locator('.tag', { hasText: 'this window' }).waitFor(); // once App has read GET /key/info
    expect(await row.locator('td').nth(5).innerText()).not.toBe('never'); // last used (the /key/info above)
    await shot('keys');

    await page.fill('#key-name', 'temporary');
    await page.getByRole('button', { name: 'Create key' }).click();
    const tempKey = (await page.getByTestId('new-key-value').innerText()).trim();
    await page.getByRole('button', { name: 'Done' }).click();
    const tempId = await page
      .locator('[data-testid="keys-table"] tbody tr', { hasText: 'temporary' })
      .getAttribute('data-key-id');
    const renamed = page.locator(`[data-testid="keys-table"] tbody tr[data-key-id="${tempId}"]`);
    await renamed.getByRole('button', { name: 'Rename' }).click();
    await renamed.locator('input[type="text"]').fill('renamed');
    await renamed.getByRole('button', { name: 'Save' }).click();
    await renamed.getByText('renamed').waitFor();
    expect((await v2('GET', '/key/info', tempKey)).json.key_name).toBe('renamed');
    await renamed.getByRole('button', { name: 'Disable' }).click();
    await renamed.locator('.tag', { hasText: 'disabled' }).waitFor();
    expect(await v2('GET', '/key/info', tempKey)).toMatchObject({
      status: 403,
      json: { error: 'API key is disabled' },
    });
    await renamed.getByRole('button', { name: 'Enable' }).click();
    await renamed.locator('.tag', { hasText: 'active' }).waitFor();
    expect((await v2('GET', '/key/info', tempKey)).status).toBe(200);
    await renamed.getByRole('button', { name: 'Delete…' }).click();
    await renamed.getByRole('button', { name: 'Delete', exact: true }).click();
    await renamed.waitFor({ state: 'detached' });
    expect((await v2('GET', '/key/info', tempKey)).status).toBe(401);
  });

  it('imports a TDB upload and reports what loaded and what was refused', async () => {
    await nav('Manage databases');
    await page.getByTestId('db-admin-table').waitFor();
    // The bundled Cu-Ni file under another code, plus one phase without constituents that the reader drops.
    const tdb = readFileSync(join(REPO, 'databases', 'cuni_mey1992.tdb'), 'utf8') + '\nPHASE EXTRA % 1 1.0 !\n';
    await page.setInputFiles('#db-file', { name: 'cuni_copy.tdb', mimeType: 'text/plain', buffer: Buffer.from(tdb) });
    expect(await page.inputValue('#db-code')).toBe('CUNI_COPY');
    await page.fill('#db-name', 'Cu-Ni (uploaded copy)');
    await page.fill('#db-version', '1.1');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const report = page.getByTestId('import-report');
    await report.waitFor();
    const text = await report.innerText();
    expect(text).toContain('Imported CUNI_COPY from cuni_copy.tdb');
    expect(text).toMatch(/Elements\s+CU\s+NI \(2\)/);
    expect(text).toMatch(/Phases loaded\s+LIQUID\s+FCC_A1 \(2\)/);
    // the reader drops the phase with a warning naming the file and line (no refusal: the rest loads)
    expect(text).toMatch(/No phase was refused\./);
    expect(text).toMatch(/cuni_copy\.tdb:\d+: phase EXTRA has no CONSTITUENT command; phase EXTRA is dropped/);
    const row = page.locator('[data-testid="db-admin-table"] tbody tr[data-code="CUNI_COPY"]');
    await row.waitFor();
    expect(await row.getByTestId('state').innerText()).toBe('enabled');
    expect(await row.innerText()).toContain('local: active');
    await shot('database-import');
    const key = (await page.evaluate(() => localStorage.getItem('phasedesk.apiKey')))!;
    const listed = await v2('GET', '/database?search=CUNI_COPY', key);
    expect(listed.json.items[0]).toMatchObject({
      code: 'CUNI_COPY',
      version: '1.1',
      user_status: 'active',
      element_list: ['CU', 'NI'],
    });
  });

  it('the imported database is usable at once: a point calculation through the New task form completes', async () => {
    const key = (await page.evaluate(() => localStorage.getItem('phasedesk.apiKey')))!;
    const db = (await v2('GET', '/database?search=CUNI_COPY', key)).json.items[0] as { id: string };
    await nav('New task');
    await page.selectOption('#task-type', 'point_calculation');
    await page.selectOption('#f-tdb_code', db.id);
    await page.fill('#f-title', 'Cu-Ni from the uploaded copy');
    for (const el of ['CU', 'NI']) await page.locator(`#f-components button[data-element="${el}"]`).click();
    // phases of the uploaded file, for the picked elements
    await page.locator('#f-activated_phases .chip').first().waitFor();
    expect((await page.locator('#f-activated_phases .chip').allInnerTexts()).map((t) => t.trim())).toEqual([
      'LIQUID',
      'FCC_A1',
    ]);
    await page.fill('#f-temperature', '1500');
    await page.getByRole('button', { name: 'Submit task' }).click();
    await page.getByTestId('created').waitFor();
    const id = Number(/#(\d+)/.exec(await page.getByTestId('created').innerText())![1]);
    let task: { status: string; result: string | null; tdb_code: string };
    do {
      await new Promise((r) => setTimeout(r, 200));
      task = (await v2('GET', `/task/${id}`, key)).json;
    } while (!['completed', 'failed', 'aborted'].includes(task.status));
    expect(task).toMatchObject({ status: 'completed', tdb_code: 'CUNI_COPY' });
    expect(task.result).toBeTruthy();
    await nav('Manage databases');
    await page.getByTestId('db-admin-table').waitFor();
  });

  it('refuses a malformed TDB with FILE:LINE next to the file field', async () => {
    await page.setInputFiles('#db-file', {
      name: 'broken.tdb',
      mimeType: 'text/plain',
      buffer: Buffer.from('ELEMENT CU FCC_A1 63.546 0 0 !\nFOO BAR !\n'),
    });
    await page.fill('#db-code', 'BROKEN');
    await page.fill('#db-name', 'broken');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const err = page.locator('#db-file-err');
    await err.waitFor();
    expect(await err.innerText()).toBe("broken.tdb:2: unknown command 'FOO'");
    expect(await page.getByTestId('import-report').count()).toBe(0);
    await shot('database-import-error');
    expectResourceErrors(400, 1);
  });

  it('disables, hides and enables a database as /api/v2 sees it', async () => {
    const key = (await page.evaluate(() => localStorage.getItem('phasedesk.apiKey')))!;
    const count = async () => (await v2('GET', '/database?search=CUNI_COPY', key)).json.total as number;
    const row = page.locator('[data-testid="db-admin-table"] tbody tr[data-code="CUNI_COPY"]');
    await row.getByRole('button', { name: 'Disable' }).click();
    await row.locator('[data-testid="state"]', { hasText: 'disabled' }).waitFor();
    expect(await count()).toBe(0);
    await row.getByRole('button', { name: 'Hide' }).click();
    await row.locator('[data-testid="state"]', { hasText: 'hidden' }).waitFor();
    expect(await count()).toBe(0);
    await shot('databases-admin');
    await row.getByRole('button', { name: 'Enable' }).click();
    await row.locator('[data-testid="state"]', { hasText: 'enabled' }).waitFor();
    expect(await count()).toBe(1);
    // The user-facing catalog shows it again.
    await nav('Databases');
    await page.getByTestId('db-table').getByText('CUNI_COPY').waitFor();
  });

  it("edits a database's recommended setup: licence, suppressed phases and its own groups, as /api/v2 shows them", async () => {
    const key = (await page.evaluate(() => localStorage.getItem('phasedesk.apiKey')))!;
    await nav('Manage databases');
    const row = page.locator('[data-testid="db-admin-table"] tbody tr[data-code="CUNI_COPY"]');
    await row.getByRole('button', { name: 'Recommended setup' }).click();
    const form = page.getByTestId('db-setup');
    await form.getByLabel('Suppressed phases (every system)').fill('@gas, FCC*');
    await form.getByLabel('Groups of this database (one a line, used as @name)').fill('melts: LIQ*');
    await form.getByLabel('Licence', { exact: true }).fill('CC0');
    // a line without ':' is named before anything is sent
    await form.getByLabel('Suppressed in systems with these elements (one rule a line)').fill('CU NI FCC_A1');
    await form.getByRole('button', { name: 'Save the setup' }).click();
    expect(await form.getByRole('alert').innerText()).toMatch(/for systems: "CU NI FCC_A1" needs a ':'/);
    await form.getByLabel('Suppressed in systems with these elements (one rule a line)').fill('CU, NI: LIQUID');
    await form.getByRole('button', { name: 'Save the setup' }).click();
    await page.getByText('CUNI_COPY: recommended setup saved.').waitFor();
    // the list is reloaded after the message: its row shows the saved setup once that answer is in
    await expect.poll(() => row.innerText()).toMatch(/CC0[\s\S]*suppresses @gas, FCC\*/);
    const item = (await v2('GET', '/database?search=CUNI_COPY', key)).json.items[0];
    expect(item).toMatchObject({
      license: 'CC0',
      phase_selection: {
        inhibit_phases: ['@gas', 'FCC*'],
        for_systems: [{ elements: ['CU', 'NI'], inhibit_phases: ['LIQUID'] }],
        groups: { melts: ['LIQ*'] },
      },
    });
  });

  it('shows the settings with the local API address and saves changes for the next start', async () => {
    await nav('Settings');
    await page.getByTestId('settings-form').waitFor();
    expect(await page.getByTestId('api-address').innerText()).toBe(svc.baseUrl);
    expect(await page.getByTestId('data-dir').innerText()).toBe(svc.dataDir);
    const curl = await page.getByTestId('curl-info').innerText();
    const key = (await page.evaluate(() => localStorage.getItem('phasedesk.apiKey')))!;
    // The window's key is shown masked; the command itself is the real one.
    expect(curl).toBe(
      `export PHASEDESK_API_KEY=${key.slice(0, 7)}…${key.slice(-4)}\ncurl -s -H "Authorization: Bearer $PHASEDESK_API_KEY" ${svc.baseUrl}/key/info`,
    );
    expect(curl).not.toContain(key);
    // The task example is a request the API accepts (run here without a shell: same URL, headers and body).
    const task = await page.getByTestId('curl-task').innerText();
    const body = /-d '([\s\S]*)'$/.exec(task)![1]!;
    const created = await fetch(`${svc.baseUrl}/task`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body,
    });
    expect(created.status).toBe(200);
    expect(((await created.json()) as { task_type: string }).task_type).toBe('point_calculation');
    await page.fill('#set-pool_size', '2');
    await page.fill('#set-max_pending_tasks', '40');
    await page.getByRole('button', { name: 'Save for next start' }).click();
    await page.getByTestId('settings-saved').waitFor();
    expect(await page.getByTestId('settings-saved').innerText()).toContain('apply at the next start');
    const saved = JSON.parse(readFileSync(join(svc.dataDir, 'settings.json'), 'utf8'));
    expect(saved).toMatchObject({ pool_size: 2, max_pending_tasks: 40 });
    expect(await page.locator('.tag', { hasText: 'restart needed' }).count()).toBeGreaterThanOrEqual(2);
    // docs/screenshots/settings.png is taken by tasks-ui.e2e.ts (with progress, filters and settings in use)
    await page.fill('#set-thread_budget', '0');
    await page.getByRole('button', { name: 'Save for next start' }).click();
    expect(await page.locator('.field:has(#set-thread_budget) .field-error').innerText()).toMatch(/between 1 and/);
    expect(JSON.parse(readFileSync(join(svc.dataDir, 'settings.json'), 'utf8')).thread_budget).toBeUndefined();
  });

  it('with the desktop preload session (globalThis.phasedesk) asks for neither the key nor the console token', async () => {
    // What main/electron/preload.cts exposes in the Electron window, injected here before the page's scripts run.
    const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    await ctx.addInitScript(
      ([apiKey, consoleToken]) => {
        Object.defineProperty(globalThis, 'phasedesk', {
          value: Object.freeze({ apiKey, consoleToken, desktop: true }),
        });
      },
      [svc.key, token],
    );
    const desk = await ctx.newPage();
    const deskErrors = watchErrors(desk);
    await desk.goto(`${served.url}#/settings`);
    await desk.getByTestId('settings-form').waitFor();
    expect(await desk.getByText('Provided by the desktop app.').count()).toBe(1);
    expect(await desk.getByTestId('console-token-form').count()).toBe(0);
    await desk.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks', exact: true }).click();
    await desk.locator('.who', { hasText: 'local' }).waitFor(); // GET /key/info with the injected key
    expect(
      await desk.evaluate(() => [
        localStorage.getItem('phasedesk.apiKey'),
        localStorage.getItem('phasedesk.consoleToken'),
      ]),
    ).toEqual([null, null]);
    await ctx.close();
    expect(deskErrors).toEqual([]);
  });

  it('logged no console error', () => {
    expect(errors).toEqual([]);
  });
});
