// Shared plumbing for the renderer end-to-end tests: a real PhaseDesk service in a temporary data directory,
// the production renderer build served on the service's origin (or by `vite preview` proxying /api to it
// while the listener does not serve renderer/dist yet), and Debian's Chromium driven by playwright-core.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page, type Route } from 'playwright-core';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Directory holding the compiled service (dist/main/cli.js); override to test a private build. */
export const SERVICE_ROOT = process.env.PHASEDESK_E2E_ROOT ?? REPO;
export const CHROMIUM = process.env.PHASEDESK_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

export interface Service {
  origin: string;
  baseUrl: string;
  key: string;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

export async function startService(env: Record<string, string> = {}): Promise<Service> {
  const cli = join(SERVICE_ROOT, 'dist', 'main', 'cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build the service first (npx tsc -p tsconfig.json)`);
  const dataDir = mkdtempSync(join(tmpdir(), 'phasedesk-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [cli, 'start', '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString();
  });
  child.stderr!.on('data', (b: Buffer) => {
    out += b.toString();
  });
  const { key, baseUrl } = await new Promise<{ key: string; baseUrl: string }>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`service did not start within 60 s:\n${out}`)), 60_000);
    const check = () => {
      const k = /API key: (tk_\w+)/.exec(out);
      const u = /listening on (http:\/\/\S+\/api\/v2)/.exec(out);
      if (k && u) {
        clearTimeout(timer);
        res({ key: k[1]!, baseUrl: u[1]! });
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`service exited with ${code}:\n${out}`));
    });
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { origin: baseUrl.replace(/\/api\/v2$/, ''), baseUrl, key, dataDir, output: () => out, stop };
}

/** A web-console command of the CLI (phasedesk subscribe …) against the running service's data directory. */
export function consoleCommand(svc: Service, args: string[]): string {
  return execFileSync(
    process.execPath,
    [join(SERVICE_ROOT, 'dist', 'main', 'cli.js'), ...args, '--data-dir', svc.dataDir],
    { encoding: 'utf8' },
  );
}

export async function apiCall<T>(
  svc: Service,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const r = await fetch(`${svc.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${svc.key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  return { status: r.status, json: (text ? JSON.parse(text) : undefined) as T };
}

export interface Served {
  url: string;
  mode: 'service' | 'vite-preview';
  close(): Promise<void>;
}

/** The renderer on the service's own origin when the listener serves renderer/dist, else vite preview + proxy. */
export async function serveRenderer(svc: Service): Promise<Served> {
  if (!existsSync(join(REPO, 'renderer', 'dist', 'index.html')))
    throw new Error('renderer/dist is missing: npm run build:renderer');
  const probe = await fetch(`${svc.origin}/`).catch(() => undefined);
  if (probe?.ok && (await probe.text()).includes('id="app"'))
    return { url: `${svc.origin}/`, mode: 'service', close: async () => {} };
  process.env.PHASEDESK_API_ORIGIN = svc.origin; // read by renderer/vite.config.ts for the preview proxy
  const { preview } = await import('vite');
  const server = await preview({
    configFile: join(REPO, 'renderer', 'vite.config.ts'),
    logLevel: 'warn',
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report a URL');
  return { url, mode: 'vite-preview', close: () => server.close() };
}

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** Collects console errors and uncaught page errors; a test asserts the list is empty. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()} @ ${m.location().url}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

/**
 * A new browser context signed in as the renderer remembers a session: the API key, and the console token where
 * given, in local storage.
 */
export async function signedInContext(
  browser: Browser,
  session: { key: string; consoleToken?: string },
  o: { viewport: { width: number; height: number }; acceptDownloads?: boolean },
): Promise<BrowserContext> {
  const ctx = await browser.newContext({ viewport: o.viewport, acceptDownloads: o.acceptDownloads ?? false });
  await ctx.addInitScript(
    ([k, t]) => {
      localStorage.setItem('phasedesk.apiKey', k!);
      if (t) localStorage.setItem('phasedesk.consoleToken', t);
    },
    [session.key, session.consoleToken ?? ''],
  );
  return ctx;
}

/** A page of a signed-in context (signedInContext) with the service's key, with its console errors collected. */
export async function signedInPage(
  browser: Browser,
  svc: Service,
  o: { viewport: { width: number; height: number }; acceptDownloads?: boolean; consoleToken?: string },
): Promise<{ page: Page; errors: string[] }> {
  const ctx = await signedInContext(browser, { key: svc.key, consoleToken: o.consoleToken }, o);
  const page = await ctx.newPage();
  return { page, errors: watchErrors(page) };
}

/** A 200 JSON answer for route.fulfill. */
export function jsonReply(body: unknown): { status: number; contentType: string; body: string } {
  return { status: 200, contentType: 'application/json', body: JSON.stringify(body) };
}

/**
 * A context signed in with a fixture key whose /api/v2 is mocked by route interception, for renderer tests without a
 * service: GET /key/info answers for that key, every other request goes to `answer` with its path below /api/v2.
 */
export async function mockedApiContext(
  browser: Browser,
  key: string,
  o: { viewport: { width: number; height: number }; acceptDownloads?: boolean },
  answer: (path: string, route: Route) => Promise<void>,
): Promise<BrowserContext> {
  const ctx = await signedInContext(browser, { key }, o);
  await ctx.route('**/api/v2/**', (route) => {
    const path = new URL(route.request().url()).pathname.replace(/^.*\/api\/v2/, '');
    if (path === '/key/info') {
      return route.fulfill(
        jsonReply({
          id: 1,
          api_key: key,
          key_name: 'fixture',
          is_active: true,
          created_at: '2026-01-01T00:00:00Z',
          user: { id: '00000000-0000-4000-8000-000000000001', username: 'fixture', subscription_level: 'local' },
        }),
      );
    }
    // the database list (result views look up the display names of the result's database): none listed
    if (path === '/database') return route.fulfill(jsonReply({ items: [], total: 0, page: 1, size: 100 }));
    return answer(path, route);
  });
  return ctx;
}

/**
 * renderer/dist served statically on 127.0.0.1 with the listener's CSP (main/api/renderer.ts), so the views are
 * tested under the policy they ship with; for renderer tests whose API is mocked.
 */
export async function serveDist(): Promise<{ url: string; close(): void }> {
  const dist = join(REPO, 'renderer', 'dist');
  if (!existsSync(join(dist, 'index.html'))) throw new Error('renderer/dist is missing: npm run build:renderer');
  const mime: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const file = normalize(join(dist, path === '/' ? 'index.html' : path));
    if (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, {
        'content-type': mime[extname(file)] ?? 'application/octet-stream',
        'content-security-policy':
          "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
      })
      .end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  return {
    url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/`,
    close: () => {
      server.close();
    },
  };
}

export const SCREENSHOTS = join(REPO, 'docs', 'screenshots');

/** Creates one task per entry through the API; returns the ids by key. */
export async function postTasks(
  svc: Service,
  tasks: Record<string, { type: string; tdb: string; condition: unknown }>,
  titlePrefix: string,
): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  for (const [key, t] of Object.entries(tasks)) {
    const r = await apiCall<{ id: number }>(svc, 'POST', '/task', {
      title: `${titlePrefix}: ${key}`,
      task_config: { task_type: t.type, tdb_code: t.tdb, condition: t.condition },
    });
    if (r.status !== 200) throw new Error(`POST /task ${key}: ${r.status} ${JSON.stringify(r.json)}`);
    ids[key] = r.json.id;
  }
  return ids;
}

/** Waits (up to 10 minutes) until the task is completed; a failed or aborted task throws with its result and logs. */
export async function waitCompleted(svc: Service, id: number, name: string): Promise<void> {
  const end = Date.now() + 600_000;
  for (;;) {
    const t = (await apiCall<{ status: string; result?: string; logs?: string }>(svc, 'GET', `/task/${id}`)).json;
    if (t.status === 'completed') return;
    if (['failed', 'aborted'].includes(t.status))
      throw new Error(`${name}: ${t.status} ${t.result ?? ''}\n${t.logs ?? ''}`);
    if (Date.now() > end) throw new Error(`${name} still ${t.status}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Opens a task's page in the renderer and waits until its result view is ready (an error state fails). */
export async function openResultView(page: Page, rendererUrl: string, id: number): Promise<void> {
  await page.goto(`${rendererUrl}#/tasks/${id}`);
  await page.waitForFunction(
    () =>
      ['ready', 'error'].includes(
        document.querySelector('[data-testid="result-view"]')?.getAttribute('data-state') ?? '',
      ),
    undefined,
    { timeout: 30_000 },
  );
  const state = await page.getByTestId('result-view').getAttribute('data-state');
  if (state !== 'ready') throw new Error(`task ${id}: result view ${state}`);
}
