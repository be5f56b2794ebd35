// The Python client (clients/python, standard library only) against a real service, through
// test/clients/python/check_client.py run with python3: its operations, arguments and TypedDicts checked against
// the OpenAPI document the service serves, then a whole session (key info, databases, phases, a point calculation
// waited for, result.json through a signed URL, typed errors, waiting stopped by an event, cancel, delete), and the
// Al-0.4Zr ageing treatment of the aging task's speed goals on kawin's Al-Sc-Zr database.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agingExample } from '../../contract/tasks/aging-examples.js';
import { ROOT, startFixture, type Fixture } from '../service/helpers.js';
import { importAlScZr } from '../support/kawin-databases.js';

const run = promisify(execFile);
const SCRIPT = join(ROOT, 'test', 'clients', 'python', 'check_client.py');

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
  await importAlScZr(f);
});
afterAll(async () => {
  await f?.close();
});

describe('Python client', () => {
  it('matches the OpenAPI document and runs a session against the service', async () => {
    // Asynchronous child process: the service answers from this same event loop.
    const sleepConfig = JSON.stringify({ task_type: '__test_sleep', tdb_code: 'ALFE', seconds: 3600 });
    const agingConfig = JSON.stringify({ ...agingExample('alzr').config, tdb_code: 'ALSCZR' });
    const out = await run('python3', [SCRIPT, f.svc.baseUrl, f.keyA, sleepConfig, agingConfig], {
      timeout: 120_000,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    }).catch((e: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    });
    const report = JSON.parse(out.stdout.trim().split('\n').at(-1)!) as {
      ok: boolean;
      operations: number;
      schemas: number;
      T: number;
      task_id: number;
      aging: Record<string, { N: number; r: number; f: number }>;
    };
    expect(report.ok).toBe(true);
    expect(report.operations).toBe(17);
    expect(report.T).toBe(1200);
    // Al3Zr after 500 h at 723 K: coarsened nanometre particles holding about the equilibrium amount (0.0156)
    expect(report.aging.AL3ZR!.N).toBeGreaterThan(1e20);
    expect(report.aging.AL3ZR!.r).toBeGreaterThan(1e-9);
    expect(report.aging.AL3ZR!.f).toBeGreaterThan(0.01);
    // The session's task really exists in the service, computed by the worker.
    const row = await f.svc.store.db
      .selectFrom('tasks')
      .select(['status', 'task_type'])
      .where('id', '=', report.task_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'completed', task_type: 'point_calculation' });
  });
});
