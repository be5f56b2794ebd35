// Calculations run in supervised child processes (main/service/calc-host.ts, worker/host.ts): a native crash
// or a runaway heap fails its task while the service keeps answering and the next task completes; running
// tasks report progress and a stage on GET /task/{id} and in the list; a binary diagram over a partial
// composition range (whose preview once made resvg abort the process) completes with its PNG.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { api, http, pointConfig, startFixture, until, type Fixture, embeddedScheduler } from './helpers.js';
import { registerDatabase, subscribe } from '../../main/console/databases.js';
import { startService } from '../../main/server.js';
import { isPng, pngSize, svgGeometryProblems } from '../../worker/plots/png.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { CONTROL_BYTES, JobControl, STAGE_MAX_BYTES } from '../../worker/protocol.js';

let f: Fixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const post = (config: Record<string, unknown>) =>
  api(f!.svc.port, 'POST', '/task', {
    key: f!.keyA,
    body: { title: 't', task_config: { tdb_code: 'ALFE', ...config } },
  });
const get = (id: number) => api(f!.svc.port, 'GET', `/task/${id}`, { key: f!.keyA });
const settled = (id: number) =>
  until(
    () => get(id),
    (r) => ['completed', 'failed', 'aborted'].includes(r.body?.status),
  ).then((r) => r.body);

describe('calculation processes', () => {
  it('a native crash (abort in the core) fails only its task; the service keeps answering and the next task completes', async () => {
    const logs: string[] = [];
    f = await startFixture({ poolSize: 1 });
    const log = f.svc.ctx.log;
    f.svc.ctx.log = (l) => {
      logs.push(l);
      log(l);
    };
    const before = embeddedScheduler(f.svc).hostPids();
    const crash = await post({ task_type: '__test_crash' });
    const t = await settled(crash.body.id);
    expect(t.status).toBe('failed');
    expect(t.logs).toContain('the calculation process crashed (signal SIGABRT); the service is unaffected');
    expect(logs.join('\n')).toContain(`task ${crash.body.id} (`);
    // The service answered throughout and still does.
    expect((await api(f.svc.port, 'GET', '/key/info', { key: f.keyA })).status).toBe(200);
    expect((await http(f.svc.port, 'GET', '/api/v2/openapi.json')).status).toBe(200);
    // The crashed host was replaced; a real calculation runs in the new one.
    const ok = await api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: { title: 'p', task_config: pointConfig() },
    });
    const done = await settled(ok.body.id);
    expect(done.status).toBe('completed');
    expect(done.progress).toBe(1);
    expect(done.stage).toBeNull();
    const after = embeddedScheduler(f.svc).hostPids();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before[0]);
  });

  it('a runaway JavaScript heap is stopped by the memory guard: the task fails with the bound, the process survives', async () => {
    f = await startFixture({
      poolSize: 1,
      calcHost: { maxTasks: 500, maxRssMb: 4096, heapMb: 64, previewTimeoutSeconds: 60 },
    });
    const pid = embeddedScheduler(f.svc).hostPids()[0];
    const heap = await post({ task_type: '__test_heap' });
    const t = await settled(heap.body.id);
    expect(t.status).toBe('failed');
    expect(t.logs).toContain(
      'the calculation ran out of memory (memory guard: JavaScript heap limit 64 MB, setting calc_heap_mb)',
    );
    const ok = await post({ task_type: '__test_write' });
    expect((await settled(ok.body.id)).status).toBe('completed');
    // The guard ended the worker thread, not the calculation process.
    expect(embeddedScheduler(f.svc).hostPids()).toEqual([pid]);
  });

  it('a calculation process is replaced after host_max_tasks tasks; the tasks around the replacement complete', async () => {
    const logs: string[] = [];
    f = await startFixture({
      poolSize: 1,
      calcHost: { maxTasks: 2, maxRssMb: 4096, heapMb: 1024, previewTimeoutSeconds: 60 },
    });
    f.svc.ctx.log = (l) => {
      logs.push(l);
    };
    const first = embeddedScheduler(f.svc).hostPids()[0];
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await post({ task_type: '__test_write' })).body.id);
    for (const id of ids) expect((await settled(id)).status).toBe('completed');
    expect(logs.join('\n')).toMatch(new RegExp(`calculation process ${first} replaced after 2 task\\(s\\)`));
    expect(embeddedScheduler(f.svc).hostPids()[0]).not.toBe(first);
  });

  it('shutdown kills a calculation process that does not return within the grace period; the task is failed at the next start', async () => {
    f = await startFixture({ poolSize: 1 });
    const stuck = await post({ task_type: '__test_sleep', seconds: 3600, ignore_cancel: true });
    await until(
      () => get(stuck.body.id),
      (r) => r.body.status === 'running',
    );
    const pid = embeddedScheduler(f.svc).hostPids()[0]!;
    await f.svc.app.close();
    await embeddedScheduler(f.svc).close(300);
    expect(() => process.kill(pid, 0)).toThrow(); // the host is gone
    const row = await f.svc.store.db
      .selectFrom('tasks')
      .select('status')
      .where('id', '=', stuck.body.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('running'); // left for the restart recovery, which fails it with a log line
    await f.svc.store.close();
    const dataDir = f.dataDir;
    f = undefined;
    const svc = await startService({ dataDir, port: 0, bootstrap: false, poolSize: 1 }, () => {});
    try {
      const after = await svc.store.db
        .selectFrom('tasks')
        .select(['status', 'logs'])
        .where('id', '=', stuck.body.id)
        .executeTakeFirstOrThrow();
      expect(after.status).toBe('failed');
      expect(after.logs).toContain('interrupted by a service restart');
    } finally {
      await svc.close();
    }
  });

  it('a running task reports progress 0..1 and a stage on GET /task/{id} and in GET /task/list; other states have stage null', async () => {
    f = await startFixture({ poolSize: 1 });
    const sleeper = await post({ task_type: '__test_sleep', seconds: 3600 });
    const waiting = await post({ task_type: '__test_write' });
    const running = await until(
      () => get(sleeper.body.id),
      (r) => r.body.status === 'running' && r.body.stage !== null && r.body.progress > 0,
    );
    expect(running.body.stage).toBe('sleeping');
    expect(running.body.progress).toBeGreaterThan(0);
    expect(running.body.progress).toBeLessThanOrEqual(1);
    const list = await api(f.svc.port, 'GET', '/task/list?page=1&items_per_page=10', { key: f.keyA });
    expect(list.status).toBe(200);
    const items = new Map<number, any>(list.body.data.map((d: any) => [d.id, d]));
    expect(items.get(sleeper.body.id)).toMatchObject({ status: 'running', stage: 'sleeping' });
    expect(typeof items.get(sleeper.body.id).progress).toBe('number');
    expect(items.get(waiting.body.id)).toMatchObject({ status: 'pending', progress: 0, stage: null });
    const c = await api(f.svc.port, 'PATCH', `/task/${sleeper.body.id}/cancel`, { key: f.keyA });
    expect(c.body).toMatchObject({ status: 'aborted', stage: null });
    expect(await settled(waiting.body.id)).toMatchObject({ status: 'completed', progress: 1, stage: null });
  });

  it('binary_equilibrium of C-Fe over x(C) 0..0.3, 300-2000 K completes with its preview PNG', async () => {
    f = await startFixture({ poolSize: 1 });
    await registerDatabase(
      f.svc.store,
      f.dataDir,
      join(SHARED_TDB_DIR, 'cfe_broshe.tdb'),
      {
        code: 'CFE',
        name: 'C-Fe',
        level: 'free',
        type: 'alloy',
        version: '1.0',
        support_task_list: ['binary_equilibrium'],
      },
      { element_list: ['C', 'FE', 'VA'], phase_list: [] },
    );
    await subscribe(f.svc.store, { username: 'a', code: 'CFE', status: 'active' });
    const r = await api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: {
        title: 'C-Fe',
        task_config: {
          task_type: 'binary_equilibrium',
          tdb_code: 'CFE',
          condition: {
            components: ['C', 'FE'],
            compositions_start: { C: 0 },
            compositions_end: { C: 0.3 },
            temperature_start: 300,
            temperature_end: 2000,
            pressure: 101325,
          },
        },
      },
    });
    expect(r.status).toBe(200);
    const t = await settled(r.body.id);
    expect(t.status, t.logs).toBe('completed');
    expect(t.logs).not.toMatch(/not rendered/);
    const uuid = (
      await f.svc.store.db.selectFrom('tasks').select('uuid').where('id', '=', r.body.id).executeTakeFirstOrThrow()
    ).uuid;
    const png = readFileSync(join(f.dataDir, 'tasks', uuid, 'preview', 'phase_diagram.png'));
    expect(isPng(png)).toBe(true);
    expect(pngSize(png)?.width).toBe(1200);
    const files = await api(f.svc.port, 'GET', `/task/${r.body.id}/preview`, { key: f.keyA });
    expect(files.body.total_count).toBe(2);
    expect(JSON.stringify(files.body.files)).toContain('phase_diagram.png');
    // Nothing the renderer drew lies outside the plot: the polyline that made resvg abort is clipped away.
    const svg = readFileSync(join(f.dataDir, 'tasks', uuid, 'preview', 'phase_diagram.svg'), 'utf8');
    expect(svgGeometryProblems(svg)).toEqual([]);
  });
});

describe('stage channel of the control block', () => {
  it('carries a short UTF-8 text, cut at a character boundary, next to the cancel flag and progress', () => {
    const c = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
    expect(c.getStage()).toBeNull();
    c.setStage('mapping two-phase regions');
    c.setProgress(0.25);
    expect(c.getStage()).toBe('mapping two-phase regions');
    expect(c.getProgress()).toBe(0.25);
    expect(c.cancelled).toBe(false);
    const long = 'é'.repeat(200); // 2 bytes each: 56 characters fit in 112 bytes
    c.setStage(long);
    expect(c.getStage()).toBe('é'.repeat(STAGE_MAX_BYTES / 2));
    c.setStage('short');
    expect(c.getStage()).toBe('short');
  });

  it('a control block of the former 16-byte size still works, without a stage', () => {
    const c = new JobControl(new SharedArrayBuffer(16));
    c.setStage('ignored');
    expect(c.getStage()).toBeNull();
    c.cancel();
    expect(c.cancelled).toBe(true);
  });
});
