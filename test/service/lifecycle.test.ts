// Cancel really stops a running calculation; a calculation that throws or a worker that dies fails its
// task and the service keeps serving; calculation cache; omp_threads bounded by the budget.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  api,
  deleteWhileTwinIsCreated,
  pointConfig,
  startFixture,
  until,
  TDB,
  type Fixture,
  embeddedScheduler,
} from './helpers.js';
import { registerDatabase, subscribe } from '../../main/console/databases.js';

let f: Fixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const post = (config: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  api(f!.svc.port, 'POST', '/task', {
    key: f!.keyA,
    body: { title: 't', task_config: { tdb_code: 'ALFE', ...config }, ...extra },
  });
const status = (id: number, wanted: string[]) =>
  until(
    () => api(f!.svc.port, 'GET', `/task/${id}`, { key: f!.keyA }),
    (r) => wanted.includes(r.body?.status),
  ).then((r) => r.body);

const taskUuid = async (id: number) =>
  (await f!.svc.store.db.selectFrom('tasks').select('uuid').where('id', '=', id).executeTakeFirstOrThrow()).uuid;

describe('task lifecycle', () => {
  it('cancel stops a running calculation and frees its pool slot', async () => {
    f = await startFixture({ poolSize: 1 });
    const sleeper = await post({ task_type: '__test_sleep', seconds: 3600 });
    await status(sleeper.body.id, ['running']);
    // The worker writes progress into the shared block; the scheduler copies it to the task row.
    await until(
      () =>
        f!.svc.store.db
          .selectFrom('tasks')
          .select('progress')
          .where('id', '=', sleeper.body.id)
          .executeTakeFirstOrThrow(),
      (r) => r.progress > 0,
    );
    const behind = await post({ task_type: '__test_write' });
    // Pool size 1: the second task cannot start while the first calculation is still looping.
    expect((await api(f.svc.port, 'GET', `/task/${behind.body.id}`, { key: f.keyA })).body.status).toBe('pending');
    const c = await api(f.svc.port, 'PATCH', `/task/${sleeper.body.id}/cancel`, { key: f.keyA });
    expect(c.status).toBe(200);
    expect(c.body.status).toBe('aborted');
    // The one-hour loop returned (it saw the cancel flag), so the queued task gets the slot and completes.
    await status(behind.body.id, ['completed']);
    const after = await status(sleeper.body.id, ['aborted']);
    expect(after.logs).toContain('task cancelled by the user');
  });

  it('DELETE stops a running task, then removes it', async () => {
    f = await startFixture({ poolSize: 1 });
    const sleeper = await post({ task_type: '__test_sleep', seconds: 3600 });
    await status(sleeper.body.id, ['running']);
    const d = await api(f.svc.port, 'DELETE', `/task/${sleeper.body.id}`, { key: f.keyA });
    expect(d.status).toBe(200);
    const next = await post({ task_type: '__test_write' });
    await status(next.body.id, ['completed']);
    expect((await api(f.svc.port, 'GET', `/task/${sleeper.body.id}`, { key: f.keyA })).status).toBe(404);
  });

  it('DELETE of a task whose calculation is still writing into its folder succeeds; the folder goes when it returns', async () => {
    f = await startFixture({ poolSize: 1 });
    // ignore_cancel: the calculation goes on writing for two seconds after the cancel flag is raised.
    const writer = await post({ task_type: '__test_sleep', seconds: 2, ignore_cancel: true, write_files: true });
    await status(writer.body.id, ['running']);
    const uuid = await taskUuid(writer.body.id);
    const folder = join(f.dataDir, 'tasks', uuid, 'result');
    await until(
      async () => existsSync(folder),
      (there) => there,
    );
    const d = await api(f.svc.port, 'DELETE', `/task/${writer.body.id}`, { key: f.keyA });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect((await api(f.svc.port, 'GET', `/task/${writer.body.id}`, { key: f.keyA })).status).toBe(404);
    const next = await post({ task_type: '__test_write' });
    await status(next.body.id, ['completed']);
    expect(existsSync(join(f.dataDir, 'tasks', uuid))).toBe(false);
  });

  it('a worker that dies fails its task with the reason and the service survives', async () => {
    f = await startFixture({ poolSize: 1 });
    const crash = await post({ task_type: '__test_crash' });
    const t = await status(crash.body.id, ['failed', 'completed']);
    expect(t.status).toBe('failed');
    expect(t.logs).toContain('the calculation process crashed (signal SIGABRT); the service is unaffected');
    const thrower = await post({ task_type: '__test_throw' });
    expect((await status(thrower.body.id, ['failed', 'completed'])).logs).toContain(
      'test calculation failed on purpose',
    );
    const ok = await post({ task_type: '__test_write' });
    expect((await status(ok.body.id, ['completed', 'failed'])).status).toBe('completed');
  });

  it('a calculation that fails says why in the task logs and stores no result (no fake numbers)', async () => {
    f = await startFixture();
    // The door checks the record's phase list; a stale record (its file lacks the phase) reaches the worker.
    await registerDatabase(
      f.svc.store,
      f.dataDir,
      TDB,
      { code: 'STALE', name: 'stale', level: 'free', type: 'alloy', version: '1' },
      { element_list: ['AL', 'FE'], phase_list: ['LIQUID', 'NO_SUCH_PHASE'] },
    );
    await subscribe(f.svc.store, { username: 'a', code: 'STALE', status: 'active' });
    const cfg = { ...pointConfig({ activated_phases: ['NO_SUCH_PHASE'] }), tdb_code: 'STALE' };
    const r = await api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 'p', task_config: cfg } });
    const t = await status(r.body.id, ['failed', 'completed']);
    expect(t.status).toBe('failed');
    expect(t.result).toBeNull();
    expect(t.logs).toContain('condition.activated_phases: NO_SUCH_PHASE not defined in');
  });

  it('a real point calculation completes with a one-line result and its files', async () => {
    f = await startFixture();
    const r = await api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 'p', task_config: pointConfig() } });
    const t = await status(r.body.id, ['failed', 'completed']);
    expect(t.status, String(t.logs)).toBe('completed');
    expect(t.result).toMatch(/at 1000 K \(converged\)/);
    const files = await api(f.svc.port, 'GET', `/task/${r.body.id}/result`, { key: f.keyA });
    expect(files.body.files.map((u: string) => new URL(u).pathname.split('/').pop())).toEqual(
      expect.arrayContaining(['result.json', 'result.csv']),
    );
  });

  it('calculation cache: identical request completes at once with the stored files; no_cache skips it', async () => {
    f = await startFixture();
    const cfg = { task_type: '__test_write', seconds: 7, task_path: '/somewhere/a' };
    const first = await post(cfg);
    expect(first.body.status).toBe('pending');
    await status(first.body.id, ['completed']);
    const hit = await post({ ...cfg, task_path: '/elsewhere/b' }); // task_path is not part of the key
    expect(hit.status).toBe(200);
    expect(hit.body.status).toBe('completed');
    const files = await api(f.svc.port, 'GET', `/task/${hit.body.id}/result`, { key: f.keyA });
    expect(files.body.total_count).toBe(1);
    const dl = new URL(files.body.files[0]);
    const got = await fetch(dl);
    expect(await got.text()).toBe('result of 7\n');
    const skip = await post(cfg, { no_cache: true });
    expect(skip.body.status).toBe('pending');
    const other = await post({ ...cfg, seconds: 8 });
    expect(other.body.status).toBe('pending');
  });

  it('calculation cache: a cached result whose files are gone is calculated again, not reused', async () => {
    f = await startFixture();
    const cfg = { task_type: '__test_write', seconds: 9 };
    const first = await post(cfg);
    await status(first.body.id, ['completed']);
    const uuid = await taskUuid(first.body.id);
    rmSync(join(f.dataDir, 'tasks', uuid, 'preview'), { recursive: true });
    const again = await post(cfg);
    expect([again.status, again.body.status]).toEqual([200, 'pending']);
    await status(again.body.id, ['completed']);
    const files = await api(f.svc.port, 'GET', `/task/${again.body.id}/result`, { key: f.keyA });
    expect(await (await fetch(new URL(files.body.files[0]))).text()).toBe('result of 9\n');
    // the new calculation is the cached one now
    expect((await post(cfg)).body.status).toBe('completed');
  });

  it('calculation cache: a task deleted while an identical one is created leaves the new one whole', async () => {
    f = await startFixture();
    expect(await deleteWhileTwinIsCreated(f)).toContain('completed');
  });

  it('omp_threads is bounded by threadBudget / poolSize', async () => {
    f = await startFixture({ poolSize: 1, threadBudget: 2 });
    const r = await post({ task_type: '__test_write' }, { omp_threads: 64 });
    const t = await status(r.body.id, ['completed']);
    expect(t.logs).toContain('started with 2 OpenMP thread(s)');
    expect(embeddedScheduler(f.svc).threadsFor(1)).toBe(1);
    expect(embeddedScheduler(f.svc).threadsFor(null)).toBe(2);
  });
});
