// A database record carries its recommended setup (extension fields of the record, set in Manage databases through
// PATCH /console/v1/databases/{code}): source, licence, attribution and the recommended phase selection with its
// groups. /api/v2 shows them; POST /database/{id}/phases gives the groups' members; a task without inhibit_phases
// is computed with the selection its database had when the task was created, which is part of its cache key; a
// task's own inhibit_phases replaces it. The desktop's one-step import: a file alone gets a code and a name.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, http, pointConfig, ROOT, startFixture, until, type Fixture } from '../service/helpers.js';
import type { PhaseSelectionRecord } from '../../contract/phase-selection.js';

const CUNI = readFileSync(join(ROOT, 'databases', 'cuni_mey1992.tdb'), 'utf8');
/** The ordered phases of Al-Fe_sundman2009.tdb (each names a DIS_PART) that form from Al-Fe, in file order. */
const ORDERED = ['BCC_4SL', 'FCC_4SL'];
const SELECTION = { inhibit_phases: ['@ordered'], groups: { liquids: ['LIQ*'] }, note: 'no ordered phases' };

let f: Fixture;
let token: string;
beforeAll(async () => {
  f = await startFixture({ bootstrap: true, catalogFile: '/nonexistent/catalog.json' });
  token = readFileSync(join(f.dataDir, 'console-token'), 'utf8').trim();
});
afterAll(async () => {
  await f?.close();
});
const con = (method: string, path: string, body?: unknown) =>
  http(f.svc.port, method, `/console/v1${path}`, { headers: { 'x-phasedesk-console': token }, body });
const post = (over: Record<string, unknown> = {}) =>
  api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 't', task_config: pointConfig(over) } });
async function finished(id: number) {
  const t = await until(
    () => api(f.svc.port, 'GET', `/task/${id}`, { key: f.keyA }),
    (r) => ['completed', 'failed'].includes(r.body.status),
  );
  expect(t.body.status, t.body.logs).toBe('completed');
  return t.body as { logs: string };
}
async function selectionOf(id: number): Promise<PhaseSelectionRecord> {
  await finished(id);
  const files = await api(f.svc.port, 'GET', `/task/${id}/result`, { key: f.keyA });
  const url = (files.body.files as string[]).find((u) => u.includes('result.json'))!;
  return ((await (await fetch(url)).json()) as { phase_selection: PhaseSelectionRecord }).phase_selection;
}

describe("a database's recommended setup", () => {
  it('is set in the console and shown by /api/v2 with the record', async () => {
    const r = await con('PATCH', '/databases/ALFE', {
      phase_selection: SELECTION,
      source: 'test/service/helpers.ts',
      license: 'MIT',
      attribution: 'B. Sundman et al. (2009)',
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ phase_selection: SELECTION, license: 'MIT', state: 'enable' });
    const item = await api(f.svc.port, 'GET', `/database/${f.dbId}`, { key: f.keyA });
    expect(item.body).toMatchObject({
      phase_selection: SELECTION,
      source: 'test/service/helpers.ts',
      license: 'MIT',
      attribution: 'B. Sundman et al. (2009)',
    });
    const list = await api(f.svc.port, 'GET', '/database', { key: f.keyA });
    expect(list.body.items[0].phase_selection).toEqual(SELECTION);
  });

  it('POST /database/{id}/phases gives the members of every group and the recommended entries', async () => {
    const r = await api(f.svc.port, 'POST', `/database/${f.dbId}/phases`, {
      key: f.keyA,
      body: { element_list: ['AL', 'FE', 'VA'] },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.phase_groups).toEqual({
      ordered: ORDERED,
      gas: [],
      ionic_liquid: [],
      foreign: [],
      liquids: ['LIQUID'],
    });
    expect(r.body.recommended_inhibit_phases).toEqual(['@ordered']);
  });

  it("a task without inhibit_phases is computed with it; the task's own list replaces it", async () => {
    const a = await post();
    expect(await selectionOf(a.body.id)).toEqual({
      source: 'database',
      inhibit_phases: ['@ordered'],
      removed: ORDERED,
    });
    expect((await finished(a.body.id)).logs).toContain(
      `phases suppressed by the database's recommended selection (@ordered): ${ORDERED.join(', ')}`,
    );
    const own = await post({ inhibit_phases: ['@liquids', 'FCC_A1'] });
    expect(own.status, own.text).toBe(200);
    expect(await selectionOf(own.body.id)).toEqual({
      source: 'task',
      inhibit_phases: ['@liquids', 'FCC_A1'],
      removed: ['LIQUID', 'FCC_A1'],
    });
    const none = await post({ inhibit_phases: [] });
    expect(await selectionOf(none.body.id)).toEqual({ source: 'task', inhibit_phases: [], removed: [] });
  }, 240_000);

  it("the database's groups are names a task may use: a misspelled one is named with the nearest", async () => {
    const r = await post({ inhibit_phases: ['@liquid'] });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(
      "task_config.condition.inhibit_phases: @liquid is not a group of database 'ALFE' (nearest: @liquids)",
    );
  });

  it('a task keeps the selection of its creation; a new selection is a new cache key', async () => {
    const before = await post();
    expect(before.body.status).toBe('completed'); // the same configuration and selection as the first task
    const kept = await post({ temperature: 1001 });
    await con('PATCH', '/databases/ALFE', { phase_selection: { inhibit_phases: ['FCC_4SL'] } });
    expect((await selectionOf(kept.body.id)).removed).toEqual(ORDERED);
    const after = await post();
    expect(after.body.status).toBe('pending');
    expect(await selectionOf(after.body.id)).toEqual({
      source: 'database',
      inhibit_phases: ['FCC_4SL'],
      removed: ['FCC_4SL'],
    });
    expect((await con('PATCH', '/databases/ALFE', { phase_selection: null })).body.phase_selection).toBeNull();
    const cleared = await post({ temperature: 1002 });
    expect(await selectionOf(cleared.body.id)).toEqual({ source: 'none', inhibit_phases: [], removed: [] });
  }, 240_000);

  it('refuses a selection that redefines a group every database has, and an empty change', async () => {
    const bad = await con('PATCH', '/databases/ALFE', {
      phase_selection: { inhibit_phases: [], groups: { gas: ['LIQUID'] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('phase_selection.groups.gas @gas is a group every database has');
    const empty = await con('PATCH', '/databases/ALFE', {});
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/state, source, license, attribution or phase_selection is required/);
  });
});

describe('import in one step (the desktop\'s "Open a database file")', () => {
  it('a file alone gets its code and name from the file name, a free code, and the local user', async () => {
    const first = await con('POST', '/databases', { file_name: 'cuni_mey1992.tdb', tdb: CUNI });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({
      code: 'CUNI_MEY1992',
      subscribed: 'local',
      phases_loaded: ['LIQUID', 'FCC_A1'],
    });
    const second = await con('POST', '/databases', { file_name: 'cuni_mey1992.tdb', tdb: CUNI });
    expect(second.body.code).toBe('CUNI_MEY1992_2');
    const rows = (await con('GET', '/databases')).body.items as { code: string; name: string }[];
    expect(rows.find((d) => d.code === 'CUNI_MEY1992')?.name).toBe('cuni_mey1992');
  });
});
