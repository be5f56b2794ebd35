// The ternary isothermal section view (renderer/src/components/results/TernarySection.svelte) in headless Chromium
// against the production build, on a real result.json computed here (alcrni at 1273 K), with the API mocked by route
// interception as in result-views.e2e.ts: regions and tie-triangles drawn, the hover read-out (phases, amounts,
// compositions), zoom, pan and reset; any console error fails. Saves docs/screenshots/result-ternary.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  SCREENSHOTS,
  jsonReply,
  mockedApiContext,
  serveDist,
  watchErrors,
} from './harness.js';
import { run } from '../../worker/calculations/ternary_isothermal_section.js';
import { JobControl } from '../../worker/protocol.js';
import { parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { checkDiagramLabels } from './labels-dom.js';

const KEY = 'tk_fixturefixturefixturefixture';
let served: { url: string; close(): void } | undefined;
let url: string;
let browser: Browser;
let doc: string;

beforeAll(async () => {
  served = await serveDist();
  url = served.url;
  const dir = mkdtempSync(join(tmpdir(), 'ternary-e2e-'));
  const control = new SharedArrayBuffer(128);
  run(
    parsedJob('ternary_isothermal_section', {
      taskUuid: 't',
      ompThreads: 2,
      taskDir: dir,
      control,
      config: {
        tdb_file: join(SHARED_TDB_DIR, 'alcrni.tdb'),
        condition: {
          components: ['AL', 'CR', 'NI'],
          temperature: 1273,
          pressure: 101325,
          map_options: { GLOBAL_MIN_PDENS: 300 },
        },
      },
    }),
    new JobControl(control),
  );
  doc = readFileSync(join(dir, 'result', 'result.json'), 'utf8');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  served?.close();
});

describe('ternary isothermal section view', () => {
  it('draws the section, reads out phases under the pointer, zooms, pans and resets', async () => {
    const ctx = await mockedApiContext(browser, KEY, { viewport: { width: 1360, height: 1000 } }, (p, route) => {
      if (p === '/task/1') {
        return route.fulfill(
          jsonReply({
            id: 1,
            title: 'Al-Cr-Ni at 1273 K',
            description: '{}',
            status: 'completed',
            task_type: 'ternary_isothermal_section',
            result: 'section',
            logs: '',
            user_id: 'u',
            tdb_code: 'ALCRNI',
            created_at: '2026-01-01 00:00:00 UTC',
            updated_at: '2026-01-01 00:00:00 UTC',
          }),
        );
      }
      if (p === '/task/1/result')
        return route.fulfill(
          jsonReply({
            task_id: '1',
            files: [`${url}downloads/t1/result/result.json?expires=9&signature=x`],
            total_count: 1,
          }),
        );
      if (/^\/task\/1\/(preview|vtk)$/.test(p))
        return route.fulfill(jsonReply({ task_id: '1', files: [], total_count: 0 }));
      return route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"Task not found"}' });
    });
    await ctx.route('**/downloads/**', (route) =>
      route.fulfill({ status: 200, contentType: 'application/octet-stream', body: doc }),
    );
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await page.goto(`${url}#/tasks/1`);
    await page.locator('[data-testid="result-view"][data-state="ready"]').waitFor({ timeout: 20_000 });
    const parsed = JSON.parse(doc) as {
      two_phase_regions: unknown[];
      three_phase_triangles: { corners: { x: Record<string, number> }[]; phases: string[] }[];
    };
    const svg = page.getByTestId('ternary-svg');
    expect(await svg.getByTestId('region').count()).toBe(parsed.two_phase_regions.length);
    expect(await svg.getByTestId('tie-triangle').count()).toBe(parsed.three_phase_triangles.length);
    // hover at the centroid of the largest triangle: its three phases with amounts near 1/3
    const area = (t: (typeof parsed.three_phase_triangles)[number]) => {
      const [a, b, k] = t.corners.map((q) => [q.x.CR!, q.x.NI!] as const);
      return Math.abs((b![0] - a![0]) * (k![1] - a![1]) - (k![0] - a![0]) * (b![1] - a![1])) / 2;
    };
    const tri = parsed.three_phase_triangles.reduce((best, t) => (area(t) > area(best) ? t : best));
    const c = {
      CR: tri.corners.reduce((a, k) => a + k.x.CR!, 0) / 3,
      NI: tri.corners.reduce((a, k) => a + k.x.NI!, 0) / 3,
    };
    const box = (await svg.boundingBox())!;
    const polyBox = (await svg.locator('polygon.outline').boundingBox())!;
    const px = polyBox.x + (c.CR + c.NI / 2) * polyBox.width;
    const py = polyBox.y + polyBox.height * (1 - c.NI);
    await page.mouse.move(px, py);
    const ro = await page.getByTestId('ternary-readout').innerText();
    for (const p of tri.phases) expect(ro).toContain(p);
    expect(ro).toMatch(/amount 0\.3\d/);
    // the labels of the screenshot: apart, inside the view, off the boundaries, tie-triangles, outline and corner names
    const labelCheck = await checkDiagramLabels(page, 'ternary-svg');
    expect(labelCheck.labels.length).toBeGreaterThan(0);
    expect(labelCheck.problems).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'result-ternary.png') });
    // wheel zoom about the pointer, then reset
    const before = await svg.locator('polygon.outline').getAttribute('points');
    await page.mouse.wheel(0, -300);
    await expect.poll(async () => svg.locator('polygon.outline').getAttribute('points')).not.toBe(before);
    // drag pans
    const zoomed = await svg.locator('polygon.outline').getAttribute('points');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 40);
    await page.mouse.up();
    expect(await svg.locator('polygon.outline').getAttribute('points')).not.toBe(zoomed);
    await page.getByTestId('reset-view').click();
    expect(await svg.locator('polygon.outline').getAttribute('points')).toBe(before);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
