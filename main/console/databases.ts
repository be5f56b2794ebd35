import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve, dirname } from 'node:path';
import type { Store } from '../db/index.js';
import { parseTdbForImport } from './tdb-import.js';
import { sha256File } from '../service/files.js';
import { rfc3339 } from '../util/time.js';
import { userIdByName } from './users.js';

export interface DbMeta {
  code: string;
  name: string;
  level: string;
  type: string;
  version: string;
  description?: string;
  support_task_list?: string[];
  price?: number;
  sp_id?: string | null;
}

/**
 * Copies a TDB file into <dataDir>/databases/ (the server-managed path) and records it. element_list and
 * phase_list must come from the project's single TDB reader: importDatabase() below reads them.
 */
export async function registerDatabase(
  store: Store,
  dataDir: string,
  file: string,
  meta: DbMeta,
  lists: { element_list: string[]; phase_list: string[] },
): Promise<string> {
  if (!/^[A-Za-z0-9_.-]+$/.test(meta.code)) throw new Error('code may only contain letters, digits, _ . -');
  if (!existsSync(file)) throw new Error(`${file}: no such file`);
  const dir = join(dataDir, 'databases');
  mkdirSync(dir, { recursive: true });
  const target = join(dir, `${meta.code}.tdb`);
  copyFileSync(file, target);
  const id = randomUUID();
  const now = rfc3339();
  const values = {
    code: meta.code,
    name: meta.name,
    description: meta.description ?? '',
    type: meta.type,
    version: meta.version,
    level: meta.level,
    element_list: JSON.stringify(lists.element_list),
    phase_list: JSON.stringify(lists.phase_list),
    support_task_list: JSON.stringify(meta.support_task_list ?? []),
    sp_id: meta.sp_id ?? null,
    price: meta.price ?? 0,
    file_path: target,
    file_sha256: sha256File(target),
    updated_at: now,
  };
  const existing = await store.db.selectFrom('databases').select('id').where('code', '=', meta.code).executeTakeFirst();
  if (existing) {
    await store.db.updateTable('databases').set(values).where('id', '=', existing.id).execute();
    return existing.id;
  }
  await store.db
    .insertInto('databases')
    .values({ id, ...values, state: 'enable', created_at: now })
    .execute();
  return id;
}

/** `db import FILE ...`: reads elements and phases with native-core's TDB reader (worker/core/database.ts). */
export async function importDatabase(
  store: Store,
  dataDir: string,
  file: string,
  meta: DbMeta,
): Promise<{ id: string; warnings: string[] }> {
  const { info } = await parseTdbForImport(readFileSync(resolve(file), 'utf8'), basename(file));
  const id = await registerDatabase(store, dataDir, file, meta, {
    element_list: info.elements,
    phase_list: info.phases,
  });
  return { id, warnings: [...info.warnings, ...info.refusals.map((r) => `phase ${r.phase} refused: ${r.reason}`)] };
}

export async function setDatabaseState(
  store: Store,
  code: string,
  state: 'enable' | 'disable' | 'invisible',
): Promise<void> {
  const r = await store.db
    .updateTable('databases')
    .set({ state, updated_at: rfc3339() })
    .where('code', '=', code)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new Error(`database '${code}' does not exist`);
}

export async function subscribe(
  store: Store,
  o: { username: string; code: string; status: string; expiresAt?: string | null; plan?: string | null },
): Promise<void> {
  const userId = await userIdByName(store, o.username);
  const db = await store.db.selectFrom('databases').select('id').where('code', '=', o.code).executeTakeFirst();
  if (!db) throw new Error(`database '${o.code}' does not exist`);
  let planId: string | null = null;
  if (o.plan) {
    const p = await store.db.selectFrom('plans').select('id').where('name', '=', o.plan).executeTakeFirst();
    if (!p) throw new Error(`plan '${o.plan}' does not exist`);
    planId = p.id;
  }
  const now = rfc3339();
  await store.db
    .insertInto('subscriptions')
    .values({
      id: randomUUID(),
      user_id: userId,
      database_id: db.id,
      status: o.status,
      expires_at: o.expiresAt ?? null,
      plan_id: planId,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'database_id'])
        .doUpdateSet({ status: o.status, expires_at: o.expiresAt ?? null, plan_id: planId, updated_at: now }),
    )
    .execute();
}

export interface CatalogEntry {
  file: string;
  code: string;
  name: string;
  description?: string;
  type: string;
  version: string;
  level: string;
  support_task_list?: string[];
}

export function readCatalog(catalogFile: string): { entries: CatalogEntry[]; baseDir: string } | undefined {
  if (!existsSync(catalogFile)) return undefined;
  const entries = JSON.parse(readFileSync(catalogFile, 'utf8')) as CatalogEntry[];
  if (!Array.isArray(entries)) throw new Error(`${catalogFile}: expected a JSON array`);
  // Entries name files like "databases/x.tdb": relative to the repository root, i.e. the catalog's parent.
  return { entries, baseDir: dirname(dirname(resolve(catalogFile))) };
}
