// The task operations of /api/v2 on a user's own tasks: status, list, cancel, delete and the file lists of a
// completed task. Creation is main/service/task-create.ts; the status moves are main/service/task-rows.ts.
import { sql } from 'kysely';
import type { TaskListQuery } from '../requests/tasks.js';
import type { AuthContext } from './keys.js';
import type { ServiceContext } from './context.js';
import { HttpError } from '../util/errors.js';
import type { FileListResponse, TaskListResponse, TaskStatusResponse } from '../../contract/api/responses.js';
import { CANCELLABLE, TERMINAL, type TaskState } from '../../contract/task-states.js';
import { transition, type TaskRow } from './task-rows.js';

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
    duration_ms: durationMs(row),
  };
}

/**
 * Extension: the calculation's run time in milliseconds, from its start to the task's terminal state (or to now
 * while it runs); null when no calculation ran (a cache hit, a task cancelled before it started).
 */
export function durationMs(
  row: Pick<TaskRow, 'status' | 'started_ms' | 'finished_ms'>,
  now = Date.now(),
): number | null {
  if (row.started_ms === null || row.started_ms === undefined) return null;
  const end = (TERMINAL as readonly string[]).includes(row.status) ? row.finished_ms : now;
  return end === null || end === undefined ? null : Math.max(0, Number(end) - Number(row.started_ms));
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
  // One transaction, the task's row first: a task created meanwhile from the calculation cache either takes this
  // task's files before the deletion (PostgreSQL: it holds the row, calc-cache.ts) or misses the cache.
  await ctx.store.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('tasks').where('id', '=', row.id).execute(); // task_files and attempts cascade
    await trx.deleteFrom('calc_cache').where('task_uuid', '=', row.uuid).execute();
  });
  // The record is gone, so the deletion stands; a folder the calculation still writes into goes when it returns.
  if (!ctx.blobs.remove(row.uuid)) ctx.log(`task ${row.id}: its folder is still being written; removed later`);
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
  // an aborted task lists the files its calculation kept (an equilibrium_batch's rows done), if any
  if (row.status !== 'completed' && row.status !== 'aborted')
    throw new HttpError(409, `Task is not completed (status: ${row.status})`);
  const files = await ctx.store.db
    .selectFrom('task_files')
    .select(['name'])
    .where('task_id', '=', row.id)
    .where('kind', '=', kind)
    .orderBy('name')
    .execute();
  if (row.status === 'aborted' && files.length === 0)
    throw new HttpError(409, `Task is not completed (status: ${row.status})`);
  const urls = files.map((f) => sign(row.uuid, f.name));
  return { task_id: row.uuid, files: urls, total_count: urls.length };
}
