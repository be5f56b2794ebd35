// Component tests of the result views (renderer/src/components/results) in headless Chromium against the
// production build, with the API mocked by route interception and the hand-made result.json fixtures of
// fixtures/results.ts (stop-gap: the real results are exercised by results.e2e.ts). Covers what the real run
// cannot force: CSV export contents, hover read-out, zoom/pan/reset, the pressure slider of the 3D view, the
// WebGL-less fallback and a malformed result.json. Any console error fails the run. No service is started.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, jsonReply, mockedApiContext, serveDist, watchErrors } from './harness.js';
import { FIXTURES } from './fixtures/results.js';

const KEY = 'tk_fixturefixturefixturefixture';
const TYPES = Object.keys(FIXTURES);
const SHOTS = process.env.PHASEDESK_FIXTURE_SHOTS; // optional directory for screenshots of the fixture views

let served: { url: string; close(): void } | undefined;
let url: string;
let browser: Browser;

/** A context whose /api/v2 and /downloads answer from the fixtures: task N (1-based) is TYPES[N-1]. */
async function mockedContext(b: Browser, docs: Record<string, unknown> = {}): Promise<BrowserContext> {
  const ctx = await mockedApiContext(
    b,
    KEY,
    { viewport: { width: 1360, height: 900 }, acceptDownloads: true },
    (p, route) => {
      const m = /^\/task\/(\d+)(?:\/(result|preview|vtk))?$/.exec(p);
      const type = m ? TYPES[Number(m[1]) - 1] : undefined;
      if (!m || !type)
        return route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"Task not found"}' });
      if (!m[2]) {
        return route.fulfill(
          jsonReply({
            id: Number(m[1]),
            title: `Fixture ${type}`,
            description: '{}',
            status: 'completed',
            task_type: type,
            result: 'fixture',
            logs: 'fixture log',
            user_id: 'u',
            tdb_code: 'FIXTURE',
            created_at: '2026-01-01 00:00:00 UTC',
            updated_at: '2026-01-01 00:00:00 UTC',
          }),
        );
      }
      const files = m[2] === 'result' ? [`${url}downloads/t${m[1]}/result/result.json?expires=9&signature=x`] : [];
      return route.fulfill(jsonReply({ task_id: m[1], files, total_count: files.length }));
    },
  );
  await ctx.route('**/downloads/**', (route) => {
    const n = Number(/\/downloads\/t(\d+)\//.exec(route.request().url())?.[1]);
    const type = TYPES[n - 1]!;
    const doc = docs[type] ?? FIXTURES[type]!();
    return route.fulfill({
      status: 200,
      contentType: 'application/octet-stream',
      body: typeof doc === 'string' ? doc : JSON.stringify(doc),
    });
  });
  return ctx;
}

async function open(page: Page, type: string) {
  await page.goto(`${url}#/tasks/${TYPES.indexOf(type) + 1}`);
  await page.locator('[data-testid="result-view"][data-state="ready"]').waitFor({ timeout: 20_000 });
}
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  served = await serveDist();
  url = served.url;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  served?.close();
});

describe('result views on fixture documents', () => {
  it('point: phase table with both composition sets and metastable driving forces, sorted', async () => {
    const ctx = await mockedContext(browser);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await open(page, 'point_calculation');
    const rows = await page.getByTestId('point-phases').locator('tbody tr').allInnerTexts();
    expect(rows.length).toBe(2);
    expect(rows[0]).toContain('FCC_A1');
    expect(rows[1]).toContain('FCC_A1#2');
    const meta = await page.getByTestId('point-metastable').locator('tbody tr td:first-child').allInnerTexts();
    expect(meta).toEqual(['HCP_A3', 'LIQUID']); // −650 before −1800: closest to stability first
    await shot(page, 'fixture-point');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('line: fraction and property charts, transitions marked, shared hover read-out, CSV export equals the table', async () => {
    const ctx = await mockedContext(browser);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await open(page, 'line_calculation');
    const frac = page.getByTestId('plot-fractions');
    expect(await frac.locator('path[data-series]').count()).toBe(2);
    expect(await frac.getByTestId('plot-fractions-marker').count()).toBe(2);
    // A non-converged point is a gap: the FCC_A1 curve has two sub-paths (two "M" commands).
    const d = (await frac.locator('path[data-series="LIQUID"]').getAttribute('d'))!;
    expect(d.match(/M/g)!.length).toBe(2);
    await page.getByTestId('not-converged').waitFor();
    // Hover in the middle of the chart: read-out on both charts (shared cursor).
    const box = (await frac.locator('svg').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
    const ro = await page.getByTestId('plot-fractions-readout').innerText();
    expect(ro).toMatch(/Temperature \[K\]: \d+/);
    // the read-out names the liquid by its display name (the series keeps the database's as data-series)
    expect(ro).toMatch(/\bL: /);
    await page.getByTestId('plot-property-readout').waitFor();
    await shot(page, 'fixture-line');
    // Keyboard: Home puts the cursor on the first sample, ArrowRight steps to the next one.
    await page.mouse.move(0, 0);
    await frac.locator('svg').focus();
    await page.keyboard.press('Home');
    expect(await page.getByTestId('plot-fractions-readout').innerText()).toContain('Temperature [K]: 500');
    await page.keyboard.press('ArrowRight');
    expect(await page.getByTestId('plot-fractions-readout').innerText()).toContain('Temperature [K]: 510');
    // CSV export (client side) equals the ResultTable.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('result-table-csv').click()]);
    // named after the task, like the file downloads
    expect(download.suggestedFilename()).toBe(`task-${TYPES.indexOf('line_calculation') + 1}-result.csv`);
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('T [K],NP(FCC_A1),NP(LIQUID),converged');
    expect(lines.length).toBe(52);
    expect(lines[1]).toBe('500,1,0,yes');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('properties: Cp equilibrium and frozen by default, switchable to chemical potentials', async () => {
    const ctx = await mockedContext(browser);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await open(page, 'thermodynamic_properties_next');
    const prop = page.getByTestId('plot-property');
    expect(
      await prop.locator('path[data-series]').evaluateAll((e) => e.map((x) => x.getAttribute('data-series'))),
    ).toEqual(['Cp equilibrium', 'Cp frozen']);
    await shot(page, 'fixture-properties');
    await page.selectOption('#prop-select', 'MU');
    expect(
      await prop.locator('path[data-series]').evaluateAll((e) => e.map((x) => x.getAttribute('data-series'))),
    ).toEqual(['μ(AL)', 'μ(ZN)']);
    // Legend click hides a series.
    await prop.getByRole('button', { name: 'μ(AL)' }).click();
    expect(await prop.locator('path[data-series]').count()).toBe(1);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('scheil: Scheil curve beside the lever rule with liquidus and solidus markers', async () => {
    const ctx = await mockedContext(browser);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await open(page, 'scheil_solidification');
    const plot = page.getByTestId('plot-scheil');
    expect(
      await plot.locator('path[data-series]').evaluateAll((e) => e.map((x) => x.getAttribute('data-series'))),
    ).toEqual(['Scheil–Gulliver', 'Lever rule (equilibrium)']);
    // temperature is the y axis (as in the preview): liquidus, Scheil end and lever-rule solidus are horizontal lines
    expect(await plot.getByTestId('plot-scheil-hmarker').count()).toBe(3);
    const seq = await page.getByTestId('scheil-sequence').locator('tbody tr').allInnerTexts();
    expect(seq.map((r) => r.split('\t')[0])).toEqual(['FCC_A1', 'FCC_A1 + HCP_A3']);
    await shot(page, 'fixture-scheil');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('binary: regions, invariant and labels; wheel zoom, drag pan and reset', async () => {
    const ctx = await mockedContext(browser);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await open(page, 'binary_equilibrium');
    const svg = page.getByTestId('binary-svg');
    expect(await svg.getByTestId('region').count()).toBe(2);
    expect(await svg.getByTestId('invariant').count()).toBe(1);
    // a Curie/Neel line is drawn dotted, and the legend under the plot names the line styles
    expect(await svg.getByTestId('magnetic-line').count()).toBe(1);
    expect(await page.getByTestId('line-legend').innerText()).toMatch(/Curie\/Néel temperature/);
    expect(await svg.getByTestId('region-label').allTextContents()).toEqual(
      // in the display names of a database of the general family (contract/plots/phase-names.ts)
      expect.arrayContaining(['L', 'fcc (A1)', 'fcc (A1) + L']),
    );
    const full = await svg.getAttribute('data-view');
    expect(full).toBe('0,1,400,950');
    await shot(page, 'fixture-binary');
    const box = (await svg.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -300);
    await page.waitForFunction(
      (f) => document.querySelector('[data-testid="binary-svg"]')?.getAttribute('data-view') !== f,
      full,
    );
    const zoomed = (await svg.getAttribute('data-view'))!.split(',').map(Number);
    expect(zoomed[1]! - zoomed[0]!).toBeLessThan(1);
    // Drag right by 100 px: the window moves to lower x.
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 100, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    const panned = (await svg.getAttribute('data-view'))!.split(',').map(Number);
    expect(panned[0]!).toBeLessThan(zoomed[0]!);
    expect(panned[1]! - panned[0]!).toBeCloseTo(zoomed[1]! - zoomed[0]!, 9);
    await page.getByTestId('binary-readout').waitFor();
    await page.getByTestId('reset-view').click();
    expect(await svg.getAttribute('data-view')).toBe(full);
    // Hover inside FCC_A1 + LIQUID (x = 0.6 at 702.5 K): the read-out names the region (by its display names) and the
    // lever rule.
    const [x0, x1, T0, T1] = full!.split(',').map(Number) as [number, number, number, number];
    const px = (x: number) => box.x + 70 + ((x - x0) / (x1 - x0)) * (box.width - 70 - 20);
    const py = (T: number) => box.y + 16 + ((T1 - T) / (T1 - T0)) * (box.height - 16 - 46);
    await page.mouse.move(px(0.6), py(702.5));
    expect(await page.getByTestId('binary-readout').innerText()).toMatch(
      /fcc \(A1\) \+ L: tie-line 0\.45\d* – 0\.78\d*/,
    );
    // Keyboard: arrows pan, 0 resets.
    await svg.focus();
    await page.keyboard.press('ArrowRight');
    expect(await svg.getAttribute('data-view')).not.toBe(full);
    await page.keyboard.press('0');
    expect(await svg.getAttribute('data-view')).toBe(full);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('binary: grid nodes without an equilibrium are marked, and a large share of them is said above the plot', async () => {
    const message = 'incomplete: 2 of 10 grid nodes (20 %) have no equilibrium (1 not converged, 1 where none exists)';
    const doc = {
      ...FIXTURES.binary_equilibrium!(),
      not_converged_nodes: [
        { T: 500, x: 0.1 },
        { T: 600, x: 0.9, no_equilibrium: true },
      ],
      convergence_warning: { nodes: 10, not_converged: 1, no_equilibrium: 1, share: 0.2, message },
    };
    const ctx = await mockedContext(browser, { binary_equilibrium: doc });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await open(page, 'binary_equilibrium');
    const marks = page.getByTestId('binary-svg').getByTestId('not-converged-node');
    expect(await marks.count()).toBe(2);
    expect(await marks.locator('path').count()).toBe(1); // the cross where the solver failed
    expect(await marks.locator('circle').count()).toBe(1); // the ring where none exists
    expect(await page.getByTestId('convergence-warning').innerText()).toContain(message);
    // a diagram without the field shows no warning
    const plain = await mockedContext(browser);
    const p2 = await plain.newPage();
    await open(p2, 'binary_equilibrium');
    expect(await p2.getByTestId('convergence-warning').count()).toBe(0);
    expect(errors).toEqual([]);
    await plain.close();
    await ctx.close();
  });

  it('cpt: three.js view (lazy chunk) with pressure slider, legend and 2D slice', async () => {
    const ctx = await mockedContext(browser);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(`${url}#/tasks/1`);
    await page.locator('[data-testid="result-view"][data-state="ready"]').waitFor();
    expect(scripts.some((s) => /cpt-scene/.test(s))).toBe(false); // three.js is not in the main bundle
    await open(page, 'binary_cpt_diagram');
    const host = page.locator('[data-testid="cpt-3d"][data-state="3d"]');
    await host.waitFor({ timeout: 30_000 });
    expect(scripts.some((s) => /cpt-scene/.test(s))).toBe(true);
    const stats = async () =>
      JSON.parse((await host.getAttribute('data-stats'))!) as { points: number; sliceCells: number; slice: number };
    expect(await stats()).toEqual({ points: 21 * 16 * 2, sliceCells: 21 * 16, slice: 0 });
    expect(await host.locator('canvas').count()).toBe(1);
    expect(await host.locator('.cpt-tick').count()).toBeGreaterThan(6);
    await page.locator('#cpt-pressure').fill('2');
    await page.waitForFunction(
      () => JSON.parse(document.querySelector('[data-testid="cpt-3d"]')!.getAttribute('data-stats')!).slice === 2,
    );
    expect(await page.getByTestId('cpt-pressure-value').innerText()).toContain('1e9 Pa');
    const legend = await page.getByTestId('cpt-legend').locator('li').allInnerTexts();
    expect(legend.length).toBe(7); // six phase sets + not converged
    await page
      .getByTestId('cpt-legend')
      .getByRole('button', { name: /^LIQUID/ })
      .click();
    await page.waitForFunction(
      () => JSON.parse(document.querySelector('[data-testid="cpt-3d"]')!.getAttribute('data-stats')!).sliceCells < 336,
    );
    // Drag to rotate: still renders, no error.
    const box = (await host.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 30, { steps: 5 });
    await page.mouse.up();
    expect(await page.getByTestId('cpt-slice').locator('rect').count()).toBeGreaterThan(100);
    await shot(page, 'fixture-cpt-3d');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('cpt: axes follow axis_config (x = temperature, y = pressure, z = composition)', async () => {
    const doc = {
      ...FIXTURES.binary_cpt_diagram!(),
      axis_config: {
        x: { variable: 'temperature' },
        y: { variable: 'pressure' },
        z: { variable: 'composition', component: 'ZN' },
      },
    };
    const ctx = await mockedContext(browser, { binary_cpt_diagram: doc });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await open(page, 'binary_cpt_diagram');
    await page.locator('[data-testid="cpt-3d"][data-state="3d"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('view-cpt').locator('.tools .muted').innerText()).toContain(
      'axes x: T [K], y: P [Pa] (log), z: x(ZN)',
    );
    expect(await page.locator('.cpt-axis').allInnerTexts()).toEqual(['T [K]', 'P [Pa] (log)', 'x(ZN)']);
    // Pressure ticks are decades on a log axis.
    expect(await page.locator('.cpt-tick').allInnerTexts()).toEqual(expect.arrayContaining(['1e5', '1e7', '1e9']));
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('cpt without WebGL: a clear message and the 2D slice, no console error', async () => {
    const noGl = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--disable-3d-apis'] });
    try {
      const ctx = await mockedContext(noGl);
      const page = await ctx.newPage();
      const errors = watchErrors(page);
      await open(page, 'binary_cpt_diagram');
      const msg = page.getByTestId('cpt-no-webgl');
      await msg.waitFor();
      expect(await msg.innerText()).toContain('no WebGL 2');
      expect(await page.getByTestId('cpt-slice').locator('rect').count()).toBeGreaterThan(300);
      await page.locator('#cpt-pressure').fill('1');
      const box = (await page.getByTestId('cpt-slice').locator('svg').boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.2);
      expect(await page.getByTestId('cpt-slice-readout').innerText()).toMatch(/LIQUID|FCC_A1|HCP_A3/);
      await shot(page, 'fixture-cpt-nowebgl');
      expect(errors).toEqual([]);
      await ctx.close();
    } finally {
      await noGl.close();
    }
  });

  it('a malformed result.json gives a clear message instead of a blank view', async () => {
    const ctx = await mockedContext(browser, {
      line_calculation: { version: 1, task_type: 'line_calculation', config: {}, points: [] },
    });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await page.goto(`${url}#/tasks/${TYPES.indexOf('line_calculation') + 1}`);
    const e = page.getByTestId('result-error');
    await e.waitFor();
    expect(await e.innerText()).toContain('lacks transitions, table');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
