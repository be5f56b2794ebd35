// Phase display names end to end: a real service computes the Al-Zn diagram of the bundled ALZN_MEY1993, the database
// page's table renames FCC_A1, and the task's diagram names the fcc fields by the new name (the liquid by its
// default L), while result.json keeps the database's names. Screenshot: docs/screenshots/phase-names.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  SCREENSHOTS,
  apiCall,
  launch,
  openResultView,
  postTasks,
  serveRenderer,
  signedInPage,
  startService,
  waitCompleted,
  type Served,
  type Service,
} from './harness.js';

const RENAMED = '(Al)';
let svc: Service;
let served: Served;
let browser: Browser;
let page: Page;
let errors: string[];
let taskId: number;
let dbId: string;

beforeAll(async () => {
  svc = await startService();
  served = await serveRenderer(svc);
  browser = await launch();
  ({ page, errors } = await signedInPage(browser, svc, { viewport: { width: 1280, height: 1100 } }));
  const ids = await postTasks(
    svc,
    {
      binary: {
        type: 'binary_equilibrium',
        tdb: 'ALZN_MEY1993',
        condition: {
          components: ['AL', 'ZN'],
          compositions_start: { ZN: 0 },
          compositions_end: { ZN: 1 },
          temperature_start: 400,
          temperature_end: 1000,
          pressure: 1e5,
        },
      },
    },
    'Phase names',
  );
  taskId = ids.binary!;
  const list = await apiCall<{ items: { id: string; code: string }[] }>(svc, 'GET', '/database?search=ALZN');
  dbId = list.json.items.find((d) => d.code === 'ALZN_MEY1993')!.id;
  await waitCompleted(svc, taskId, 'Al-Zn diagram');
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await svc?.stop();
});

async function regionLabels(): Promise<string[]> {
  await page.waitForFunction(
    () => document.querySelector('[data-testid="binary-svg"]')?.getAttribute('data-labels') === 'placed',
  );
  return page.getByTestId('binary-svg').getByTestId('region-label').allTextContents();
}

describe('phase display names', () => {
  it('the diagram names phases by their defaults, then by the name given on the database page', async () => {
    await openResultView(page, served.url, taskId);
    const before = await regionLabels();
    expect(before).toEqual(expect.arrayContaining(['L', 'fcc (A1)']));
    expect(before.join('|')).not.toMatch(/FCC_A1|LIQUID/);
    // a set number only where two sets share the field (the fcc miscibility gap), never on a one-phase field
    expect(before.filter((l) => !l.includes(' + ')).join('|')).not.toMatch(/#\d/);
    expect(before).toContain('fcc (A1) + fcc (A1)#2');

    await page.goto(`${served.url}#/databases/${dbId}`);
    const field = page.getByTestId('phase-name-FCC_A1');
    await field.fill(RENAMED);
    await page.getByTestId('phase-names-save').click();
    await expect.poll(() => page.getByTestId('phase-names-status').innerText()).toMatch(/Saved: 1 name/);
    const stored = await apiCall<{ names: Record<string, string> }>(svc, 'GET', `/database/${dbId}/phase-names`);
    expect(stored.json.names).toEqual({ FCC_A1: RENAMED });

    await openResultView(page, served.url, taskId);
    const after = await regionLabels();
    expect(after).toEqual(expect.arrayContaining([RENAMED, 'L']));
    expect(after.some((l) => l.includes(`${RENAMED} + `) || l.includes(` + ${RENAMED}`))).toBe(true);
    expect(after.join('|')).not.toMatch(/fcc \(A1\)|FCC_A1/);
    // the file a script reads keeps the database's names
    const files = await apiCall<{ files: string[] }>(svc, 'GET', `/task/${taskId}/result`);
    const json = files.json.files.find((u) => /result\.json/.test(u))!;
    const doc = (await (await fetch(json)).json()) as { two_phase_regions: { phases: string[] }[] };
    expect(doc.two_phase_regions.flatMap((r) => r.phases)).toContain('FCC_A1');
    await page.getByTestId('result-view').screenshot({ path: join(SCREENSHOTS, 'phase-names.png') });
    expect(errors).toEqual([]);
  }, 300_000);
});
