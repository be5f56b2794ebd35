// A database of mobility data alone (mf-mobility.tdb: MQ and MF parameters, no ELEMENT or PHASE) in the catalog and
// in tasks over the real listener: the console imports it as a 'mobility' record; POST /task names it as
// mobility_tdb_code beside a thermodynamic database and the point's result has the mobilities; the bad inputs are 400s
// naming the field (a mobility record as tdb_code, an unknown code, a pair that does not read together, an output
// asking for an element the mobility data lacks).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importUploadedDatabase } from '../../main/console/admin.js';
import { subscribe } from '../../main/console/databases.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { api, http, startFixture, until, type Fixture } from './helpers.js';

const MOBILITY = join(SHARED_TDB_DIR, 'mf-mobility.tdb');
const STEEL = join(SHARED_TDB_DIR, 'mf-steel.tdb');
const present = existsSync(MOBILITY) && existsSync(STEEL);

let f: Fixture;
beforeAll(async () => {
  if (!present) return;
  f = await startFixture();
  for (const [code, file] of [
    ['MFMOB', MOBILITY],
    ['MFSTEEL', STEEL],
  ]) {
    const r = await importUploadedDatabase(f.svc.store, f.dataDir, {
      code,
      name: code,
      level: 'free',
      type: 'alloy',
      version: '1',
      file_name: file.split('/').pop()!,
      tdb: readFileSync(file, 'latin1'),
      replace: false,
      subscribe_user: null,
    });
    if (code === 'MFMOB') {
      expect(r.mobility_only).toBe(true);
      expect(r.phases_loaded).toContain('FCC_A1');
      expect(r.elements).toEqual(expect.arrayContaining(['C', 'CR', 'FE', 'NI']));
    } else expect(r.mobility_only).toBeUndefined();
    await subscribe(f.svc.store, { username: 'a', code, status: 'active' });
  }
}, 120_000);
afterAll(async () => {
  await f?.close();
});

const point = (over: Record<string, unknown> = {}, condition: Record<string, unknown> = {}) => ({
  title: 'mobility',
  task_config: {
    task_type: 'point_calculation',
    tdb_code: 'MFSTEEL',
    mobility_tdb_code: 'MFMOB',
    condition: {
      components: ['CR', 'FE', 'NI', 'VA'],
      temperature: 1373,
      pressure: 101325,
      compositions: { CR: 0.18, NI: 0.1 },
      // the author's recommendation for mf-steel: no ordered phases
      inhibit_phases: ['@ordered'],
      thermo_outputs: ['T', 'phase_name', 'MOB(FCC_A1,*)', 'DT(FCC_A1,CR)', 'DC(FCC_A1,CR,NI)'],
      ...condition,
    },
    ...over,
  },
});

describe.skipIf(!present)('a mobility database beside a thermodynamic one', () => {
  it('computes the mobilities and diffusivities of the stable phase', async () => {
    const created = await api(f.svc.port, 'POST', '/task', { key: f.keyA, body: point() });
    expect(created.status, created.text).toBe(200);
    const id = created.body.id as number;
    const done = await until(
      () => api(f.svc.port, 'GET', `/task/${id}`, { key: f.keyA }),
      (r) => !['pending', 'queued', 'running'].includes(r.body?.status),
      100,
    );
    expect(done.body.status, done.text).toBe('completed');
    const files = await api(f.svc.port, 'GET', `/task/${id}/result`, { key: f.keyA });
    const url = new URL((files.body.files as string[]).find((u) => new URL(u).pathname.endsWith('/result.csv'))!);
    const csv = (await http(f.svc.port, 'GET', url.pathname + url.search)).text.trim().split('\r\n');
    // fields: plain, or quoted (the names hold commas)
    const fields = (line: string) => [...line.matchAll(/("([^"]*)"|[^,]*)(,|$)/g)].map((m) => m[2] ?? m[1]);
    const header = fields(csv[0]);
    const row = fields(csv[1]);
    const col = (name: string) => Number(row[header.findIndex((h) => h.startsWith(`${name} `))]);
    for (const el of ['CR', 'FE', 'NI']) expect(col(`MOB(FCC_A1,${el})`)).toBeGreaterThan(0);
    // D* = RT M of chromium, and a chemical coefficient that exists
    expect(col('DT(FCC_A1,CR)') / (8.3145 * 1373 * col('MOB(FCC_A1,CR)'))).toBeCloseTo(1, 10);
    expect(Number.isFinite(col('DC(FCC_A1,CR,NI)'))).toBe(true);
  }, 120_000);

  it('refuses a mobility record as tdb_code, an unknown mobility code and an element the data lacks', async () => {
    const asThermo = await api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: point({ tdb_code: 'MFMOB', mobility_tdb_code: undefined }),
    });
    expect(asThermo.status).toBe(400);
    expect(asThermo.body.detail ?? asThermo.text).toMatch(/tdb_code: 'MFMOB' holds mobility data only/);
    const unknown = await api(f.svc.port, 'POST', '/task', { key: f.keyA, body: point({ mobility_tdb_code: 'NOPE' }) });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toMatch(/mobility_tdb_code: Db code 'NOPE' was not found/);
    const lacking = await api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: point(
        {},
        { components: ['AL', 'FE', 'VA'], compositions: { AL: 0.02 }, thermo_outputs: ['MOB(HCP_A3,AL)'] },
      ),
    });
    expect(lacking.status).toBe(400);
    expect(lacking.text).toMatch(
      /condition\.thermo_outputs: MOB\(HCP_A3,AL\): the mobility data has no parameter for AL in HCP_A3/,
    );
  }, 60_000);
});
