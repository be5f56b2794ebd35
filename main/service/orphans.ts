// Task folders and upload files that no record owns: a kill -9 between a folder's creation and its task's commit
// (a cache hit copies files inside the creating transaction), between a task's deletion and its folder's removal, a
// calculation whose task failed or was cancelled, an attempt of a lab-server job that lost its lock
// (main/server/attempt-dir.ts), a database upload interrupted before its record. The embedded service sweeps at start
// (nothing is being written then: it holds the data directory) and both it and the lab server's API on a schedule,
// leaving alone anything changed within the grace period and every folder of a task still running except attempts
// that are no longer its job's latest.
import { existsSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Store } from '../db/index.js';
import { TERMINAL } from '../../contract/task-states.js';
import { ATTEMPT_FOLDER } from './blob-store.js';

const UUID_DIR = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface TaskInfo {
  id: number;
  status: string;
  owned: Set<string>;
  /** latest attempt per attempt-folder kind (run: the task's job, merge: a grid's merge job) */
  latest: { run: number; merge: number };
}

/** Newest modification time in a folder tree (a file or folder being written keeps it recent). */
function newestMtime(path: string): number {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, e)));
  return newest;
}

async function taskInfos(store: Store, uuids: string[]): Promise<Map<string, TaskInfo>> {
  const out = new Map<string, TaskInfo>();
  for (let i = 0; i < uuids.length; i += 500) {
    const part = uuids.slice(i, i + 500);
    const rows = await store.db
      .selectFrom('tasks')
      .select(['id', 'uuid', 'status'])
      .where('uuid', 'in', part)
      .execute();
    for (const r of rows)
      out.set(r.uuid, { id: r.id, status: r.status, owned: new Set(), latest: { run: 0, merge: 0 } });
  }
  const byId = new Map([...out.values()].map((t) => [t.id, t]));
  const ids = [...byId.keys()];
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    for (const f of await store.db
      .selectFrom('task_files')
      .select(['task_id', 'rel_path'])
      .where('task_id', 'in', part)
      .execute())
      byId.get(f.task_id)?.owned.add(f.rel_path);
    for (const a of await store.db
      .selectFrom('job_attempts')
      .select(['task_id', 'job_id', 'attempt'])
      .where('task_id', 'in', part)
      .execute()) {
      const t = byId.get(a.task_id)!;
      if (a.job_id.startsWith('task-')) t.latest.run = Math.max(t.latest.run, a.attempt);
      else if (a.job_id.endsWith('-merge')) t.latest.merge = Math.max(t.latest.merge, a.attempt);
    }
  }
  return out;
}

/** Removes the files under `dir` no record owns (changed before `before`), then the folders left empty. */
function removeUnowned(dataDir: string, dir: string, owned: Set<string>, before: number, removed: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) removeUnowned(dataDir, full, owned, before, removed);
    else if (!owned.has(relative(dataDir, full).split(sep).join('/')) && newestMtime(full) < before) {
      rmSync(full, { force: true });
      removed.push(full);
    }
  }
  if (readdirSync(dir).length === 0 && newestMtime(dir) < before) {
    try {
      rmdirSync(dir);
    } catch {
      /* written meanwhile */
    }
  }
}

/** A task still running keeps its folder; only attempt folders that are no longer their job's latest go. */
function removeStaleAttempts(dir: string, t: TaskInfo, before: number, removed: string[]): void {
  for (const e of readdirSync(dir)) {
    const m = ATTEMPT_FOLDER.exec(e);
    if (!m) continue;
    const latest = m[1] === 'run' ? t.latest.run : t.latest.merge;
    if (Number(m[2]) < latest && newestMtime(join(dir, e)) < before) {
      rmSync(join(dir, e), { recursive: true, force: true });
      removed.push(join(dir, e));
    }
  }
}

/** The task folders (tasks/<uuid>) no record owns, or the parts of them none does; returns what was removed. */
export async function sweepTaskFolders(store: Store, dataDir: string, graceMs: number): Promise<string[]> {
  const root = join(dataDir, 'tasks');
  if (!existsSync(root)) return [];
  const names = readdirSync(root).filter((n) => UUID_DIR.test(n));
  const infos = await taskInfos(store, names);
  const before = Date.now() - graceMs;
  const removed: string[] = [];
  for (const name of names) {
    const dir = join(root, name);
    const t = infos.get(name);
    if (!t) {
      if (newestMtime(dir) < before) {
        rmSync(dir, { recursive: true, force: true });
        removed.push(dir);
      }
    } else if ((TERMINAL as readonly string[]).includes(t.status))
      removeUnowned(dataDir, dir, t.owned, before, removed);
    else removeStaleAttempts(dir, t, before, removed);
  }
  return removed;
}

/** Database files in databases/ that no record names (an upload's temporary file, a copy made before its record). */
export async function sweepUploads(store: Store, dataDir: string, graceMs: number): Promise<string[]> {
  const dir = join(dataDir, 'databases');
  if (!existsSync(dir)) return [];
  const recorded = new Set(
    (await store.db.selectFrom('databases').select('file_path').execute()).map((r) => resolve(r.file_path)),
  );
  const before = Date.now() - graceMs;
  const removed: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (!e.isFile() || !/\.tdb(\.tmp)?$/i.test(e.name) || recorded.has(resolve(full))) continue;
    if (newestMtime(full) < before) {
      rmSync(full, { force: true });
      removed.push(full);
    }
  }
  return removed;
}

/** Both sweeps; `taskGraceMs` may be 0 where nothing can be writing (the embedded service at start). */
export async function sweepOrphans(
  store: Store,
  dataDir: string,
  o: { graceMs: number; taskGraceMs?: number },
): Promise<string[]> {
  return [
    ...(await sweepTaskFolders(store, dataDir, o.taskGraceMs ?? o.graceMs)),
    ...(await sweepUploads(store, dataDir, o.graceMs)),
  ];
}

/** Sweeps every `everyMs` (one pass at a time); failures are logged, the next pass tries again. */
export function scheduleOrphanSweep(
  store: Store,
  dataDir: string,
  o: { everyMs: number; graceMs: number; log(line: string): void },
): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepOrphans(store, dataDir, { graceMs: o.graceMs })
      .then((removed) => {
        if (removed.length) o.log(`orphan sweep: removed ${removed.length} folder(s) or file(s) no record owns`);
      })
      .catch((e: Error) => o.log(`orphan sweep failed: ${e.message}`))
      .finally(() => {
        running = false;
      });
  }, o.everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
