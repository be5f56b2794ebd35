// One job of a binary_cpt_diagram grid's flow (main/server/cpt-flow.ts). Each run of a stage is an attempt with its
// fencing token (main/service/fence.ts): its progress and, for the merge, its result are written only while it is
// the stage's latest. A chunk's results go to the shared directory (written once, so a chunk that runs again changes
// nothing); the task's progress is the share of chunks stored (0..0.7, the embedded run's grid share), then the
// bisection's and merge's own. The merge writes the result files in its attempt's folder (main/server/attempt-dir.ts)
// and completes the task.
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from 'bullmq';
import { startAttempt } from '../service/fence.js';
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
import { CPT_STAGE_JOB, type HostJob } from '../../worker/protocol.js';
import { addBisectionParts, type CptStageJobData } from './cpt-flow.js';
import { failRunningTask, PROGRESS_SAVE_MS, type JobContext, type JobRun } from './job-context.js';
import { runOnSlot, slotRunOf } from './slot-run.js';
import { untilAvailable } from './until-available.js';
import { linkStages, removeAttempt, unlinkStages } from './attempt-dir.js';
import { attemptFolder } from '../service/blob-store.js';

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
async function planBisection(w: JobContext, run: JobRun, row: TaskRow, input: CalculationInput): Promise<string> {
  const job = run.job as Job<CptStageJobData>;
  const { uuid, stage } = job.data;
  const { planBisection } = await import('../../worker/calculations/binary_cpt_diagram/stage.js');
  let ranges: [number, number][];
  try {
    ranges = planBisection(w.blobs.taskDir(uuid), input.config, stage.chunks, w.perChunk);
  } catch (e) {
    const message = `planning the boundary bisection failed: ${(e as Error).message}`;
    await untilAvailable(w, run, 'failing the task', () => failRunningTask(w, row, message, run));
    return 'failed';
  }
  await addBisectionParts(w.stageQueue, job, ranges);
  w.log(`task ${uuid}: grid bisection in ${ranges.length} part(s)`);
  const text = `bisecting the boundaries in ${ranges.length} part(s)`;
  await untilAvailable(w, run, 'saving the plan', () => updateRunningTask(w.store, row.id, { stage: text }, run.fence));
  return 'planned';
}

/** The merge's progress (0.95..1, while it writes the result files) saved once a second, one write at a time. */
export function saveMergeProgress(w: JobContext, run: JobRun, row: TaskRow, live: () => HostProgress): NodeJS.Timeout {
  let writing = false;
  return setInterval(() => {
    if (writing) return;
    writing = true;
    const progress = 0.95 + 0.05 * live().progress;
    updateRunningTask(w.store, row.id, { progress, stage: 'writing the result files' }, run.fence)
      .catch(() => {})
      .finally(() => {
        writing = false;
      });
  }, PROGRESS_SAVE_MS);
}

/** The files of a grid's stage kind stored so far in its stages folder. */
function storedStages(stagesDir: string, kind: 'chunk' | 'bisect'): number {
  const name = new RegExp(`^${kind}-\\d+\\.json$`);
  return readdirSync(stagesDir).filter((f) => name.test(f)).length;
}

/** A stage's calculation returned: a chunk or bisection part moves the progress on; the merge completes the task. */
async function stageDone(
  w: JobContext,
  run: JobRun,
  row: TaskRow,
  stage: CptStage,
  out: HostOutput,
  attempt: string | undefined,
): Promise<string> {
  const stagesDir = join(w.blobs.taskDir(row.uuid), 'stages');
  if (stage.kind === 'chunk') {
    const done = storedStages(stagesDir, 'chunk');
    const progress = (0.7 * done) / stage.chunks;
    const text = `computing the grid: ${done} of ${stage.chunks} chunks`;
    await untilAvailable(w, run, 'saving the progress', () =>
      updateRunningTask(w.store, row.id, { progress, stage: text }, run.fence),
    );
    return 'stored';
  }
  if (stage.kind === 'bisect') {
    const parts = storedStages(stagesDir, 'bisect');
    const progress = 0.7 + (0.25 * parts) / Math.max(parts, bisectParts(stagesDir));
    await untilAvailable(w, run, 'saving the progress', () =>
      updateRunningTask(w.store, row.id, { progress }, run.fence),
    );
    return 'stored';
  }
  return storeMerge(w, run, row, out, attempt!);
}

/** A flow's merge returned: its files complete the task (the stages go), or its attempt's folder goes. */
export async function storeMerge(
  w: JobContext,
  run: JobRun,
  row: TaskRow,
  out: HostOutput,
  attempt: string,
): Promise<string> {
  const stored = await untilAvailable(w, run, 'storing the result', () =>
    storeOutcome(w, row, out, { fence: run.fence, attempt }),
  );
  w.log(`task ${row.uuid}: result ${stored} (merge attempt ${run.fence!.attempt})`);
  if (stored === 'completed') rmSync(join(w.blobs.taskDir(row.uuid), 'stages'), { recursive: true, force: true });
  if (stored === 'refused' || stored === 'failed') removeAttempt(w.blobs, row.uuid, attempt);
  return stored === 'completed' ? 'stored' : stored;
}

/** A stage of a flow (a grid's, a batch's) as its job runs it on a slot. */
export interface StageSpec {
  /** the stage, passed to the stage calculation under `configKey` of the task's configuration */
  stage: { kind: string };
  configKey: string;
  /** the host's job type of the stage calculation */
  taskType: string;
  /** the stage as the log names it */
  name: string;
  /** the stage calculation returned on a task still running: its share of the task, stored */
  done(out: HostOutput, attempt: string | undefined): Promise<string>;
}

/** The host job of a stage: the task's configuration with the stage under `configKey`, in `attempt`'s folder. */
export function stageHostJob(
  w: JobContext,
  row: TaskRow,
  input: CalculationInput,
  spec: Pick<StageSpec, 'stage' | 'configKey' | 'taskType'>,
  attempt: string | undefined,
): HostJob {
  return calculationJob(
    row,
    { ...input, config: { ...input.config, [spec.configKey]: { ...spec.stage, worker: w.me } } },
    {
      ompThreads: ompThreadsFor(w.settings, row.omp_threads),
      taskDir: w.blobs.taskDir(row.uuid, attempt),
      taskType: spec.taskType,
    },
  );
}

/**
 * A stage's calculation on a slot; the merge (stage kind 'merge') writes the result files in its attempt's folder,
 * reading the stages through hard links.
 */
export async function runStageOnSlot(
  w: JobContext,
  run: JobRun,
  row: TaskRow,
  input: CalculationInput,
  spec: StageSpec,
): Promise<string> {
  const uuid = row.uuid;
  const attempt = spec.stage.kind === 'merge' ? attemptFolder('merge', run.fence!.attempt) : undefined;
  if (attempt) linkStages(w.blobs, uuid, attempt);
  const hostJob = stageHostJob(w, row, input, spec, attempt);
  let live: HostProgress = { progress: 0, stage: null };
  const progressTimer = attempt ? saveMergeProgress(w, run, row, () => live) : undefined;
  let out: HostOutput | 'failed';
  try {
    out = await runOnSlot(w, run, row, hostJob, (p) => {
      live = p;
    });
  } catch (e) {
    if (attempt) removeAttempt(w.blobs, uuid, attempt);
    throw e;
  } finally {
    if (progressTimer) clearInterval(progressTimer);
    if (attempt) unlinkStages(w.blobs, uuid, attempt);
  }
  const slot = await slotRunOf(w, run, row, out);
  if (slot.kind === 'failed') w.log(`task ${uuid}: ${spec.name} failed`);
  if (slot.kind === 'stopped') w.log(`task ${uuid}: ${spec.name} stopped`);
  if (slot.kind !== 'done') {
    if (attempt && slot.kind !== 'deleted') removeAttempt(w.blobs, uuid, attempt);
    return slot.kind === 'stopped' ? slot.status : slot.kind;
  }
  w.log(`task ${uuid}: ${spec.name} ${slot.out.summary}`);
  return spec.done(slot.out, attempt);
}

/** A chunk, a bisection part or the merge: its calculation on a slot, then its share of the task. */
function runStage(w: JobContext, run: JobRun, row: TaskRow, input: CalculationInput): Promise<string> {
  const { stage } = (run.job as Job<CptStageJobData>).data;
  return runStageOnSlot(w, run, row, input, {
    stage,
    configKey: 'cpt_stage',
    taskType: CPT_STAGE_JOB,
    name: `grid ${stageName(stage)}`,
    done: (out, attempt) => stageDone(w, run, row, stage, out, attempt),
  });
}

/** The task's record and a new attempt of this stage, or what the job finds instead (the task no longer running). */
export async function claimStage(w: JobContext, run: JobRun, also: readonly string[] = []): Promise<TaskRow | string> {
  const { uuid } = (run.job as Job<{ uuid: string }>).data;
  const row = await untilAvailable(w, run, 'reading the task', () => taskByUuid(w.store, uuid));
  if (!row) return 'deleted';
  run.taskType = row.task_type;
  // cancelled or failed: the rest of the flow does nothing (but what `also` names: a batch's merge keeps its rows)
  if (row.status !== 'running' && !also.includes(row.status)) return row.status;
  const attempt = await untilAvailable(w, run, 'starting the stage', () =>
    startAttempt(w.store.db, row.id, run.job.id!, w.me),
  );
  run.fence = { jobId: run.job.id!, attempt };
  return row;
}

/** claimStage, then the calculation's input (a task whose database record went is failed). */
export async function claimStageInput(
  w: JobContext,
  run: JobRun,
  also: readonly string[] = [],
): Promise<{ row: TaskRow; input: CalculationInput } | string> {
  const row = await claimStage(w, run, also);
  if (typeof row === 'string') return row;
  const input = await untilAvailable(w, run, 'reading the database record', () => calculationInput(w.store, row));
  if (input) return { row, input };
  await untilAvailable(w, run, 'failing the task', () => failRunningTask(w, row, DATABASE_GONE, run));
  return 'failed';
}

/** One job of a grid's flow; the rest of a flow whose task is no longer running does nothing. */
export async function processCptStage(w: JobContext, job: Job<CptStageJobData>, run: JobRun): Promise<string> {
  const { uuid, stage } = job.data;
  const claimed = await claimStageInput(w, run);
  if (typeof claimed === 'string') return claimed;
  const { row, input } = claimed;
  w.log(`task ${uuid}: grid ${stageName(stage)} started (attempt ${run.fence!.attempt})`);
  if (stage.kind === 'bisect-plan') return planBisection(w, run, row, input);
  return runStage(w, run, row, input);
}
