// An equilibrium_batch of more rows than a chunk on the lab server runs as a BullMQ flow, as a C-P-T grid does
// (main/server/cpt-flow.ts): its chunks of rows are child jobs of the merge job, which BullMQ starts once every chunk
// completed; any worker takes any chunk (main/server/batch-stage-job.ts). Each chunk stores its rows once, keyed by
// their row range (worker/calculations/equilibrium_batch/stage.ts); the merge writes the embedded run's result files
// from them in row order and completes the task. Job ids are derived from the task, so the flow added twice (the job
// that adds it ran again) is the same flow.
import type { FlowProducer } from 'bullmq';
import type { BatchStage } from '../../worker/calculations/equilibrium_batch/stage.js';
import { chunkSetting, flowJob } from './cpt-flow.js';

/** Rows per chunk job (PHASEDESK_BATCH_CHUNK_ROWS). */
export const DEFAULT_BATCH_CHUNK_ROWS = 1000;

export function batchChunkRows(): number {
  return chunkSetting('PHASEDESK_BATCH_CHUNK_ROWS', DEFAULT_BATCH_CHUNK_ROWS);
}

export interface BatchStageJobData {
  uuid: string;
  stage: BatchStage;
}

/** Name prefix of a batch flow's jobs (job-run.ts dispatches on it). */
export const BATCH_JOB_PREFIX = 'batch-';

export function batchJobId(uuid: string, stage: Pick<BatchStage, 'kind' | 'chunk'>): string {
  return `batch-${uuid}-${stage.kind}${stage.kind === 'chunk' ? `-${stage.chunk}` : ''}`;
}

/** Adds the flow of a batch of `rows` rows in the chunks `ranges` ([first, end) each, in row order). */
export async function addBatchFlow(
  flows: FlowProducer,
  uuid: string,
  rows: number,
  ranges: [number, number][],
): Promise<void> {
  const chunks = ranges.length;
  const job = (stage: BatchStage) =>
    flowJob(`${BATCH_JOB_PREFIX}${stage.kind}`, { uuid, stage } satisfies BatchStageJobData, batchJobId(uuid, stage));
  await flows.add({
    ...job({ kind: 'merge', chunks, rows, ranges }),
    children: ranges.map(([first, end], chunk) => job({ kind: 'chunk', chunks, rows, chunk, first, end })),
  });
}
