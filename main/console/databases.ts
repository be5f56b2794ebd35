import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve, dirname } from 'node:path';
import type { Store } from '../db/index.js';
import { parseTdbForImport } from './tdb-import.js';
import { sha256File } from '../service/files.js';
import { MOBILITY_TYPE } from '../service/databases.js';
import { rfc3339 } from '../util/time.js';
import { userIdByName } from './users.js';
import { caseCollision, databaseCodeProblem } from '../../contract/database-code.js';
import type { DatabasePhaseSelection } from '../../contract/phase-selection.js';
import type { DatabasesTable } from '../db/types.js';

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
  /** extension fields of the record; undefined keeps what a replaced record had */
  source?: string | null;
  license?: string | null;
  attribution?: string | null;
  phase_selection?: DatabasePhaseSelection | null;
}

/** The record's extension fields as stored, for the ones `meta` gives. */
export function setupColumns(
  meta: Pick<DbMeta, 'source' | 'license' | 'attribution' | 'phase_selection'>,
): Partial<Pick<DatabasesTable, 'source' | 'license' | 'attribution' | 'phase_selection'>> {
  const out: Partial<Pick<DatabasesTable, 'source' | 'license' | 'attribution' | 'phase_selection'>> = {};
  for (const k of ['source', 'license', 'attribution'] as const) if (meta[k] !== undefined) out[k] = meta[k];
  if (meta.phase_selection !== undefined)
    out.phase_selection = meta.phase_selection === null ? null : JSON.stringify(meta.phase_selection);
  return out;
}

/**
 * Refuses a code that cannot name the stored file (<code>.tdb): too long, characters outside the safe set, a Windows
 * device name, or a code that differs from an existing one only by case (one file on macOS and Windows).
 */
export async function checkNewCode(store: Store, code: string): Promise<void> {
  const problem = databaseCodeProblem(code);
  if (problem) throw new Error(`code: ${problem}`);
  const codes = (await store.db.selectFrom('databases').select('code').execute()).map((r) => r.code);
  const other = caseCollision(code, codes);
  if (other)
    throw new Error(
      `code: '${code}' differs from the existing database '${other}' only by case; the two files would be one on macOS and Windows`,
    );
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
  await checkNewCode(store, meta.code);
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
    ...setupColumns(meta),
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
  const id = await registerDatabase(store, dataDir, file, info.mobilityOnly ? { ...meta, type: MOBILITY_TYPE } : meta, {
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
  /** where the file comes from, its licence and the attribution the licence requires */
  source?: string;
  license?: string;
  attribution?: string;
  /** the recommended phase selection (contract/phase-selection.ts) */
  phase_selection?: DatabasePhaseSelection;
}

export function readCatalog(catalogFile: string): { entries: CatalogEntry[]; baseDir: string } | undefined {
  if (!existsSync(catalogFile)) return undefined;
  const entries = JSON.parse(readFileSync(catalogFile, 'utf8')) as CatalogEntry[];
  if (!Array.isArray(entries)) throw new Error(`${catalogFile}: expected a JSON array`);
  // Entries name files like "databases/x.tdb": relative to the repository root, i.e. the catalog's parent.
  return { entries, baseDir: dirname(dirname(resolve(catalogFile))) };
}
