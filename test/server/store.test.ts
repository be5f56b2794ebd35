// The records on PostgreSQL: the same migrations, task creation that keeps both per-user limits exact when 50
// POST /task arrive at once (many pool connections; the user's row lock serialises them), and a cache hit on a task
// being deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, deleteWhileTwinIsCreated, pointConfig, startFixture, until, type Fixture } from '../service/helpers.js';
import { createUser, setPlan } from '../../main/console/users.js';
import { issueKey } from '../../main/console/keys.js';
import { subscribe } from '../../main/console/databases.js';
import { createDatabase, serversMissing, startPostgres, type RunningServer } from './servers.js';

let pg: RunningServer | undefined;
beforeAll(async () => {
  if (!serversMissing) pg = await startPostgres();
});
afterAll(async () => {
  await pg?.stop();
});

const body = () => ({ title: 'c', no_cache: true, task_config: pointConfig() });

describe.skipIf(serversMissing)('PostgreSQL store', () => {
  let f: Fixture | undefined;
  afterAll(async () => {
    await f?.close();
  });

  it('50 concurrent POST /task keep the rolling-24 h limit and the pending cap exact', async () => {
    f = await startFixture({ lab: { databaseUrl: await createDatabase(pg!, 'limits') }, maxPendingTasks: 9 });
    expect(f.svc.store.dialect).toBe('postgres');
    const svc = f.svc;
    // The creation limit: user c's plan allows 7 in 24 h (below the pending cap, so only the plan can refuse).
    await setPlan(svc.store, 'seven', 7);
    await createUser(svc.store, { username: 'c', plan: 'seven' });
    await subscribe(svc.store, { username: 'c', code: 'ALFE', status: 'active' });
    const keyC = (await issueKey(svc.store, 'c')).key;
    // Occupy the one calculation slot so that new tasks stay pending.
    const s = await api(svc.port, 'POST', '/task', {
      key: f.keyA,
      body: { title: 's', task_config: { task_type: '__test_sleep', tdb_code: 'ALFE' } },
    });
    await until(
      () => api(svc.port, 'GET', `/task/${s.body.id}`, { key: f!.keyA }),
      (r) => r.body.status === 'running',
    );

    const res = await Promise.all(
      Array.from({ length: 50 }, () => api(svc.port, 'POST', '/task', { key: keyC, body: body() })),
    );
    expect(res.filter((r) => r.status === 200)).toHaveLength(7);
    const limited = res.filter((r) => r.status !== 200);
    expect(limited).toHaveLength(43);
    for (const r of limited)
      expect([r.status, r.body.error]).toEqual([403, 'Rate limit exceeded: used 7 of 7 requests in the last 24 hours']);

    // The pending cap of user a: 9 of 50.
    const pendingRes = await Promise.all(
      Array.from({ length: 50 }, () => api(svc.port, 'POST', '/task', { key: f!.keyA, body: body() })),
    );
    expect(pendingRes.filter((r) => r.status === 200)).toHaveLength(9);
    const refused = pendingRes.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(41);
    for (const r of refused)
      expect([r.status, r.body]).toEqual([
        403,
        {
          error: 'Pending task limit exceeded. Maximum allowed pending tasks: 9',
          current_pending_tasks: 9,
          max_pending_tasks: 9,
        },
      ]);
    expect(
      await svc.store.db
        .selectFrom('tasks')
        .select('id')
        .where('status', '=', 'pending')
        .where('user_id', '=', f.userA)
        .execute(),
    ).toHaveLength(9);

    const userC = (
      await svc.store.db.selectFrom('users').select('id').where('username', '=', 'c').executeTakeFirstOrThrow()
    ).id;
    expect(
      await svc.store.db.selectFrom('task_creations').select('id').where('user_id', '=', userC).execute(),
    ).toHaveLength(7);
    // ids are numbers (bigint identity read back as a JavaScript number), as on SQLite
    expect(typeof s.body.id).toBe('number');
    await api(svc.port, 'PATCH', `/task/${s.body.id}/cancel`, { key: f.keyA });
  });

  it('a task deleted while an identical one is created from the cache leaves the new one whole', async () => {
    const cached = await startFixture({ lab: { databaseUrl: await createDatabase(pg!, 'cache') } });
    try {
      expect(await deleteWhileTwinIsCreated(cached)).toContain('completed');
    } finally {
      await cached.close();
    }
  });
});
