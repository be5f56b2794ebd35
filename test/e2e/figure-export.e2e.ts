// Figure export and overlays end to end: a real service computes the Al-Zn phase diagram with two databases
// (ALZN_MEY1993 and COST507) and a line calculation; in headless Chromium the diagram is zoomed and switched to °C,
// then exported as SVG, PDF and 600 dpi PNG, and each file is parsed: the SVG's texts are those on screen, the PDF
// has its page size in points and the same texts in its content stream, the PNG is the view's size times 600/96
// with 600 dpi in its pHYs chunk. A CSV of points is overlaid (and a bad one is refused naming row and column), the
// COST507 diagram is overlaid dashed, the journal style is switched on, and points go over a line plot.
// Screenshots: docs/screenshots/figure-*.png. Any console error fails the run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import type { Browser, Download, Page } from 'playwright-core';
import {
  SCREENSHOTS,
  consoleCommand,
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
import { pngInfo } from '../../renderer/src/lib/figure/png-dpi.js';

const BINARY = {
  components: ['AL', 'ZN'],
  compositions_start: { ZN: 0 },
  compositions_end: { ZN: 1 },
  temperature_start: 400,
  temperature_end: 1000,
  pressure: 1e5,
};
const TASKS = {
  mey: { type: 'binary_equilibrium', tdb: 'ALZN_MEY1993', condition: BINARY },
  cost: { type: 'binary_equilibrium', tdb: 'COST507', condition: BINARY },
  isopleth: {
    type: 'isopleth',
    tdb: 'COST507',
    condition: {
      components: ['AL', 'CU', 'MG'],
      composition_unit: 'mass_fraction',
      composition_start: { CU: 0.044, MG: 0 },
      composition_end: { CU: 0.044, MG: 0.02 },
      temperature_start: 650,
      temperature_end: 950,
      pressure: 101325,
      resolution: 7,
    },
  },
  line: {
    type: 'line_calculation',
    tdb: 'ALZN_MEY1993',
    condition: {
      components: ['AL', 'ZN'],
      compositions_start: { AL: 0.7, ZN: 0.3 },
      compositions_end: { AL: 0.7, ZN: 0.3 },
      temperature_start: 500,
      temperature_end: 1000,
      pressure: 1e5,
      points: 41,
    },
  },
};
// measured-looking points in °C and atomic percent, two phase labels (two marker shapes)
const POINTS_CSV = 'T/C,x(Zn)%,phase\n380,60,liquidus\n420,45,liquidus\n440,35,liquidus\n350,70,eutectic\n';

let svc: Service;
let served: Served;
let browser: Browser;
let page: Page;
let errors: string[];
let ids: Record<string, number>;
let dir: string;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), 'phasedesk-figures-'));
  svc = await startService({ PHASEDESK_POOL_SIZE: '1' });
  consoleCommand(svc, ['subscribe', 'local', 'COST507', '--status', 'active']);
  served = await serveRenderer(svc);
  ids = await postTasks(svc, TASKS, 'Figures');
  for (const [k, id] of Object.entries(ids)) await waitCompleted(svc, id, k);
  browser = await launch();
  ({ page, errors } = await signedInPage(browser, svc, {
    viewport: { width: 1280, height: 1100 },
    acceptDownloads: true,
  }));
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await svc?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Clicks an export button of the menu `menu` and returns the downloaded file's name and bytes. */
async function exported(menu: string, button: string): Promise<{ name: string; bytes: Buffer }> {
  const details = page.getByTestId(`${menu}-export`);
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  const [download] = (await Promise.all([page.waitForEvent('download'), page.getByTestId(button).click()])) as [
    Download,
    unknown,
  ];
  return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
}

/** The card of the binary diagram (tool row, plot, notes), for screenshots. */
const diagramCard = () => page.getByTestId('view-binary').locator('.card').first();

/** The texts of the <text> elements of a parsed SVG, in document order. */
function svgTexts(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) svgTexts(n, out);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'text') for (const t of [v].flat()) out.push(String((t as Record<string, unknown>)['#text'] ?? ''));
      else if (k !== '#text' && !k.startsWith('@_')) svgTexts(v, out);
    }
  }
  return out;
}

/** The strings shown by Tj in a PDF's (Flate) content streams, octal escapes decoded as WinAnsi. */
function pdfTexts(pdf: Buffer): string[] {
  const latin = pdf.toString('latin1');
  const out: string[] = [];
  for (const m of latin.matchAll(/stream\n([\s\S]*?)\nendstream/g)) {
    const ops = inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1');
    for (const bt of ops.matchAll(/BT 0 Tr (.*?) ET/g)) {
      const parts = [...bt[1]!.matchAll(/\/F(\d) [\d.]+ Tf \(((?:\\.|[^\\)])*)\) Tj/g)].map(([, font, s]) => {
        const text = s!
          .replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)))
          .replace(/\\(.)/g, '$1');
        return font === '3' ? '?' : text; // Symbol (Greek) runs
      });
      out.push(parts.join(''));
    }
  }
  return out;
}

describe('figure export', () => {
  it('exports the zoomed °C view of a binary diagram as SVG, PDF and 600 dpi PNG, exactly as on screen', async () => {
    await openResultView(page, served.url, ids.mey!);
    const svg = page.getByTestId('binary-svg');
    await page.getByTestId('binary-celsius').check();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(() => svg.getAttribute('data-labels')).toBe('placed');
    const view = (await svg.getAttribute('data-view'))!.split(',').map(Number);
    expect(view[1]! - view[0]!).toBeLessThan(0.5); // zoomed in from 0..1
    const box = (await svg.boundingBox())!;
    const onScreen = await svg.locator('text').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
    expect(onScreen).toContain('Temperature [°C]');

    const s = await exported('figure', 'figure-export-svg');
    expect(s.name).toBe(`task-${ids.mey}-binary.svg`);
    const parsed = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(s.bytes.toString('utf8'));
    expect(Number(parsed.svg['@_width'])).toBeCloseTo(box.width, 0);
    expect(Number(parsed.svg['@_height'])).toBe(520);
    expect(svgTexts(parsed.svg).sort()).toEqual([...onScreen].sort());
    // styles inline (a standalone file keeps the look): the boundaries' stroke width
    expect(s.bytes.toString('utf8')).toMatch(/stroke-width:1\.6px/);

    const p = await exported('figure', 'figure-export-pdf');
    expect(p.name).toBe(`task-${ids.mey}-binary.pdf`);
    expect(p.bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    const media = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(p.bytes.toString('latin1'))!;
    expect(Number(media[1])).toBeCloseTo(box.width * 0.75, 1); // 96 px per inch, 72 pt per inch
    expect(Number(media[2])).toBeCloseTo(520 * 0.75, 6);
    const inPdf = pdfTexts(p.bytes);
    expect(inPdf).toContain('Temperature [°C]');
    expect(inPdf).toContain('Mole fraction Zn');
    // every text of the view is in the PDF (Greek letters aside, which Symbol writes)
    for (const t of onScreen.filter((x) => /^[\x20-\xff]*$/.test(x))) expect(inPdf).toContain(t);

    const g = await exported('figure', 'figure-export-png600');
    expect(g.name).toBe(`task-${ids.mey}-binary-600dpi.png`);
    const info = pngInfo(g.bytes);
    expect(info.width).toBe(Math.round(box.width * (600 / 96)));
    expect(info.height).toBe(Math.round(520 * (600 / 96)));
    expect(info.dpiX).toBeCloseTo(600, 1);
    expect(info.dpiY).toBeCloseTo(600, 1);
    await diagramCard().screenshot({ path: join(SCREENSHOTS, 'figure-export-menu.png') });
    await page.getByTestId('figure-export').locator('summary').click();
    expect(errors).toEqual([]);
  }, 300_000);

  it('overlays points from a CSV and another database, refuses a bad file naming row and column', async () => {
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'T/C,x(Zn)%\n380,60\n420,sixty\n');
    await page.getByTestId('figure-overlay').locator('summary').click();
    await page.getByTestId('figure-points').setInputFiles(bad);
    await expect
      .poll(async () => (await page.getByTestId('figure-overlay-error').innerText()).trim())
      .toBe('bad.csv: row 3, column "x(Zn)%": "sixty" is not a number');
    const good = join(dir, 'al-zn-liquidus.csv');
    writeFileSync(good, POINTS_CSV);
    await page.getByTestId('figure-points').setInputFiles(good);
    await expect.poll(() => page.getByTestId('overlay-point').count()).toBe(4);
    expect(await page.getByTestId('figure-overlay-error').count()).toBe(0);
    // a point at 380 °C, x(Zn) = 0.60 sits where the axes put it
    const svg = page.getByTestId('binary-svg');
    const [x0, x1, T0, T1] = (await svg.getAttribute('data-view'))!.split(',').map(Number) as number[];
    const box = (await svg.boundingBox())!;
    const first = page.getByTestId('overlay-point').first();
    const t = /translate\(([-\d.]+) ([-\d.]+)\)/.exec((await first.getAttribute('transform'))!)!;
    expect(Number(t[1])).toBeCloseTo(70 + ((0.6 - x0!) / (x1! - x0!)) * (box.width - 90), 3);
    expect(Number(t[2])).toBeCloseTo(16 + ((T1! - 380) / (T1! - T0!)) * (520 - 62), 3);
    // in a mass-fraction axis the mole-fraction points are not drawn, and the view says why
    await page.getByTestId('binary-unit').click();
    await expect.poll(() => page.getByTestId('figure-overlay-error').innerText()).toContain('holds mole fractions');
    await page.getByTestId('binary-unit').click();
    await page.getByTestId('figure-compare').selectOption(String(ids.cost));
    await expect.poll(() => page.getByTestId('compare-result').locator('polyline').count()).toBeGreaterThan(2);
    expect(await page.getByTestId('overlay-legend').innerHTML()).toContain(`#${ids.cost}`);
    await page.getByTestId('figure-overlay').locator('summary').click();
    // (switching the axis's unit showed the full diagram again)
    await diagramCard().screenshot({ path: join(SCREENSHOTS, 'figure-overlay-binary.png') });
    // the overlays are in the exported files too
    const s = await exported('figure', 'figure-export-svg');
    expect(s.bytes.toString('utf8')).toContain(`#${ids.cost}`);
    expect(pdfTexts((await exported('figure', 'figure-export-pdf')).bytes)).toContain('liquidus');
    await page.getByTestId('figure-journal').check();
    await page.getByTestId('figure-export').locator('summary').click();
    const stroke = await page
      .locator('[data-testid="region"] polyline.boundary')
      .first()
      .evaluate((e) => getComputedStyle(e).stroke);
    expect(stroke).toBe('rgb(0, 0, 0)');
    await diagramCard().screenshot({ path: join(SCREENSHOTS, 'figure-journal-binary.png') });
    await page.getByTestId('figure-journal').evaluate((e) => (e as HTMLInputElement).click());
    expect(errors).toEqual([]);
  }, 300_000);

  it('overlays points on a line plot against temperature and exports it', async () => {
    await openResultView(page, served.url, ids.line!);
    const plot = page.getByTestId('plot-fractions');
    await plot.waitFor();
    const csv = join(dir, 'fractions.csv');
    writeFileSync(csv, 'T/K,f(liquid),phase\n700,0.1,DSC\n800,0.6,DSC\n900,1.0,DSC\n');
    await page.getByTestId('plot-fractions-overlay').locator('summary').click();
    await page.getByTestId('plot-fractions-points').setInputFiles(csv);
    await expect.poll(() => plot.getByTestId('plot-fractions-point').count()).toBe(3);
    await page.getByTestId('plot-fractions-overlay').locator('summary').click();
    const p = await exported('plot-fractions', 'plot-fractions-export-pdf');
    expect(pdfTexts(p.bytes)).toContain('DSC');
    await page.getByTestId('plot-fractions-export').locator('summary').click();
    await plot.screenshot({ path: join(SCREENSHOTS, 'figure-overlay-line.png') });
    expect(errors).toEqual([]);
  }, 120_000);

  it('overlays mass-percent points on an isopleth and exports them in the SVG', async () => {
    await openResultView(page, served.url, ids.isopleth!);
    const csv = join(dir, 'al-cu-mg.csv');
    writeFileSync(csv, 'T [°C];wt% Mg;phase\n640;0,5;liquidus\n630;1,5;liquidus\n');
    await page.getByTestId('figure-overlay').locator('summary').click();
    await page.getByTestId('figure-points').setInputFiles(csv);
    await expect.poll(() => page.getByTestId('overlay-point').count()).toBe(2);
    // 0.5 mass % Mg at 640 °C: x in percent on the axis, T in K (the view opens in K)
    const svg = page.getByTestId('isopleth-svg');
    const box = (await svg.boundingBox())!;
    const t = /translate\(([-\d.]+) ([-\d.]+)\)/.exec(
      (await page.getByTestId('overlay-point').first().getAttribute('transform'))!,
    )!;
    expect(Number(t[1])).toBeCloseTo(70 + (0.5 / 2) * (box.width - 90), 3);
    expect(Number(t[2])).toBeCloseTo(16 + ((950 - 913.15) / 300) * (520 - 62), 3);
    await page.getByTestId('figure-overlay').locator('summary').click();
    const s = await exported('figure', 'figure-export-svg');
    expect(s.name).toBe(`task-${ids.isopleth}-isopleth.svg`);
    expect(s.bytes.toString('utf8')).toContain('Mass percent Mg');
    await page.getByTestId('figure-export').locator('summary').click();
    await page
      .getByTestId('view-isopleth')
      .locator('.card')
      .first()
      .screenshot({
        path: join(SCREENSHOTS, 'figure-overlay-isopleth.png'),
      });
    expect(errors).toEqual([]);
  }, 120_000);
});
