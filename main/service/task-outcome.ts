// What happens to a task once its calculation returned: running -> uploading -> completed (files recorded, the
// calculation cache filled) or failed. Shared by the embedded scheduler and the lab server's queue workers. The
// files are read (size, sha256) first; the moves, the file rows and the cache entry are then one transaction, so a
// task is completed with all its files or not at all, and on the lab server only while the writer's attempt is its
// job's latest (main/service/fence.ts): a worker that lost its job never stores a second result.
import type { ServiceContext } from './context.js';
import { transition, type TaskRow } from './task-rows.js';
import type { HostOutput } from './calc-host.js';
import { insertTaskFiles } from './task-file-rows.js';
import { rememberCalculation } from './calc-cache.js';
import { holdFence, type Fence } from './fence.js';
import type { FoundFile } from './files.js';

export type OutcomeContext = Pick<ServiceContext, 'store' | 'blobs'>;

/** completed; stopped: the task was no longer running; refused: a later attempt of the job exists; failed. */
export type StoredOutcome = 'completed' | 'stopped' | 'refused' | 'failed';

/**
 * A calculation that returned (not cancelled) on a task still running: its files and summary make it completed.
 * `attempt`: the folder of the lab-server attempt that wrote the files; `fence`: that attempt's token.
 */
export async function storeOutcome(
  ctx: OutcomeContext,
  row: TaskRow,
  out: HostOutput,
  o: { fence?: Fence; attempt?: string } = {},
): Promise<StoredOutcome> {
  let files: FoundFile[];
  try {
    files = ctx.blobs.scan(row.uuid, o.attempt);
  } catch (e) {
    const logs = [`storing result files failed: ${(e as Error).message}`];
    return (await transition(ctx, row.id, 'running', 'failed', { logs }, o.fence)) ? 'failed' : 'stopped';
  }
  return ctx.store.db.transaction().execute(async (trx): Promise<StoredOutcome> => {
    if (o.fence && !(await holdFence(ctx.store, trx, o.fence))) return 'refused';
    const t = { store: { ...ctx.store, db: trx } };
    if (!(await transition(t, row.id, 'running', 'uploading', { logs: out.logs, stage: 'storing result files' })))
      return 'stopped';
    // one INSERT: the rows of a task's files are recorded all or none
    await insertTaskFiles(trx, row.id, files);
    await transition(t, row.id, 'uploading', 'completed', {
      result: out.summary,
      logs: [`${files.length} file(s) stored`],
      progress: 1,
      stage: null,
    });
    if (row.cache_key) await rememberCalculation(t.store, row.cache_key, row.uuid, out.summary);
    return 'completed';
  });
}

/**
 * The files a calculation kept when it stopped (an equilibrium_batch's rows done), on its task aborted meanwhile:
 * recorded as a completed task's are, so GET /task/{id}/result lists them; the task stays aborted and nothing enters
 * the calculation cache.
 */
export async function storeKeptFiles(
  ctx: OutcomeContext,
  row: TaskRow,
  o: { fence?: Fence; attempt?: string } = {},
): Promise<void> {
  const files = ctx.blobs.scan(row.uuid, o.attempt);
  await ctx.store.db.transaction().execute(async (trx) => {
    if (o.fence && !(await holdFence(ctx.store, trx, o.fence))) return;
    const now = await trx.selectFrom('tasks').select(['status']).where('id', '=', row.id).executeTakeFirst();
    if (now?.status !== 'aborted') return;
    const recorded = await trx
      .selectFrom('task_files')
      .select(['task_id'])
      .where('task_id', '=', row.id)
      .executeTakeFirst();
    if (!recorded) await insertTaskFiles(trx, row.id, files);
  });
}
