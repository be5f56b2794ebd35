// The daily experience of the task screens in headless Chromium against a real PhaseDesk service: progress of a
// running task (bar, stage, elapsed time), the composition axis of a binary diagram following the composition the
// user edits (and the form stating the mapped range), refusals and warnings in the form before anything is sent,
// errors that clear when their field is fixed, elements carried from a database page to New task, filters over all
// of the user's tasks (more than one page), downloads named after the task, and Settings showing the port and data
// directory in use with their source. Screenshots: tasks.png, task-detail.png, new-task.png, settings.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  SCREENSHOTS,
  apiCall,
  consoleCommand,
  launch,
  serveRenderer,
  startService,
  signedInPage,
  type Served,
  type Service,
} from './harness.js';

let svc: Service;
let served: Served;
let browser: Browser;
let page: Page;
let errors: string[];
let token: string;
let alzn: { id: string; code: string };
let cuni: { id: string; code: string };
let binaryZn = 0;

interface TaskRecord {
  id: number;
  status: string;
  title: string;
  progress?: number;
  stage?: string | null;
  result?: string | null;
}

async function shot(name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
async function nav(label: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
}
async function pick(pickerId: string, els: string[]) {
  for (const el of els) {
    const b = page.locator(`#${pickerId} button[data-element="${el}"]`);
    if ((await b.getAttribute('aria-pressed')) !== 'true') await b.click();
    expect(await b.getAttribute('aria-pressed')).toBe('true');
  }
}
async function unpickAll(pickerId: string) {
  const on = page.locator(`#${pickerId} button[aria-pressed="true"]`);
  while ((await on.count()) > 0) await on.first().click();
}
async function waitTerminal(id: number, timeoutMs = 90_000): Promise<TaskRecord> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await apiCall<TaskRecord>(svc, 'GET', `/task/${id}`);
    if (['completed', 'failed', 'aborted'].includes(r.json.status)) return r.json;
    if (Date.now() > end) throw new Error(`task ${id} still ${r.json.status}`);
    await new Promise((res) => setTimeout(res, 250));
  }
}
async function resultJson(id: number): Promise<Record<string, unknown>> {
  const files = await apiCall<{ files: string[] }>(svc, 'GET', `/task/${id}/result`);
  const url = files.json.files.find((u) => new URL(u).pathname.endsWith('/result.json'))!;
  return (await (await fetch(url)).json()) as Record<string, unknown>;
}
async function taskCount(): Promise<number> {
  return (await apiCall<{ total: number }>(svc, 'GET', '/task/list?page=1&items_per_page=1')).json.total;
}
/** Chromium logs every non-2xx fetch as a resource error; drop exactly those a step expects. */
function dropResourceErrors(status: number) {
  for (let i = errors.length - 1; i >= 0; i--)
    if (new RegExp(`status of ${status}`).test(errors[i]!)) errors.splice(i, 1);
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // One pool slot: the long test task is the only one running while its progress is read.
  svc = await startService({ PHASEDESK_TEST_CALCULATIONS: '1', PHASEDESK_POOL_SIZE: '1' });
  served = await serveRenderer(svc);
  if (served.mode !== 'service') throw new Error('the console API needs the renderer on the service origin');
  token = readFileSync(join(svc.dataDir, 'console-token'), 'utf8').trim();
  const dbs = await apiCall<{ items: { id: string; code: string }[] }>(svc, 'GET', '/database?size=100');
  alzn = dbs.json.items.find((d) => d.code.startsWith('ALZN'))!;
  cuni = dbs.json.items.find((d) => d.code.startsWith('CUNI'))!;
  if (!alzn || !cuni) throw new Error(`bundled databases missing: ${dbs.json.items.map((d) => d.code).join(', ')}`);
  browser = await launch();
  ({ page, errors } = await signedInPage(browser, svc, {
    viewport: { width: 1360, height: 900 },
    consoleToken: token,
  }));
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await svc?.stop();
});

describe('task screens against a real service', () => {
  it('carries the elements picked on a database page over to New task', async () => {
    await page.goto(`${served.url}#/databases/${alzn.id}`);
    await pick('phase-query-elements', ['ZN', 'AL']);
    await page.getByTestId('new-task-with-elements').click();
    await page.getByTestId('task-form').waitFor();
    for (const el of ['ZN', 'AL'])
      expect(await page.locator(`#f-components button[data-element="${el}"]`).getAttribute('aria-pressed')).toBe(
        'true',
      );
    expect(await page.inputValue('#f-tdb_code')).toBe(alzn.id);
    // From the menu as well: the last picking of the database page.
    await nav('Tasks');
    await nav('New task');
    await page.getByTestId('task-form').waitFor();
    expect(
      await page
        .locator('#f-components button[aria-pressed="true"]')
        .evaluateAll((bs) => bs.map((b) => b.getAttribute('data-element'))),
    ).toEqual(['AL', 'ZN']);
  });

  it('binary diagram: the form states the mapped range and the x axis is the component edited', async () => {
    await nav('New task');
    await page.selectOption('#task-type', 'binary_equilibrium');
    await page.selectOption('#f-tdb_code', alzn.id);
    await unpickAll('f-components');
    await pick('f-components', ['AL', 'ZN']); // AL picked first: the typed component is ZN, AL the balance
    const mapping = page.getByTestId('binary-mapping');
    await expect.poll(() => mapping.innerText()).toContain('x(ZN) from 0 to 1');
    // Equal start and end compositions: said before submission, not silently widened.
    const endZn = page.locator('#f-compositions_end input[type="number"]:not([readonly])');
    await endZn.fill('0');
    await expect
      .poll(() => page.locator('#f-compositions_end .field-warning').innerText())
      .toContain('whole range x(ZN) 0 → 1 will be mapped');
    expect(await mapping.innerText()).toContain('whole range');
    await endZn.fill('0.4');
    await expect.poll(() => mapping.innerText()).toContain('x(ZN) from 0 to 0.4');
    expect(await page.locator('#f-compositions_end .field-warning').count()).toBe(0);
    await endZn.fill('1');
    await page.fill('#f-temperature_start', '600');
    await page.fill('#f-temperature_end', '750');
    await page.fill('#f-title', 'Al-Zn diagram, x(Zn) edited');
    await expect.poll(() => mapping.innerText()).toContain('600–750 K');
    await shot('new-task');
    await page.getByRole('button', { name: 'Submit task' }).click();
    await page.getByTestId('created').waitFor();
    const zn = Number(/#(\d+)/.exec(await page.getByTestId('created').innerText())![1]);
    binaryZn = zn;

    // The user switches the balance to ZN and edits AL: the axis is AL.
    await page.locator('input[name="f-compositions_start-balance"][value="ZN"]').check();
    await page.locator('input[name="f-compositions_end-balance"][value="ZN"]').check();
    await page.locator('#f-compositions_start input[type="number"]:not([readonly])').fill('0');
    await page.locator('#f-compositions_end input[type="number"]:not([readonly])').fill('1');
    await expect.poll(() => mapping.innerText()).toContain('x(AL) from 0 to 1');
    await page.fill('#f-title', 'Al-Zn diagram, x(Al) edited');
    await page.getByRole('button', { name: 'Submit task' }).click();
    await expect.poll(() => page.getByTestId('created').innerText()).not.toContain(`#${zn} `);
    const al = Number(/#(\d+)/.exec(await page.getByTestId('created').innerText())![1]);

    for (const [id, xc] of [
      [zn, 'ZN'],
      [al, 'AL'],
    ] as const) {
      const t = await waitTerminal(id);
      expect(t.status).toBe('completed');
      const doc = await resultJson(id);
      expect(doc.x_component).toBe(xc);
      expect(doc.composition_range).toEqual([0, 1]);
      expect(doc.components).toEqual(['AL', 'ZN']); // the order of picking is kept, the axis does not follow it
    }
  });

  it('edits a copy of a task, and offers a Scheil run from above the liquidus when one started below it', async () => {
    await page.goto(`${served.url}#/tasks/${binaryZn}`);
    await page.getByTestId('edit-copy').click();
    await page.getByTestId('copy-of').waitFor();
    expect(await page.inputValue('#task-type')).toBe('binary_equilibrium');
    expect(await page.inputValue('#f-title')).toBe('Al-Zn diagram, x(Zn) edited (copy)');
    // the copy names its database by code: chosen once the list of databases for the type has arrived
    await expect.poll(() => page.inputValue('#f-tdb_code')).toBe(alzn.id);
    expect(Number(await page.inputValue('#f-temperature_end'))).toBe(750);
    await expect.poll(() => page.getByTestId('binary-mapping').innerText()).toContain('x(ZN) from 0 to 1');

    const scheil = await apiCall<{ id: number }>(svc, 'POST', '/task', {
      title: 'Scheil from too low',
      task_config: {
        task_type: 'scheil_solidification',
        tdb_code: alzn.code,
        condition: {
          components: ['AL', 'ZN'],
          compositions: { AL: 0.7, ZN: 0.3 },
          start_temperature: 800,
          temperature_step: 5,
          pressure: 101325,
        },
      },
    });
    expect(scheil.status).toBe(200);
    expect((await waitTerminal(scheil.json.id)).status).toBe('completed');
    await page.goto(`${served.url}#/tasks/${scheil.json.id}`);
    const banner = page.getByTestId('below-liquidus');
    await banner.waitFor();
    const liquidus = Number(/liquidus \(([\d.]+) K\)/.exec(await banner.innerText())![1]);
    expect(liquidus).toBeGreaterThan(800);
    await banner.getByRole('link').click();
    await page.getByTestId('copy-of').waitFor();
    expect(await page.inputValue('#task-type')).toBe('scheil_solidification');
    await expect.poll(async () => Number(await page.inputValue('#f-start_temperature'))).toBe(Math.ceil(liquidus + 1));
    expect(Number(await page.locator('#f-compositions input[type="number"]:not([readonly])').inputValue())).toBeCloseTo(
      0.3,
      9,
    );
    await page.getByRole('button', { name: 'Submit task' }).click();
    await page.getByTestId('created').waitFor();
    const again = Number(/#(\d+)/.exec(await page.getByTestId('created').innerText())![1]);
    const t = await waitTerminal(again);
    expect(t.status).toBe('completed');
    expect((await apiCall<{ logs: string }>(svc, 'GET', `/task/${again}`)).json.logs).not.toMatch(/below the liquidus/);
  });

  it('refuses what cannot run before sending it, warns about what runs uselessly, and clears errors once fixed', async () => {
    const before = await taskCount();
    await nav('New task');
    await page.selectOption('#task-type', 'binary_equilibrium');
    await page.selectOption('#f-tdb_code', alzn.id);
    await pick('f-components', ['AL', 'ZN']);
    await page.fill('#f-title', 'Cannot run: no temperature range');
    await page.fill('#f-temperature_start', '700');
    await page.fill('#f-temperature_end', '700');
    await page.getByRole('button', { name: 'Submit task' }).click();
    const terr = page.locator('.field:has(#f-temperature_end) .field-error');
    await terr.waitFor();
    expect(await terr.innerText()).toContain('must differ from temperature_start');
    await page.fill('#f-temperature_end', '800');
    await terr.waitFor({ state: 'detached' }); // cleared as soon as the field changes, before any resubmission

    // Fractions that cannot sum to 1.
    await page.locator('#f-compositions_start input[type="number"]:not([readonly])').fill('1.3');
    await page.getByRole('button', { name: 'Submit task' }).click();
    const cerr = page.locator('#f-compositions_start .field-error');
    await cerr.waitFor();
    expect(await cerr.innerText()).toMatch(/sum to 1/);
    await page.locator('#f-compositions_start input[type="number"]:not([readonly])').fill('0');
    await cerr.waitFor({ state: 'detached' });
    expect(await taskCount()).toBe(before); // nothing was sent

    // A scan whose start and end are the same state: a warning next to points (it runs, uselessly).
    await page.selectOption('#task-type', 'line_calculation');
    await page.selectOption('#f-tdb_code', alzn.id);
    await pick('f-components', ['AL', 'ZN']);
    await page.fill('#f-temperature_start', '700');
    await page.fill('#f-temperature_end', '700');
    await page.fill('#f-points', '20');
    const pwarn = page.locator('.field:has(#f-points) .field-warning');
    await expect.poll(() => pwarn.innerText()).toContain('the 20 points would all be equal');
    await page.fill('#f-points', '1');
    await pwarn.waitFor({ state: 'detached' });

    // An API error under the field it names goes away when that field is changed.
    consoleCommand(svc, ['subscribe', 'local', alzn.code, '--status', 'inactive']);
    await page.selectOption('#task-type', 'point_calculation');
    await page.selectOption('#f-tdb_code', alzn.id);
    await pick('f-components', ['AL', 'ZN']);
    await page.fill('#f-title', 'Refused: no subscription');
    await page.getByRole('button', { name: 'Submit task' }).click();
    const derr = page.locator('.field:has(#f-tdb_code) .field-error');
    await derr.waitFor();
    expect(await derr.innerText()).toContain(alzn.code);
    await page.selectOption('#f-tdb_code', cuni.id);
    await derr.waitFor({ state: 'detached' });
    consoleCommand(svc, ['subscribe', 'local', alzn.code, '--status', 'active']);
    dropResourceErrors(403); // the refused POST /task and the phase lookup of the unsubscribed database
    expect(await taskCount()).toBe(before);
  });

  it('shows the progress of a running task: bar, stage and elapsed time, on the list and the task page', async () => {
    const sleeper = await apiCall<{ id: number }>(svc, 'POST', '/task', {
      title: 'Long calculation (test task)',
      task_config: { task_type: '__test_sleep', tdb_code: alzn.code, seconds: 40 },
    });
    expect(sleeper.status).toBe(200);
    const id = sleeper.json.id;
    try {
      // the service reports progress on the task record (progress 0..1, stage)
      await expect
        .poll(async () => (await apiCall<TaskRecord>(svc, 'GET', `/task/${id}`)).json.progress ?? 0, {
          timeout: 20_000,
        })
        .toBeGreaterThan(0.05);
      await nav('Tasks');
      const row = page.locator(`[data-testid="task-table"] tbody tr[data-task-id="${id}"]`);
      await row.locator('[data-status="running"]').waitFor();
      const bar = row.getByRole('progressbar');
      await bar.waitFor();
      const first = Number(await bar.getAttribute('aria-valuenow'));
      expect(first).toBeGreaterThan(0);
      const elapsed = row.getByTestId('task-elapsed');
      expect(await elapsed.innerText()).toMatch(/elapsed$/);
      const t0 = await elapsed.innerText();
      await expect.poll(() => elapsed.innerText(), { timeout: 10_000 }).not.toBe(t0); // the clock ticks
      await expect
        .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 10_000 })
        .toBeGreaterThan(first);
      // completed tasks show their duration and result summary
      const done = page.locator('[data-testid="task-table"] tbody tr', { hasText: 'Al-Zn diagram, x(Zn) edited' });
      expect(await done.getByTestId('task-summary').innerText()).toMatch(/two-phase region/);
      expect(await done.getByTestId('task-elapsed').innerText()).toMatch(/^\d+(\.\d+)? m?s$|min/);
      await shot('tasks');
      await page.goto(`${served.url}#/tasks/${id}`);
      const detailBar = page.getByTestId('task-progress').getByRole('progressbar');
      await detailBar.waitFor();
      expect(Number(await detailBar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
      const stage = (await apiCall<TaskRecord>(svc, 'GET', `/task/${id}`)).json.stage;
      if (stage) expect(await page.getByTestId('task-stage').innerText()).toBe(stage);
      expect(await page.getByTestId('task-elapsed').innerText()).toMatch(/elapsed$/);
      await shot('task-detail');
      await page.getByRole('button', { name: 'Cancel task' }).click();
      await page.locator('[data-testid="task-status"][data-status="aborted"]').waitFor();
    } finally {
      await apiCall(svc, 'PATCH', `/task/${id}/cancel`); // the pool slot is free for the next tests either way
    }
  });

  it("filters all of the user's tasks on the service, not the page shown", async () => {
    // Two needles first (the oldest), then more than a page of other tasks: with 10 per page, newest first,
    // the needles are on the last page.
    const needles: number[] = [];
    for (const title of ['Needle one', 'Needle two']) {
      needles.push(
        (
          await apiCall<{ id: number }>(svc, 'POST', '/task', {
            title,
            task_config: { task_type: '__test_write', tdb_code: cuni.code },
          })
        ).json.id,
      );
    }
    for (let i = 0; i < 11; i++) {
      await apiCall(svc, 'POST', '/task', {
        title: `Hay ${i}`,
        task_config: { task_type: '__test_write', tdb_code: alzn.code },
      });
    }
    await nav('Tasks');
    await page.selectOption('#t-size', '10');
    await expect.poll(() => page.getByTestId('task-pager').innerText()).toMatch(/Page 1 of \d+/);
    // (polled: the table shows the previous page size until the new page arrives)
    await expect.poll(() => page.locator('[data-testid="task-table"] tbody tr', { hasText: 'Needle' }).count()).toBe(0);
    await page.fill('#flt-search', 'needle');
    await expect
      .poll(() =>
        page
          .locator('[data-testid="task-table"] tbody tr[data-task-id]')
          .evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-task-id')))),
      )
      .toEqual([...needles].reverse());
    expect(await page.getByTestId('task-pager').innerText()).toContain('2 tasks matching the filters');
    expect(await page.getByTestId('filter-fallback').count()).toBe(0);
    await page.fill('#flt-search', '');
    // Database and status filters also span pages: the needles are the only tasks on CUNI.
    await page.selectOption('#flt-db', cuni.code);
    await expect.poll(() => page.getByTestId('task-pager').innerText()).toContain('2 tasks matching the filters');
    await page.selectOption('#flt-db', '');
    await page.selectOption('#flt-status', 'aborted');
    await expect
      .poll(() =>
        page
          .locator('[data-testid="task-table"] tbody tr [data-status]')
          .evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-status')))]),
      )
      .toEqual(['aborted']);
    await page.selectOption('#flt-status', '');
  });

  it('names downloads after the task', async () => {
    const t = await apiCall<{ id: number }>(svc, 'POST', '/task', {
      title: 'Files',
      no_cache: true,
      task_config: { task_type: '__test_write', tdb_code: alzn.code },
    });
    await page.goto(`${served.url}#/tasks/${t.json.id}`);
    await page.locator('[data-testid="task-status"][data-status="completed"]').waitFor({ timeout: 60_000 });
    for (const kind of ['result', 'preview', 'vtk']) {
      const link = page.getByTestId(`files-${kind}`).getByRole('link');
      await link.waitFor();
      expect(await link.getAttribute('download')).toBe(`task-${t.json.id}-${kind}.txt`);
    }
    expect(await page.getByTestId('task-duration').innerText()).toMatch(/s$/);
  });

  it('Manage databases: choosing another file resets code and name to that file', async () => {
    await page.goto(`${served.url}#/manage-databases`);
    await page.getByTestId('db-import').waitFor();
    const tdb = (name: string) => ({
      name,
      mimeType: 'text/plain',
      buffer: Buffer.from('ELEMENT CU FCC_A1 63.546 5004.0 33.15 !\n'),
    });
    await page.setInputFiles('#db-file', tdb('first_try.tdb'));
    expect(await page.inputValue('#db-code')).toBe('FIRST_TRY');
    expect(await page.inputValue('#db-name')).toBe('first_try');
    await page.fill('#db-name', 'My first file');
    await page.setInputFiles('#db-file', tdb('cu-o assessment.tdb'));
    expect(await page.inputValue('#db-code')).toBe('CU-O_ASSESSMENT');
    expect(await page.inputValue('#db-name')).toBe('cu-o assessment');
  });

  it('Settings shows the port and data directory in use and where each came from', async () => {
    await page.goto(`${served.url}#/settings`);
    await page.getByTestId('settings-form').waitFor();
    const port = new URL(svc.origin).port;
    expect(await page.getByTestId('port-in-use').innerText()).toBe(port);
    expect(await page.getByTestId('data-dir').innerText()).toBe(svc.dataDir);
    // the harness starts the service with --port 0 --data-dir DIR
    expect(await page.getByTestId('data-dir-source').innerText({ timeout: 5000 })).toBe(
      'from command-line option --data-dir',
    );
    expect(await page.getByTestId('port-source').innerText()).toBe('from command-line option --port');
    await shot('settings');
  });

  it('logged no console error', () => {
    expect(errors).toEqual([]);
  });
});

describe('task screen helpers', () => {
  it('binaryMapping and formChecks say what the worker will do and refuse', async () => {
    const { binaryMapping, formChecks } = await import('../../renderer/src/lib/taskforms.js');
    const cfg = (start: Record<string, number>, end: Record<string, number>, T: [number, number] = [300, 1000]) => ({
      task_type: 'binary_equilibrium',
      tdb_code: 'X',
      condition: {
        components: ['AL', 'ZN'],
        compositions_start: start,
        compositions_end: end,
        temperature_start: T[0],
        temperature_end: T[1],
        pressure: 101325,
      },
    });
    expect(binaryMapping(cfg({ AL: 1, ZN: 0 }, { AL: 0, ZN: 1 }))).toEqual({
      xComponent: 'ZN',
      X: [0, 1],
      widened: false,
    });
    expect(binaryMapping(cfg({ AL: 0, ZN: 1 }, { AL: 0.6, ZN: 0.4 }))).toEqual({
      xComponent: 'AL',
      X: [0, 0.6],
      widened: false,
    });
    expect(binaryMapping(cfg({ AL: 0.5, ZN: 0.5 }, { AL: 0.5, ZN: 0.5 }))).toEqual({
      xComponent: 'ZN',
      X: [0, 1],
      widened: true,
    });
    const equalT = formChecks('binary_equilibrium', cfg({ AL: 1, ZN: 0 }, { AL: 0, ZN: 1 }, [700, 700]));
    expect(equalT.errors.map((e) => e.path)).toEqual(['condition.temperature_end']);
    const badSum = formChecks('binary_equilibrium', cfg({ AL: 0.5, ZN: 0.6 }, { AL: 0, ZN: 1 }));
    expect(badSum.errors).toEqual([
      { path: 'condition.compositions_start', message: 'the fractions sum to 1.1, not 1' },
    ]);
    expect(formChecks('binary_equilibrium', cfg({ AL: 1, ZN: 0 }, { AL: 0, ZN: 1 }))).toEqual({
      errors: [],
      warnings: [],
    });
  });

  it('taskFileName and taskTiming', async () => {
    const { taskFileName, taskTiming, fmtDuration } = await import('../../renderer/src/lib/api.js');
    expect(taskFileName(42, 'result', 'result.csv', ['result.json', 'result.csv'])).toBe('task-42-result.csv');
    expect(taskFileName(42, 'preview', 'phase_diagram.png', ['phase_diagram.svg', 'phase_diagram.png'])).toBe(
      'task-42-preview.png',
    );
    expect(taskFileName(42, 'preview', 'cp.png', ['cp.png', 'h.png'])).toBe('task-42-preview-cp.png');
    const base = {
      id: 1,
      title: 't',
      description: '{}',
      task_type: 'point_calculation',
      user_id: 'u',
      created_at: '2026-01-01 10:00:00 UTC',
    };
    const done = taskTiming({
      ...base,
      status: 'completed',
      updated_at: '2026-01-01 10:02:05 UTC',
      logs: '[2026-01-01 10:00:30 UTC] started with 2 OpenMP thread(s)\n[2026-01-01 10:02:05 UTC] 3 file(s) stored',
    });
    expect(done.elapsedMs).toBe(95_000);
    expect(fmtDuration(done.elapsedMs)).toBe('1 min 35 s');
    // the record's duration_ms (milliseconds) where the service sends it: a short run is not "0.0 s"
    const quick = taskTiming({
      ...base,
      status: 'completed',
      updated_at: base.created_at,
      duration_ms: 734,
      logs: '[2026-01-01 10:00:00 UTC] started with 2 OpenMP thread(s)',
    });
    expect(quick.elapsedMs).toBe(734);
    expect(fmtDuration(quick.elapsedMs)).toBe('734 ms');
    expect(fmtDuration(2345)).toBe('2.35 s');
    const running = taskTiming(
      {
        ...base,
        status: 'running',
        updated_at: base.created_at,
        logs: '[2026-01-01 10:00:30 UTC] started with 1 OpenMP thread(s)',
      },
      Date.parse('2026-01-01T10:00:42Z'),
    );
    expect(running.elapsedMs).toBe(12_000);
    expect(
      taskTiming({
        ...base,
        status: 'completed',
        updated_at: base.created_at,
        logs: '[x] calculation cache hit: results reused',
      }).cached,
    ).toBe(true);
  });
});
