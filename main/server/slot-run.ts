// One calculation of a lab-server job on a free slot of its worker. While it runs, the task's status is read twice a
// second: once the task is no longer running (PATCH cancel or DELETE on any API process) the job gets BullMQ's
// cancellation signal, which raises the calculation's native cancel flag.
import type { Job } from 'bullmq';
import type { CalcHost, HostOutput, HostProgress } from '../service/calc-host.js';
import { taskByUuid, type TaskRow } from '../service/task-rows.js';
import type { HostJob } from '../../worker/protocol.js';
import { failRunningTask, type JobContext } from './job-context.js';

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

async function takeSlot(w: JobContext): Promise<CalcHost> {
  for (;;) {
    const h = w.pool.idle();
    if (h) return h;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A calculation error fails the task; a task deleted meanwhile loses its files. */
async function calculationFailed(w: JobContext, row: TaskRow, e: unknown): Promise<void> {
  const now = await taskByUuid(w.store, row.uuid);
  if (!now) w.blobs.remove(row.uuid);
  else if (now.status === 'running') await failRunningTask(w, row, (e as Error).message);
}

/**
 * Runs a calculation on a free slot while the task is running: a cancel (the task no longer running) reaches the
 * host within STATUS_CHECK_MS; live progress goes to onProgress. A calculation error fails the task.
 */
export async function runOnSlot(
  w: JobContext,
  job: Job,
  row: TaskRow,
  hostJob: HostJob,
  signal: AbortSignal | undefined,
  onProgress: (p: HostProgress) => void,
): Promise<HostOutput | 'failed'> {
  const host = await takeSlot(w);
  const cancel = () => host.cancel();
  signal?.addEventListener('abort', cancel);
  const statusTimer = setInterval(() => {
    void taskByUuid(w.store, row.uuid).then(
      (now) => {
        if (!now || now.status !== 'running') w.cancelJob(job.id!, 'the task is no longer running');
      },
      () => {},
    );
  }, STATUS_CHECK_MS);
  try {
    return await host.run(hostJob, onProgress);
  } catch (e) {
    await calculationFailed(w, row, e);
    return 'failed';
  } finally {
    clearInterval(statusTimer);
    signal?.removeEventListener('abort', cancel);
  }
}

/** After runOnSlot, the task's status: only the output of a calculation whose task still runs is to be stored. */
export async function slotRunOf(w: JobContext, row: TaskRow, out: HostOutput | 'failed'): Promise<SlotRun> {
  if (out === 'failed') return { kind: 'failed' };
  const now = await taskByUuid(w.store, row.uuid);
  if (!now) {
    w.blobs.remove(row.uuid);
    return { kind: 'deleted' };
  }
  if (now.status !== 'running' || out.cancelled) return { kind: 'stopped', status: now.status };
  return { kind: 'done', out };
}
