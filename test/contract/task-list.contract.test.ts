// GET /task/list filters (an extension; the spec's paging answers are unchanged): status, task_type, tdb_code and
// search apply in SQL to all of the user's tasks before paging, so total and total_pages count the filtered set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startFixture, TDB, until, type Fixture } from '../service/helpers.js';
import { registerDatabase, subscribe } from '../../main/console/databases.js';
import { TASK_STATES } from '../../contract/task-states.js';

let f: Fixture;
const made: { id: number; title: string; type: string; code: string }[] = [];

beforeAll(async () => {
  f = await startFixture();
  await registerDatabase(
    f.svc.store,
    f.dataDir,
    TDB,
    { code: 'OTHER', name: 'other', level: 'free', type: 'alloy', version: '1' },
    { element_list: ['AL', 'FE'], phase_list: ['LIQUID'] },
  );
  await subscribe(f.svc.store, { username: 'a', code: 'OTHER', status: 'active' });
  // 14 tasks of user a over two pages of 10: completed (__test_write) and failed (__test_throw), two databases.
  for (let i = 0; i < 14; i++) {
    const type = i % 3 === 0 ? '__test_throw' : '__test_write';
    const code = i % 4 === 0 ? 'OTHER' : 'ALFE';
    const title = i % 2 === 0 ? `Alpha run ${i}` : `beta 100%_${i}`;
    const r = await api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: { title, no_cache: true, task_config: { task_type: type, tdb_code: code, seconds: i } },
    });
    expect(r.status, r.text).toBe(200);
    made.push({ id: r.body.id, title, type, code });
  }
  const other = await api(f.svc.port, 'POST', '/task', {
    key: f.keyB,
    body: { title: 'Alpha of b', task_config: { task_type: '__test_write', tdb_code: 'ALFE' } },
  });
  expect(other.status).toBe(200);
  for (const t of made)
    await until(
      () => api(f.svc.port, 'GET', `/task/${t.id}`, { key: f.keyA }),
      (r) => ['completed', 'failed'].includes(r.body?.status),
    );
});
afterAll(async () => {
  await f?.close();
});

const list = (q: string) => api(f.svc.port, 'GET', `/task/list?${q}`, { key: f.keyA });
const allIds = async (q: string) => {
  const out: number[] = [];
  for (let page = 1; ; page++) {
    const r = await list(`${q}&items_per_page=3&page=${page}`);
    expect(r.status, r.text).toBe(200);
    out.push(...r.body.data.map((t: { id: number }) => t.id));
    if (page >= r.body.total_pages) {
      expect(out).toHaveLength(r.body.total);
      return out;
    }
  }
};

describe('GET /task/list filters', () => {
  it('status: over all pages, total and total_pages of the filtered set', async () => {
    const failed = made.filter((t) => t.type === '__test_throw').map((t) => t.id);
    const r = await list('status=failed&items_per_page=2');
    expect(r.body).toMatchObject({
      total: failed.length,
      total_pages: Math.ceil(failed.length / 2),
      page: 1,
      items_per_page: 2,
    });
    expect(await allIds('status=failed')).toEqual(failed);
    expect(await allIds('status=completed,failed')).toEqual(made.map((t) => t.id));
    expect((await list('status=running')).body).toMatchObject({ data: [], total: 0, total_pages: 0 });
  });

  it('task_type, tdb_code and their combination', async () => {
    expect(await allIds('task_type=__test_write')).toEqual(
      made.filter((t) => t.type === '__test_write').map((t) => t.id),
    );
    expect(await allIds('tdb_code=OTHER')).toEqual(made.filter((t) => t.code === 'OTHER').map((t) => t.id));
    expect(await allIds('tdb_code=OTHER&task_type=__test_throw&sort_order=desc')).toEqual(
      made
        .filter((t) => t.code === 'OTHER' && t.type === '__test_throw')
        .map((t) => t.id)
        .reverse(),
    );
  });

  it('search: case-insensitive substring of the title (LIKE wildcards literal), or a task id', async () => {
    expect(await allIds('search=ALPHA')).toEqual(made.filter((t) => t.title.startsWith('Alpha')).map((t) => t.id));
    expect(await allIds(`search=${encodeURIComponent('100%_1')}`)).toEqual(
      made.filter((t) => t.title.includes('100%_1')).map((t) => t.id),
    );
    expect(await allIds(`search=${encodeURIComponent('%')}`)).toEqual(
      made.filter((t) => t.title.includes('%')).map((t) => t.id),
    );
    expect(await allIds(`search=${made[5]!.id}`)).toEqual(expect.arrayContaining([made[5]!.id]));
    expect((await list('search=of%20b')).body.total).toBe(0); // user b's task is never listed
  });

  it('without filters the spec answer is unchanged', async () => {
    const r = await list('items_per_page=10');
    expect(r.body).toMatchObject({ total: made.length, total_pages: 2, page: 1, items_per_page: 10 });
  });

  it.each([
    ['status=done', `status has unknown value(s) done; known: ${TASK_STATES.join(', ')}`],
    ['status=failed,Failed', `status has unknown value(s) Failed; known: ${TASK_STATES.join(', ')}`],
    ['status=', `status must not be empty; known: ${TASK_STATES.join(', ')}`],
    ['task_type=ageing', /^task_type has unknown value\(s\) ageing; known: point_calculation, /],
    ['tdb_code=', 'tdb_code must not be empty'],
    [`search=${'x'.repeat(201)}`, 'search must be at most 200 characters'],
  ])('%s -> 400', async (q, error) => {
    const r = await list(q);
    expect(r.status).toBe(400);
    if (typeof error === 'string') expect(r.body).toEqual({ error });
    else expect(r.body.error).toMatch(error);
  });
});
