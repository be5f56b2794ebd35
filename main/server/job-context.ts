// What the jobs of a lab-server worker (main/server/worker.ts) share: the store and the shared directory, the
// calculation hosts of its slots, its BullMQ connections, and its name in the tasks' logs.
import type { FlowProducer, Queue } from 'bullmq';
import type { ServiceSettings } from '../config.js';
import type { Store } from '../db/index.js';
import type { BlobStore } from '../service/blob-store.js';
import type { HostPool } from '../service/host-pool.js';
import { transition, type TaskRow } from '../service/task-rows.js';

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
  /** Sends a job of this worker BullMQ's cancellation signal (main/server/slot-run.ts). */
  cancelJob(jobId: string, reason: string): void;
  /** Adds the flow of a binary_cpt_diagram grid (main/server/cpt-flow.ts). */
  flows: FlowProducer;
  /** The task queue, for the bisection parts a grid's plan adds. */
  stageQueue: Queue;
  /** Grid nodes per chunk job. */
  perChunk: number;
}

/** A running task fails with one log line (nothing happens when it is no longer running). */
export async function failRunningTask(w: JobContext, row: TaskRow, message: string): Promise<void> {
  await transition(w, row.id, 'running', 'failed', { logs: [message] });
}
