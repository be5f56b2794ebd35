// Web-console operations behind the local console API (main/api/console.ts): the parts of
// shared/spec/service-spec.md that the spec leaves to the "web console" (keys: created, viewed, named, disabled,
// deleted; databases: import, enablement state enable/disable/invisible, subscription records) plus the
// service settings. The CLI (main/cli.ts) reaches the same store through main/console/{keys,databases}.ts.
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../db/index.js';
import {
  envNameOf,
  readSettingsFile,
  resolveSettings,
  SETTING_BOUNDS,
  SETTINGS_FILE,
  type SavedSettings,
  type ServiceSettings,
} from '../config.js';
import { effectiveStatus, MOBILITY_TYPE, selectionOf } from '../service/databases.js';
import { HttpError } from '../util/errors.js';
import { isPast } from '../util/time.js';
import { checkNewCode, registerDatabase, setDatabaseState, setupColumns, subscribe, type DbMeta } from './databases.js';
import { codeFromFileName, nameFromFileName } from '../../contract/database-code.js';
import { rfc3339 } from '../util/time.js';
import { parseTdbForImport } from './tdb-import.js';
import type {
  ConsoleDb,
  ConsoleKey,
  ConsoleUser,
  DbState,
  ImportReport,
  SettingsView,
} from '../../contract/api/console.js';

// ---------------------------------------------------------------- users and keys

export async function listUsers(store: Store): Promise<ConsoleUser[]> {
  return store.db
    .selectFrom('users')
    .innerJoin('plans', 'plans.id', 'users.plan_id')
    .select(['users.id', 'users.username', 'users.email', 'plans.name as plan', 'users.created_at'])
    .orderBy('users.username')
    .execute();
}

/** Every key of every user; the clear key is never stored, only its display prefix. */
export async function listAllKeys(store: Store, now = Date.now()): Promise<ConsoleKey[]> {
  const rows = await store.db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.key_prefix',
      'api_keys.key_name',
      'api_keys.is_active',
      'api_keys.created_at',
      'api_keys.last_used_at',
      'api_keys.expires_at',
      'users.username',
    ])
    .orderBy('api_keys.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    key_prefix: r.key_prefix,
    key_name: r.key_name,
    is_active: r.is_active === 1,
    created_at: r.created_at,
    last_used_at: r.last_used_at,
    expires_at: r.expires_at,
    expired: isPast(r.expires_at, now),
    username: r.username,
  }));
}

export async function keyExists(store: Store, id: number): Promise<boolean> {
  return (await store.db.selectFrom('api_keys').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

// ---------------------------------------------------------------- databases

/** All database records whatever their enablement state, with every subscription record of each. */
export async function listAllDatabases(store: Store): Promise<ConsoleDb[]> {
  const rows = await store.db.selectFrom('databases').selectAll().orderBy('code').execute();
  const subs = await store.db
    .selectFrom('subscriptions')
    .innerJoin('users', 'users.id', 'subscriptions.user_id')
    .select(['subscriptions.database_id', 'subscriptions.status', 'subscriptions.expires_at', 'users.username'])
    .execute();
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    name: r.name,
    description: r.description,
    type: r.type,
    version: r.version,
    level: r.level,
    state: r.state as DbState,
    element_list: JSON.parse(r.element_list) as string[],
    phase_list: JSON.parse(r.phase_list) as string[],
    support_task_list: JSON.parse(r.support_task_list) as string[],
    file_sha256: r.file_sha256,
    created_at: r.created_at,
    updated_at: r.updated_at,
    source: r.source,
    license: r.license,
    attribution: r.attribution,
    phase_selection: selectionOf(r),
    subscriptions: subs
      .filter((s) => s.database_id === r.id)
      .map((s) => ({
        username: s.username,
        status: effectiveStatus(s),
        stored_status: s.status,
        expires_at: s.expires_at,
      })),
  }));
}

export interface ImportRequest extends Omit<DbMeta, 'code' | 'name'> {
  /** The record's code; absent: derived from the file name (contract/database-code.ts codeFromFileName). */
  code?: string;
  /** The record's name; absent: the file name without its extension. */
  name?: string;
  /** Name of the uploaded file, used in "FILE:LINE: message" errors and warnings. */
  file_name: string;
  /** The file's text (console upload) or bytes (CLI: stored exactly as read). */
  tdb: string | Buffer;
  replace: boolean;
  /** Subscribe this user (normally "local") with status active, no expiry; null = none. */
  subscribe_user: string | null;
}

/**
 * Old Mac files end lines with a lone CR, which the reader (and every later calculation on the stored copy) would
 * take as one long line: lone CRs become LF in what is parsed and stored. Other bytes are kept exactly (latin1 is a
 * byte-for-byte round trip).
 */
export function withLfLineEndings(tdb: string | Buffer): string | Buffer {
  if (typeof tdb === 'string') return tdb.includes('\r') ? tdb.replace(/\r(?!\n)/g, '\n') : tdb;
  return tdb.includes(0x0d) ? Buffer.from(tdb.toString('latin1').replace(/\r(?!\n)/g, '\n'), 'latin1') : tdb;
}

export type { ImportReport };

/** The request with its code and name: given, or derived from the file name (a free code, in any case). */
async function withCodeAndName(
  store: Store,
  req: ImportRequest,
): Promise<ImportRequest & { code: string; name: string }> {
  const taken = req.code ? [] : (await store.db.selectFrom('databases').select('code').execute()).map((r) => r.code);
  return {
    ...req,
    code: req.code ?? codeFromFileName(req.file_name, taken),
    name: req.name ?? nameFromFileName(req.file_name),
  };
}

/** PATCH /console/v1/databases/{code}: the enablement state and the record's extension fields. */
export async function updateDatabase(
  store: Store,
  code: string,
  patch: Pick<DbMeta, 'source' | 'license' | 'attribution' | 'phase_selection'> & { state?: DbState },
): Promise<void> {
  if (patch.state !== undefined) await setDatabaseState(store, code, patch.state);
  const columns = setupColumns(patch);
  if (Object.keys(columns).length === 0) return;
  const r = await store.db
    .updateTable('databases')
    .set({ ...columns, updated_at: rfc3339() })
    .where('code', '=', code)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new Error(`database '${code}' does not exist`);
}

/**
 * Imports an uploaded TDB text with the project's single TDB reader (worker/core/database.ts). A malformed file
 * is a 400 whose message is the reader's "FILE:LINE: message"; refused phases and warnings do not stop the
 * import and are returned one by one so the user sees exactly what loaded and what did not.
 */
export async function importUploadedDatabase(
  store: Store,
  dataDir: string,
  request: ImportRequest,
): Promise<ImportReport> {
  const req = await withCodeAndName(store, request);
  const existing = await store.db.selectFrom('databases').select('id').where('code', '=', req.code).executeTakeFirst();
  if (existing && !req.replace)
    throw new HttpError(409, `code: a database with code '${req.code}' already exists (set replace to overwrite it)`);
  try {
    await checkNewCode(store, req.code);
  } catch (e) {
    throw new HttpError(400, (e as Error).message);
  }
  if (req.subscribe_user) {
    const u = await store.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', req.subscribe_user)
      .executeTakeFirst();
    if (!u) throw new HttpError(400, `subscribe_user: user '${req.subscribe_user}' does not exist`);
  }
  const tdb = withLfLineEndings(req.tdb);
  const { info, parameterCount } = await parseTdbForImport(
    typeof tdb === 'string' ? tdb : tdb.toString('utf8'),
    req.file_name,
  );
  // The record keeps the server-managed copy (<dataDir>/databases/<code>.tdb); the upload goes through a temp file.
  const dir = join(dataDir, 'databases');
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.upload-${randomUUID()}.tdb`);
  writeFileSync(tmp, tdb);
  let id: string;
  try {
    id = await registerDatabase(store, dataDir, tmp, info.mobilityOnly ? { ...req, type: MOBILITY_TYPE } : req, {
      element_list: info.elements,
      phase_list: info.phases,
    });
  } catch (e) {
    throw new HttpError(400, (e as Error).message);
  } finally {
    rmSync(tmp, { force: true });
  }
  if (req.subscribe_user)
    await subscribe(store, { username: req.subscribe_user, code: req.code, status: 'active', expiresAt: null });
  const refused = new Set(info.refusals.map((r) => r.phase));
  return {
    id,
    code: req.code,
    file_name: req.file_name,
    replaced: existing !== undefined,
    elements: info.elements,
    phases_loaded: info.phases.filter((p) => !refused.has(p)),
    phases_refused: info.refusals,
    warnings: info.warnings,
    parameter_count: parameterCount,
    subscribed: req.subscribe_user,
    ...(info.mobilityOnly ? { mobility_only: true } : {}),
  };
}

// ---------------------------------------------------------------- settings

const ENV_NAMES = Object.fromEntries(Object.keys(SETTING_BOUNDS).map((k) => [k, envNameOf(k)])) as Record<
  keyof typeof SETTING_BOUNDS,
  string
>;

function asSaved(s: ServiceSettings): Required<SavedSettings> {
  return {
    pool_size: s.poolSize,
    thread_budget: s.threadBudget,
    port: s.port,
    max_pending_tasks: s.maxPendingTasks,
    request_timeout_seconds: s.requestTimeoutSeconds,
    ...s.workBounds,
  };
}

/** What runs now, what is saved, what the next start will use (env vars still win over the file). */
export function settingsView(
  current: ServiceSettings,
  actualPort: number,
  origin: string,
  env: NodeJS.ProcessEnv = process.env,
): SettingsView {
  const file = readSettingsFile(current.dataDir);
  const next = resolveSettings({ dataDir: current.dataDir }, env);
  const running = { ...asSaved(current), port: actualPort };
  const nextStart = asSaved(next);
  const envOverrides = Object.fromEntries(
    Object.entries(ENV_NAMES)
      .filter(([, v]) => env[v] !== undefined && env[v] !== '')
      .map(([k, v]) => [k, v]),
  );
  const keys = Object.keys(SETTING_BOUNDS) as (keyof typeof SETTING_BOUNDS)[];
  // Port 0 means "any free port": a running ephemeral port is not a pending change.
  const differs = keys.filter((k) => !(k === 'port' && nextStart.port === 0) && running[k] !== nextStart[k]);
  return {
    data_dir: current.dataDir,
    settings_file: join(current.dataDir, SETTINGS_FILE),
    settings_file_problem: file.problem ?? null,
    api_base_url: `${origin}/api/v2`,
    console_base_url: `${origin}/console/v1`,
    host: current.host,
    cpu_count: availableParallelism(),
    bounds: SETTING_BOUNDS,
    running,
    saved: file.saved,
    next_start: nextStart,
    env_overrides: envOverrides,
    restart_required: differs,
    in_use: {
      port: { value: actualPort, source: current.sources.port },
      data_dir: { value: current.dataDir, source: current.sources.dataDir },
    },
  };
}

/** Merges a change into settings.json (null removes a value: back to the default) and writes it atomically. */
export function saveSettings(
  dataDir: string,
  change: Partial<Record<keyof SavedSettings, number | null>>,
): SavedSettings {
  const { saved } = readSettingsFile(dataDir);
  const out: SavedSettings = { ...saved };
  for (const [k, v] of Object.entries(change) as [keyof SavedSettings, number | null | undefined][]) {
    if (v === undefined) continue;
    if (v === null) delete out[k];
    else out[k] = v;
  }
  const p = join(dataDir, SETTINGS_FILE);
  const tmp = `${p}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(out, null, 2) + '\n', 'utf8');
  renameSync(tmp, p);
  return out;
}

export function settingsFileExists(dataDir: string): boolean {
  return existsSync(join(dataDir, SETTINGS_FILE));
}
