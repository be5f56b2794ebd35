// One job of an equilibrium_batch's flow (main/server/batch-flow.ts): a chunk of rows or the merge, each run an
// attempt with its fencing token (claimStage, main/server/cpt-stage-job.ts). A chunk stores its rows in the task's
// stages/ folder once (a chunk that runs again stores nothing), then the task's progress is its rows stored; the
// merge writes the result files in its attempt's folder and completes the task. A cancelled task's merge still runs
// (BullMQ starts it once every chunk job returned): it keeps the rows of the chunks stored, as the embedded run keeps
// the rows done, and records them on the aborted task.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from 'bullmq';
import type { CalculationInput } from '../service/calc-job.js';
import { storeKeptFiles } from '../service/task-outcome.js';
import { updateRunningTask, type TaskRow } from '../service/task-rows.js';
import type { HostOutput } from '../service/calc-host.js';
import { attemptFolder } from '../service/blob-store.js';
import { BATCH_STAGE_JOB } from '../../worker/protocol.js';
import type { BatchStageJobData } from './batch-flow.js';
import { claimStageInput, runStageOnSlot, stageHostJob, storeMerge } from './cpt-stage-job.js';
import type { JobContext, JobRun } from './job-context.js';
import { untilAvailable } from './until-available.js';
import { runOnSlot } from './slot-run.js';
import { linkStages, removeAttempt, unlinkStages } from './attempt-dir.js';

type BatchStage = BatchStageJobData['stage'];

function stageName(stage: BatchStage): string {
  return stage.kind === 'chunk' ? `batch rows ${stage.first! + 1}-${stage.end} (chunk ${stage.chunk})` : 'batch merge';
}

/** A chunk stored: the task's progress is its rows stored; the merge stored: the task completed. */
async function stageDone(
  w: JobContext,
  run: JobRun,
  row: TaskRow,
  stage: BatchStage,
  out: HostOutput,
  attempt: string | undefined,
): Promise<string> {
  if (stage.kind === 'merge') return storeMerge(w, run, row, out, attempt!);
  const { storedRanges } = await import('../../worker/calculations/equilibrium_batch/stage.js');
  const done = storedRanges(join(w.blobs.taskDir(row.uuid), 'stages')).reduce((n, [a, b]) => n + b - a, 0);
  const set = { progress: done / stage.rows, stage: `computing the rows: ${done} of ${stage.rows} done` };
  await untilAvailable(w, run, 'saving the progress', () => updateRunningTask(w.store, row.id, set, run.fence));
  return 'stored';
}

/**
 * The merge of a cancelled batch: the rows of the chunks stored, written in the merge's attempt folder (the task's
 * status is not watched: it is aborted already) and recorded on the aborted task.
 */
async function keepRows(w: JobContext, run: JobRun, row: TaskRow, input: CalculationInput): Promise<string> {
  const stage: BatchStage = { ...(run.job as Job<BatchStageJobData>).data.stage, kept: true };
  const attempt = attemptFolder('merge', run.fence!.attempt);
  linkStages(w.blobs, row.uuid, attempt);
  const hostJob = stageHostJob(w, row, input, { stage, configKey: 'batch_stage', taskType: BATCH_STAGE_JOB }, attempt);
  let out: HostOutput | 'failed';
  try {
    out = await runOnSlot(w, run, row, hostJob, () => {}, false);
  } finally {
    unlinkStages(w.blobs, row.uuid, attempt);
  }
  if (out === 'failed' || !out.kept) {
    removeAttempt(w.blobs, row.uuid, attempt);
    return 'aborted';
  }
  await untilAvailable(w, run, 'keeping the rows done', () => storeKeptFiles(w, row, { fence: run.fence, attempt }));
  rmSync(join(w.blobs.taskDir(row.uuid), 'stages'), { recursive: true, force: true });
  w.log(`task ${row.uuid}: cancelled batch: ${out.summary ?? 'no rows'} kept`);
  return 'aborted';
}

/** A chunk of rows or the merge of a batch's flow; the chunks of a flow whose task is no longer running do nothing. */
export async function processBatchStage(w: JobContext, job: Job<BatchStageJobData>, run: JobRun): Promise<string> {
  const { uuid, stage } = job.data;
  const claimed = await claimStageInput(w, run, stage.kind === 'merge' ? ['aborted'] : []);
  if (typeof claimed === 'string') return claimed;
  const { row, input } = claimed;
  w.log(`task ${uuid}: ${stageName(stage)} started (attempt ${run.fence!.attempt})`);
  if (row.status === 'aborted') return keepRows(w, run, row, input);
  const outcome = await runStageOnSlot(w, run, row, input, {
    stage,
    configKey: 'batch_stage',
    taskType: BATCH_STAGE_JOB,
    name: stageName(stage),
    done: (out, attempt) => stageDone(w, run, row, stage, out, attempt),
  });
  // cancelled while the merge wrote the result files: the rows are kept all the same
  if (stage.kind === 'merge' && outcome === 'aborted') return keepRows(w, run, row, input);
  return outcome;
}
