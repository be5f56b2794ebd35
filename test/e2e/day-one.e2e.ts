// A researcher's first day in headless Chromium against a fresh PhaseDesk service, nothing imported: the catalog
// offers the steel (MatCalc mc_fe), aluminium (MatCalc mc_al) and COST 507 databases with their licences and
// recommended phase selections; an Fe-C diagram, a 316L point and an Al-Mg-Si point are computed on them through the
// New task form. The phase picker of that form shows the groups as toggles with the phases each removes, takes
// patterns, and the task records the selection it was computed with. "Open a database file" (the desktop app, whose
// preload provides the console token) makes a TDB the user's in one step, by the file picker or by dropping it.
// Screenshots: databases-catalog.png, database-page.png, phase-picker.png, open-database.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  REPO,
  SCREENSHOTS,
  apiCall,
  launch,
  serveRenderer,
  startService,
  watchErrors,
  type Served,
  type Service,
} from './harness.js';
import { taskForm } from './task-form.js';

const SHARED_TDB = process.env.PHASEDESK_TDB_DIR ?? join(REPO, '..', 'shared', 'tdb');
let svc: Service;
let served: Served;
let browser: Browser;
let page: Page;
let errors: string[];
let token: string;
let dbs: { id: string; code: string; license: string | null }[];

async function shot(name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
const { pick, fraction, idOf, newTask, submitAndWait } = taskForm(
  () => page,
  () => svc,
  () => served.url,
  () => dbs,
);

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  svc = await startService();
  served = await serveRenderer(svc);
  if (served.mode !== 'service') throw new Error('the console API needs the renderer on the service origin');
  token = readFileSync(join(svc.dataDir, 'console-token'), 'utf8').trim();
  browser = await launch();
  // signed in as the desktop app's preload signs in: the key and the console token as globalThis.phasedesk
  const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  await ctx.addInitScript(
    ([apiKey, consoleToken]) => {
      (globalThis as any).phasedesk = Object.freeze({ apiKey, consoleToken, desktop: true });
    },
    [svc.key, token],
  );
  page = await ctx.newPage();
  errors = watchErrors(page);
  dbs = (await apiCall<{ items: typeof dbs }>(svc, 'GET', '/database?size=100')).json.items;
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await svc?.stop();
});

describe('a fresh install', () => {
  it('offers the steel, aluminium and COST507 databases with their licences, nothing imported', async () => {
    expect(dbs.map((d) => d.code)).toEqual(
      expect.arrayContaining(['MC_FE_V2.059', 'MC_AL_V2.032', 'COST507', 'MF_STEEL']),
    );
    await page.goto(`${served.url}#/databases`);
    const table = page.getByTestId('db-table');
    await table.waitFor();
    const row = table.locator('tr', { hasText: 'MC_FE_V2.059' });
    expect(await row.innerText()).toMatch(/ODbL 1\.0/);
    expect(await table.locator('tr', { hasText: 'MF_STEEL' }).innerText()).toMatch(/MIT/);
    await shot('databases-catalog');
    await row.click();
    const licence = page.getByTestId('db-licence');
    await licence.waitFor();
    expect(await licence.innerText()).toMatch(
      /Open Database License 1\.0.*Povoden-Karadeniz|Povoden-Karadeniz.*Open Database License/s,
    );
    const selection = await page.getByTestId('db-selection').innerText();
    expect(selection).toContain('@transition_carbides');
    expect(selection).toContain('BCC_DISL');
    await shot('database-page');
  });

  it('computes an Fe-C diagram on the steel database', async () => {
    await newTask('binary_equilibrium', 'MC_FE_V2.059', 'Fe-C', ['FE', 'C']);
    await fraction('f-compositions_end', 'C').fill('0.1');
    await page.fill('#f-temperature_start', '900');
    await page.fill('#f-temperature_end', '1900');
    const { result, doc } = await submitAndWait();
    expect(result).toMatch(/eutectic 14\d\d\.\d K/);
    expect(result).toMatch(/eutectoid 10\d\d\.\d K/);
    expect(doc.phase_selection).toMatchObject({ source: 'database', removed: expect.arrayContaining(['BCC_DISL']) });
  });

  it('a new diagram opens with the temperature range of its system; a range the user typed is kept', async () => {
    // Cu-Ni: Ni melts at 1728 K, so the whole liquidus needs more than the old fixed 300-1500 K
    await newTask('binary_equilibrium', 'CUNI_MEY1992', 'Cu-Ni', ['CU', 'NI']);
    await expect.poll(() => page.inputValue('#f-temperature_end')).toBe('2000');
    expect(await page.inputValue('#f-temperature_start')).toBe('300');
    // Fe-C: the range follows iron, not graphite (which melts above 4000 K)
    await page.selectOption('#f-tdb_code', idOf('MC_FE_V2.059'));
    await pick(['FE', 'C']);
    await expect.poll(() => page.inputValue('#f-temperature_end')).toBe('2100');
    // a typed range stays when the components change
    await page.fill('#f-temperature_end', '1700');
    await pick(['FE', 'NI']);
    await page.waitForTimeout(500);
    expect(await page.inputValue('#f-temperature_end')).toBe('1700');
  });

  it('a four-component isopleth picked one element at a time opens with fractions that sum to 1', async () => {
    await newTask('isopleth', 'MC_FE_V2.059', 'Fe-Cr-Ni-C', ['FE', 'CR', 'NI', 'C']);
    // from the last component at 0 to the last at an equal share: a start and an end that differ
    for (const el of ['CR', 'NI']) expect(await fraction('f-composition_start', el).inputValue()).toBe('0.25');
    expect(await fraction('f-composition_start', 'C').inputValue()).toBe('0');
    expect(await fraction('f-composition_end', 'C').inputValue()).toBe('0.25');
    expect(await page.getByText('The typed fractions exceed 1').count()).toBe(0);
    // a typed fraction stays when another component is picked
    await fraction('f-composition_end', 'C').fill('0.05');
    await page.locator('#f-components button[data-element="MN"]').click();
    expect(await fraction('f-composition_end', 'C').inputValue()).toBe('0.05');
    expect(await fraction('f-composition_end', 'NI').inputValue()).toBe('0.2');
  });

  it('computes 316L at 1300 K on the steel database: austenite alone', async () => {
    await newTask('point_calculation', 'MC_FE_V2.059', '316L at 1300 K', ['FE', 'CR', 'NI', 'MO', 'MN', 'SI', 'C']);
    await page.selectOption('#f-composition_unit', 'mass_fraction');
    const w = { CR: 0.17, NI: 0.12, MO: 0.025, MN: 0.02, SI: 0.005, C: 0.0003 };
    for (const [el, v] of Object.entries(w)) await fraction('f-compositions', el).fill(String(v));
    await page.fill('#f-temperature', '1300');
    const { result, doc } = await submitAndWait();
    expect(result).toBe('FCC_A1 at 1300 K (converged)');
    expect(doc.phase_selection.source).toBe('database');
  });

  it('computes an Al-Mg-Si alloy on the aluminium database: (Al) and Mg2Si', async () => {
    await newTask('point_calculation', 'MC_AL_V2.032', 'Al-1Mg-0.6Si at 800 K', ['AL', 'MG', 'SI']);
    await page.selectOption('#f-composition_unit', 'mass_fraction');
    await fraction('f-compositions', 'MG').fill('0.01');
    await fraction('f-compositions', 'SI').fill('0.006');
    await page.fill('#f-temperature', '800');
    const { result, doc } = await submitAndWait();
    expect(result).toBe('FCC_A1 + MG2SI_B at 800 K (converged)');
    expect(doc.phase_selection.removed).toContain('GP_MAT');
  });
});

describe('the phase picker', () => {
  it("starts from the database's recommended selection; groups, phases and patterns change it", async () => {
    await newTask('point_calculation', 'MF_STEEL', 'Fe-C, own selection', ['FE', 'C']);
    const picker = page.getByTestId('phase-selection');
    const summary = picker.getByTestId('selection-summary');
    await expect
      .poll(() => summary.innerText())
      .toMatch(/^9 of 64 phases suppressed · the database's recommended selection/);
    const group = (g: string) => picker.locator(`label[data-group="${g}"]`);
    expect(await group('ordered').innerText()).toMatch(/@ordered\s+removes 6/);
    expect(await group('ionic_liquid').innerText()).toMatch(/removes 1/);
    expect(await group('carbides').innerText()).toMatch(/@carbides\s+removes 9/);
    // the file's GAS did not load: @gas (recommended) removes nothing; @foreign is empty and cannot be switched on
    expect(await group('gas').innerText()).toMatch(/removes 0/);
    expect(await group('foreign').locator('input').isDisabled()).toBe(true);
    expect(await group('ordered').locator('input').isChecked()).toBe(true);
    // the ordered phases come back, then two of them go again by a pattern, and graphite by its name
    await group('ordered').locator('input').uncheck();
    await expect.poll(() => summary.innerText()).toMatch(/^3 of 64 phases suppressed · your selection/);
    await picker.getByLabel('Suppress the phases a pattern matches').fill('*_L12');
    await picker.getByRole('button', { name: 'Add pattern' }).click();
    expect(await picker.locator('.tag.pattern').innerText()).toMatch(/\*_L12 removes 2/);
    await picker
      .locator('label.chip:not(.group)', { hasText: /^\s*GRAPHITE_A9\s*$/ })
      .locator('input')
      .check();
    await expect.poll(() => summary.innerText()).toMatch(/^6 of 64 phases suppressed/);
    // a phase a pattern removes cannot be unticked on its own: the chip names the pattern
    const l12 = picker.locator('label.chip:not(.group)', { hasText: /^\s*FCC_L12\s*$/ });
    expect(await l12.getAttribute('title')).toBe('suppressed by *_L12');
    expect(await l12.locator('input').isDisabled()).toBe(true);
    await picker.scrollIntoViewIfNeeded();
    await shot('phase-picker');
    const { doc } = await submitAndWait();
    expect(doc.phase_selection).toEqual({
      source: 'task',
      inhibit_phases: ['@gas', '@ionic_liquid', 'MC_SHP', 'DIAMOND_A4', '*_L12', 'GRAPHITE_A9'],
      removed: ['DIAMOND_A4', 'FCC_L12', 'GRAPHITE_A9', 'HCP_L12', 'IONIC_LIQ', 'MC_SHP'],
    });
    expect(doc.config.condition.inhibit_phases).toEqual(doc.phase_selection.inhibit_phases);
  });
});

describe('Open a database file (desktop)', () => {
  it('takes a TDB from the file picker in one step: code and name from the file, the report, usable at once', async () => {
    await page.goto(`${served.url}#/databases`);
    const open = page.getByTestId('open-database');
    await open.waitFor();
    await page.setInputFiles('#open-tdb', join(SHARED_TDB, 'alzn_mey.tdb'));
    const report = page.getByTestId('import-report');
    await report.waitFor();
    expect(await report.innerText()).toMatch(/Imported ALZN_MEY from alzn_mey\.tdb/);
    expect(await report.innerText()).toMatch(/LIQUID\s+FCC_A1\s+HCP_A3/);
    expect(await report.innerText()).toMatch(/local: active/);
    await page.getByTestId('db-table').locator('tr:has(td code:text-is("ALZN_MEY"))').waitFor();
    await shot('open-database');
    await report.getByRole('link', { name: 'New task on it' }).click();
    await page.getByTestId('task-form').waitFor();
    expect(await page.locator('#f-tdb_code option:checked').innerText()).toMatch(/^ALZN_MEY ·/);
  });

  it('takes a dropped TDB the same way', async () => {
    await page.goto(`${served.url}#/databases`);
    await page.getByTestId('open-database').waitFor();
    const text = readFileSync(join(SHARED_TDB, 'pbsn.tdb'), 'latin1');
    await page.evaluate((tdb) => {
      const dt = new DataTransfer();
      dt.items.add(new File([tdb], 'pbsn.tdb', { type: 'text/plain' }));
      const zone = document.querySelector('[data-testid="open-database"]')!;
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, text);
    const report = page.getByTestId('import-report');
    await report.waitFor();
    expect(await report.innerText()).toMatch(/Imported PBSN from pbsn\.tdb/);
    const item = (
      await apiCall<{ items: { code: string; user_status: string }[] }>(svc, 'GET', '/database?search=PBSN')
    ).json.items[0];
    expect(item).toMatchObject({ code: 'PBSN', user_status: 'active' });
  });

  it('logged no console error', () => {
    expect(errors).toEqual([]);
  });
});
