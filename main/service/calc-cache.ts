// The calculation cache: a task whose configuration, database file and engine equal those of a completed task takes
// that task's result and files instead of running again (unless it asks for no_cache). The key is filled when a
// calculation's files are stored (main/service/task-outcome.ts) and read when a task is created.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB, Store, StoreDialect } from '../db/index.js';
import { rfc3339 } from '../util/time.js';
import { ENGINE_CACHE_TAG } from '../../contract/version.js';
import type { BlobStore } from './blob-store.js';
import { insertTaskFiles } from './task-file-rows.js';

/** Part of the calculation cache key: a new engine version never reuses old results. */
export const ENGINE_VERSION = ENGINE_CACHE_TAG;

/** JSON with sorted object keys: the normalized form hashed for the calculation cache. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * The key of a calculation: its configuration, the database file, the engine and, for a database with a recommended
 * phase selection (JSON as stored), that selection, which decides the phases when the task gives no inhibit_phases;
 * and the database's phase display names where it has some, which its previews print.
 */
export function cacheKey(
  config: Record<string, unknown>,
  dbSha256: string,
  dbSelection: string | null = null,
  dbNames: string | null = null,
): string {
  const { task_path: _tp, tdb_file: _tf, ...rest } = config;
  const selection = dbSelection === null ? '' : `\n${canonicalJson(JSON.parse(dbSelection))}`;
  const names = dbNames === null ? '' : `\nnames ${canonicalJson(JSON.parse(dbNames))}`;
  return createHash('sha256')
    .update(`${canonicalJson(rest)}\n${dbSha256}\n${ENGINE_VERSION}${selection}${names}`)
    .digest('hex');
}

/** A completed task whose result a new task with this key reuses. */
export interface CacheHit {
  id: number;
  task_uuid: string;
  result: string | null;
}

/**
 * Inside the creating transaction. On PostgreSQL the source task's row is held (FOR SHARE) until that transaction
 * ends, so a deletion of the source (main/service/tasks.ts) waits until its files are copied; SQLite's one
 * connection runs the two transactions one after the other.
 */
export async function cachedCalculation(
  db: Kysely<DB>,
  key: string,
  dialect: StoreDialect,
): Promise<CacheHit | undefined> {
  const q = db
    .selectFrom('calc_cache as c')
    .innerJoin('tasks as t', 't.uuid', 'c.task_uuid')
    .select(['c.task_uuid', 'c.result', 't.id'])
    .where('c.cache_key', '=', key)
    .where('t.status', '=', 'completed');
  return (dialect === 'postgres' ? q.forShare('t') : q).executeTakeFirst();
}

/** The cached task's files could not be copied (gone or unreadable): the new task calculates instead. */
export class CachedFilesUnreadable extends Error {}

/** The files of the cached task become the new task's: rows (inside the creating transaction) and copies. */
export async function reuseCachedFiles(
  db: Kysely<DB>,
  blobs: BlobStore,
  hit: CacheHit,
  taskId: number,
  uuid: string,
): Promise<void> {
  const files = await db
    .selectFrom('task_files')
    .select(['kind', 'name', 'size', 'sha256', 'rel_path'])
    .where('task_id', '=', hit.id)
    .execute();
  const copies = files.map((f) => ({ ...f, relPath: blobs.relPath(uuid, f.kind, f.name) }));
  await insertTaskFiles(db, taskId, copies);
  try {
    blobs.copy(copies.map((f) => ({ from: f.rel_path, to: f.relPath })));
  } catch (e) {
    throw new CachedFilesUnreadable(`the cached result's files could not be copied (${(e as Error).message})`);
  }
}

/** A completed calculation becomes the cached one of its key (replacing an earlier task's entry). */
export async function rememberCalculation(
  store: Store,
  key: string,
  uuid: string,
  summary: string | null,
): Promise<void> {
  await store.db
    .insertInto('calc_cache')
    .values({ cache_key: key, task_uuid: uuid, result: summary, created_at: rfc3339() })
    .onConflict((oc) => oc.column('cache_key').doUpdateSet({ task_uuid: uuid, result: summary, created_at: rfc3339() }))
    .execute();
}
