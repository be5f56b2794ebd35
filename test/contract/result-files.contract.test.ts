// Files a script reads, over the real listener: result.csv leads with T, P and the composition whatever outputs the
// task asks for; a composition set has one name in result.json and result.csv; result.json's times are ISO 8601
// while the task record keeps the specification's text; the record's duration_ms extension.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, pointConfig, startFixture, until, type Fixture } from '../service/helpers.js';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(async () => {
  await f?.close();
});

const SPEC_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function create(config: Record<string, unknown>, noCache = true): Promise<number> {
  const r = await api(f.svc.port, 'POST', '/task', {
    key: f.keyA,
    body: { title: 'files', task_config: config, no_cache: noCache },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.id as number;
}

async function finished(id: number) {
  const r = await until(
    () => api(f.svc.port, 'GET', `/task/${id}`, { key: f.keyA }),
    (x) => ['completed', 'failed', 'aborted'].includes(x.body?.status),
  );
  return r.body;
}

/** The text of one result file of a completed task, by name. */
async function resultFile(id: number, name: string): Promise<string> {
  const list = await api(f.svc.port, 'GET', `/task/${id}/result`, { key: f.keyA });
  const url = (list.body.files as string[]).find((u) => new URL(u).pathname.endsWith(`/${name}`));
  expect(url, `${name} in ${list.text}`).toBeDefined();
  return (await fetch(url!)).text();
}

describe('result files and the task record', () => {
  it('result.csv carries T, P and the composition before the outputs asked for', async () => {
    const id = await create(pointConfig({ thermo_outputs: ['ac(FE)', 'phase_name'] }));
    const task = await finished(id);
    expect(task.status, task.logs).toBe('completed');
    const [header, row] = (await resultFile(id, 'result.csv')).split('\r\n');
    expect(header).toBe('T [K],P [Pa],x(AL) [-],x(FE) [-],ac(FE) [-],phase_name');
    const [T, P, xAl, xFe] = row!.split(',').map(Number);
    expect([T, P]).toEqual([1000, 101325]);
    expect(xAl).toBeCloseTo(0.3, 12);
    expect(xFe).toBeCloseTo(0.7, 12);
    const doc = JSON.parse(await resultFile(id, 'result.json'));
    expect(doc.table.columns.map((c: { name: string }) => c.name).slice(0, 4)).toEqual(['T', 'P', 'x(AL)', 'x(FE)']);
    expect(doc.outputs).toEqual(['T', 'P', 'x(*)', 'ac(FE)', 'phase_name']);
  });

  it('a composition set has one name: result.json label = the CSV phase_name and NP columns', async () => {
    const id = await create(pointConfig({ thermo_outputs: ['phase_name', 'NP(*)'] }));
    expect((await finished(id)).status).toBe('completed');
    const doc = JSON.parse(await resultFile(id, 'result.json'));
    const labels = (doc.point.phases as { name: string; composition_set: number; label: string }[]).map((p) => {
      expect(p.label).toBe(p.composition_set > 1 ? `${p.name}#${p.composition_set}` : p.name);
      return p.label;
    });
    const header = (await resultFile(id, 'result.csv')).split('\r\n')[0]!;
    for (const l of labels) expect(header).toContain(`NP(${l}) [mol/mol]`);
    expect(doc.table.rows[0][doc.table.columns.findIndex((c: { name: string }) => c.name === 'phase_name')]).toBe(
      [...labels].sort().join('+'),
    );
  });

  it('result.json times are ISO 8601; the record keeps the specification text and has duration_ms', async () => {
    const id = await create(pointConfig());
    const task = await finished(id);
    expect(task.status).toBe('completed');
    expect(task.created_at).toMatch(SPEC_TIME);
    expect(task.updated_at).toMatch(SPEC_TIME);
    expect(Number.isInteger(task.duration_ms)).toBe(true);
    expect(task.duration_ms).toBeGreaterThanOrEqual(0);
    // the run lies within the record's one-second times
    const span = Date.parse(task.updated_at.replace(' UTC', 'Z')) - Date.parse(task.created_at.replace(' UTC', 'Z'));
    expect(task.duration_ms).toBeLessThanOrEqual(span + 1000);
    const doc = JSON.parse(await resultFile(id, 'result.json'));
    expect(doc.provenance.created_at).toMatch(ISO_TIME);
    const listed = await api(f.svc.port, 'GET', '/task/list?sort_order=desc', { key: f.keyA });
    expect(listed.body.data.find((t: { id: number }) => t.id === id).duration_ms).toBe(task.duration_ms);
  });

  it('duration_ms is null when no calculation ran: a cache hit, a task cancelled while it waited', async () => {
    const cfg = pointConfig({ temperature: 1100 });
    expect((await finished(await create(cfg, false))).status).toBe('completed');
    const hit = await api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 'again', task_config: cfg } });
    expect(hit.body.status).toBe('completed');
    expect((await api(f.svc.port, 'GET', `/task/${hit.body.id}`, { key: f.keyA })).body.duration_ms).toBeNull();

    // a long test calculation holds the one calculation slot, so the next task waits and is cancelled pending
    const busy = await create({ task_type: '__test_sleep', tdb_code: 'ALFE', seconds: 60 });
    await until(
      () => api(f.svc.port, 'GET', `/task/${busy}`, { key: f.keyA }),
      (r) => r.body.status === 'running',
    );
    const running = (await api(f.svc.port, 'GET', `/task/${busy}`, { key: f.keyA })).body;
    expect(running.duration_ms).toBeGreaterThanOrEqual(0);
    const waiting = await create(pointConfig({ temperature: 1200 }));
    const cancelled = await api(f.svc.port, 'PATCH', `/task/${waiting}/cancel`, { key: f.keyA });
    expect(cancelled.body.status).toBe('aborted');
    expect(cancelled.body.duration_ms).toBeNull();
    const stopped = await api(f.svc.port, 'PATCH', `/task/${busy}/cancel`, { key: f.keyA });
    expect(stopped.body.duration_ms).toBeGreaterThanOrEqual(running.duration_ms);
  });
});
