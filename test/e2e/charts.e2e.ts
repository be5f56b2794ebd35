// Charts and diagram labels end to end: a real PhaseDesk service computes small tasks on the bundled databases, the
// production renderer shows them in headless Chromium, and the views are checked through the DOM:
//  - every phase diagram shipped as a screenshot (Al-Zn, Ag-Cu, Cu-Ni): no two label boxes intersect, every box
//    lies inside the plot area and no boundary polyline or invariant line crosses one (boxes from getBBox), also
//    after zooming in; composition-set names agree between the region labels and the invariants;
//  - line and property charts: wheel zoom, drag pan and reset, the K/°C toggle, both Cp curves;
//  - the point view names Cp equilibrium and Cp frozen alike; Scheil is drawn T versus fraction solid with the
//    eutectic plateau and a phase table whose fraction ranges meet; a Scheil started below the liquidus shows the
//    liquidus and the start temperature to use; the C-P-T view names both components and notes that pressure
//    changes nothing on a database without molar volumes.
// Screenshots go to docs/screenshots/result-*.png. Any console error fails the run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  SCREENSHOTS,
  apiCall,
  launch,
  openResultView,
  postTasks,
  waitCompleted,
  serveRenderer,
  startService,
  signedInPage,
  type Served,
  type Service,
} from './harness.js';
import { checkDiagramLabels } from './labels-dom.js';
import { scheilSequence, type ScheilStep } from '../../renderer/src/lib/results.js';
import { colorMap } from '../../renderer/src/lib/results-plot.js';
import { seriesColor } from '../../contract/plots/palette.js';

const ALLOY = { AL: 0.7, ZN: 0.3 };
const AZ = ['AL', 'ZN'];
const TASKS: Record<string, { tdb: string; type: string; condition: Record<string, unknown> }> = {
  binary_alzn: {
    tdb: 'ALZN_MEY1993',
    type: 'binary_equilibrium',
    condition: {
      components: AZ,
      compositions_start: { ZN: 0 },
      compositions_end: { ZN: 1 },
      temperature_start: 400,
      temperature_end: 1000,
      pressure: 1e5,
    },
  },
  binary_agcu: {
    tdb: 'AGCU_HAYES1986',
    type: 'binary_equilibrium',
    condition: {
      components: ['AG', 'CU'],
      compositions_start: { CU: 0 },
      compositions_end: { CU: 1 },
      temperature_start: 500,
      temperature_end: 1400,
      pressure: 1e5,
    },
  },
  binary_cuni: {
    tdb: 'CUNI_MEY1992',
    type: 'binary_equilibrium',
    condition: {
      components: ['CU', 'NI'],
      compositions_start: { NI: 0 },
      compositions_end: { NI: 1 },
      temperature_start: 300,
      temperature_end: 1800,
      pressure: 1e5,
    },
  },
  point: {
    tdb: 'ALZN_MEY1993',
    type: 'point_calculation',
    condition: { components: AZ, temperature: 800, pressure: 1e5, compositions: ALLOY },
  },
  line: {
    tdb: 'ALZN_MEY1993',
    type: 'line_calculation',
    condition: {
      components: AZ,
      compositions_start: ALLOY,
      compositions_end: ALLOY,
      temperature_start: 500,
      temperature_end: 1000,
      pressure: 1e5,
      points: 41,
    },
  },
  properties: {
    tdb: 'ALZN_MEY1993',
    type: 'thermodynamic_properties_next',
    condition: {
      components: AZ,
      compositions_start: ALLOY,
      compositions_end: ALLOY,
      temperature_start: 500,
      temperature_end: 1000,
      pressure: 1e5,
      points: 41,
    },
  },
  scheil: {
    tdb: 'ALZN_MEY1993',
    type: 'scheil_solidification',
    condition: { components: AZ, compositions: ALLOY, start_temperature: 950, temperature_step: 5, pressure: 1e5 },
  },
  scheil_below: {
    tdb: 'ALZN_MEY1993',
    type: 'scheil_solidification',
    condition: { components: AZ, compositions: ALLOY, start_temperature: 820, temperature_step: 5, pressure: 1e5 },
  },
  cpt: {
    tdb: 'ALZN_MEY1993',
    type: 'binary_cpt_diagram',
    condition: {
      components: AZ,
      x_component: 'ZN',
      composition_start: 0,
      composition_end: 1,
      composition_step: 0.05,
      temperature_start: 400,
      temperature_end: 1000,
      temperature_step: 25,
      pressure_start: 1e5,
      pressure_end: 1e8,
      pressure_points: 3,
      pressure_scale: 'log',
    },
  },
};

let svc: Service;
let served: Served;
let browser: Browser;
let page: Page;
let errors: string[];
const ids: Record<string, number> = {};

async function result<T>(key: string): Promise<T> {
  await waitCompleted(svc, ids[key]!, key);
  const files = (await apiCall<{ files: string[] }>(svc, 'GET', `/task/${ids[key]}/result`)).json.files;
  const url = files.find((u) => new URL(u, svc.origin).pathname.endsWith('/result.json'))!;
  return (await (await fetch(new URL(url, svc.origin))).json()) as T;
}

async function openView(key: string) {
  await openResultView(page, served.url, ids[key]!);
}
const shot = (name: string) => page.getByTestId('result-view').screenshot({ path: join(SCREENSHOTS, `${name}.png`) });

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  svc = await startService({ PHASEDESK_POOL_SIZE: '1' });
  served = await serveRenderer(svc);
  Object.assign(ids, await postTasks(svc, TASKS, 'Charts'));
  browser = await launch();
  ({ page, errors } = await signedInPage(browser, svc, {
    viewport: { width: 1360, height: 1500 },
    acceptDownloads: true,
  }));
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await svc?.stop();
});

describe('phase diagram labels', () => {
  for (const [key, shotName] of [
    ['binary_alzn', 'result-binary'],
    ['binary_agcu', 'result-binary-agcu'],
    ['binary_cuni', 'result-binary-cuni'],
  ] as const) {
    it(`${key}: no two label boxes intersect, none leaves the plot or sits on a line, also zoomed in (${shotName}.png)`, async () => {
      const doc = await result<{
        two_phase_regions: { phases: string[]; display: string }[];
        invariants: { phases: { name: string }[] }[];
      }>(key);
      await openView(key);
      const full = await checkDiagramLabels(page);
      expect(full.problems).toEqual([]);
      // every field and invariant is labelled, by name or by a number explained in the legend
      const legend = (await page.getByTestId('label-legend').count())
        ? await page.getByTestId('label-legend').innerText()
        : '';
      for (const r of doc.two_phase_regions) {
        // by its display name (result.json `display`, the names the view prints)
        const name = r.display;
        expect(full.labels.some((l) => l.text === name) || legend.includes(name), name).toBe(true);
      }
      expect(
        full.labels.filter((l) => l.kind === 'invariant-label').length + (legend.match(/K/g)?.length ?? 0),
      ).toBeGreaterThanOrEqual(doc.invariants.length);
      // composition sets: every set named in an invariant is the name of a region's phase too
      const regionPhases = new Set(doc.two_phase_regions.flatMap((r) => r.phases));
      for (const v of doc.invariants)
        for (const p of v.phases) if (p.name.includes('#')) expect(regionPhases.has(p.name), p.name).toBe(true);
      await shot(shotName);
      // zoomed in around the middle: the placement is redone and holds
      const box = (await page.getByTestId('binary-svg').boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.5);
      await page.mouse.wheel(0, -500);
      await page.waitForTimeout(200);
      await page.locator('[data-testid="binary-svg"][data-labels="placed"]').waitFor();
      const zoomed = await checkDiagramLabels(page);
      expect(zoomed.labels.length).toBeGreaterThan(0);
      expect(zoomed.problems).toEqual([]);
      await page.getByTestId('reset-view').click();
    }, 900_000);
  }

  it('Ag-Cu names the Cu-rich solid FCC_A1#2 in its region and in the eutectic', async () => {
    const doc = await result<{
      two_phase_regions: { phases: string[] }[];
      invariants: { phases: { name: string }[] }[];
      single_phase_regions: { label: string }[];
    }>('binary_agcu');
    expect(doc.two_phase_regions.map((r) => r.phases.join('+'))).toContain('LIQUID+FCC_A1#2');
    expect(doc.invariants[0]!.phases.map((p) => p.name).sort()).toEqual(['FCC_A1', 'FCC_A1#2', 'LIQUID']);
    expect(doc.single_phase_regions.map((l) => l.label).sort()).toEqual(['FCC_A1', 'FCC_A1#2', 'LIQUID']);
  }, 900_000);
});

describe('line and property charts', () => {
  it('line: wheel zoom, drag pan, reset; the K/°C toggle changes the axis, not the data', async () => {
    await result('line');
    await openView('line');
    const plot = page.getByTestId('plot-fractions');
    const svg = plot.locator('svg');
    const full = await svg.getAttribute('data-view');
    const box = (await svg.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await page.mouse.wheel(0, -400);
    await page.waitForFunction(
      (f) => document.querySelector('[data-testid="plot-fractions"] svg')?.getAttribute('data-view') !== f,
      full,
    );
    const zoomed = (await svg.getAttribute('data-view'))!.split(',').map(Number);
    const f = full!.split(',').map(Number);
    expect(zoomed[1]! - zoomed[0]!).toBeLessThan(f[1]! - f[0]!);
    // drag to the right: the window moves to lower temperatures
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.5, { steps: 5 });
    await page.mouse.up();
    const panned = (await svg.getAttribute('data-view'))!.split(',').map(Number);
    expect(panned[0]!).toBeLessThan(zoomed[0]!);
    expect(panned[1]! - panned[0]!).toBeCloseTo(zoomed[1]! - zoomed[0]!, 6);
    await page.getByTestId('plot-fractions-reset').click();
    expect(await svg.getAttribute('data-view')).toBe(full);
    // °C: the axis title and the ticks change (500-1000 K = 226.85-726.85 °C), both charts of the view at once
    expect(await page.getByTestId('plot-fractions-xtitle').textContent()).toBe('Temperature [K]');
    await page.getByTestId('plot-fractions-unit').click();
    expect(await page.getByTestId('plot-fractions-xtitle').textContent()).toBe('Temperature [°C]');
    expect(await page.getByTestId('plot-property-xtitle').textContent()).toBe('Temperature [°C]');
    const ticks = await plot.locator('.axis text:not(.label)').allTextContents();
    expect(ticks).toContain('300');
    expect(ticks).not.toContain('1000');
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5);
    expect(await page.getByTestId('plot-fractions-readout').innerText()).toMatch(/Temperature \[°C\]: \d/);
    await shot('result-line');
    await page.getByTestId('plot-fractions-unit').click();
  }, 900_000);

  it('properties: the Cp chart draws the equilibrium and the frozen Cp, zoomable', async () => {
    const doc = await result<{ points: { Cp_equilibrium: number | null }[] }>('properties');
    expect(doc.points.some((p) => typeof p.Cp_equilibrium === 'number')).toBe(true);
    await openView('properties');
    const plot = page.getByTestId('plot-property');
    expect(
      await plot.locator('path[data-series]').evaluateAll((e) => e.map((x) => x.getAttribute('data-series'))),
    ).toEqual(['Cp equilibrium', 'Cp frozen']);
    const box = (await plot.locator('svg').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await page.mouse.wheel(0, -300);
    await expect.poll(() => plot.getByTestId('plot-property-reset').isEnabled()).toBe(true);
    await plot.getByTestId('plot-property-reset').click();
    await page.mouse.move(box.x + box.width * 0.45, box.y + box.height * 0.5);
    await shot('result-properties');
  }, 900_000);

  it('point: Cp equilibrium and Cp frozen are named alike and both given', async () => {
    const doc = await result<{ point: { CPM: number; Cp_equilibrium: number | null } }>('point');
    await openView('point');
    const view = page.getByTestId('view-point');
    expect(await view.locator('dt').allTextContents()).toEqual(expect.arrayContaining(['Cp equilibrium', 'Cp frozen']));
    expect(await page.getByTestId('point-cp-frozen').innerText()).toContain(
      String(Number(doc.point.CPM.toPrecision(6))),
    );
    if (doc.point.Cp_equilibrium !== null)
      expect(await page.getByTestId('point-cp-equilibrium').innerText()).toContain(
        String(Number(doc.point.Cp_equilibrium.toPrecision(6))),
      );
    await shot('result-point');
  }, 900_000);
});

describe('Scheil and C-P-T', () => {
  it('Scheil: temperature versus fraction solid as in the preview, eutectic plateau marked, phase runs that meet', async () => {
    const doc = await result<{ steps: ScheilStep[]; end_reason: string; solidus_temperature: number }>('scheil');
    await openView('scheil');
    expect(await page.getByTestId('plot-scheil-xtitle').textContent()).toBe('Fraction solid');
    expect(await page.getByTestId('plot-scheil-ytitle').textContent()).toBe('Temperature [K]');
    expect(doc.end_reason).toBe('eutectic');
    const marks = await page.getByTestId('plot-scheil-hmarker').allTextContents();
    expect(marks.some((m) => m.startsWith('eutectic'))).toBe(true);
    // the plateau: the last segment of the Scheil curve is horizontal on screen (the last liquid at one temperature)
    const d = (await page
      .locator('[data-testid="plot-scheil"] path[data-series="Scheil–Gulliver"]')
      .getAttribute('d'))!;
    const pts = [...d.matchAll(/[ML]([\d.-]+),([\d.-]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    const [a, b] = [pts[pts.length - 2]!, pts[pts.length - 1]!];
    expect(Math.abs(a[1]! - b[1]!)).toBeLessThan(1);
    expect(b[0]! - a[0]!).toBeGreaterThan(5);
    const rows = await page.getByTestId('scheil-sequence').locator('tbody tr td:nth-child(3)').allInnerTexts();
    const ranges = rows.map((r) => r.split('→').map((v) => Number(v.trim())));
    expect(ranges[0]![0]).toBe(0);
    expect(ranges[ranges.length - 1]![1]).toBe(1);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]).toBeCloseTo(ranges[i - 1]![1]!, 2);
    await shot('result-scheil');
  }, 900_000);

  it('Scheil started below the liquidus: the view says so and suggests the liquidus as start temperature', async () => {
    const doc = await result<{
      started_below_liquidus: boolean;
      suggested_start_temperature: number;
      liquidus_temperature: number;
      warnings: string[];
    }>('scheil_below');
    expect(doc.started_below_liquidus).toBe(true);
    expect(doc.warnings.length).toBe(1);
    const t = (await apiCall<{ logs: string; result: string }>(svc, 'GET', `/task/${ids.scheil_below}`)).json;
    expect(t.logs).toContain('warning: start_temperature 820 K is below the liquidus');
    expect(t.result).toContain(`start at ${doc.suggested_start_temperature} K`);
    await openView('scheil_below');
    expect(await page.getByTestId('scheil-suggested-start').innerText()).toBe(`${doc.suggested_start_temperature} K`);
    expect(await page.getByTestId('scheil-below-liquidus').innerText()).toContain(
      String(Number(doc.liquidus_temperature.toPrecision(6))),
    );
    await shot('result-scheil-below-liquidus');
  }, 900_000);

  it('C-P-T: the title names both components; pressure changes nothing on Al-Zn and the view says so', async () => {
    const doc = await result<{ pressure_dependent: boolean }>('cpt');
    expect(doc.pressure_dependent).toBe(false);
    await openView('cpt');
    expect(await page.getByTestId('cpt-title').innerText()).toBe('Zn-Al C–P–T diagram');
    await page.getByTestId('cpt-pressure-note').waitFor();
    await page.waitForFunction(
      () =>
        ['3d', 'none', 'error'].includes(
          document.querySelector('[data-testid="cpt-3d"]')?.getAttribute('data-state') ?? 'none',
        ),
      undefined,
      { timeout: 30_000 },
    );
    if ((await page.locator('[data-testid="cpt-3d"][data-state="3d"]').count()) === 1) await shot('result-cpt-3d');
  }, 900_000);
});

describe('view helpers', () => {
  it('phase runs start at the fraction solid before their first step and end where the next begins', () => {
    const step = (T: number, fs: number, inc: number, phases: string[]): ScheilStep => ({
      T,
      fraction_solid: fs,
      fraction_liquid: 1 - fs,
      phases_forming: phases,
      liquid_x: {},
      solid_increment: inc,
    });
    const runs = scheilSequence([
      step(900, 0, 0, []),
      step(880, 0, 0, ['FCC_A1']),
      step(870, 0.3, 0.3, ['FCC_A1']),
      step(860, 0.6, 0.3, ['FCC_A1']),
      step(654, 1, 0.4, ['FCC_A1', 'HCP_A3']),
    ]);
    expect(runs).toEqual([
      { phases: 'FCC_A1', from: 880, to: 860, fs0: 0, fs1: 0.6 },
      { phases: 'FCC_A1 + HCP_A3', from: 860, to: 654, fs0: 0.6, fs1: 1 },
    ]);
  });

  it("in-app colours are the previews' colours of the sorted labels", () => {
    const m = colorMap(['LIQUID', 'FCC_A1', 'HCP_A3']);
    expect(m.get('FCC_A1')).toBe(seriesColor(0));
    expect(m.get('HCP_A3')).toBe(seriesColor(1));
    expect(m.get('LIQUID')).toBe(seriesColor(2));
  });

  it('logged no console error', () => {
    expect(errors).toEqual([]);
  });
});
