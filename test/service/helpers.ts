// Shared test fixtures: a real service on an ephemeral port with its own temp data dir.
import { afterAll } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService, type RunningService } from '../../main/server.js';
import type { SettingsOverrides } from '../../main/config.js';
import type { Store } from '../../main/db/index.js';
import { Scheduler } from '../../main/service/scheduler.js';
import type BetterSqlite3 from 'better-sqlite3';
import { createUser, setPlan } from '../../main/console/users.js';
import { issueKey } from '../../main/console/keys.js';
import { registerDatabase, subscribe } from '../../main/console/databases.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
export const TDB = join(SHARED_TDB_DIR, 'Al-Fe_sundman2009.tdb');

/**
 * piscina's host (dist/worker/host.js) and the CLI (child-process tests) run from dist/, which the global setup
 * (test/setup/build-dist.ts) rebuilds from the sources before any test file runs; this only checks it is there.
 */
export function ensureBuilt(): void {
  for (const f of [
    join('dist', 'worker', 'index.js'),
    join('dist', 'worker', 'host.js'),
    join('dist', 'main', 'cli.js'),
    join('dist', 'test', 'support', 'hooks', 'calculations.js'),
  ]) {
    if (!existsSync(join(ROOT, f)))
      throw new Error(`${f} is missing: the test setup's build (node bin/build.js tsc test-hooks) did not produce it`);
  }
}

const created: string[] = [];
// Temp data dirs are removed after the importing test file (hooks run in stack order: this one last).
afterAll(() => {
  for (const d of created.splice(0)) rmSync(d, { recursive: true, force: true });
});
export function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'phasedesk-test-'));
  created.push(d);
  return d;
}

export interface Fixture {
  svc: RunningService;
  dataDir: string;
  keyA: string;
  keyB: string;
  userA: string;
  userB: string;
  dbId: string;
  close(): Promise<void>;
}

/** Standard world: users a (plan big) and b (plan big), db ALFE active for both. */
export async function seed(store: Store, dataDir: string) {
  await setPlan(store, 'big', 100_000);
  const userA = await createUser(store, { username: 'a', plan: 'big', email: 'a@example.org' });
  const userB = await createUser(store, { username: 'b', plan: 'big' });
  const keyA = (await issueKey(store, 'a', { name: 'key-a' })).key;
  const keyB = (await issueKey(store, 'b', { name: 'key-b' })).key;
  const dbId = await registerDatabase(
    store,
    dataDir,
    TDB,
    {
      code: 'ALFE',
      name: 'Al-Fe test',
      level: 'free',
      type: 'alloy',
      version: '1.0',
      support_task_list: [
        'point_calculation',
        'binary_equilibrium',
        '__test_sleep',
        '__test_write',
        '__test_crash',
        '__test_throw',
      ],
    },
    { element_list: ['AL', 'FE', 'VA'], phase_list: ['LIQUID', 'FCC_A1', 'BCC_A2'] },
  );
  await subscribe(store, { username: 'a', code: 'ALFE', status: 'active' });
  await subscribe(store, { username: 'b', code: 'ALFE', status: 'active' });
  return { userA, userB, keyA, keyB, dbId };
}

export async function startFixture(over: SettingsOverrides = {}): Promise<Fixture> {
  ensureBuilt();
  process.env.PHASEDESK_TEST_CALCULATIONS = '1';
  // test/server/contract.test.ts runs contract suites against a lab server (PostgreSQL, Redis, a queue worker)
  if (process.env.PHASEDESK_TEST_LAB === '1') return (await import('../server/lab-fixture.js')).startLabFixture(over);
  const dataDir = over.dataDir ?? tempDir();
  const svc = await startService(
    { dataDir, port: 0, bootstrap: false, poolSize: 1, threadBudget: 2, ...over },
    () => {},
  );
  const s = await seed(svc.store, dataDir);
  return { svc, dataDir, ...s, close: () => svc.close() };
}

export interface Res {
  status: number;
  body: any;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Raw HTTP over loopback (node:http so the Host header can be set freely). */
export function http(
  port: number,
  method: string,
  path: string,
  o: { key?: string; auth?: string; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
): Promise<Res> {
  return new Promise((resolveP, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...(o.headers ?? {}) };
    if (o.key !== undefined) headers.authorization = `Bearer ${o.key}`;
    if (o.auth !== undefined) headers.authorization = o.auth;
    let payload: string | undefined = o.raw;
    if (o.body !== undefined) payload = JSON.stringify(o.body);
    if (payload !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any = undefined;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolveP({ status: res.statusCode ?? 0, body, text, headers: res.headers });
      });
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

export const api = (port: number, method: string, path: string, o: Parameters<typeof http>[3] = {}) =>
  http(port, method, `/api/v2${path}`, o);

/**
 * POSTs a task as user a and waits for its terminal state; the status and the names of its result files (empty
 * unless completed).
 */
export async function runTask(
  f: Fixture,
  taskConfig: unknown,
): Promise<{ status: string; text: string; files: string[] }> {
  const done = await submitAndWait(f, taskConfig);
  if (done.status !== 'completed') return { status: done.status, text: done.text, files: [] };
  const files = await api(f.svc.port, 'GET', `/task/${done.id}/result`, { key: f.keyA });
  const names = (files.body.files as string[]).map((u) => new URL(u).pathname.split('/').pop()!);
  return { status: 'completed', text: done.text, files: names };
}

/**
 * POSTs a task as user a and waits for its terminal state: its id, its status ('http N' when the POST was refused)
 * and the last answer's text.
 */
export async function submitAndWait(
  f: Fixture,
  taskConfig: unknown,
  title = 'task',
): Promise<{ id?: number; status: string; text: string }> {
  const r = await api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title, task_config: taskConfig } });
  if (r.status !== 200) return { status: `http ${r.status}`, text: r.text };
  const done = await until(
    () => api(f.svc.port, 'GET', `/task/${r.body.id}`, { key: f.keyA }),
    (x) => !['pending', 'queued', 'running'].includes(x.body?.status),
    50,
  );
  return { id: r.body.id, status: done.body.status, text: done.text };
}

/** Polls until pred holds (no timing assertion: vitest's test timeout is the only bound). */
export async function until<T>(fn: () => Promise<T>, pred: (v: T) => boolean, stepMs = 25): Promise<T> {
  for (;;) {
    const v = await fn();
    if (pred(v)) return v;
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

export function pointConfig(over: Record<string, unknown> = {}) {
  return {
    task_type: 'point_calculation',
    tdb_code: 'ALFE',
    condition: {
      components: ['AL', 'FE'],
      temperature: 1000,
      pressure: 101325,
      compositions: { AL: 0.3, FE: 0.7 },
      ...over,
    },
  };
}

/** The embedded scheduler of a service the tests started (a lab server's job queue runs no calculation hosts). */
export function embeddedScheduler(svc: RunningService): Scheduler {
  if (!(svc.scheduler instanceof Scheduler))
    throw new Error("this test needs the embedded scheduler, not the lab server's job queue");
  return svc.scheduler;
}

/** The SQLite connection of an embedded store (undefined on PostgreSQL). */
export function sqliteOf(store: Store): BetterSqlite3.Database {
  if (!store.sqlite) throw new Error('this test needs the embedded SQLite store');
  return store.sqlite;
}

/**
 * Twenty times: a task of the calculation cache completes, then its deletion and an identical task's creation are
 * sent together; the new task must end completed with the file, whichever reached the database first. Sent in one
 * turn of the event loop the deletion arrives first; a turn later the creation does, and takes the files from the
 * cache while the source is being deleted. Returns the statuses the new tasks had at creation.
 */
export async function deleteWhileTwinIsCreated(f: Fixture): Promise<string[]> {
  const post = (seconds: number) =>
    api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: { title: 't', task_config: { task_type: '__test_write', tdb_code: 'ALFE', seconds } },
    });
  const done = (id: number) =>
    until(
      () => api(f.svc.port, 'GET', `/task/${id}`, { key: f.keyA }),
      (r) => ['completed', 'failed'].includes(r.body?.status),
    );
  const outcomes: string[] = [];
  for (let i = 0; i < 20; i++) {
    const source = await post(100 + i);
    await done(source.body.id);
    const remove = () => api(f.svc.port, 'DELETE', `/task/${source.body.id}`, { key: f.keyA });
    const deleted = i % 2 === 0 ? remove() : new Promise((r) => setTimeout(r, 0)).then(remove);
    const [gone, twin] = await Promise.all([deleted, post(100 + i)]);
    if (gone.status !== 200 || twin.status !== 200) throw new Error(`task ${i}: ${gone.status}, ${twin.status}`);
    outcomes.push(twin.body.status);
    const ended = await done(twin.body.id);
    const files = await api(f.svc.port, 'GET', `/task/${twin.body.id}/result`, { key: f.keyA });
    const text = files.body.total_count === 1 ? await (await fetch(new URL(files.body.files[0]))).text() : '';
    if (ended.body.status !== 'completed' || text !== `result of ${100 + i}\n`)
      throw new Error(
        `task ${i} (${twin.body.status} at creation): ${ended.body.status}, ${files.body.total_count} file(s)`,
      );
  }
  return outcomes;
}
