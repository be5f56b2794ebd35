// The lab server with real servers: `phasedesk server` (API) and `phasedesk worker` processes on PostgreSQL and
// Redis. Auth, tasks and signed downloads over the API; a kill -9 of the API mid-task; cancel across processes;
// DELETE of a task a worker still writes for; a worker killed mid-task whose job runs again on a replacement;
// /metrics, /healthz and /readyz of the API and the workers, readiness lost while Redis does not answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { api, http, pointConfig, ROOT, until } from '../service/helpers.js';
import { serversMissing } from './servers.js';
import { startLab, taskUuid, type Lab } from './lab.js';
import { redisConnection, TASK_QUEUE } from '../../main/server/redis.js';

let lab: Lab | undefined;
beforeAll(async () => {
  if (!serversMissing) lab = await startLab({ workers: 2, metrics: true });
}, 120_000);
afterAll(async () => {
  if (process.env.PHASEDESK_LAB_DEBUG) console.log(lab?.api.output(), lab?.workers.map((w) => w.output()).join('\n'));
  await lab?.stop();
});

const task = (key: string, config: Record<string, unknown>, title = 't') =>
  api(lab!.port, 'POST', '/task', { key, body: { title, no_cache: true, task_config: config } });
const status = (id: number) =>
  api(lab!.port, 'GET', `/task/${id}`, { key: lab!.keyA }).catch(() => ({ status: 0, body: {} as any }));
const waitStatus = (id: number, wanted: string[]) =>
  until(
    () => status(id),
    (r) => wanted.includes(r.body?.status),
    50,
  );

describe.skipIf(serversMissing)('lab server', () => {
  it('auth, a real calculation run by a worker, signed downloads, Host check', async () => {
    const l = lab!;
    expect((await api(l.port, 'GET', '/key/info', { key: l.keyA })).status).toBe(200);
    expect((await api(l.port, 'GET', '/key/info', { key: 'tk_' + 'x'.repeat(32) })).status).toBe(401);
    expect((await api(l.port, 'GET', '/key/info', { key: l.keyA, headers: { host: 'evil.example' } })).status).toBe(
      403,
    );
    // --allowed-hosts: the reverse proxy's name is accepted, with or without a port; a name that only contains it is not
    expect((await api(l.port, 'GET', '/key/info', { key: l.keyA, headers: { host: 'pd.lab.example' } })).status).toBe(
      200,
    );
    expect(
      (await api(l.port, 'GET', '/key/info', { key: l.keyA, headers: { host: 'PD.lab.example:443' } })).status,
    ).toBe(200);
    expect(
      (await api(l.port, 'GET', '/key/info', { key: l.keyA, headers: { host: 'pd.lab.example.evil.example' } })).status,
    ).toBe(403);
    const created = await task(l.keyA, pointConfig(), 'point');
    expect(created.status).toBe(200);
    expect(created.body.status).toBe('pending');
    const done = await waitStatus(created.body.id, ['completed', 'failed']);
    expect(done.body.status).toBe('completed');
    expect(done.body.logs).toMatch(/on worker [^:]+:\d+/);
    const files = await api(l.port, 'GET', `/task/${created.body.id}/result`, { key: l.keyA });
    expect(files.status).toBe(200);
    const url = (files.body.files as string[]).find((u) => new URL(u).pathname.endsWith('/result.json'))!;
    const u = new URL(url);
    const got = await http(l.port, 'GET', `${u.pathname}${u.search}`);
    expect(got.status).toBe(200);
    expect(JSON.parse(got.text).point.phases.length).toBeGreaterThan(0);
    expect(
      (
        await http(
          l.port,
          'GET',
          `${u.pathname}${u.search.replace(/signature=[0-9a-f]+/, `signature=${'0'.repeat(64)}`)}`,
        )
      ).status,
    ).toBe(403);
    // user b sees none of a's tasks
    expect((await api(l.port, 'GET', `/task/${created.body.id}`, { key: l.keyB })).status).toBe(403);
  });

  it('a kill -9 of the API mid-task: the worker completes the task, a new API process reports it', async () => {
    const l = lab!;
    const t = await task(l.keyA, { task_type: '__test_sleep', tdb_code: 'ALFE', seconds: 3 });
    await waitStatus(t.body.id, ['running']);
    await l.api.kill('SIGKILL');
    await l.startApi();
    const done = await waitStatus(t.body.id, ['completed', 'failed', 'aborted']);
    expect(done.body.status).toBe('completed');
    expect(done.body.result).toBe('slept');
  });

  it('cancel reaches the running calculation on a worker process; the worker stays healthy', async () => {
    const l = lab!;
    const redis = redisConnection(l.redis.url);
    const queue = new Queue(TASK_QUEUE, { connection: redis });
    try {
      const t = await task(l.keyA, { task_type: '__test_sleep', tdb_code: 'ALFE' }); // sleeps until cancelled
      await waitStatus(t.body.id, ['running']);
      expect(await queue.getActiveCount()).toBe(1);
      const at = Date.now();
      const c = await api(l.port, 'PATCH', `/task/${t.body.id}/cancel`, { key: l.keyA });
      expect(c.body.status).toBe('aborted');
      await until(
        () => queue.getActiveCount(),
        (n) => n === 0,
        20,
      );
      console.log(`cancel across processes: the worker's job ended ${Date.now() - at} ms after PATCH cancel`);
      // both workers take new tasks
      const next = await Promise.all(
        [1, 2].map(() => task(l.keyA, { task_type: '__test_sleep', tdb_code: 'ALFE', seconds: 0.2 })),
      );
      for (const n of next)
        expect((await waitStatus(n.body.id, ['completed', 'failed'])).body.status).toBe('completed');
      expect((await status(t.body.id)).body.status).toBe('aborted');
    } finally {
      await queue.close();
      await redis.quit();
    }
  });

  it('DELETE of a task whose calculation on a worker still writes into its folder: 200 at once, the folder goes when it returns', async () => {
    const l = lab!;
    // ignore_cancel: the calculation goes on writing for two seconds after the cancel flag is raised.
    const t = await task(l.keyA, {
      task_type: '__test_sleep',
      tdb_code: 'ALFE',
      seconds: 2,
      ignore_cancel: true,
      write_files: true,
    });
    await waitStatus(t.body.id, ['running']);
    const folder = join(l.dataDir, 'tasks', await taskUuid(l, t.body.id));
    await until(
      async () => readdirSync(folder, { recursive: true }).some((n) => String(n).endsWith('.txt')),
      (written) => written,
    );
    const d = await api(l.port, 'DELETE', `/task/${t.body.id}`, { key: l.keyA });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect((await status(t.body.id)).status).toBe(404);
    await until(
      async () => existsSync(folder),
      (there) => !there,
      50,
    );
  });

  it('a worker killed mid-task: the job runs again on a replacement worker and completes', async () => {
    const l = lab!;
    const t = await task(l.keyA, { task_type: '__test_sleep', tdb_code: 'ALFE', seconds: 2 });
    const running = await waitStatus(t.body.id, ['running']);
    const pid = Number(/on worker [^:]+:(\d+)/.exec(running.body.logs)![1]);
    const victim = l.workers.find((w) => w.pid === pid)!;
    expect(victim).toBeDefined();
    await victim.kill('SIGKILL');
    await l.startWorker();
    const done = await waitStatus(t.body.id, ['completed', 'failed', 'aborted']);
    expect(done.body.status).toBe('completed');
    expect(done.body.logs).toMatch(
      /running again on worker [^:]+:\d+ \(attempt 2\): the worker that ran it ended or lost the job/,
    );
  });

  it('/metrics, /healthz and /readyz of the API and of each worker; not ready while Redis does not answer', async () => {
    const l = lab!;
    const admin = (p: { metricsPort?: number }, path: string) => http(p.metricsPort!, 'GET', path);
    const live = l.workers.filter((w) => !w.killed);
    // a point calculation on a live worker: the one of the first test may have run on the worker killed since
    const before = await task(l.keyA, pointConfig(), 'metrics');
    expect((await waitStatus(before.body.id, ['completed', 'failed'])).body.status).toBe('completed');
    for (const p of [l.api, ...live]) {
      expect((await admin(p, '/healthz')).body).toEqual({ status: 'ok' });
      const ready = await admin(p, '/readyz');
      expect([ready.status, ready.body]).toEqual([
        200,
        { status: 'ready', checks: { postgresql: 'ok', redis: 'ok', blob_directory: 'ok' } },
      ]);
    }
    const apiMetrics = await until(
      () => admin(l.api, '/metrics'),
      (r) =>
        live.every(
          (w) => r.text.includes(`phasedesk_worker_heartbeat_age_seconds{worker="`) && r.text.includes(`:${w.pid}"}`),
        ),
      200,
    );
    expect(apiMetrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(apiMetrics.text).toMatch(/^phasedesk_tasks\{state="completed",task_type="point_calculation"\} [1-9]/m);
    expect(apiMetrics.text).toMatch(/^phasedesk_queue_jobs\{state="waiting"\} \d+/m);
    expect(apiMetrics.text).toMatch(/^phasedesk_queue_oldest_wait_seconds \d/m);
    expect(apiMetrics.text).toMatch(/^phasedesk_worker_busy_slots\{worker="[^"]+"\} \d/m);
    expect(apiMetrics.text).toMatch(/^phasedesk_server_reachable\{server="redis"\} 1/m);
    const ran = await Promise.all(live.map((w) => admin(w, '/metrics')));
    const all = ran.map((r) => r.text).join('\n');
    expect(all).toMatch(
      /^phasedesk_task_duration_seconds_count\{task_type="point_calculation",outcome="completed"\} [1-9]/m,
    );
    expect(all).toMatch(/^phasedesk_task_wait_seconds_bucket\{le="\+Inf",task_type="point_calculation"\} [1-9]/m);
    expect(all).toMatch(/^phasedesk_calculation_process_restarts_total \d/m);
    expect(all).toMatch(/^phasedesk_worker_slots 1/m);
    // Redis stopped (SIGSTOP): it keeps its connections but answers nothing
    process.kill(l.redis.pid, 'SIGSTOP');
    try {
      for (const p of [l.api, live[0]!]) {
        const r = await admin(p, '/readyz');
        expect(r.status).toBe(503);
        expect(r.headers['retry-after']).toBe('5');
        expect(r.body.checks.redis).toMatch(/no answer from Redis|Redis connection/);
        expect(r.body.checks.postgresql).toBe('ok');
      }
    } finally {
      process.kill(l.redis.pid, 'SIGCONT');
    }
    for (const p of [l.api, ...live])
      await until(
        () => admin(p, '/readyz'),
        (r) => r.status === 200,
        200,
      );
    expect(l.deaths()).toEqual([]);
  }, 120_000);

  it('after Redis was paused and resumed, a new task is accepted and runs on the workers', async () => {
    // the test before leaves every process just ready again after a Redis pause; a 503 (with Retry-After) may
    // still answer for the second the API needs to see Redis again, never afterwards
    const l = lab!;
    const t0 = Date.now();
    const created = await until(
      () => task(l.keyA, pointConfig(), 'after a Redis pause'),
      (r) => r.status !== 503 || Date.now() - t0 > 3000,
      100,
    );
    expect(created.status).toBe(200);
    const done = await waitStatus(created.body.id, ['completed', 'failed']);
    expect(done.body.status).toBe('completed');
  }, 60_000);

  it('`phasedesk server` and `phasedesk worker` without PostgreSQL or Redis refuse to start, naming the setting', () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, [join(ROOT, 'dist', 'main', 'cli.js'), ...args], {
        encoding: 'utf8',
        env: { ...process.env, PHASEDESK_DATABASE_URL: '', PHASEDESK_REDIS_URL: '' },
      });
    const s = run(['server', '--data-dir', lab!.dataDir]);
    expect([s.status, s.stderr.trim()]).toEqual([
      1,
      'error: phasedesk server needs PHASEDESK_DATABASE_URL or --database-url (postgres://user@host:5432/phasedesk)',
    ]);
    const w = run(['worker', '--data-dir', lab!.dataDir, '--database-url', lab!.databaseUrl]);
    expect([w.status, w.stderr.trim()]).toEqual([
      1,
      'error: phasedesk worker needs PHASEDESK_REDIS_URL or --redis-url (redis://host:6379)',
    ]);
    const bad = run(['worker', '--slots', '0', '--database-url', lab!.databaseUrl, '--redis-url', lab!.redis.url]);
    expect([bad.status, bad.stderr.trim()]).toEqual([1, 'error: --slots must be an integer between 1 and 64']);
  });
});
