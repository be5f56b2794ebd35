// `phasedesk worker`: takes task jobs from the lab server's BullMQ queue (main/server/job-queue.ts) and runs each in a
// calculation host of its own (the embedded service's worker code, worker/host.ts + worker/index.ts), one host per
// slot. The worker, not the API, moves the task through running -> uploading -> completed | failed, so an API
// restart never touches a running task. Cancel: twice a second the worker reads the task's status; once it is no
// longer running (PATCH cancel or DELETE on any API process) the job gets BullMQ's cancellation signal, which raises
// the calculation's native cancel flag (main/server/slot-run.ts). A worker that dies (kill -9, a lost machine) stops
// renewing its job's lock; BullMQ then hands the job to another worker, which runs the task again from the start
// (main/server/claim.ts).
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { FlowProducer, Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ServiceSettings } from '../config.js';
import { openStore, type Store } from '../db/index.js';
import { prepareDataDir } from '../service/files.js';
import { directoryBlobStore } from '../service/blob-store.js';
import { HostPool } from '../service/host-pool.js';
import { threadsPerSlot } from '../service/calc-job.js';
import { taskByUuid, transition } from '../service/task-rows.js';
import { redisConnection, TASK_QUEUE } from './redis.js';
import type { TaskJobData } from './job-queue.js';
import { chunkNodes, type CptStageJobData } from './cpt-flow.js';
import type { JobContext } from './job-context.js';
import { processTaskJob } from './task-job.js';
import { processCptStage } from './cpt-stage-job.js';

export interface QueueWorkerOptions {
  /** Seconds a job's lock lasts without renewal; a dead worker's job goes to another worker after about this long. */
  lockSeconds?: number;
}

export interface RunningQueueWorker {
  worker: Worker<TaskJobData>;
  store: Store;
  /** Process ids of the calculation hosts. */
  hostPids(): number[];
  /** graceful (default): running tasks finish first; otherwise their calculations are killed and the tasks fail. */
  close(graceful?: boolean): Promise<void>;
}

function requireLabUrls(settings: ServiceSettings): { databaseUrl: string; redisUrl: string } {
  const { databaseUrl, redisUrl } = settings.lab;
  if (!databaseUrl)
    throw new Error(
      'phasedesk worker needs PHASEDESK_DATABASE_URL (or --database-url): the PostgreSQL of the lab server',
    );
  if (!redisUrl)
    throw new Error('phasedesk worker needs PHASEDESK_REDIS_URL (or --redis-url): the Redis of the lab server');
  return { databaseUrl, redisUrl };
}

/** A job given up by BullMQ (its workers kept dying) fails its task rather than leaving it running. */
function failTaskOfFailedJob(w: JobContext, job: Job<TaskJobData> | undefined, e: Error): void {
  w.log(`job ${job?.id ?? '?'} failed: ${e.message}`);
  if (!job) return;
  void taskByUuid(w.store, job.data.uuid)
    .then((row) =>
      row?.status === 'running'
        ? transition(w, row.id, 'running', 'failed', { logs: [`job ${job.id} failed: ${e.message}`] })
        : undefined,
    )
    .catch(() => {});
}

export async function startQueueWorker(
  settings: ServiceSettings,
  workerFile: string,
  log: (l: string) => void,
  o: QueueWorkerOptions = {},
): Promise<RunningQueueWorker> {
  const { databaseUrl, redisUrl } = requireLabUrls(settings);
  prepareDataDir(settings.dataDir);
  const store = await openStore(settings.dataDir, { databaseUrl });
  const pool = new HostPool(join(dirname(workerFile), 'host.js'), settings.calcHost, settings.poolSize, log);
  const lockMs = Math.round((o.lockSeconds ?? 30) * 1000);
  const redis = redisConnection(redisUrl, { blocking: true });
  let worker: Worker<TaskJobData> | undefined;
  const w: JobContext = {
    store,
    blobs: directoryBlobStore(settings.dataDir),
    settings,
    me: `${hostname()}:${process.pid}`,
    pool,
    log,
    cancelJob: (jobId, reason) => worker?.cancelJob(jobId, reason),
    flows: new FlowProducer({ connection: redis }),
    stageQueue: new Queue(TASK_QUEUE, { connection: redis }),
    perChunk: chunkNodes(),
  };
  worker = new Worker<TaskJobData>(
    TASK_QUEUE,
    (job: Job<TaskJobData>, _token?: string, signal?: AbortSignal) =>
      job.name === 'task'
        ? processTaskJob(w, job, signal)
        : processCptStage(w, job as unknown as Job<CptStageJobData>, signal),
    {
      connection: redis,
      concurrency: settings.poolSize,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      maxStalledCount: 5,
    },
  );
  worker.on('error', (e) => log(`worker: ${e.message}`));
  worker.on('failed', (job, e) => failTaskOfFailedJob(w, job, e));
  await worker.waitUntilReady();
  log(
    `PhaseDesk worker ${w.me}: ${settings.poolSize} slot(s), ${threadsPerSlot(settings)} OpenMP thread(s) each, queue ${TASK_QUEUE}`,
  );
  return queueWorkerHandle(worker, w, redis);
}

function queueWorkerHandle(worker: Worker<TaskJobData>, w: JobContext, redis: Redis): RunningQueueWorker {
  let closing = false;
  return {
    worker,
    store: w.store,
    hostPids: () => w.pool.pids(),
    async close(graceful = true) {
      if (closing) return;
      closing = true;
      w.pool.retire();
      if (!graceful) w.pool.killAll();
      // No new jobs; the running ones finish and are stored (a worker that must stop at once is killed: its jobs
      // then go to another worker when their locks lapse).
      await worker.close().catch(() => {});
      await w.flows.close().catch(() => {});
      await w.stageQueue.close().catch(() => {});
      await redis.quit().catch(() => {});
      await w.pool.stop();
      await w.store.close();
    },
  };
}
