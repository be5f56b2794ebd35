// POST /task once the request is parsed (main/requests/tasks.ts): the database resolved and the subscription
// checked (spec POST /task step 1), the configuration validated and bounded, then in one transaction the user's
// limits checked and the task inserted, pending or, on a calculation cache hit, completed with the cached files.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/index.js';
import type { AuthContext } from './keys.js';
import type { ServiceContext } from './context.js';
import { HttpError } from '../util/errors.js';
import { ServiceUnavailable } from '../util/unavailable.js';
import { taskTime } from '../util/time.js';
import { validTaskConfig, type TaskCreateRequest } from '../requests/tasks.js';
import type { TaskCreateResponse } from '../../contract/api/task-request.js';
import type { TaskState } from '../../contract/task-states.js';
import { selectionOf, type DbRow } from './databases.js';
import { mobilityDatabase, usableDatabase } from './task-databases.js';
import { checkTaskConfig } from './task-checks.js';
import { logLine } from './task-rows.js';
import { CachedFilesUnreadable, cacheKey, cachedCalculation, reuseCachedFiles } from './calc-cache.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The task type and its configuration, within the database (elements, phases) and the work bounds. */
function checkedConfig(ctx: ServiceContext, req: TaskCreateRequest, dbRow: DbRow) {
  const valid = validTaskConfig(req.config, req.code);
  const refusal = checkTaskConfig(
    valid.taskType,
    valid.config,
    {
      code: req.code,
      elements: JSON.parse(dbRow.element_list) as string[],
      phases: JSON.parse(dbRow.phase_list) as string[],
      selection: selectionOf(dbRow),
    },
    ctx.settings.workBounds,
  );
  if (refusal) throw new HttpError(400, refusal);
  return valid;
}

async function countOf(query: { executeTakeFirstOrThrow(): Promise<{ n: string | number | bigint }> }) {
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** The plan's rolling-24-hour creations and the deployment's cap on pending tasks, as 403s. */
async function checkCreationLimits(
  trx: Kysely<DB>,
  userId: string,
  now: Date,
  limit: number,
  maxPending: number,
): Promise<void> {
  const used = await countOf(
    trx
      .selectFrom('task_creations')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('created_ms', '>', now.getTime() - DAY_MS),
  );
  if (used >= limit)
    throw new HttpError(403, `Rate limit exceeded: used ${used} of ${limit} requests in the last 24 hours`);
  const pending = await countOf(
    trx
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('status', '=', 'pending'),
  );
  if (pending >= maxPending) {
    throw new HttpError(403, `Pending task limit exceeded. Maximum allowed pending tasks: ${maxPending}`, {
      current_pending_tasks: pending,
      max_pending_tasks: maxPending,
    });
  }
}

/** Everything the creating transaction writes. */
interface NewTask {
  uuid: string;
  now: Date;
  limit: number;
  key: string;
  taskType: string;
  config: Record<string, unknown>;
  databaseId: string;
  /** the database's recommended phase selection now (JSON), kept with the task */
  databaseSelection: string | null;
  databaseNames: string | null;
  /** false once the cached result's files could not be copied: the task runs its calculation */
  reuseCache: boolean;
}

/**
 * Check and insert in one transaction, so concurrent POSTs cannot exceed either limit: on SQLite the one
 * connection serialises the transactions; on PostgreSQL (many connections, many API processes) the user's row is
 * locked first (SELECT ... FOR UPDATE), so the counts of one user's creations are taken one transaction at a time.
 */
async function insertTask(
  trx: Kysely<DB>,
  ctx: ServiceContext,
  auth: AuthContext,
  req: TaskCreateRequest,
  t: NewTask,
): Promise<{ id: number; status: TaskState }> {
  if (ctx.store.dialect === 'postgres') {
    await trx.selectFrom('users').select('id').where('id', '=', auth.user.id).forUpdate().executeTakeFirst();
  }
  await checkCreationLimits(trx, auth.user.id, t.now, t.limit, ctx.settings.maxPendingTasks);
  const hit = req.noCache || !t.reuseCache ? undefined : await cachedCalculation(trx, t.key, ctx.store.dialect);
  await trx.insertInto('task_creations').values({ user_id: auth.user.id, created_ms: t.now.getTime() }).execute();
  const status: TaskState = hit ? 'completed' : 'pending';
  const inserted = await trx
    .insertInto('tasks')
    .values({
      uuid: t.uuid,
      title: req.title,
      task_config: JSON.stringify(t.config),
      status,
      task_type: t.taskType,
      tdb_code: req.code,
      database_id: t.databaseId,
      result: hit ? hit.result : null,
      logs: hit ? logLine(`calculation cache hit: results reused from an identical earlier calculation`) : null,
      progress: hit ? 1 : 0,
      stage: null,
      user_id: auth.user.id,
      engine: 'thermo_next',
      omp_threads: req.ompThreads,
      no_cache: req.noCache ? 1 : 0,
      cache_key: t.key,
      created_at: taskTime(t.now),
      updated_at: taskTime(t.now),
      created_ms: t.now.getTime(),
      finished_ms: hit ? t.now.getTime() : null,
      database_selection: t.databaseSelection,
      database_names: t.databaseNames,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(inserted.id);
  if (hit) await reuseCachedFiles(trx, ctx.blobs, hit, id, t.uuid);
  return { id, status };
}

/** POST /task. */
export async function createTask(
  ctx: ServiceContext,
  auth: AuthContext,
  req: TaskCreateRequest,
): Promise<TaskCreateResponse> {
  // a lab server whose Redis is away cannot queue the task: the client tries again (its waiting tasks are safe)
  const away = ctx.queueUnavailable();
  if (away) throw new ServiceUnavailable(away);
  const dbRow = await usableDatabase(ctx, auth, req.code);
  const { taskType, config } = checkedConfig(ctx, req, dbRow);
  const mobility = await mobilityDatabase(ctx, auth, config, dbRow);
  const plan = await ctx.store.db
    .selectFrom('plans')
    .selectAll()
    .where('id', '=', auth.user.plan_id)
    .executeTakeFirst();
  const task: NewTask = {
    uuid: randomUUID(),
    now: new Date(),
    limit: plan?.task_using_limit ?? 0,
    key: cacheKey(
      mobility ? { ...config, mobility_sha256: mobility.file_sha256 } : config,
      dbRow.file_sha256,
      dbRow.phase_selection,
      dbRow.phase_names,
    ),
    taskType,
    config,
    databaseId: dbRow.id,
    databaseSelection: dbRow.phase_selection,
    databaseNames: dbRow.phase_names,
    reuseCache: true,
  };
  let created: { id: number; status: TaskState };
  const insert = (t: NewTask) => ctx.store.db.transaction().execute((trx) => insertTask(trx, ctx, auth, req, t));
  try {
    created = await insert(task).catch((e: unknown) => {
      if (!(e instanceof CachedFilesUnreadable)) throw e;
      ctx.blobs.remove(task.uuid);
      ctx.log(`task ${task.uuid}: ${e.message}; calculating instead`);
      return insert({ ...task, reuseCache: false });
    });
  } catch (e) {
    if (!(e instanceof HttpError)) ctx.blobs.remove(task.uuid);
    throw e;
  }
  if (created.status === 'pending') ctx.kick();
  return { id: created.id, status: created.status, task_type: taskType, tdb_code: req.code };
}
