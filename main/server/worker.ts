// `phasedesk worker`: takes task jobs from the lab server's BullMQ queue (main/server/job-queue.ts) and runs each in a
// calculation host of its own (the embedded service's worker code, worker/host.ts + worker/index.ts), one host per
// slot. The worker, not the API, moves the task through running -> uploading -> completed | failed, so an API
// restart never touches a running task. Cancel: twice a second the worker reads the task's status; once it is no
// longer running (PATCH cancel or DELETE on any API process) the calculation's native cancel flag is raised
// (main/server/slot-run.ts). A worker that dies (kill -9, a lost machine) stops renewing its job's lock; BullMQ then
// hands the job to another worker, which runs the task again from the start (main/server/claim.ts). A worker that
// is alive but cannot renew (a cut network) stops the calculation itself before its lock can have lapsed
// (main/server/lock-watch.ts), and every write carries the job's attempt, so it can never store a second result.
// PostgreSQL or Redis away: the worker waits, pauses and reconnects (main/server/connection-supervisor.ts); it
// never exits for it.
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import type { Job } from 'bullmq';
import type { ServiceSettings } from '../config.js';
import { openStore, type Store } from '../db/index.js';
import { prepareDataDir } from '../service/files.js';
import { directoryBlobStore } from '../service/blob-store.js';
import { HostPool } from '../service/host-pool.js';
import { threadsPerSlot } from '../service/calc-job.js';
import { taskByUuid, transition } from '../service/task-rows.js';
import { TASK_QUEUE } from './redis.js';
import type { TaskJobData } from './job-queue.js';
import { chunkNodes } from './cpt-flow.js';
import { batchChunkRows } from './batch-flow.js';
import type { JobContext } from './job-context.js';
import { LockWatch } from './lock-watch.js';
import { jobProcessor } from './job-run.js';
import { openQueueSession, type QueueSession } from './queue-session.js';
import { ConnectionSupervisor } from './connection-supervisor.js';
import { WorkerMetrics } from './worker-metrics.js';
import { startHeartbeat } from './heartbeat.js';
import { startAdminListener, type AdminListener } from './admin-listener.js';
import { probeAll } from './probes.js';

export interface QueueWorkerOptions {
  /** Seconds a job's lock lasts without renewal; a dead worker's job goes to another worker after about this long. */
  lockSeconds?: number;
}

export interface RunningQueueWorker {
  store: Store;
  /** "host:pid", as in the tasks' logs. */
  name: string;
  /** Process ids of the calculation hosts. */
  hostPids(): number[];
  /** The admin listener (/metrics, /healthz, /readyz) when settings.lab.metricsPort is set. */
  admin?: AdminListener;
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

/** What the jobs share; the BullMQ objects are the current session's. */
function jobContext(
  settings: ServiceSettings,
  store: Store,
  pool: HostPool,
  log: (l: string) => void,
  closing: AbortSignal,
  current: () => QueueSession,
): JobContext {
  return {
    store,
    blobs: directoryBlobStore(settings.dataDir),
    settings,
    me: `${hostname()}:${process.pid}`,
    pool,
    log,
    get flows() {
      return current().flows;
    },
    get stageQueue() {
      return current().queue;
    },
    perChunk: chunkNodes(),
    batchChunkRows: batchChunkRows(),
    metrics: new WorkerMetrics(
      settings.poolSize,
      () => pool.busyCount(),
      () => pool.restarts,
    ),
    closing,
  };
}

/** The admin listener (/metrics, /healthz, /readyz) when a metrics port is set. */
function workerAdmin(w: JobContext, redis: () => QueueSession['redis']): Promise<AdminListener | undefined> {
  const { metricsPort, metricsHost } = w.settings.lab;
  if (metricsPort === undefined) return Promise.resolve(undefined);
  const registry = w.metrics.registry;
  return startAdminListener(
    metricsHost,
    metricsPort,
    {
      metrics: async () => ({ contentType: registry.contentType, text: await registry.metrics() }),
      ready: () => probeAll(w.store, redis(), w.settings.dataDir),
    },
    w.log,
  );
}

export async function startQueueWorker(
  settings: ServiceSettings,
  workerFile: string,
  log: (l: string) => void,
  o: QueueWorkerOptions = {},
): Promise<RunningQueueWorker> {
  const { databaseUrl, redisUrl } = requireLabUrls(settings);
  prepareDataDir(settings.dataDir);
  const store = await openStore(settings.dataDir, { databaseUrl, log });
  const pool = new HostPool(join(dirname(workerFile), 'host.js'), settings.calcHost, settings.poolSize, log);
  const lockMs = Math.round((o.lockSeconds ?? settings.lab.lockSeconds) * 1000);
  const closing = new AbortController();
  let session: QueueSession;
  const w = jobContext(settings, store, pool, log, closing.signal, () => session);
  const watch = new LockWatch(lockMs, (id, since) => {
    w.metrics.lockLosses.inc();
    const why = since === undefined ? 'Redis refused its renewal' : `not renewed for ${since} ms`;
    log(`job ${id}: lock ${why} (lock ${lockMs} ms): its calculation is stopped`);
  });
  const open = () =>
    openQueueSession(redisUrl, jobProcessor(w, watch), {
      concurrency: settings.poolSize,
      watch,
      log,
      onFailed: (job, e) => failTaskOfFailedJob(w, job, e),
    });
  session = open();
  await session.worker.waitUntilReady();
  const supervisor = new ConnectionSupervisor({
    store,
    lockMs,
    metrics: w.metrics,
    log,
    session: () => session,
    recycle: () => {
      void session.close(true);
      session = open();
      return session;
    },
  });
  const heartbeat = startHeartbeat(store, {
    name: w.me,
    startedMs: Date.now(),
    slots: settings.poolSize,
    lockMs,
    busy: () => pool.busyCount(),
    hostRestarts: () => pool.restarts,
  });
  const admin = await workerAdmin(w, () => session.redis);
  log(
    `PhaseDesk worker ${w.me}: ${settings.poolSize} slot(s), ${threadsPerSlot(settings)} OpenMP thread(s) each, queue ${TASK_QUEUE}, lock ${lockMs / 1000} s${admin ? `, metrics on ${settings.lab.metricsHost}:${admin.port}` : ''}`,
  );
  let closed = false;
  return {
    store,
    name: w.me,
    hostPids: () => pool.pids(),
    admin,
    async close(graceful = true) {
      if (closed) return;
      closed = true;
      supervisor.stop();
      pool.retire();
      if (!graceful) {
        pool.killAll();
        closing.abort();
      }
      // No new jobs; the running ones finish and are stored (a worker that must stop at once is killed: its jobs
      // then go to another worker when their locks lapse).
      await session.close(!graceful);
      watch.close();
      closing.abort();
      await admin?.close();
      await heartbeat.stop();
      await pool.stop();
      await store.close();
    },
  };
}
