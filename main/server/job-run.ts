// Every job a lab worker takes goes through here: its run (cancel signal, lock-lost signal, fencing token) is made,
// the job's own processor runs (a task's job, a stage of a grid's or a batch's flow), and its duration is counted. A run whose
// lock was lost writes nothing more: the job is handed back to the queue (when the lock was in fact still held) or
// left to the worker that took it, never failed, so its task runs again rather than failing. PostgreSQL out of reach
// is waited for (main/server/until-available.ts): the job keeps its lock (renewed through Redis) and goes on once
// the store answers.
import { WaitingError, type Job } from 'bullmq';
import type { TaskJobData } from './job-queue.js';
import type { CptStageJobData } from './cpt-flow.js';
import type { JobContext, JobRun } from './job-context.js';
import { LockLostError, type LockWatch } from './lock-watch.js';
import { processTaskJob } from './task-job.js';
import { processCptStage } from './cpt-stage-job.js';
import { BATCH_JOB_PREFIX, type BatchStageJobData } from './batch-flow.js';
import { processBatchStage } from './batch-stage-job.js';

/** The processor of every job: the run, the job's own processor, and what a lost lock leaves to do. */
export function jobProcessor(w: JobContext, watch: LockWatch) {
  return async (job: Job<TaskJobData>, token?: string, signal?: AbortSignal): Promise<string> => {
    const id = job.id!;
    const run: JobRun = {
      job,
      cancel: new AbortController(),
      lockLost: watch.track(id, job.processedOn ?? Date.now()),
    };
    signal?.addEventListener('abort', () => run.cancel.abort());
    const started = Date.now();
    let outcome = 'error';
    try {
      outcome =
        job.name === 'task'
          ? await processTaskJob(w, job, run)
          : job.name.startsWith(BATCH_JOB_PREFIX)
            ? await processBatchStage(w, job as unknown as Job<BatchStageJobData>, run)
            : await processCptStage(w, job as unknown as Job<CptStageJobData>, run);
      return outcome;
    } catch (e) {
      if (!(e instanceof LockLostError) && !run.lockLost.aborted) throw e;
      outcome = 'lock lost';
      w.log(`job ${id}: lock lost (attempt ${run.fence?.attempt ?? '-'}), calculation stopped, nothing stored`);
      // the lock may in fact still be ours (a renewal answered late): the job goes back to the queue
      await job.moveToWait(token).catch(() => {});
      throw new WaitingError();
    } finally {
      watch.untrack(id);
      const taskType = run.taskType ?? 'unknown';
      w.metrics.taskDuration.observe({ task_type: taskType, outcome }, (Date.now() - started) / 1000);
    }
  };
}
