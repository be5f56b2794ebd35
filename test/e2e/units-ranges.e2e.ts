// A new user's diagrams with the default ranges, then the app switched to degrees Celsius and mass percent, in
// headless Chromium against a fresh service: Cu-Ni, Fe-C on the bundled steel database (MF Steel) and an Al-Mg-Zn
// isopleth (COST 507) computed with the ranges the form opens with (worker/core/system-range.ts), each holding the
// features hand-checked in test/core/system-range.test.ts; then Settings → Units set to °C and mass percent, seen
// in the form (inputs, the binary mapping, the task's composition_unit and preview unit, percent typed and sent as
// fractions), in a result view's axes, in its table and in the CSV it exports.
// Screenshots: defaults-cuni.png, defaults-fec.png, defaults-isopleth.png, settings-units.png, units-form.png,
// units-view.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  SCREENSHOTS,
  apiCall,
  launch,
  openResultView,
  serveRenderer,
  startService,
  signedInPage,
  type Served,
  type Service,
} from './harness.js';
import { taskForm } from './task-form.js';

let svc: Service;
let served: Served;
let browser: Browser;
let page: Page;
let errors: string[];
let dbs: { id: string; code: string }[];
const ids: Record<string, number> = {};

async function shot(name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
const { fraction, newTask, submitAndWait } = taskForm(
  () => page,
  () => svc,
  () => served.url,
  () => dbs,
);

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  svc = await startService();
  served = await serveRenderer(svc);
  browser = await launch();
  ({ page, errors } = await signedInPage(browser, svc, {
    viewport: { width: 1360, height: 900 },
    acceptDownloads: true,
  }));
  dbs = (await apiCall<{ items: typeof dbs }>(svc, 'GET', '/database?size=100')).json.items;
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await svc?.stop();
});

describe('diagrams with the default ranges', () => {
  it('Cu-Ni: the whole composition range and the whole liquidus (1358-1728 K)', async () => {
    await newTask('binary_equilibrium', 'CUNI_MEY1992', 'Cu-Ni, default ranges', ['CU', 'NI']);
    await expect.poll(() => page.inputValue('#f-temperature_end')).toBe('2000');
    expect(await page.inputValue('#f-temperature_start')).toBe('300');
    expect(await page.getByTestId('binary-mapping').innerText()).toContain('x(NI) from 0 to 1');
    const { id, doc } = await submitAndWait();
    ids.cuni = id;
    expect(doc.temperature_range).toEqual([300, 2000]);
    // the liquidus and solidus boundaries of the L + FCC region lie inside the diagram, from Cu's to Ni's melting point
    const T = doc.table.rows.map((r: unknown[]) => r[2] as number);
    expect(Math.max(...T)).toBeGreaterThan(1700);
    expect(Math.max(...T)).toBeLessThan(2000);
    await openResultView(page, served.url, id);
    await shot('defaults-cuni');
  });

  it('Fe-C on the bundled steel database: 0-0.25 x(C), the eutectic and the eutectoid inside', async () => {
    await newTask('binary_equilibrium', 'MF_STEEL', 'Fe-C, default ranges', ['FE', 'C']);
    await expect.poll(() => page.getByTestId('binary-mapping').innerText()).toContain('x(C) from 0 to 0.25');
    expect(await page.inputValue('#f-temperature_end')).toBe('2100');
    expect(await page.inputValue('#f-temperature_start')).toBe('300');
    const { id, task, doc } = await submitAndWait();
    ids.fec = id;
    expect(task.result).toMatch(/eutectic 14\d\d\.\d K/);
    expect(task.result).toMatch(/eutectoid 10\d\d\.\d K/);
    // 4.3 mass % C (the eutectic) inside the composition axis, which ends at cementite's Fe3C
    expect(doc.composition_range).toEqual([0, 0.25]);
    expect(doc.composition_range_w[1]).toBeGreaterThan(0.043);
    await openResultView(page, served.url, id);
    await shot('defaults-fec');
  });

  it('an Al-Mg-Zn isopleth: a start and an end that differ, the liquidus inside the temperature range', async () => {
    await newTask('isopleth', 'COST507', 'Al-Mg-Zn isopleth, default ranges', ['AL', 'MG', 'ZN']);
    await expect.poll(() => page.inputValue('#f-temperature_end')).toBe('1100');
    expect(await fraction('f-composition_start', 'ZN').inputValue()).toBe('0');
    expect(await fraction('f-composition_end', 'ZN').inputValue()).toBe('0.3333');
    const { id, doc } = await submitAndWait();
    ids.isopleth = id;
    const liquidus = doc.liquidus.flatMap((l: { points: { T: number }[] }) => l.points.map((p) => p.T));
    expect(liquidus.length).toBeGreaterThan(0);
    expect(Math.max(...liquidus)).toBeLessThan(doc.temperature_range[1]);
    expect(Math.min(...liquidus)).toBeGreaterThan(doc.temperature_range[0]);
    await openResultView(page, served.url, id);
    await shot('defaults-isopleth');
  });
});

describe('Settings: degrees Celsius and mass percent', () => {
  it('are chosen once in Settings', async () => {
    await page.goto(`${served.url}#/settings`);
    const card = page.getByTestId('unit-preferences');
    await card.waitFor();
    await page.selectOption('#pref-temperature', 'celsius');
    await page.selectOption('#pref-composition-basis', 'mass');
    await page.selectOption('#pref-composition-scale', 'percent');
    await page.getByTestId('unit-preferences-status').waitFor();
    await card.scrollIntoViewIfNeeded();
    await shot('settings-units');
  });

  it('the form takes °C and mass percent and sends kelvin and mass fractions', async () => {
    await newTask('binary_equilibrium', 'MF_STEEL', 'Fe-C in °C and mass %', ['FE', 'C']);
    expect(await page.inputValue('#f-composition_unit')).toBe('mass_fraction');
    expect(await page.inputValue('#f-preview_temperature_unit')).toBe('celsius');
    // 2100 K and 300 K in °C; the suggested 0.07 mass fraction C as 7 %
    await expect.poll(() => page.inputValue('#f-temperature_end')).toBe('1826.85');
    expect(await page.inputValue('#f-temperature_start')).toBe('26.85');
    await expect.poll(() => fraction('f-compositions_end', 'C').inputValue()).toBe('7');
    const mapping = await page.getByTestId('binary-mapping').innerText();
    expect(mapping).toContain('w(C) from 0 % to 7 %');
    expect(mapping).toContain('26.85–1826.85 °C');
    expect(await page.locator('#f-compositions_end legend').innerText()).toContain('mass %');
    await shot('units-form');
    const fec = await submitAndWait();
    ids.fecMass = fec.id;
    expect(fec.doc.composition_unit).toBe('mass_fraction');
    expect(fec.doc.composition_range_w).toEqual([0, 0.07]);
    expect(fec.doc.config.preview_temperature_unit).toBe('celsius');

    // a point calculation typed in °C and mass percent is stored in K and mass fractions
    await newTask('point_calculation', 'CUNI_MEY1992', 'Cu-30Ni at 1000 °C', ['CU', 'NI']);
    await fraction('f-compositions', 'NI').fill('30');
    await page.fill('#f-temperature', '1000');
    const { task } = await submitAndWait();
    const cfg = JSON.parse(task.description);
    expect(cfg.condition).toMatchObject({
      temperature: 1273.15,
      compositions: { CU: 0.7, NI: 0.3 },
      composition_unit: 'mass_fraction',
    });
    expect(cfg.preview_temperature_unit).toBe('celsius');
  });

  it('a result view, its table and its CSV show °C and mass percent', async () => {
    await openResultView(page, served.url, ids.fecMass!);
    const svg = page.getByTestId('binary-svg');
    await expect.poll(() => svg.innerHTML()).toContain('Temperature [°C]');
    expect(await svg.innerHTML()).toContain('Mass percent C');
    const table = page.getByTestId('result-table');
    expect(await table.locator('th', { hasText: /^T\[°C\]$/ }).count()).toBe(1);
    expect(await table.innerText()).toContain('mass %');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('result-table-csv').click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    const header = csv.split('\r\n')[0]!;
    expect(header).toContain('T [°C]');
    expect(header).toContain('W_left(C) [mass %]');
    // the first row's temperature is the service's minus 273.15
    const served0 = (
      await (
        await fetch(
          (await apiCall<{ files: string[] }>(svc, 'GET', `/task/${ids.fecMass}/result`)).json.files.find((u) =>
            u.includes('result.json'),
          )!,
        )
      ).json()
    ).table.rows[0][2] as number;
    const tCol = header.split(',').indexOf('T [°C]');
    expect(Number(csv.split('\r\n')[1]!.split(',')[tCol])).toBeCloseTo(served0 - 273.15, 6);
    await shot('units-view');
    expect(errors).toEqual([]);
  });
});
