// The job of one task on a lab-server worker: the task is claimed (running under this worker, a new attempt), its
// calculation runs on a slot in the attempt's own folder with its progress saved once a second, and its files are
// stored (main/service/task-outcome.ts) under the attempt's fencing token. A binary_cpt_diagram grid and an
// equilibrium_batch of more than one chunk of rows instead become a flow of stage jobs spread over every worker
// (main/server/cpt-flow.ts, cpt-stage-job.ts; batch-flow.ts, batch-stage-job.ts).
import type { Job } from 'bullmq';
import type { HostOutput, HostProgress } from '../service/calc-host.js';
import {
  calculationInput,
  calculationJob,
  DATABASE_GONE,
  ompThreadsFor,
  type CalculationInput,
} from '../service/calc-job.js';
import { storeKeptFiles, storeOutcome } from '../service/task-outcome.js';
import { taskByUuid, updateRunningTask, withLogLine, type TaskRow } from '../service/task-rows.js';
import { claimTask } from './claim.js';
import { addCptFlow } from './cpt-flow.js';
import { addBatchFlow } from './batch-flow.js';
import type { TaskJobData } from './job-queue.js';
import { failRunningTask, PROGRESS_SAVE_MS, type JobContext, type JobRun } from './job-context.js';
import { untilAvailable } from './until-available.js';
import { runOnSlot, slotRunOf } from './slot-run.js';
import { removeAttempt } from './attempt-dir.js';
import { attemptFolder } from '../service/blob-store.js';

/** Saves the live progress and stage to the task (and the job) once a second, when they changed; one write at a time. */
function saveProgressEverySecond(w: JobContext, run: JobRun, row: TaskRow, live: () => HostProgress): NodeJS.Timeout {
  let saved = '',
    writing = false;
  return setInterval(() => {
    const { progress, stage } = live();
    const key = `${progress}\u0000${stage}`;
    if (key === saved || writing) return;
    saved = key;
    writing = true;
    void run.job.updateProgress(progress).catch(() => {});
    updateRunningTask(w.store, row.id, { progress, stage }, run.fence)
      .catch(() => {
        saved = ''; // PostgreSQL away: written at a later tick
      })
      .finally(() => {
        writing = false;
      });
  }, PROGRESS_SAVE_MS);
}

/** The grid spreads over every worker as a flow (main/server/cpt-flow.ts); its merge job completes the task. */
async function startCptFlow(w: JobContext, run: JobRun, row: TaskRow, input: CalculationInput): Promise<string> {
  const { cptGridNodes } = await import('../../worker/calculations/binary_cpt_diagram/stage.js');
  let nodes: number;
  try {
    nodes = cptGridNodes(input.config);
  } catch (e) {
    await untilAvailable(w, run, 'failing the task', () => failRunningTask(w, row, (e as Error).message, run));
    return 'failed';
  }
  const chunks = await addCptFlow(w.flows, row.uuid, nodes, w.perChunk);
  const line = `grid of ${nodes} nodes in ${chunks} chunk(s) of up to ${w.perChunk} nodes, spread over the workers`;
  await saveFlow(w, run, row, line, `computing the grid: 0 of ${chunks} chunks`);
  return 'flow';
}

/** Records the flow a task was handed to: a log line and the stage text. */
async function saveFlow(w: JobContext, run: JobRun, row: TaskRow, line: string, stage: string): Promise<void> {
  await untilAvailable(w, run, 'saving the flow', async () => {
    const logs = (await taskByUuid(w.store, row.uuid))?.logs;
    await updateRunningTask(w.store, row.id, { logs: withLogLine(logs, line), stage }, run.fence);
  });
}

/**
 * A batch of more rows than a chunk spreads over every worker as a flow (main/server/batch-flow.ts); its merge job
 * completes the task. A batch of one chunk runs here, as in embedded mode.
 */
async function startBatchFlow(w: JobContext, run: JobRun, row: TaskRow, input: CalculationInput): Promise<string> {
  const { batchChunkRanges } = await import('../../worker/calculations/equilibrium_batch/stage.js');
  const ranges = batchChunkRanges(input.config, w.batchChunkRows);
  if (ranges.length < 2) return runTask(w, run, row, input);
  const rows = ranges[ranges.length - 1]![1];
  await addBatchFlow(w.flows, row.uuid, rows, ranges);
  const line = `batch of ${rows} rows in ${ranges.length} chunk(s) of up to ${w.batchChunkRows} rows, spread over the workers`;
  await saveFlow(w, run, row, line, `computing the rows: 0 of ${rows} done`);
  return 'flow';
}

/** Runs the task's calculation on a slot in its attempt's folder and stores its outcome; returns what became of the job. */
async function runTask(w: JobContext, run: JobRun, row: TaskRow, input: CalculationInput): Promise<string> {
  const attempt = attemptFolder('run', run.fence!.attempt);
  const hostJob = calculationJob(row, input, {
    ompThreads: ompThreadsFor(w.settings, row.omp_threads),
    taskDir: w.blobs.taskDir(row.uuid, attempt),
  });
  let live: HostProgress = { progress: 0, stage: null };
  const progressTimer = saveProgressEverySecond(w, run, row, () => live);
  let out: HostOutput | 'failed';
  try {
    out = await runOnSlot(w, run, row, hostJob, (p) => {
      live = p;
    });
  } catch (e) {
    removeAttempt(w.blobs, row.uuid, attempt);
    throw e;
  } finally {
    clearInterval(progressTimer);
  }
  const slot = await slotRunOf(w, run, row, out);
  if (slot.kind === 'stopped' && slot.status === 'aborted' && out !== 'failed' && out.kept) {
    // a cancelled calculation that kept what it finished (an equilibrium_batch's rows done), as in embedded mode
    await untilAvailable(w, run, 'keeping the rows done', () => storeKeptFiles(w, row, { fence: run.fence, attempt }));
    w.log(`task ${row.uuid}: cancelled: ${out.summary} kept (attempt ${run.fence!.attempt})`);
    return 'aborted';
  }
  if (slot.kind !== 'done') {
    if (slot.kind !== 'deleted') removeAttempt(w.blobs, row.uuid, attempt);
    return slot.kind === 'stopped' ? slot.status : slot.kind;
  }
  const stored = await untilAvailable(w, run, 'storing the result', () =>
    storeOutcome(w, row, slot.out, { fence: run.fence, attempt }),
  );
  // 'stopped' may follow a commit whose answer was lost (the files are then the task's): the orphan sweep decides
  if (stored === 'refused' || stored === 'failed') removeAttempt(w.blobs, row.uuid, attempt);
  w.log(`task ${row.uuid}: result ${stored} (attempt ${run.fence!.attempt})`);
  return stored;
}

/** A task's job: claimed, then run here or, for a grid, handed to its flow. */
export async function processTaskJob(w: JobContext, job: Job<TaskJobData>, run: JobRun): Promise<string> {
  const row = await claimTask(w, run, job.data.uuid, (r) => ompThreadsFor(w.settings, r.omp_threads));
  if (typeof row === 'string') return row;
  const input = await untilAvailable(w, run, 'reading the database record', () => calculationInput(w.store, row));
  if (!input) {
    await untilAvailable(w, run, 'failing the task', () => failRunningTask(w, row, DATABASE_GONE, run));
    return 'failed';
  }
  if (row.task_type === 'binary_cpt_diagram') return startCptFlow(w, run, row, input);
  if (row.task_type === 'equilibrium_batch') return startBatchFlow(w, run, row, input);
  return runTask(w, run, row, input);
}
