// A worker's BullMQ side on one Redis connection: the Worker taking jobs, the FlowProducer and Queue its grids add
// jobs with. A cut network leaves that connection waiting for answers that never come (TCP retries for about 15
// minutes); the worker then closes the whole session and opens a new one (main/server/worker.ts), whose fresh
// connection works as soon as the network is back. Every BullMQ object has its `error` listener: an `error` event
// nobody listens to would end the process.
import { FlowProducer, Queue, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { redisConnection, TASK_QUEUE } from './redis.js';
import { LockWatchingWorker, type LockWatch } from './lock-watch.js';
import type { TaskJobData } from './job-queue.js';

/** After an error in its loop (Redis away), BullMQ's worker waits this long before it tries again. */
const RUN_RETRY_DELAY_MS = 1000;
/** A session closing on a dead connection does not wait longer than this for BullMQ's own close. */
const CLOSE_WAIT_MS = 3000;

export type JobProcessor = (job: Job<TaskJobData>, token?: string, signal?: AbortSignal) => Promise<string>;

export interface QueueSession {
  redis: Redis;
  worker: LockWatchingWorker<TaskJobData>;
  flows: FlowProducer;
  queue: Queue;
  /** The connection was ready at least once (a session that never connected is not recycled: it is still trying). */
  wasReady(): boolean;
  close(force: boolean): Promise<void>;
}

export interface SessionOptions {
  concurrency: number;
  watch: LockWatch;
  log(line: string): void;
  onFailed(job: Job<TaskJobData> | undefined, e: Error): void;
}

/** A lost Redis makes every BullMQ object report each reconnection: one line per message and 10 s is enough. */
function quietLog(log: (line: string) => void): (line: string) => void {
  const last = new Map<string, number>();
  return (line) => {
    const now = Date.now();
    if (now - (last.get(line) ?? 0) < 10_000) return;
    last.set(line, now);
    log(line);
  };
}

export function openQueueSession(redisUrl: string, processor: JobProcessor, o: SessionOptions): QueueSession {
  const log = quietLog(o.log);
  const redis = redisConnection(redisUrl, { blocking: true });
  let ready = false;
  redis.on('ready', () => {
    ready = true;
  });
  redis.on('error', () => {
    /* reported by the worker's probes and BullMQ's error events */
  });
  const lockMs = o.watch.lockMs;
  const worker = new LockWatchingWorker<TaskJobData>(
    TASK_QUEUE,
    processor,
    {
      connection: redis,
      concurrency: o.concurrency,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      maxStalledCount: 5,
      runRetryDelay: RUN_RETRY_DELAY_MS,
    },
    o.watch,
  );
  const flows = new FlowProducer({ connection: redis });
  const queue = new Queue(TASK_QUEUE, { connection: redis });
  worker.on('error', (e) => log(`Redis: ${e.message}`));
  worker.on('failed', (job, e) => o.onFailed(job, e));
  flows.on('error', (e) => log(`Redis: ${e.message}`));
  queue.on('error', (e) => log(`Redis: ${e.message}`));
  let closed: Promise<void> | undefined;
  return {
    redis,
    worker,
    flows,
    queue,
    wasReady: () => ready,
    close(force) {
      closed ??= (async () => {
        // the worker first: its running jobs may still add a grid's flow
        const bullmq = worker
          .close(force)
          .then(() => Promise.all([flows.close(), queue.close()]))
          .catch(() => {});
        await (force ? Promise.race([bullmq, new Promise((r) => setTimeout(r, CLOSE_WAIT_MS).unref())]) : bullmq);
        if (force) redis.disconnect();
        else await redis.quit().catch(() => redis.disconnect());
      })();
      return closed;
    },
  };
}
