// Task operations racing one another: seeded waves of creations (calculation cache hits among them, calculations
// that write their folder while being cancelled or deleted), cancels, deletions, file lists and downloads sent
// together. None may get a 5xx; afterwards every task left is terminal, and every completed one lists files that
// download whole, with the content its configuration asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, http, startFixture, until, type Fixture, type Res } from '../service/helpers.js';
import { seededRandom } from '../support/random.js';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture({ maxPendingTasks: 1000 });
});
afterAll(async () => {
  await f?.close();
});

interface Made {
  id: number;
  /** whether its calculation writes result files */
  writes: boolean;
  /** the __test_write seconds, whose value its result file holds */
  written?: number;
}

const call = (method: string, path: string, body?: unknown) => api(f.svc.port, method, path, { key: f.keyA, body });

function download(url: string): Promise<Res> {
  const u = new URL(url);
  return http(f.svc.port, 'GET', u.pathname + u.search);
}

function createBody(rand: () => number): { config: Record<string, unknown>; writes: boolean; written?: number } {
  if (rand() < 0.4) {
    const seconds = 0.05 + 0.25 * rand();
    const writes = rand() < 0.6;
    return { config: { task_type: '__test_sleep', seconds, ignore_cancel: rand() < 0.3, write_files: writes }, writes };
  }
  const written = Math.floor(rand() * 6); // six configurations: most creations hit the calculation cache
  return { config: { task_type: '__test_write', seconds: written }, writes: true, written };
}

/** One operation on a random task (or a new one); the answers it got, labelled. */
async function operation(rand: () => number, made: Made[]): Promise<[string, Res][]> {
  const r = rand();
  if (r < 0.35 || made.length === 0) {
    const { config, writes, written } = createBody(rand);
    const res = await call('POST', '/task', { title: 'race', task_config: { tdb_code: 'ALFE', ...config } });
    if (res.status === 200) made.push({ id: res.body.id, writes, written });
    return [[`POST ${JSON.stringify(config)}`, res]];
  }
  const { id } = made[Math.floor(rand() * made.length)]!;
  if (r < 0.5) return [[`PATCH cancel ${id}`, await call('PATCH', `/task/${id}/cancel`)]];
  if (r < 0.65) return [[`DELETE ${id}`, await call('DELETE', `/task/${id}`)]];
  if (r < 0.85) {
    const list = await call('GET', `/task/${id}/result`);
    const first = list.status === 200 ? (list.body.files as string[])[0] : undefined;
    const got: [string, Res][] = [[`GET result ${id}`, list]];
    if (first) got.push([`download of ${id}`, await download(first)]);
    return got;
  }
  return [[`GET ${id}`, await call('GET', `/task/${id}`)]];
}

/** A task left after the races: terminal, and if completed, its files whole. */
async function checkLeft(t: Made): Promise<void> {
  const end = await until(
    () => call('GET', `/task/${t.id}`),
    (res) => res.status === 404 || ['completed', 'failed', 'aborted'].includes(res.body?.status),
  );
  if (end.body?.status !== 'completed') return;
  const list = await call('GET', `/task/${t.id}/result`);
  expect(list.status, `task ${t.id}`).toBe(200);
  if (t.writes) expect(list.body.total_count, `task ${t.id} lists its files`).toBeGreaterThan(0);
  for (const url of list.body.files as string[]) {
    const got = await download(url);
    expect(got.status, `task ${t.id}: ${url}`).toBe(200);
    if (t.written !== undefined && url.includes('/result.txt?')) expect(got.text).toBe(`result of ${t.written}\n`);
  }
}

describe('task operations racing one another', () => {
  it('640 seeded operations in waves of 8: no 5xx; every task left terminal, completed ones whole', async () => {
    const rand = seededRandom(20261204);
    const made: Made[] = [];
    const failures: string[] = [];
    for (let wave = 0; wave < 80; wave++) {
      const answers = (await Promise.all(Array.from({ length: 8 }, () => operation(rand, made)))).flat();
      for (const [what, res] of answers) if (res.status >= 500) failures.push(`${what}: ${res.status} ${res.text}`);
    }
    expect(failures).toEqual([]);
    expect(made.length).toBeGreaterThan(50);
    for (const t of made) await checkLeft(t);
  });
});
