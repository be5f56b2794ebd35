// The lab server survives its own infrastructure (real PostgreSQL, Redis, `phasedesk server` and two `phasedesk
// worker` processes): PostgreSQL restarted (-m fast: every connection ends with 57P01) three times during a burst of
// POST /task and a running task; Redis killed and started again without its data during a binary_cpt_diagram flow, an equilibrium_batch
// and a single-job task; a kill -9 of the API and of a worker. After each: every acknowledged task reaches a
// terminal state, none stored a result twice, no process died that was not killed, every stored file's sha256
// matches, no orphan is left (test/server/chaos.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, pointConfig, until } from '../service/helpers.js';
import { openStore } from '../../main/db/index.js';
import { subscribe } from '../../main/console/databases.js';
import { serversMissing } from './servers.js';
import { cptGrid, startLab, type Lab } from './lab.js';
import { CHAOS_ENV, TERMINAL, checkAfterChaos, sleepTask, status, storedFile } from './chaos.js';

const LOCK_SECONDS = 3;
let lab: Lab | undefined;
beforeAll(async () => {
  if (serversMissing) return;
  lab = await startLab({
    workers: 2,
    lockSeconds: LOCK_SECONDS,
    env: { ...CHAOS_ENV, PHASEDESK_CPT_CHUNK_NODES: '16', PHASEDESK_TEST_CHUNK_MS: '300' },
  });
  const store = await openStore(lab.dataDir, { databaseUrl: lab.databaseUrl });
  try {
    await subscribe(store, { username: 'a', code: 'ALZN_MEY1993', status: 'active' });
  } finally {
    await store.close();
  }
}, 120_000);
afterAll(async () => {
  if (process.env.PHASEDESK_LAB_DEBUG) for (const p of lab?.processes ?? []) console.log(p.output());
  await lab?.stop();
});

const point = (l: Lab) =>
  api(l.port, 'POST', '/task', { key: l.keyA, body: { title: 'p', no_cache: true, task_config: pointConfig() } }).catch(
    (e: Error) => ({ status: 0, body: { error: e.message }, headers: {} as Record<string, unknown> }),
  );

const grid = cptGrid();

describe.skipIf(serversMissing)('chaos: restarts of PostgreSQL and Redis, kill -9 of the API and a worker', () => {
  it('PostgreSQL fast restart during a burst of POSTs and a running task, three times: nothing lost, no death', async () => {
    const l = lab!;
    const acknowledged: number[] = [];
    for (let round = 0; round < 3; round++) {
      const sleeper = await sleepTask(l, 3);
      expect(sleeper.status, JSON.stringify(sleeper.body)).toBe(200);
      acknowledged.push(sleeper.body.id);
      await until(
        () => status(l, sleeper.body.id),
        (r) => r.body?.status === 'running',
        50,
      );
      // the burst and the restart at the same time
      const burst = Array.from({ length: 20 }, (_, k) =>
        new Promise((r) => setTimeout(r, k * 40)).then(() => point(l)),
      );
      const restart = new Promise((r) => setTimeout(r, 200)).then(() => l.pg.restart());
      const answers = await Promise.all(burst);
      await restart;
      for (const a of answers) {
        if (a.status === 200) acknowledged.push(a.body.id);
        else {
          // while PostgreSQL restarts: 503 with Retry-After, JSON like every error; never a 500 nor a dropped connection
          expect([a.status, typeof a.body?.error]).toEqual([503, 'string']);
          expect(a.headers['retry-after']).toBe('5');
        }
      }
      expect(l.deaths()).toEqual([]);
      // the API answers again
      await until(
        () => api(l.port, 'GET', '/key/info', { key: l.keyA }).catch(() => ({ status: 0 })),
        (r) => r.status === 200,
        100,
      );
    }
    const figures = await checkAfterChaos(l, acknowledged);
    console.log(
      `chaos: 3 PostgreSQL restarts survived, ${figures.tasks} acknowledged tasks all completed, stuck 0, duplicate results ${figures.duplicateResults}`,
    );
  }, 150_000);

  it('Redis killed and restarted empty during a C-P-T flow and a single-job task: both complete', async () => {
    const l = lab!;
    const cpt = await api(l.port, 'POST', '/task', {
      key: l.keyA,
      body: { title: 'grid', no_cache: true, task_config: grid },
    });
    const sleeper = await sleepTask(l, 4);
    expect([cpt.status, sleeper.status], JSON.stringify([cpt.body, sleeper.body])).toEqual([200, 200]);
    // the flow in the middle of its chunks, the single job running
    await until(
      () => Promise.all([status(l, cpt.body.id), status(l, sleeper.body.id)]),
      ([g, s]) => g.body?.progress > 0.1 && s.body?.status === 'running',
      50,
    );
    const at = Date.now();
    await l.redis.restart();
    // while Redis is away new tasks are refused with 503 (its restart may be quicker than this request)
    const during = await point(l);
    expect([200, 503]).toContain(during.status);
    const ids = [cpt.body.id, sleeper.body.id, ...(during.status === 200 ? [during.body.id] : [])];
    const figures = await checkAfterChaos(l, ids);
    const g = (await status(l, cpt.body.id)).body;
    expect(g.logs).toMatch(/running again on worker/);
    console.log(
      `chaos: Redis restarted empty; the grid and the single job completed ${((Date.now() - at) / 1000).toFixed(1)} s later, stuck 0, duplicate results ${figures.duplicateResults}`,
    );
  }, 150_000);

  it('Redis killed and restarted empty during a batch task: it completes with every row once', async () => {
    const l = lab!;
    const compositions = Array.from({ length: 40 }, (_, i) => ({ ZN: Number((0.01 + 0.024 * i).toFixed(3)) }));
    const temperatures = Array.from({ length: 1000 }, (_, i) => 400 + 0.5 * i);
    const rows = compositions.length * temperatures.length;
    const batch = await api(l.port, 'POST', '/task', {
      key: l.keyA,
      body: {
        title: 'batch',
        no_cache: true,
        task_config: {
          task_type: 'equilibrium_batch',
          tdb_code: 'ALZN_MEY1993',
          condition: { components: ['AL', 'ZN'], pressure: 101325, product: { compositions, temperatures } },
        },
      },
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    await until(
      () => status(l, batch.body.id),
      (r) => r.body?.progress > 0.05 || TERMINAL.includes(r.body?.status),
      50,
    );
    expect((await status(l, batch.body.id)).body.status, 'the batch ended before Redis was restarted').toBe('running');
    await l.redis.restart();
    const figures = await checkAfterChaos(l, [batch.body.id]);
    expect((await status(l, batch.body.id)).body.logs).toMatch(/running again on worker/);
    const jsonl = await storedFile(l, batch.body.id, 'rows.jsonl');
    const numbers = jsonl
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { row: number }).row);
    expect(numbers).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
    console.log(
      `chaos: Redis restarted empty during a batch of ${rows} rows; every row stored once, duplicate results ${figures.duplicateResults}`,
    );
  }, 240_000);

  it('kill -9 of the API and of a worker mid-task: every task completes once', async () => {
    const l = lab!;
    // long enough to be still running after the API's restart on a loaded machine, so the worker dies mid-task
    const a = await sleepTask(l, 20);
    const b = await sleepTask(l, 20);
    expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([200, 200]);
    await until(
      () => Promise.all([status(l, a.body.id), status(l, b.body.id)]),
      (rs) => rs.every((r) => r.body?.status === 'running'),
      50,
    );
    await l.api.kill('SIGKILL');
    await l.startApi();
    const running = (await status(l, a.body.id)).body;
    expect(running.status, 'the task ended before its worker was killed').toBe('running');
    const pid = Number(/on worker [^:]+:(\d+)/.exec(running.logs)![1]);
    const victim = l.workers.find((w) => w.pid === pid)!;
    const at = Date.now();
    await victim.kill('SIGKILL');
    await l.startWorker();
    const extra = await Promise.all([1, 2, 3].map(() => point(l)));
    const ids = [a.body.id, b.body.id, ...extra.map((x) => x.body.id)];
    await until(
      () => status(l, a.body.id),
      (r) => /running again/.test(r.body?.logs ?? ''),
      100,
    );
    const takeover = (Date.now() - at) / 1000;
    const figures = await checkAfterChaos(l, ids);
    console.log(
      `chaos: kill -9 of the API and of a worker survived; takeover ${takeover.toFixed(1)} s after the worker's death (lock ${LOCK_SECONDS} s), duplicate results ${figures.duplicateResults}`,
    );
  }, 240_000);
});
