// The job of one task on a lab-server worker: the task is claimed (running under this worker), its calculation
// runs on a slot with its progress saved once a second, and its files are stored (main/service/task-outcome.ts).
// A binary_cpt_diagram grid instead becomes a flow of stage jobs spread over every worker (main/server/cpt-flow.ts,
// main/server/cpt-stage-job.ts).
import type { Job } from 'bullmq';
import type { HostOutput, HostProgress } from '../service/calc-host.js';
import {
  calculationInput,
  calculationJob,
  DATABASE_GONE,
  ompThreadsFor,
  type CalculationInput,
} from '../service/calc-job.js';
import { storeOutcome } from '../service/task-outcome.js';
import { taskByUuid, updateRunningTask, withLogLine, type TaskRow } from '../service/task-rows.js';
import { claimTask } from './claim.js';
import { addCptFlow } from './cpt-flow.js';
import type { TaskJobData } from './job-queue.js';
import { failRunningTask, PROGRESS_SAVE_MS, type JobContext } from './job-context.js';
import { runOnSlot, slotRunOf } from './slot-run.js';

/** Saves the live progress and stage to the task (and the job) once a second, when they changed. */
function saveProgressEverySecond(w: JobContext, job: Job, row: TaskRow, live: () => HostProgress): NodeJS.Timeout {
  let saved = '';
  return setInterval(() => {
    const { progress, stage } = live();
    const key = `${progress}\u0000${stage}`;
    if (key === saved) return;
    saved = key;
    void job.updateProgress(progress).catch(() => {});
    void updateRunningTask(w.store, row.id, { progress, stage }).catch(() => {});
  }, PROGRESS_SAVE_MS);
}

/** The grid spreads over every worker as a flow (main/server/cpt-flow.ts); its merge job completes the task. */
async function startCptFlow(w: JobContext, row: TaskRow, input: CalculationInput): Promise<string> {
  const { cptGridNodes } = await import('../../worker/calculations/binary_cpt_diagram/stage.js');
  let nodes: number;
  try {
    nodes = cptGridNodes(input.config);
  } catch (e) {
    await failRunningTask(w, row, (e as Error).message);
    return 'failed';
  }
  const chunks = await addCptFlow(w.flows, row.uuid, nodes, w.perChunk);
  const logs = (await taskByUuid(w.store, row.uuid))?.logs;
  await updateRunningTask(w.store, row.id, {
    logs: withLogLine(
      logs,
      `grid of ${nodes} nodes in ${chunks} chunk(s) of up to ${w.perChunk} nodes, spread over the workers`,
    ),
    stage: `computing the grid: 0 of ${chunks} chunks`,
  });
  return 'flow';
}

/** Runs the task's calculation on a slot and stores its outcome; returns what became of the job. */
async function runTask(
  w: JobContext,
  job: Job,
  row: TaskRow,
  input: CalculationInput,
  signal: AbortSignal | undefined,
): Promise<string> {
  const hostJob = calculationJob(row, input, {
    ompThreads: ompThreadsFor(w.settings, row.omp_threads),
    taskDir: w.blobs.taskDir(row.uuid),
  });
  let live: HostProgress = { progress: 0, stage: null };
  const progressTimer = saveProgressEverySecond(w, job, row, () => live);
  let out: HostOutput | 'failed';
  try {
    out = await runOnSlot(w, job, row, hostJob, signal, (p) => {
      live = p;
    });
  } finally {
    clearInterval(progressTimer);
  }
  const run = await slotRunOf(w, row, out);
  if (run.kind === 'failed' || run.kind === 'deleted') return run.kind;
  if (run.kind === 'stopped') return run.status;
  await storeOutcome(w, row, run.out, live);
  return 'stored';
}

/** A task's job: claimed, then run here or, for a grid, handed to its flow. */
export async function processTaskJob(
  w: JobContext,
  job: Job<TaskJobData>,
  signal: AbortSignal | undefined,
): Promise<string> {
  const row = await claimTask(w, job.data.uuid, (r) => ompThreadsFor(w.settings, r.omp_threads));
  if (typeof row === 'string') return row;
  const input = await calculationInput(w.store, row);
  if (!input) {
    await failRunningTask(w, row, DATABASE_GONE);
    return 'failed';
  }
  if (row.task_type === 'binary_cpt_diagram') return startCptFlow(w, row, input);
  return runTask(w, job, row, input, signal);
}
