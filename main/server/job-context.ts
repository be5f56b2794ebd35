// What the jobs of a lab-server worker (main/server/worker.ts) share: the store and the shared directory, the
// calculation hosts of its slots, its BullMQ connections, and its name in the tasks' logs; and what one job's run
// carries: its cancel signal, the signal that its lock may have lapsed, and its fencing token.
import type { FlowProducer, Job, Queue } from 'bullmq';
import type { ServiceSettings } from '../config.js';
import type { Store } from '../db/index.js';
import type { BlobStore } from '../service/blob-store.js';
import type { HostPool } from '../service/host-pool.js';
import type { Fence } from '../service/fence.js';
import { transition, type TaskRow } from '../service/task-rows.js';
import type { WorkerMetrics } from './worker-metrics.js';

/** How often a running job saves its task's progress. */
export const PROGRESS_SAVE_MS = 1000;

export interface JobContext {
  store: Store;
  blobs: BlobStore;
  settings: ServiceSettings;
  /** "host:pid", named in the log of every task this worker starts. */
  me: string;
  /** The calculation hosts, one per slot. */
  pool: HostPool;
  log(line: string): void;
  /** Adds the flow of a binary_cpt_diagram grid (main/server/cpt-flow.ts); the current session's. */
  readonly flows: FlowProducer;
  /** The task queue, for the bisection parts a grid's plan adds; the current session's. */
  readonly stageQueue: Queue;
  /** Grid nodes per chunk job. */
  perChunk: number;
  /** Rows per chunk job of an equilibrium_batch (main/server/batch-flow.ts). */
  batchChunkRows: number;
  metrics: WorkerMetrics;
  /** The worker is closing: jobs waiting for PostgreSQL stop waiting. */
  closing: AbortSignal;
}

/** One job on this worker. */
export interface JobRun {
  job: Job;
  /** The task is no longer running (cancel, delete): the calculation's cancel flag is raised. */
  cancel: AbortController;
  /** The job's lock may have lapsed (main/server/lock-watch.ts): the calculation is killed, nothing more is written. */
  lockLost: AbortSignal;
  /** This run's fencing token, once the job's attempt started (main/service/fence.ts). */
  fence?: Fence;
  /** The task's type, once its record was read (the label of the duration histogram). */
  taskType?: string;
}

/** A running task fails with one log line (nothing happens when it is no longer running or the run was fenced off). */
export async function failRunningTask(w: JobContext, row: TaskRow, message: string, run?: JobRun): Promise<void> {
  await transition(w, row.id, 'running', 'failed', { logs: [message] }, run?.fence);
}
