// What every chaos test of the lab server checks once its servers were restarted, killed or cut off: every task
// the API acknowledged (200 to POST /task) reaches a terminal state, no task stored a result twice, no process
// died that the test did not kill, every stored file's sha256 matches its record, and no folder or file is left
// that no record owns (the API's orphan sweep runs every 2 s in these tests).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { expect } from 'vitest';
import { api, until } from '../service/helpers.js';
import { openStore } from '../../main/db/index.js';
import type { Lab } from './lab.js';

export const TERMINAL = ['completed', 'failed', 'aborted'];

/**
 * The environment of a chaos lab: a quick orphan sweep, a short grace, and a pending-task cap above the tests'
 * bursts. On a loaded machine the workers drain a burst of 20 slower than the next round posts, and the default cap
 * of 20 would refuse its tasks with 403 (the cap itself is proven by the contract suite, not here).
 */
export const CHAOS_ENV = {
  PHASEDESK_ORPHAN_SWEEP_SECONDS: '2',
  PHASEDESK_ORPHAN_GRACE_SECONDS: '2',
  PHASEDESK_MAX_PENDING_TASKS: '1000',
};

export const status = (lab: Lab, id: number) =>
  api(lab.port, 'GET', `/task/${id}`, { key: lab.keyA }).catch(() => ({ status: 0, body: {} as any }));

export const sleepTask = (lab: Lab, seconds: number) =>
  api(lab.port, 'POST', '/task', {
    key: lab.keyA,
    body: { title: 'sleep', no_cache: true, task_config: { task_type: '__test_sleep', tdb_code: 'ALFE', seconds } },
  });

/** Waits until every task is in a terminal state; returns their records. */
export async function allTerminal(lab: Lab, ids: number[]): Promise<Map<number, any>> {
  const out = new Map<number, any>();
  for (const id of ids)
    out.set(
      id,
      (
        await until(
          () => status(lab, id),
          (r) => TERMINAL.includes(r.body?.status),
          100,
        )
      ).body,
    );
  return out;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Folders and files of tasks/ that no record owns (a running task's folder is its own). */
async function orphans(lab: Lab): Promise<string[]> {
  const store = await openStore(lab.dataDir, { databaseUrl: lab.databaseUrl, log: () => {} });
  try {
    const tasks = new Map(
      (await store.db.selectFrom('tasks').select(['id', 'uuid', 'status']).execute()).map((t) => [t.uuid, t]),
    );
    const owned = new Set(
      (await store.db.selectFrom('task_files').select('rel_path').execute()).map((f) => f.rel_path),
    );
    const root = join(lab.dataDir, 'tasks');
    const found: string[] = [];
    for (const name of readdirSync(root)) {
      const t = tasks.get(name);
      if (!t) found.push(name);
      else if (TERMINAL.includes(t.status))
        for (const f of filesUnder(join(root, name))) {
          const rel = relative(lab.dataDir, f).split(sep).join('/');
          if (!owned.has(rel)) found.push(rel);
        }
    }
    return found;
  } finally {
    await store.close();
  }
}

/** Every recorded file exists and its sha256 is the recorded one; no task has two files of one name. */
async function checkFiles(lab: Lab, ids: number[]): Promise<number> {
  const store = await openStore(lab.dataDir, { databaseUrl: lab.databaseUrl, log: () => {} });
  try {
    const files = await store.db.selectFrom('task_files').selectAll().where('task_id', 'in', ids).execute();
    for (const f of files) {
      const sha = createHash('sha256')
        .update(readFileSync(join(lab.dataDir, f.rel_path)))
        .digest('hex');
      expect(sha, f.rel_path).toBe(f.sha256);
    }
    const names = files.map((f) => `${f.task_id}/${f.kind}/${f.name}`);
    expect(new Set(names).size, 'a task has two files of one name').toBe(names.length);
    return files.length;
  } finally {
    await store.close();
  }
}

export interface ChaosFigures {
  tasks: number;
  stuck: number;
  duplicateResults: number;
  files: number;
}

/**
 * The checks after a chaos run. `expected`: the state each acknowledged task must end in (default completed).
 * A task stores its result at most once: one "file(s) stored" line in its log, and over every worker's output one
 * "result completed" line naming it.
 */
export async function checkAfterChaos(
  lab: Lab,
  ids: number[],
  expected: Record<number, string> = {},
): Promise<ChaosFigures> {
  const records = await allTerminal(lab, ids);
  let duplicateResults = 0;
  const store = await openStore(lab.dataDir, { databaseUrl: lab.databaseUrl, log: () => {} });
  const uuids = new Map(
    (await store.db.selectFrom('tasks').select(['id', 'uuid']).where('id', 'in', ids).execute()).map((r) => [
      r.id,
      r.uuid,
    ]),
  );
  await store.close();
  const workerOutput = lab.processes.map((p) => p.output()).join('\n');
  for (const [id, r] of records) {
    expect(r.status, `task ${id}: ${r.logs}`).toBe(expected[id] ?? 'completed');
    const stores = (r.logs.match(/file\(s\) stored/g) ?? []).length;
    const results = workerOutput
      .split('\n')
      .filter((l) => l.includes(`task ${uuids.get(id)}: result completed`)).length;
    if (r.status === 'completed' && (stores !== 1 || results !== 1)) duplicateResults++;
  }
  expect(duplicateResults, 'tasks that stored a result twice').toBe(0);
  expect(
    lab.deaths().map((p) => p.output().slice(-2000)),
    'processes that died without being killed',
  ).toEqual([]);
  const files = await checkFiles(lab, ids);
  const left = await until(
    () => orphans(lab),
    (o) => o.length === 0,
    500,
  );
  expect(left).toEqual([]);
  return { tasks: ids.length, stuck: 0, duplicateResults, files };
}

/** The text of a task's stored file of this name (the store's record, read from the blob directory). */
export async function storedFile(lab: Lab, id: number, name: string): Promise<string> {
  const store = await openStore(lab.dataDir, { databaseUrl: lab.databaseUrl, log: () => {} });
  try {
    const f = await store.db
      .selectFrom('task_files')
      .select('rel_path')
      .where('task_id', '=', id)
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return readFileSync(join(lab.dataDir, f.rel_path), 'utf8');
  } finally {
    await store.close();
  }
}
