// 20 concurrent POST /task calls cannot exceed the rolling-24h limit nor the pending cap.
import { afterEach, describe, expect, it } from 'vitest';
import { api, pointConfig, startFixture, until, type Fixture } from './helpers.js';
import { createUser, setPlan } from '../../main/console/users.js';
import { issueKey } from '../../main/console/keys.js';
import { subscribe } from '../../main/console/databases.js';

let f: Fixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const body = () => ({ title: 'c', no_cache: true, task_config: pointConfig() });

describe('limits under concurrency', () => {
  it('creation limit: exactly 7 of 20 concurrent requests succeed on a plan of 7', async () => {
    f = await startFixture({ maxPendingTasks: 1000 });
    await setPlan(f.svc.store, 'seven', 7);
    await createUser(f.svc.store, { username: 'c', plan: 'seven' });
    await subscribe(f.svc.store, { username: 'c', code: 'ALFE', status: 'active' });
    const key = (await issueKey(f.svc.store, 'c')).key;
    const res = await Promise.all(
      Array.from({ length: 20 }, () => api(f!.svc.port, 'POST', '/task', { key, body: body() })),
    );
    const ok = res.filter((r) => r.status === 200);
    const refused = res.filter((r) => r.status === 403);
    expect(ok).toHaveLength(7);
    expect(refused).toHaveLength(13);
    for (const r of refused)
      expect(r.body.error).toBe('Rate limit exceeded: used 7 of 7 requests in the last 24 hours');
    const rows = await f.svc.store.db
      .selectFrom('tasks')
      .select('id')
      .where(
        'user_id',
        '=',
        (await f.svc.store.db.selectFrom('users').select('id').where('username', '=', 'c').executeTakeFirstOrThrow())
          .id,
      )
      .execute();
    expect(rows).toHaveLength(7);
  });

  it('pending cap: never more than the cap in state pending', async () => {
    f = await startFixture({ maxPendingTasks: 5 });
    // Occupy the single pool slot so new tasks stay pending.
    const s = await api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: { title: 's', task_config: { task_type: '__test_sleep', tdb_code: 'ALFE' } },
    });
    await until(
      () => api(f!.svc.port, 'GET', `/task/${s.body.id}`, { key: f!.keyA }),
      (r) => r.body.status === 'running',
    );
    const res = await Promise.all(
      Array.from({ length: 20 }, () => api(f!.svc.port, 'POST', '/task', { key: f!.keyA, body: body() })),
    );
    expect(res.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = res.filter((r) => r.status === 403);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.body).toEqual({
        error: 'Pending task limit exceeded. Maximum allowed pending tasks: 5',
        current_pending_tasks: 5,
        max_pending_tasks: 5,
      });
    }
    const pending = await f.svc.store.db.selectFrom('tasks').select('id').where('status', '=', 'pending').execute();
    expect(pending).toHaveLength(5);
    // Cancelling a pending task frees a place under the cap.
    const c = await api(f.svc.port, 'PATCH', `/task/${pending[0]!.id}/cancel`, { key: f.keyA });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ id: pending[0]!.id, status: 'aborted', result: null });
    expect((await api(f.svc.port, 'POST', '/task', { key: f.keyA, body: body() })).body.status).toBe('pending');
    await api(f.svc.port, 'PATCH', `/task/${s.body.id}/cancel`, { key: f.keyA });
  });
});
