// The extension GET and PUT /api/v2/database/{db_id}/phase-names over the real listener: defaults of the database,
// names stored and read back, 400s naming the field and the bound, 404 for an unknown database, 401 without a key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, pointConfig, startFixture, submitAndWait, type Fixture } from '../service/helpers.js';
import { calculationInput } from '../../main/service/calc-job.js';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(async () => {
  await f?.close();
});

const path = () => `/database/${f.dbId}/phase-names`;
const put = (body: unknown) => api(f.svc.port, 'PUT', path(), { key: f.keyA, body });

describe('phase display names (extension)', () => {
  it('GET lists every phase with its default; nothing stored yet', async () => {
    const r = await api(f.svc.port, 'GET', path(), { key: f.keyA });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe('ALFE');
    expect(r.body.family).toBe('general');
    expect(r.body.names).toEqual({});
    const fcc = r.body.phases.find((p: { key: string }) => p.key === 'FCC_A1');
    expect(fcc).toEqual({
      key: 'FCC_A1',
      phase: 'FCC_A1',
      structure: null,
      default_name: 'fcc (A1)',
      name: 'fcc (A1)',
    });
    expect(r.body.phases.find((p: { key: string }) => p.key === 'LIQUID').name).toBe('L');
  });

  it('PUT stores names (trimmed; a default is not stored), GET reads them back for every user', async () => {
    const r = await put({ names: { FCC_A1: '  γ-Fe ', LIQUID: 'L' } });
    expect(r.status).toBe(200);
    expect(r.body.names).toEqual({ FCC_A1: 'γ-Fe' });
    const back = await api(f.svc.port, 'GET', path(), { key: f.keyB });
    expect(back.body.names).toEqual({ FCC_A1: 'γ-Fe' });
    expect(back.body.phases.find((p: { key: string }) => p.key === 'FCC_A1').name).toBe('γ-Fe');
    const reset = await put({ names: {} });
    expect(reset.body.names).toEqual({});
  });

  it.each([
    [{}, 'names is required'],
    [{ names: [] }, 'names must be an object of phase -> display name'],
    [{ names: { FCC_A1: '' } }, 'names.FCC_A1 must be 1 to 40 characters'],
    [{ names: { FCC_A1: 'x'.repeat(41) } }, 'names.FCC_A1 must be 1 to 40 characters'],
    [{ names: { FCC_A1: 7 } }, 'names.FCC_A1 must be a string'],
    [{ names: { FCC_A1: '<b>' } }, 'names.FCC_A1 must not hold control characters, < or >'],
    [{ names: { SIGMA: 'σ' } }, 'names.SIGMA is not a phase of this database (nor a state of one)'],
  ])('PUT %j: 400 %s', async (body, message) => {
    const r = await put(body);
    expect(r.status).toBe(400);
    expect(r.text).toContain(message);
  });

  it('a bad key and too many names are refused naming the field', async () => {
    const bad = await put({ names: { 'FCC A1': 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('must be a phase name or PHASE:STRUCTURE');
    const many = await put({ names: Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`P${i}`, 'x'])) });
    expect(many.status).toBe(400);
    expect(many.text).toContain('names must hold at most 2000 names');
  });

  it('404 for an unknown database, 401 without a key', async () => {
    const missing = await api(f.svc.port, 'GET', '/database/00000000-0000-4000-8000-000000000000/phase-names', {
      key: f.keyA,
    });
    expect(missing.status).toBe(404);
    expect((await api(f.svc.port, 'GET', path())).status).toBe(401);
  });

  it('a task carries the names of its creation to its calculation; new names are a new calculation-cache key', async () => {
    const cfg = pointConfig({ temperature: 987 });
    const first = await submitAndWait(f, cfg, 'names 1');
    expect(first.status).toBe('completed');
    const again = await submitAndWait(f, cfg, 'names 2');
    expect(JSON.parse(again.text).logs).toMatch(/calculation cache hit/);
    expect((await put({ names: { BCC_A2: 'α-Fe' } })).status).toBe(200);
    const renamed = await submitAndWait(f, cfg, 'names 3');
    expect(renamed.status).toBe('completed');
    expect(JSON.parse(renamed.text).logs ?? '').not.toMatch(/calculation cache hit/);
    const row = await f.svc.store.db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', renamed.id!)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.database_names!)).toEqual({ BCC_A2: 'α-Fe' });
    const input = await calculationInput(f.svc.store, row);
    expect(input?.database?.phase_names).toEqual({ BCC_A2: 'α-Fe' });
    await put({ names: {} });
  }, 120_000);
});
