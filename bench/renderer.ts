// Renderer benchmark: size of the production bundle (raw and gzip) and time to first
// render of the task list holding 1,000 tasks, median of 5 fresh page loads in headless Chromium.
// The API is mocked in the page by playwright route interception, so only the renderer is measured.
// Note: the real GET /task/list caps items_per_page at 100; the mock returns all 1,000 tasks in one page to
// measure the worst case of rendering 1,000 rows at once.
// Run: npm run bench:renderer (builds renderer/dist first).
import { createServer, type Server } from 'node:http';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));
// Works from bench/ (source) and dist/bench/ (compiled).
const REPO = here.split(sep).includes('dist') ? resolve(here, '..', '..') : resolve(here, '..');
const DIST = join(REPO, 'renderer', 'dist');
const CHROMIUM = process.env.PHASEDESK_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
const TASKS = 1000;
const RUNS = 5;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

function bundleSize() {
  const out = {
    js: { raw: 0, gzip: 0 },
    css: { raw: 0, gzip: 0 },
    html: { raw: 0, gzip: 0 },
    total: { raw: 0, gzip: 0 },
    // every JS chunk on its own: the entry is loaded at start, the others lazily (result views, three.js)
    chunks: [] as { file: string; raw: number; gzip: number }[],
  };
  for (const f of files(DIST)) {
    const buf = readFileSync(f);
    const gz = gzipSync(buf, { level: 9 }).length;
    if (f.endsWith('.js')) out.chunks.push({ file: f.slice(DIST.length + 1), raw: buf.length, gzip: gz });
    const kind = f.endsWith('.js') ? 'js' : f.endsWith('.css') ? 'css' : f.endsWith('.html') ? 'html' : undefined;
    if (kind) {
      out[kind].raw += buf.length;
      out[kind].gzip += gz;
    }
    out.total.raw += buf.length;
    out.total.gzip += gz;
  }
  return out;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};
function serve(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const file = normalize(join(DIST, path === '/' ? 'index.html' : path));
    if (!file.startsWith(DIST) || !existsSync(file) || statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((r) =>
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      r({ server, url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/` });
    }),
  );
}

const STATES = ['completed', 'failed', 'aborted'];
const TYPES_T = [
  'point_calculation',
  'line_calculation',
  'binary_equilibrium',
  'thermodynamic_properties_next',
  'scheil_solidification',
  'binary_cpt_diagram',
];
function mockTasks() {
  const user = '00000000-0000-4000-8000-000000000001';
  return Array.from({ length: TASKS }, (_, i) => {
    const id = TASKS - i;
    return {
      id,
      title: `Benchmark task ${id}`,
      description: '{}',
      status: STATES[id % STATES.length],
      task_type: TYPES_T[id % TYPES_T.length],
      result: null,
      logs: null,
      user_id: user,
      tdb_code: 'BENCH',
      created_at: '2026-01-01 00:00:00 UTC',
      updated_at: '2026-01-01 00:00:00 UTC',
    };
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main() {
  if (!existsSync(join(DIST, 'index.html'))) throw new Error('renderer/dist is missing: run npm run build:renderer');
  const size = bundleSize();
  const { server, url } = await serve();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const list = JSON.stringify({ data: mockTasks(), total: TASKS, total_pages: 1, page: 1, items_per_page: TASKS });
  const keyInfo = JSON.stringify({
    id: 1,
    api_key: 'tk_benchbenchbenchbenchbenchbenchbe',
    key_name: 'bench',
    is_active: true,
    created_at: '2026-01-01T00:00:00Z',
    user: { id: '00000000-0000-4000-8000-000000000001', username: 'bench', subscription_level: 'local' },
  });
  const times: number[] = [];
  const renderOnly: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
      await ctx.addInitScript(() => {
        localStorage.setItem('phasedesk.apiKey', 'tk_benchbenchbenchbenchbenchbenchbe');
        // When the task-list response has arrived, to separate rendering from loading and network.
        const orig = window.fetch.bind(window);
        window.fetch = async (...a: Parameters<typeof fetch>) => {
          const r = await orig(...a);
          if (String(a[0]).includes('/task/list'))
            (window as unknown as { __listAt: number }).__listAt = performance.now();
          return r;
        };
        // Time (ms since navigation start) when the 1,000th row is in the DOM.
        new MutationObserver((_m, obs) => {
          if (document.querySelectorAll('[data-testid="task-table"] tbody tr[data-task-id]').length >= 1000) {
            (window as unknown as { __rendered: number }).__rendered = performance.now();
            obs.disconnect();
          }
        }).observe(document, { childList: true, subtree: true });
      });
      await ctx.route('**/api/v2/**', (route) => {
        const u = new URL(route.request().url());
        const body = u.pathname.endsWith('/key/info') ? keyInfo : u.pathname.endsWith('/task/list') ? list : undefined;
        return body
          ? route.fulfill({ status: 200, contentType: 'application/json', body })
          : route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"Not found"}' });
      });
      const page = await ctx.newPage();
      await page.goto(`${url}#/tasks`);
      await page.waitForFunction(
        () => typeof (window as unknown as { __rendered?: number }).__rendered === 'number',
        undefined,
        { timeout: 60_000 },
      );
      const m = await page.evaluate(() => {
        const w = window as unknown as { __rendered: number; __listAt: number };
        return { rendered: w.__rendered, listAt: w.__listAt };
      });
      times.push(m.rendered);
      renderOnly.push(m.rendered - m.listAt);
      await ctx.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  console.log('PhaseDesk renderer benchmark');
  console.log(`bundle  js ${size.js.raw} B (${kb(size.js.raw)}), gzip ${size.js.gzip} B (${kb(size.js.gzip)})`);
  console.log(
    `        css ${size.css.raw} B, gzip ${size.css.gzip} B; html ${size.html.raw} B, gzip ${size.html.gzip} B`,
  );
  for (const c of [...size.chunks].sort((a, b) => b.raw - a.raw)) {
    console.log(
      `  chunk ${c.file}: ${c.raw} B, gzip ${c.gzip} B${/index-/.test(c.file) ? ' (entry, loaded at start)' : ' (lazy)'}`,
    );
  }
  console.log(
    `        total ${size.total.raw} B (${kb(size.total.raw)}), gzip ${size.total.gzip} B (${kb(size.total.gzip)})`,
  );
  console.log(
    `first render of the task list with ${TASKS} tasks (navigation start → ${TASKS} rows in the DOM), ${RUNS} runs:`,
  );
  console.log(`        ${times.map((t) => t.toFixed(0)).join(', ')} ms; median ${median(times).toFixed(0)} ms`);
  console.log(
    `        of which rendering after the list response arrived: ${renderOnly.map((t) => t.toFixed(0)).join(', ')} ms; median ${median(renderOnly).toFixed(0)} ms`,
  );
  console.log(
    JSON.stringify({
      bundle: size,
      firstRenderMs: { runs: times, median: median(times) },
      renderAfterResponseMs: { runs: renderOnly, median: median(renderOnly) },
      tasks: TASKS,
    }),
  );
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
