// A worker takes a task: a new attempt of the task's job starts (its fencing token, main/service/fence.ts) and the
// task's record moves to running under this worker's name, in one transaction; or the job finds that there is
// nothing to run. A job that comes back while its task is running belonged to a worker that ended or lost its lock
// (BullMQ handed the job on), or was added again because Redis had lost it (main/server/reconcile.ts): the task runs
// again from the start in a folder of its own; the earlier attempt, if it is still alive, can write nothing more.
import { startAttempt } from '../service/fence.js';
import { taskByUuid, transition, updateRunningTask, withLogLine, type TaskRow } from '../service/task-rows.js';
import type { Store } from '../db/index.js';
import type { JobContext, JobRun } from './job-context.js';
import { untilAvailable } from './until-available.js';

/** The store of one transaction, for the service functions that take a context. */
function inTransaction(store: Store, db: Store['db']): { store: Store } {
  return { store: { ...store, db } };
}

/** One try: the task's record as claimed, or why there is nothing to run (StatusChanged: look again). */
async function claimOnce(
  w: JobContext,
  run: JobRun,
  uuid: string,
  ompThreads: (r: TaskRow) => number,
): Promise<TaskRow | string> {
  const row = await taskByUuid(w.store, uuid);
  if (!row) return 'deleted';
  run.taskType = row.task_type;
  if (row.status === 'uploading') {
    // the worker storing the result files ended in the middle: the files of its attempt are not all recorded
    await transition(w, row.id, 'uploading', 'failed', { logs: ['the worker storing the result files ended'] });
    return 'uploading interrupted';
  }
  if (!['pending', 'queued', 'running'].includes(row.status)) return row.status; // completed, failed, aborted
  return w.store.db.transaction().execute(async (trx) => {
    const attempt = await startAttempt(trx, row.id, run.job.id!, w.me);
    const t = inTransaction(w.store, trx);
    if (row.status === 'running') {
      const line = `running again on worker ${w.me} (attempt ${attempt}): the worker that ran it ended or lost the job`;
      await updateRunningTask(t.store, row.id, { logs: withLogLine(row.logs, line), stage: null });
    } else if (
      !(await transition(t, row.id, row.status, 'running', {
        logs: [`started with ${ompThreads(row)} OpenMP thread(s) on worker ${w.me} (attempt ${attempt})`],
        progress: 0,
        stage: null,
      }))
    )
      throw new StatusChanged();
    run.fence = { jobId: run.job.id!, attempt };
    w.log(`task ${row.uuid}: ${row.status === 'running' ? 'running again' : 'started'} (attempt ${attempt})`);
    return row;
  });
}

class StatusChanged extends Error {}

/** The task's record moved to running by this worker (run.fence set), or why the job has nothing to run. */
export async function claimTask(
  w: JobContext,
  run: JobRun,
  uuid: string,
  ompThreads: (r: TaskRow) => number,
): Promise<TaskRow | string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const claimed = await untilAvailable(w, run, 'claiming the task', () => claimOnce(w, run, uuid, ompThreads));
      if (typeof claimed !== 'string' && claimed.status !== 'running')
        w.metrics.taskWait.observe({ task_type: claimed.task_type }, (Date.now() - claimed.created_ms) / 1000);
      return claimed;
    } catch (e) {
      if (!(e instanceof StatusChanged)) throw e;
      // cancelled or taken meanwhile: look again
    }
  }
  return 'status changing';
}
