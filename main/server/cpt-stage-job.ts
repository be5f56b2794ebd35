// One job of a binary_cpt_diagram grid's flow (main/server/cpt-flow.ts). A chunk's results go to the shared
// directory (written once, so a chunk that runs again changes nothing); the task's progress is the share of chunks
// stored (0..0.7, the embedded run's grid share), then the bisection's and merge's own. The merge stores the result
// files and completes the task.
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
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
import { taskByUuid, updateRunningTask, type TaskRow } from '../service/task-rows.js';
import { CPT_STAGE_JOB } from '../../worker/protocol.js';
import { addBisectionParts, type CptStageJobData } from './cpt-flow.js';
import { failRunningTask, PROGRESS_SAVE_MS, type JobContext } from './job-context.js';
import { runOnSlot, slotRunOf } from './slot-run.js';

type CptStage = CptStageJobData['stage'];

/** Parts of a grid's bisection, from its plan in the stages folder (1 when unreadable). */
function bisectParts(stagesDir: string): number {
  try {
    return Number(JSON.parse(readFileSync(join(stagesDir, 'bisect-plan.json'), 'utf8')).parts) || 1;
  } catch {
    return 1;
  }
}

function stageName(stage: CptStage): string {
  if (stage.kind === 'chunk') return `chunk ${stage.chunk}`;
  if (stage.kind === 'bisect') return `bisection part ${stage.chunk}`;
  return stage.kind;
}

/** No calculation: the stored chunks' changing edges, split into parts of about a chunk's work. */
async function planBisection(
  w: JobContext,
  job: Job<CptStageJobData>,
  row: TaskRow,
  input: CalculationInput,
): Promise<string> {
  const { uuid, stage } = job.data;
  const { planBisection } = await import('../../worker/calculations/binary_cpt_diagram/stage.js');
  try {
    const ranges = planBisection(w.blobs.taskDir(uuid), input.config, stage.chunks, w.perChunk);
    await addBisectionParts(w.stageQueue, job, ranges);
    w.log(`task ${uuid}: grid bisection in ${ranges.length} part(s)`);
    await updateRunningTask(w.store, row.id, { stage: `bisecting the boundaries in ${ranges.length} part(s)` });
  } catch (e) {
    await failRunningTask(w, row, `planning the boundary bisection failed: ${(e as Error).message}`);
    return 'failed';
  }
  return 'planned';
}

/** The merge's progress (0.95..1, while it writes the result files) saved once a second. */
function saveMergeProgress(w: JobContext, row: TaskRow, live: () => HostProgress): NodeJS.Timeout {
  return setInterval(() => {
    const progress = 0.95 + 0.05 * live().progress;
    void updateRunningTask(
      w.store,
      row.id,
      { progress, stage: 'writing the result files' },
      { forwardOnly: true },
    ).catch(() => {});
  }, PROGRESS_SAVE_MS);
}

/** The files of a grid's stage kind stored so far in its stages folder. */
function storedStages(stagesDir: string, kind: 'chunk' | 'bisect'): number {
  const name = new RegExp(`^${kind}-\\d+\\.json$`);
  return readdirSync(stagesDir).filter((f) => name.test(f)).length;
}

/** A stage's calculation returned: a chunk or bisection part moves the progress on; the merge completes the task. */
async function stageDone(w: JobContext, row: TaskRow, stage: CptStage, out: HostOutput): Promise<string> {
  const stagesDir = join(w.blobs.taskDir(row.uuid), 'stages');
  if (stage.kind === 'chunk') {
    const done = storedStages(stagesDir, 'chunk');
    const progress = (0.7 * done) / stage.chunks;
    const text = `computing the grid: ${done} of ${stage.chunks} chunks`;
    await updateRunningTask(w.store, row.id, { progress, stage: text }, { forwardOnly: true });
    return 'stored';
  }
  if (stage.kind === 'bisect') {
    const parts = storedStages(stagesDir, 'bisect');
    const progress = 0.7 + (0.25 * parts) / Math.max(parts, bisectParts(stagesDir));
    await updateRunningTask(w.store, row.id, { progress }, { forwardOnly: true });
    return 'stored';
  }
  await storeOutcome(w, row, out, { progress: 1, stage: null });
  rmSync(stagesDir, { recursive: true, force: true });
  return 'stored';
}

/** A chunk, a bisection part or the merge: its calculation on a slot, then its share of the task. */
async function runStage(
  w: JobContext,
  job: Job<CptStageJobData>,
  row: TaskRow,
  input: CalculationInput,
  signal: AbortSignal | undefined,
): Promise<string> {
  const { uuid, stage } = job.data;
  const name = stageName(stage);
  const hostJob = calculationJob(
    row,
    { ...input, config: { ...input.config, cpt_stage: { ...stage, worker: w.me } } },
    {
      ompThreads: ompThreadsFor(w.settings, row.omp_threads),
      taskDir: w.blobs.taskDir(row.uuid),
      taskType: CPT_STAGE_JOB,
    },
  );
  let live: HostProgress = { progress: 0, stage: null };
  const progressTimer = stage.kind === 'merge' ? saveMergeProgress(w, row, () => live) : undefined;
  let out: HostOutput | 'failed';
  try {
    out = await runOnSlot(w, job, row, hostJob, signal, (p) => {
      live = p;
    });
  } finally {
    if (progressTimer) clearInterval(progressTimer);
  }
  const run = await slotRunOf(w, row, out);
  if (run.kind === 'failed') w.log(`task ${uuid}: grid ${name} failed`);
  if (run.kind === 'stopped') w.log(`task ${uuid}: grid ${name} stopped`);
  if (run.kind === 'failed' || run.kind === 'deleted') return run.kind;
  if (run.kind === 'stopped') return run.status;
  w.log(`task ${uuid}: grid ${name} ${run.out.summary}`);
  return stageDone(w, row, stage, run.out);
}

/** One job of a grid's flow; the rest of a flow whose task is no longer running does nothing. */
export async function processCptStage(
  w: JobContext,
  job: Job<CptStageJobData>,
  signal: AbortSignal | undefined,
): Promise<string> {
  const { uuid, stage } = job.data;
  const row = await taskByUuid(w.store, uuid);
  if (!row) return 'deleted';
  if (row.status !== 'running') return row.status; // cancelled or failed: the rest of the flow does nothing
  const input = await calculationInput(w.store, row);
  if (!input) {
    await failRunningTask(w, row, DATABASE_GONE);
    return 'failed';
  }
  w.log(`task ${uuid}: grid ${stageName(stage)} started (attempt ${job.attemptsStarted})`);
  if (stage.kind === 'bisect-plan') return planBisection(w, job, row, input);
  return runStage(w, job, row, input, signal);
}
