import { createHash, randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { sql, type Selectable } from 'kysely';
import type { TaskListQuery } from '../api/schemas.js';
import type { TasksTable } from '../db/types.js';
import type { AuthContext } from './keys.js';
import type { ServiceContext } from './context.js';
import { HttpError } from '../util/errors.js';
import { taskTime } from '../util/time.js';
import { TEST_TASK_TYPES, testCalculationsEnabled, validateTaskConfig } from '../api/task-config.js';
import {
  taskBodyProblem,
  taskCreateBody,
  taskTypeProblem,
  type TaskCreateResponse,
} from '../../contract/api/task-request.js';
import type { FileListResponse, TaskListResponse, TaskStatusResponse } from '../../contract/api/responses.js';
import { ENGINE_CACHE_TAG } from '../../contract/version.js';
import { subscriptionAllowsTasks } from './databases.js';
import { checkTaskConfig } from './task-checks.js';
import { jsonShapeProblem } from '../api/json-body.js';
import { assertTransition, CANCELLABLE, type TaskState } from './task-state.js';
import { taskDir } from './files.js';

export type TaskRow = Selectable<TasksTable>;

/** Part of the calculation cache key: a new engine version never reuses old results. */
export const ENGINE_VERSION = ENGINE_CACHE_TAG;
const DAY_MS = 24 * 60 * 60 * 1000;

export function toTaskRecord(row: TaskRow): TaskStatusResponse {
  return {
    id: row.id,
    title: row.title,
    description: row.task_config,
    status: row.status as TaskState,
    task_type: row.task_type,
    result: row.result,
    logs: row.logs,
    user_id: row.user_id,
    tdb_code: row.tdb_code,
    created_at: row.created_at,
    updated_at: row.updated_at,
    // Extensions a spec client ignores: progress 0..1 and, while the task runs, a short stage text.
    progress: row.status === 'completed' ? 1 : row.progress,
    stage: row.status === 'running' || row.status === 'uploading' ? (row.stage ?? null) : null,
  };
}

export function logLine(msg: string): string {
  return `[${taskTime()}] ${msg}`;
}
function appendLog(prev: string | null, lines: string[]): string {
  return [...(prev ? [prev] : []), ...lines.map(logLine)].join('\n');
}

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

export function cacheKey(config: Record<string, unknown>, dbSha256: string): string {
  const { task_path: _tp, tdb_file: _tf, ...rest } = config;
  return createHash('sha256')
    .update(`${canonicalJson(rest)}\n${dbSha256}\n${ENGINE_VERSION}`)
    .digest('hex');
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** POST /task. */
export async function createTask(
  ctx: ServiceContext,
  auth: AuthContext,
  rawBody: unknown,
): Promise<TaskCreateResponse> {
  const parsed = taskCreateBody.safeParse(rawBody);
  if (!parsed.success) throw new HttpError(400, taskBodyProblem(parsed.error));
  const body = parsed.data;

  // task_config, or (decision) a description holding the JSON text of an object.
  let cfg = body.task_config;
  if (cfg === undefined || cfg === null) {
    let fromDescription: unknown;
    if (typeof body.description === 'string') {
      const problem = jsonShapeProblem(body.description, 'description');
      if (problem) throw new HttpError(400, problem);
      try {
        fromDescription = JSON.parse(body.description);
      } catch {
        fromDescription = undefined;
      }
    }
    if (!isPlainObject(fromDescription)) throw new HttpError(400, 'task_config or description is required');
    cfg = fromDescription;
  }
  const ompThreads = body.omp_threads ?? null;
  const noCache = body.no_cache === true;

  // Database code; legacy: derived from the file name of tdb_file (the client's path is never used).
  let code: string | undefined = typeof cfg.tdb_code === 'string' && cfg.tdb_code !== '' ? cfg.tdb_code : undefined;
  if (code === undefined && typeof cfg.tdb_file === 'string' && cfg.tdb_file !== '') {
    code = basename(cfg.tdb_file.replace(/\\/g, '/')).replace(/\.tdb$/i, '');
  }
  if (code === undefined) throw new HttpError(400, 'task_config.tdb_code or task_config.tdb_file is required');

  // Spec POST /task step 1: the database is resolved (enabled record, subscription access) before the
  // type-specific configuration is validated, so an unknown code is named even when the condition is incomplete.
  const dbRow = await ctx.store.db
    .selectFrom('databases')
    .selectAll()
    .where('code', '=', code)
    .where('state', '=', 'enable')
    .executeTakeFirst();
  if (!dbRow) throw new HttpError(400, `Db code '${code}' was not found or is disabled`);
  const sub = await ctx.store.db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', auth.user.id)
    .where('database_id', '=', dbRow.id)
    .executeTakeFirst();
  if (!subscriptionAllowsTasks(sub))
    throw new HttpError(403, `the current subscription does not allow access to Db code '${code}'`);

  const typeProblem = taskTypeProblem(cfg.task_type, testCalculationsEnabled() ? TEST_TASK_TYPES : []);
  if (typeProblem) throw new HttpError(400, typeProblem);
  const taskType = String(cfg.task_type);
  const normalized: Record<string, unknown> = { ...cfg, tdb_code: code };
  delete normalized.tdb_file;
  const v = validateTaskConfig(taskType, normalized);
  if (!v.ok) throw new HttpError(400, v.error);
  const config = v.value;
  const refusal = checkTaskConfig(
    taskType,
    config,
    {
      code,
      elements: JSON.parse(dbRow.element_list) as string[],
      phases: JSON.parse(dbRow.phase_list) as string[],
    },
    ctx.settings.workBounds,
  );
  if (refusal) throw new HttpError(400, refusal);

  const plan = await ctx.store.db
    .selectFrom('plans')
    .selectAll()
    .where('id', '=', auth.user.plan_id)
    .executeTakeFirst();
  const limit = plan?.task_using_limit ?? 0;
  const key = cacheKey(config, dbRow.file_sha256);

  // Check and insert in one transaction, so concurrent POSTs cannot exceed either limit: on SQLite the one
  // connection serialises the transactions; on PostgreSQL (many connections, many API processes) the user's row is
  // locked first (SELECT ... FOR UPDATE), so the counts of one user's creations are taken one transaction at a time.
  const now = new Date();
  const uuid = randomUUID();
  const storedConfig = JSON.stringify(config);
  const create = () =>
    ctx.store.db.transaction().execute(async (trx) => {
      if (ctx.store.dialect === 'postgres') {
        await trx.selectFrom('users').select('id').where('id', '=', auth.user.id).forUpdate().executeTakeFirst();
      }
      const used = Number(
        (
          await trx
            .selectFrom('task_creations')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('user_id', '=', auth.user.id)
            .where('created_ms', '>', now.getTime() - DAY_MS)
            .executeTakeFirstOrThrow()
        ).n,
      );
      if (used >= limit)
        throw new HttpError(403, `Rate limit exceeded: used ${used} of ${limit} requests in the last 24 hours`);
      const pending = Number(
        (
          await trx
            .selectFrom('tasks')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('user_id', '=', auth.user.id)
            .where('status', '=', 'pending')
            .executeTakeFirstOrThrow()
        ).n,
      );
      const max = ctx.settings.maxPendingTasks;
      if (pending >= max) {
        throw new HttpError(403, `Pending task limit exceeded. Maximum allowed pending tasks: ${max}`, {
          current_pending_tasks: pending,
          max_pending_tasks: max,
        });
      }
      const hit = noCache
        ? undefined
        : await trx
            .selectFrom('calc_cache as c')
            .innerJoin('tasks as t', 't.uuid', 'c.task_uuid')
            .select(['c.task_uuid', 'c.result', 't.id'])
            .where('c.cache_key', '=', key)
            .where('t.status', '=', 'completed')
            .executeTakeFirst();
      await trx.insertInto('task_creations').values({ user_id: auth.user.id, created_ms: now.getTime() }).execute();
      const status: TaskState = hit ? 'completed' : 'pending';
      const logs = hit ? logLine(`calculation cache hit: results reused from an identical earlier calculation`) : null;
      const inserted = await trx
        .insertInto('tasks')
        .values({
          uuid,
          title: body.title as string,
          task_config: storedConfig,
          status,
          task_type: taskType,
          tdb_code: code,
          database_id: dbRow.id,
          result: hit ? hit.result : null,
          logs,
          progress: hit ? 1 : 0,
          stage: null,
          user_id: auth.user.id,
          engine: 'thermo_next',
          omp_threads: ompThreads,
          no_cache: noCache ? 1 : 0,
          cache_key: key,
          created_at: taskTime(now),
          updated_at: taskTime(now),
          created_ms: now.getTime(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(inserted.id);
      if (hit) {
        const files = await trx
          .selectFrom('task_files')
          .select(['kind', 'name', 'size', 'sha256'])
          .where('task_id', '=', hit.id)
          .execute();
        if (files.length > 0) {
          await trx
            .insertInto('task_files')
            .values(
              files.map((f) => ({
                task_id: id,
                kind: f.kind,
                rel_path: ctx.blobs.relPath(uuid, f.kind, f.name),
                name: f.name,
                size: f.size,
                sha256: f.sha256,
              })),
            )
            .execute();
        }
        ctx.blobs.copy(hit.task_uuid, uuid);
      }
      return { id, status };
    });
  let created: { id: number; status: TaskState };
  try {
    created = await create();
  } catch (e) {
    if (!(e instanceof HttpError)) ctx.blobs.remove(uuid);
    throw e;
  }
  if (created.status === 'pending') ctx.kick();
  return { id: created.id, status: created.status, task_type: taskType, tdb_code: code };
}

function parseIntId(raw: string): number | undefined {
  return /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : undefined;
}
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function ownedTask(ctx: ServiceContext, auth: AuthContext, raw: string, allowUuid: boolean): Promise<TaskRow> {
  const id = parseIntId(raw);
  let row: TaskRow | undefined;
  if (id !== undefined)
    row = await ctx.store.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
  else if (allowUuid && UUID_RE.test(raw))
    row = await ctx.store.db.selectFrom('tasks').selectAll().where('uuid', '=', raw.toLowerCase()).executeTakeFirst();
  else throw new HttpError(400, allowUuid ? 'id must be an integer or uuid' : 'id must be an integer');
  if (!row) throw new HttpError(404, 'Task not found');
  if (row.user_id !== auth.user.id) throw new HttpError(403, 'Access denied');
  return row;
}

export async function getTask(ctx: ServiceContext, auth: AuthContext, raw: string): Promise<TaskStatusResponse> {
  return toTaskRecord(await ownedTask(ctx, auth, raw, false));
}

/**
 * Moves a task from `from` to `to` if it is still in `from` (compare-and-set). The state machine is
 * consulted first, so an illegal move throws whatever the database says.
 */
export async function transition(
  ctx: Pick<ServiceContext, 'store'>,
  id: number,
  from: string,
  to: TaskState,
  patch: { result?: string | null; logs?: string[]; progress?: number; stage?: string | null } = {},
): Promise<boolean> {
  assertTransition(from, to);
  const row = await ctx.store.db.selectFrom('tasks').select(['logs']).where('id', '=', id).executeTakeFirst();
  if (!row) return false;
  const set: Partial<Record<keyof TasksTable, unknown>> = { status: to, updated_at: taskTime() };
  if (patch.result !== undefined) set.result = patch.result;
  if (patch.progress !== undefined) set.progress = patch.progress;
  if (patch.stage !== undefined) set.stage = patch.stage;
  if (patch.logs && patch.logs.length > 0) set.logs = appendLog(row.logs, patch.logs);
  const r = await ctx.store.db
    .updateTable('tasks')
    .set(set as never)
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Stops a cancellable task: aborted in the database, cancel flag raised for a running calculation. */
async function stop(ctx: ServiceContext, row: TaskRow, reason: string): Promise<TaskRow> {
  let current = row;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!(CANCELLABLE as readonly string[]).includes(current.status)) {
      throw new HttpError(409, `Task cannot be stopped in current status: ${current.status}`);
    }
    if (await transition(ctx, current.id, current.status, 'aborted', { logs: [reason] })) {
      ctx.requestStop(current.uuid);
      return await ctx.store.db.selectFrom('tasks').selectAll().where('id', '=', current.id).executeTakeFirstOrThrow();
    }
    const again = await ctx.store.db.selectFrom('tasks').selectAll().where('id', '=', current.id).executeTakeFirst();
    if (!again) throw new HttpError(404, 'Task not found');
    current = again;
  }
  throw new HttpError(409, `Task cannot be stopped in current status: ${current.status}`);
}

export async function cancelTask(ctx: ServiceContext, auth: AuthContext, raw: string): Promise<TaskStatusResponse> {
  const row = await ownedTask(ctx, auth, raw, false);
  return toTaskRecord(await stop(ctx, row, 'task cancelled by the user'));
}

export async function deleteTask(ctx: ServiceContext, auth: AuthContext, raw: string): Promise<void> {
  const row = await ownedTask(ctx, auth, raw, true);
  if ((CANCELLABLE as readonly string[]).includes(row.status)) {
    try {
      await stop(ctx, row, 'task stopped for deletion');
    } catch (e) {
      if (!(e instanceof HttpError && e.status === 409)) throw e;
    }
  }
  await ctx.store.db.deleteFrom('task_files').where('task_id', '=', row.id).execute();
  await ctx.store.db.deleteFrom('calc_cache').where('task_uuid', '=', row.uuid).execute();
  await ctx.store.db.deleteFrom('tasks').where('id', '=', row.id).execute();
  ctx.blobs.remove(row.uuid);
}

/** GET /task/list, with the optional filters of the extension applied in SQL before paging. */
export async function listTasks(ctx: ServiceContext, auth: AuthContext, q: TaskListQuery): Promise<TaskListResponse> {
  const { page, items_per_page: perPage, sort_order: order } = q;
  let base = ctx.store.db.selectFrom('tasks').where('user_id', '=', auth.user.id);
  if (q.status) base = base.where('status', 'in', q.status);
  if (q.task_type) base = base.where('task_type', 'in', q.task_type);
  if (q.tdb_code !== undefined) base = base.where('tdb_code', '=', q.tdb_code);
  const search = q.search?.trim();
  if (search) {
    // Case-insensitive substring of the title (LIKE with its wildcards escaped), or the task's integer id / uuid.
    const pattern = `%${search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    const id = parseIntId(search);
    base = base.where((eb) =>
      eb.or([
        eb(sql`lower(title)`, 'like', sql`lower(${pattern}) escape '\\'`),
        ...(id !== undefined ? [eb('id', '=', id)] : []),
        ...(UUID_RE.test(search) ? [eb('uuid', '=', search.toLowerCase())] : []),
      ]),
    );
  }
  const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await base
    .selectAll()
    .orderBy('id', order)
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return {
    data: rows.map(toTaskRecord),
    total,
    total_pages: Math.ceil(total / perPage),
    page,
    items_per_page: perPage,
  };
}

/** GET /task/{id}/result|preview|vtk. */
export async function taskFiles(
  ctx: ServiceContext,
  auth: AuthContext,
  raw: string,
  kind: 'result' | 'preview' | 'vtk',
  sign: (uuid: string, name: string) => string,
): Promise<FileListResponse> {
  const row = await ownedTask(ctx, auth, raw, false);
  if (row.status !== 'completed') throw new HttpError(409, `Task is not completed (status: ${row.status})`);
  const files = await ctx.store.db
    .selectFrom('task_files')
    .select(['name'])
    .where('task_id', '=', row.id)
    .where('kind', '=', kind)
    .orderBy('name')
    .execute();
  const urls = files.map((f) => sign(row.uuid, f.name));
  return { task_id: row.uuid, files: urls, total_count: urls.length };
}

export { taskDir };
