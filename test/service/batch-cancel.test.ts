// A cancelled equilibrium_batch keeps the rows it finished: the task is aborted as every cancelled task is, and
// GET /task/{id}/result lists its files, complete for the rows done (result.json says complete: false). Embedded
// service only: the lab server's workers do not record a stopped task's files yet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, http, startFixture, until, type Fixture } from './helpers.js';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(async () => {
  await f?.close();
});

describe('cancel of an equilibrium_batch', () => {
  it('keeps the rows done: the aborted task lists result.csv, rows.jsonl and result.json', async () => {
    const compositions = Array.from({ length: 200 }, (_, i) => ({ AL: 0.05 + 0.0045 * i }));
    const temperatures = Array.from({ length: 100 }, (_, i) => 600 + 10 * i);
    const created = await api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: {
        title: 'long batch',
        no_cache: true,
        task_config: {
          task_type: 'equilibrium_batch',
          tdb_code: 'ALFE',
          condition: { components: ['AL', 'FE'], pressure: 101325, product: { compositions, temperatures } },
        },
      },
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.id as number;
    const running = await until(
      () => api(f.svc.port, 'GET', `/task/${id}`, { key: f.keyA }),
      (r) =>
        r.body?.progress > 0 ||
        (r.body?.status !== 'running' && r.body?.status !== 'pending' && r.body?.status !== 'queued'),
    );
    expect(running.body.status).toBe('running');
    expect(running.body.stage).toMatch(/^computing the rows: \d+ of 20000 done$/);
    const c = await api(f.svc.port, 'PATCH', `/task/${id}/cancel`, { key: f.keyA });
    expect(c.status, c.text).toBe(200);
    const files = await until(
      () => api(f.svc.port, 'GET', `/task/${id}/result`, { key: f.keyA }),
      (r) => r.status === 200,
      100,
    );
    expect((await api(f.svc.port, 'GET', `/task/${id}`, { key: f.keyA })).body.status).toBe('aborted');
    const get = async (name: string) => {
      const url = new URL((files.body.files as string[]).find((u) => new URL(u).pathname.endsWith(`/${name}`))!);
      return (await http(f.svc.port, 'GET', url.pathname + url.search)).text;
    };
    const doc = JSON.parse(await get('result.json'));
    expect(doc.complete).toBe(false);
    expect(doc.counts.rows).toBe(20000);
    expect(doc.counts.done).toBeGreaterThan(0);
    expect(doc.counts.done).toBeLessThan(20000);
    expect((await get('rows.jsonl')).trim().split('\n')).toHaveLength(doc.counts.done);
    expect((await get('result.csv')).trim().split('\r\n')).toHaveLength(doc.counts.done + 1);
    // a preview was never made: an aborted task without such files answers as before
    expect((await api(f.svc.port, 'GET', `/task/${id}/preview`, { key: f.keyA })).status).toBe(409);
  });
});
