// A worker takes a task: its record moves to running under this worker's name, or the job finds that there is
// nothing to run. A job that comes back while its task is running belonged to a worker that ended without
// finishing (BullMQ handed it on when that worker's lock lapsed): the task runs again from the start.
import { taskByUuid, transition, updateRunningTask, withLogLine, type TaskRow } from '../service/task-rows.js';
import type { JobContext } from './job-context.js';

/** The task's record moved to running by this worker, or why the job has nothing to run. */
export async function claimTask(
  w: JobContext,
  uuid: string,
  ompThreads: (r: TaskRow) => number,
): Promise<TaskRow | string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await taskByUuid(w.store, uuid);
    if (!row) return 'deleted';
    if (row.status === 'pending' || row.status === 'queued') {
      if (
        await transition(w, row.id, row.status, 'running', {
          logs: [`started with ${ompThreads(row)} OpenMP thread(s) on worker ${w.me}`],
          progress: 0,
          stage: null,
        })
      )
        return row;
      continue; // cancelled or taken meanwhile: look again
    }
    if (row.status === 'running') return runAgain(w, row);
    if (row.status === 'uploading') {
      await transition(w, row.id, 'uploading', 'failed', { logs: ['the worker storing the result files ended'] });
      return 'uploading interrupted';
    }
    return row.status; // completed, failed, aborted: nothing to do
  }
  return 'status changing';
}

/**
 * The job came back: the worker that ran it ended without finishing. Its partial files go; the task runs again.
 * A grid's stored stages stay: its flow (the same job ids) goes on from them.
 */
async function runAgain(w: JobContext, row: TaskRow): Promise<TaskRow> {
  if (row.task_type !== 'binary_cpt_diagram') w.blobs.remove(row.uuid);
  await updateRunningTask(w.store, row.id, {
    logs: withLogLine(row.logs, `running again on worker ${w.me}: the worker that ran it ended`),
    progress: 0,
    stage: null,
  });
  return row;
}
