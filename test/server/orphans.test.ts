// Task folders and upload files that no record owns (a kill -9 between a folder and its record, a task failed
// mid-calculation, an interrupted upload): the embedded service removes them at start, and on its schedule those
// older than the grace period, keeping every recorded file and anything changed more recently.
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, startFixture, until, type Fixture } from '../service/helpers.js';
import { startService, type RunningService } from '../../main/server.js';

let f: Fixture | undefined;
let again: RunningService | undefined;
afterAll(async () => {
  await again?.close();
  await f?.close();
});

/** A folder with one file, last changed `agoMs` ago. */
function plant(dir: string, file: string, agoMs: number): string {
  mkdirSync(dir, { recursive: true });
  const p = join(dir, file);
  writeFileSync(p, 'left behind\n');
  const t = new Date(Date.now() - agoMs);
  utimesSync(p, t, t);
  utimesSync(dir, t, t);
  return p;
}

const HOUR = 3600_000;

describe('orphans of the embedded service', () => {
  it('removed at start (folders without a task, unrecorded files, interrupted uploads); records kept', async () => {
    f = await startFixture();
    const created = await api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: { title: 'w', no_cache: true, task_config: { task_type: '__test_write', tdb_code: 'ALFE', seconds: 1 } },
    });
    const done = await until(
      () => api(f!.svc.port, 'GET', `/task/${created.body.id}`, { key: f!.keyA }),
      (r) => r.body.status === 'completed',
    );
    expect(done.body.status).toBe('completed');
    const files = await f.svc.store.db
      .selectFrom('task_files')
      .selectAll()
      .where('task_id', '=', created.body.id)
      .execute();
    expect(files.length).toBe(3);
    const uuid = (
      await f.svc.store.db
        .selectFrom('tasks')
        .select('uuid')
        .where('id', '=', created.body.id)
        .executeTakeFirstOrThrow()
    ).uuid;
    await f.svc.close();

    const tasks = join(f.dataDir, 'tasks');
    const orphanDirs = [1, 2, 3].map(() => join(tasks, randomUUID()));
    orphanDirs.forEach((d, k) => plant(join(d, 'result'), 'result.json', k * HOUR)); // one of them just written
    const stray = plant(join(tasks, uuid, 'preview'), 'stray.svg', HOUR);
    const upload = plant(join(f.dataDir, 'databases'), `.upload-${randomUUID()}.tdb`, HOUR);
    const copyWithoutRecord = plant(join(f.dataDir, 'databases'), 'NEVER_RECORDED.tdb', HOUR);
    const uploading = plant(join(f.dataDir, 'databases'), `.upload-${randomUUID()}.tdb`, 0);

    again = await startService({ dataDir: f.dataDir, port: 0, bootstrap: false, poolSize: 1 }, () => {});
    for (const d of orphanDirs) expect(existsSync(d), d).toBe(false);
    for (const p of [stray, upload, copyWithoutRecord]) expect(existsSync(p), p).toBe(false);
    // an upload being written (changed within the grace period) stays; so do every recorded file and database
    expect(existsSync(uploading)).toBe(true);
    expect(existsSync(join(f.dataDir, 'databases', 'ALFE.tdb'))).toBe(true);
    for (const r of files)
      expect(
        createHash('sha256')
          .update(readFileSync(join(f.dataDir, r.rel_path)))
          .digest('hex'),
      ).toBe(r.sha256);
    await again.close();
    again = undefined;
  });

  it('removed on the schedule once older than the grace period', async () => {
    again = await startService(
      { dataDir: f!.dataDir, port: 0, bootstrap: false, poolSize: 1, orphans: { sweepSeconds: 1, graceSeconds: 3 } },
      () => {},
    );
    const fresh = join(f!.dataDir, 'tasks', randomUUID());
    plant(join(fresh, 'result'), 'result.json', 0);
    await new Promise((r) => setTimeout(r, 1500));
    expect(existsSync(fresh)).toBe(true); // within the grace period: a task may be being written
    await until(
      async () => existsSync(fresh),
      (x) => !x,
      200,
    );
  });
});
