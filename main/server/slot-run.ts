// One calculation of a lab-server job on a free slot of its worker. While it runs, the task's status is read twice a
// second: once the task is no longer running (PATCH cancel or DELETE on any API process) the calculation's cancel
// flag is raised. A lost lock (main/server/lock-watch.ts) kills the calculation process at once: the job is
// someone else's now, and nothing of this run is written (LockLostError). The host is replaced after its share of
// tasks or memory (HostPool.recycleIfDue), as in the embedded scheduler.
import type { CalcHost, HostOutput, HostProgress } from '../service/calc-host.js';
import { taskByUuid, type TaskRow } from '../service/task-rows.js';
import type { HostJob } from '../../worker/protocol.js';
import { failRunningTask, type JobContext, type JobRun } from './job-context.js';
import { LockLostError } from './lock-watch.js';
import { untilAvailable } from './until-available.js';

/** How often a running job compares its task's status (cancel). */
const STATUS_CHECK_MS = 500;

/** How a calculation on a slot ended: its output, or why there is none to store. */
export type SlotRun =
  | { kind: 'done'; out: HostOutput }
  /** the calculation failed (the task failed with its message) */
  | { kind: 'failed' }
  /** the task was deleted meanwhile (its files removed) */
  | { kind: 'deleted' }
  /** the task was cancelled or failed meanwhile, or the calculation returned cancelled */
  | { kind: 'stopped'; status: string };

async function takeSlot(w: JobContext, run: JobRun): Promise<CalcHost> {
  for (;;) {
    if (run.lockLost.aborted) throw new LockLostError(run.job.id ?? '?');
    const h = w.pool.idle();
    if (h) return h;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A calculation error fails the task; a task deleted meanwhile loses its files. */
async function calculationFailed(w: JobContext, run: JobRun, row: TaskRow, e: unknown): Promise<void> {
  const now = await untilAvailable(w, run, 'reading the task', () => taskByUuid(w.store, row.uuid));
  if (!now) w.blobs.remove(row.uuid);
  else if (now.status === 'running')
    await untilAvailable(w, run, 'failing the task', () => failRunningTask(w, row, (e as Error).message, run));
}

/**
 * Twice a second: a task no longer running cancels the run. One read at a time; while PostgreSQL is out of reach
 * the check is skipped (logged once), the calculation goes on.
 */
function watchStatus(w: JobContext, run: JobRun, row: TaskRow): NodeJS.Timeout {
  let reading = false,
    failing = false;
  return setInterval(() => {
    if (reading) return;
    reading = true;
    taskByUuid(w.store, row.uuid)
      .then(
        (now) => {
          failing = false;
          if (!now || now.status !== 'running') run.cancel.abort();
        },
        (e: Error) => {
          if (!failing) w.log(`task ${row.uuid}: status check failed (${e.message}); the calculation goes on`);
          failing = true;
        },
      )
      .finally(() => {
        reading = false;
      });
  }, STATUS_CHECK_MS);
}

/**
 * Runs a calculation on a free slot while the task is running: a cancel reaches the host within STATUS_CHECK_MS;
 * live progress goes to onProgress. A calculation error fails the task; a lost lock throws LockLostError.
 */
export async function runOnSlot(
  w: JobContext,
  run: JobRun,
  row: TaskRow,
  hostJob: HostJob,
  onProgress: (p: HostProgress) => void,
  /** false: the task's status is not watched (a calculation that runs for a task already stopped, e.g. to keep rows) */
  watch = true,
): Promise<HostOutput | 'failed'> {
  const host = await takeSlot(w, run);
  const cancel = () => host.cancel();
  const kill = () => host.kill();
  run.cancel.signal.addEventListener('abort', cancel);
  run.lockLost.addEventListener('abort', kill);
  const statusTimer = watch ? watchStatus(w, run, row) : undefined;
  try {
    if (run.lockLost.aborted) throw new LockLostError(run.job.id ?? '?');
    return await host.run(hostJob, onProgress);
  } catch (e) {
    if (run.lockLost.aborted || e instanceof LockLostError) throw new LockLostError(run.job.id ?? '?');
    await calculationFailed(w, run, row, e);
    return 'failed';
  } finally {
    clearInterval(statusTimer);
    run.cancel.signal.removeEventListener('abort', cancel);
    run.lockLost.removeEventListener('abort', kill);
    w.pool.recycleIfDue(host);
  }
}

/** After runOnSlot, the task's status: only the output of a calculation whose task still runs is to be stored. */
export async function slotRunOf(
  w: JobContext,
  run: JobRun,
  row: TaskRow,
  out: HostOutput | 'failed',
): Promise<SlotRun> {
  if (out === 'failed') return { kind: 'failed' };
  const now = await untilAvailable(w, run, 'reading the task', () => taskByUuid(w.store, row.uuid));
  if (!now) {
    w.blobs.remove(row.uuid);
    return { kind: 'deleted' };
  }
  if (now.status !== 'running' || out.cancelled) return { kind: 'stopped', status: now.status };
  return { kind: 'done', out };
}
