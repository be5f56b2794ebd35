// `phasedesk worker`: takes task jobs from the lab server's BullMQ queue (main/server/job-queue.ts) and runs each in a
// calculation host of its own (the embedded service's worker code, worker/host.ts + worker/index.ts), one host per
// slot. The worker, not the API, moves the task through running -> uploading -> completed | failed, so an API
// restart never touches a running task. Cancel: twice a second the worker reads the task's status; once it is no
// longer running (PATCH cancel or DELETE on any API process) the job gets BullMQ's cancellation signal, which raises
// the calculation's native cancel flag. A worker that dies (kill -9, a lost machine) stops renewing its job's lock;
// BullMQ then hands the job to another worker, which runs the task again from the start.
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { FlowProducer, Queue, Worker, type Job } from 'bullmq';
import type { ServiceSettings } from '../config.js';
import { openStore, type Store } from '../db/index.js';
import { CalcHost, type HostOutput, type HostProgress } from '../service/calc-host.js';
import { prepareDataDir } from '../service/files.js';
import { directoryBlobStore } from '../service/blob-store.js';
import { logLine, transition, type TaskRow } from '../service/task-rows.js';
import { storeOutcome } from '../service/task-outcome.js';
import { CPT_STAGE_JOB, type HostJob } from '../../worker/protocol.js';
import { redisConnection, TASK_QUEUE } from './redis.js';
import type { TaskJobData } from './job-queue.js';
import { addBisectionParts, addCptFlow, chunkNodes, type CptStageJobData } from './cpt-flow.js';

/** Parts of a grid's bisection, from its plan in the stages folder (1 when unreadable). */
function bisectParts(stagesDir: string): number {
  try {
    return Number(JSON.parse(readFileSync(join(stagesDir, 'bisect-plan.json'), 'utf8')).parts) || 1;
  } catch {
    return 1;
  }
}

/** How often a running job compares its task's status (cancel) and saves progress. */
const STATUS_CHECK_MS = 500;
const PROGRESS_SAVE_MS = 1000;

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

export async function startQueueWorker(
  settings: ServiceSettings,
  workerFile: string,
  log: (l: string) => void,
  o: QueueWorkerOptions = {},
): Promise<RunningQueueWorker> {
  const { databaseUrl, redisUrl } = settings.lab;
  if (!databaseUrl)
    throw new Error(
      'phasedesk worker needs PHASEDESK_DATABASE_URL (or --database-url): the PostgreSQL of the lab server',
    );
  if (!redisUrl)
    throw new Error('phasedesk worker needs PHASEDESK_REDIS_URL (or --redis-url): the Redis of the lab server');
  prepareDataDir(settings.dataDir);
  const store = await openStore(settings.dataDir, { databaseUrl });
  const blobs = directoryBlobStore(settings.dataDir);
  const ctx = { store, blobs };
  const me = `${hostname()}:${process.pid}`;
  const hostFile = join(dirname(workerFile), 'host.js');
  const slots: CalcHost[] = [];
  let closing = false;
  const newHost = (): CalcHost =>
    new CalcHost(hostFile, settings.calcHost, (host, how) => {
      const i = slots.indexOf(host);
      if (i < 0 || closing) return;
      log(`calculation process ${host.pid} ended (${how}); starting a new one`);
      const replace = () => {
        if (!closing && slots[i] === host) slots[i] = newHost();
      };
      if (host.started) replace();
      else setTimeout(replace, 1000).unref();
    });
  for (let i = 0; i < settings.poolSize; i++) slots.push(newHost());
  const perSlot = Math.max(1, Math.floor(settings.threadBudget / settings.poolSize));
  const threadsFor = (requested: number | null) =>
    requested === null ? perSlot : Math.max(1, Math.min(requested, perSlot));
  const current = (uuid: string) =>
    store.db.selectFrom('tasks').selectAll().where('uuid', '=', uuid).executeTakeFirst();

  /** The task's record moved to running by this worker, or why the job has nothing to run. */
  async function claim(uuid: string, ompThreads: (r: TaskRow) => number): Promise<TaskRow | string> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await current(uuid);
      if (!row) return 'deleted';
      if (row.status === 'pending' || row.status === 'queued') {
        if (
          await transition(ctx, row.id, row.status, 'running', {
            logs: [`started with ${ompThreads(row)} OpenMP thread(s) on worker ${me}`],
            progress: 0,
            stage: null,
          })
        )
          return row;
        continue; // cancelled or taken meanwhile: look again
      }
      if (row.status === 'running') {
        // The job came back: the worker that ran it ended without finishing. Its partial files go; the task runs again.
        // A grid's stored stages stay: its flow (the same job ids) goes on from them.
        if (row.task_type !== 'binary_cpt_diagram') blobs.remove(row.uuid);
        await store.db
          .updateTable('tasks')
          .set({
            logs: `${row.logs ?? ''}\n${logLine(`running again on worker ${me}: the worker that ran it ended`)}`.trimStart(),
            progress: 0,
            stage: null,
          })
          .where('id', '=', row.id)
          .where('status', '=', 'running')
          .execute();
        return row;
      }
      if (row.status === 'uploading') {
        await transition(ctx, row.id, 'uploading', 'failed', { logs: ['the worker storing the result files ended'] });
        return 'uploading interrupted';
      }
      return row.status; // completed, failed, aborted: nothing to do
    }
    return 'status changing';
  }

  async function takeSlot(): Promise<CalcHost> {
    for (;;) {
      const h = slots.find((s) => !s.busy && !s.exited);
      if (h) return h;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The database file and the config a calculation host gets for a task, or undefined when the file is gone. */
  async function hostInput(
    row: TaskRow,
  ): Promise<{ config: Record<string, unknown>; database: HostJob['database'] } | undefined> {
    const db = row.database_id
      ? await store.db
          .selectFrom('databases')
          .select(['file_path', 'code', 'file_sha256'])
          .where('id', '=', row.database_id)
          .executeTakeFirst()
      : undefined;
    if (!db) return undefined;
    const config = JSON.parse(row.task_config) as Record<string, unknown>;
    delete config.tdb_code;
    config.tdb_file = db.file_path;
    return { config, database: { code: db.code, sha256: db.file_sha256 } };
  }

  /**
   * Runs a calculation on a free slot while the task is running: a cancel (the task no longer running) reaches the
   * host within STATUS_CHECK_MS; live progress goes to onProgress. A calculation error fails the task.
   */
  async function runOnSlot(
    job: Job,
    row: TaskRow,
    hostJob: HostJob,
    signal: AbortSignal | undefined,
    onProgress: (p: HostProgress) => void,
  ): Promise<HostOutput | 'failed'> {
    const host = await takeSlot();
    const cancel = () => host.cancel();
    signal?.addEventListener('abort', cancel);
    const statusTimer = setInterval(() => {
      void current(row.uuid).then(
        (now) => {
          if (!now || now.status !== 'running') worker.cancelJob(job.id!, 'the task is no longer running');
        },
        () => {},
      );
    }, STATUS_CHECK_MS);
    try {
      return await host.run(hostJob, onProgress);
    } catch (e) {
      const now = await current(row.uuid);
      if (!now) blobs.remove(row.uuid);
      else if (now.status === 'running')
        await transition(ctx, row.id, 'running', 'failed', { logs: [(e as Error).message] });
      return 'failed';
    } finally {
      clearInterval(statusTimer);
      signal?.removeEventListener('abort', cancel);
    }
  }

  async function processTask(job: Job<TaskJobData>, _token?: string, signal?: AbortSignal): Promise<string> {
    if (job.name !== 'task') return processCptStage(job as Job<CptStageJobData>, signal);
    const row = await claim(job.data.uuid, (r) => threadsFor(r.omp_threads));
    if (typeof row === 'string') return row;
    const input = await hostInput(row);
    if (!input) {
      await transition(ctx, row.id, 'running', 'failed', {
        logs: ['the database file of this task is no longer available'],
      });
      return 'failed';
    }
    if (row.task_type === 'binary_cpt_diagram') {
      // The grid spreads over every worker as a flow (main/server/cpt-flow.ts); its merge job completes the task.
      const { cptGridNodes } = await import('../../worker/calculations/binary_cpt_stage.js');
      let nodes: number;
      try {
        nodes = cptGridNodes(input.config);
      } catch (e) {
        await transition(ctx, row.id, 'running', 'failed', { logs: [(e as Error).message] });
        return 'failed';
      }
      const chunks = await addCptFlow(flows, row.uuid, nodes, perChunk);
      await store.db
        .updateTable('tasks')
        .set({
          logs: `${(await current(row.uuid))?.logs ?? ''}\n${logLine(`grid of ${nodes} nodes in ${chunks} chunk(s) of up to ${perChunk} nodes, spread over the workers`)}`.trimStart(),
          stage: `computing the grid: 0 of ${chunks} chunks`,
        })
        .where('id', '=', row.id)
        .where('status', '=', 'running')
        .execute();
      return 'flow';
    }
    const hostJob: HostJob = {
      taskUuid: row.uuid,
      taskType: row.task_type,
      config: input.config,
      ompThreads: threadsFor(row.omp_threads),
      taskDir: blobs.taskDir(row.uuid),
      database: input.database,
    };
    let live: HostProgress = { progress: 0, stage: null };
    let saved = '';
    const progressTimer = setInterval(() => {
      const key = `${live.progress}\u0000${live.stage}`;
      if (key === saved) return;
      saved = key;
      void job.updateProgress(live.progress).catch(() => {});
      void store.db
        .updateTable('tasks')
        .set({ progress: live.progress, stage: live.stage })
        .where('id', '=', row.id)
        .where('status', '=', 'running')
        .execute()
        .catch(() => {});
    }, PROGRESS_SAVE_MS);
    let out: HostOutput | 'failed';
    try {
      out = await runOnSlot(job, row, hostJob, signal, (p) => {
        live = p;
      });
    } finally {
      clearInterval(progressTimer);
    }
    if (out === 'failed') return out;
    const now = await current(row.uuid);
    if (!now) {
      blobs.remove(row.uuid);
      return 'deleted';
    }
    if (now.status !== 'running' || out.cancelled) return now.status;
    await storeOutcome(ctx, row, out, live);
    return 'stored';
  }

  /**
   * One job of a grid's flow. A chunk's results go to the shared directory (written once, so a chunk that runs again
   * changes nothing); the task's progress is the share of chunks stored (0..0.7, the embedded run's grid share), then
   * the bisection's and merge's own. The merge stores the result files and completes the task.
   */
  async function processCptStage(job: Job<CptStageJobData>, signal?: AbortSignal): Promise<string> {
    const { uuid, stage } = job.data;
    const row = await current(uuid);
    if (!row) return 'deleted';
    if (row.status !== 'running') return row.status; // cancelled or failed: the rest of the flow does nothing
    const input = await hostInput(row);
    if (!input) {
      await transition(ctx, row.id, 'running', 'failed', {
        logs: ['the database file of this task is no longer available'],
      });
      return 'failed';
    }
    const name =
      stage.kind === 'chunk'
        ? `chunk ${stage.chunk}`
        : stage.kind === 'bisect'
          ? `bisection part ${stage.chunk}`
          : stage.kind;
    log(`task ${uuid}: grid ${name} started (attempt ${job.attemptsStarted})`);
    if (stage.kind === 'bisect-plan') {
      // no calculation: the stored chunks' changing edges, split into parts of about a chunk's work
      const { planBisection } = await import('../../worker/calculations/binary_cpt_stage.js');
      try {
        const ranges = planBisection(blobs.taskDir(uuid), input.config, stage.chunks, perChunk);
        await addBisectionParts(stageQueue, job, ranges);
        log(`task ${uuid}: grid bisection in ${ranges.length} part(s)`);
        await store.db
          .updateTable('tasks')
          .set({ stage: `bisecting the boundaries in ${ranges.length} part(s)` })
          .where('id', '=', row.id)
          .where('status', '=', 'running')
          .execute();
      } catch (e) {
        await transition(ctx, row.id, 'running', 'failed', {
          logs: [`planning the boundary bisection failed: ${(e as Error).message}`],
        });
        return 'failed';
      }
      return 'planned';
    }
    const hostJob: HostJob = {
      taskUuid: row.uuid,
      taskType: CPT_STAGE_JOB,
      config: { ...input.config, cpt_stage: { ...stage, worker: me } },
      ompThreads: threadsFor(row.omp_threads),
      taskDir: blobs.taskDir(row.uuid),
      database: input.database,
    };
    let live: HostProgress = { progress: 0, stage: null };
    const base = stage.kind === 'merge' ? 0.95 : 0;
    const progressTimer =
      stage.kind !== 'merge'
        ? undefined
        : setInterval(() => {
            const p = base + 0.05 * live.progress;
            void store.db
              .updateTable('tasks')
              .set({ progress: p, stage: 'writing the result files' })
              .where('id', '=', row.id)
              .where('status', '=', 'running')
              .where('progress', '<', p)
              .execute()
              .catch(() => {});
          }, PROGRESS_SAVE_MS);
    let out: HostOutput | 'failed';
    try {
      out = await runOnSlot(job, row, hostJob, signal, (p) => {
        live = p;
      });
    } finally {
      if (progressTimer) clearInterval(progressTimer);
    }
    if (out === 'failed') {
      log(`task ${uuid}: grid ${name} failed`);
      return out;
    }
    const now = await current(uuid);
    if (!now) {
      blobs.remove(uuid);
      return 'deleted';
    }
    if (now.status !== 'running' || out.cancelled) {
      log(`task ${uuid}: grid ${name} stopped`);
      return now.status;
    }
    log(`task ${uuid}: grid ${name} ${out.summary}`);
    if (stage.kind === 'chunk') {
      const stagesDir = join(blobs.taskDir(uuid), 'stages');
      const done = readdirSync(stagesDir).filter((f) => /^chunk-\d+\.json$/.test(f)).length;
      const p = (0.7 * done) / stage.chunks;
      await store.db
        .updateTable('tasks')
        .set({ progress: p, stage: `computing the grid: ${done} of ${stage.chunks} chunks` })
        .where('id', '=', row.id)
        .where('status', '=', 'running')
        .where('progress', '<', p)
        .execute();
      return 'stored';
    }
    if (stage.kind === 'bisect') {
      const stagesDir = join(blobs.taskDir(uuid), 'stages');
      const parts = readdirSync(stagesDir).filter((f) => /^bisect-\d+\.json$/.test(f)).length;
      const p = 0.7 + (0.25 * parts) / Math.max(parts, bisectParts(stagesDir));
      await store.db
        .updateTable('tasks')
        .set({ progress: p })
        .where('id', '=', row.id)
        .where('status', '=', 'running')
        .where('progress', '<', p)
        .execute();
      return 'stored';
    }
    await storeOutcome(ctx, row, { ...out, logs: out.logs }, { progress: 1, stage: null });
    rmSync(join(blobs.taskDir(uuid), 'stages'), { recursive: true, force: true });
    return 'stored';
  }

  const lockMs = Math.round((o.lockSeconds ?? 30) * 1000);
  const redis = redisConnection(redisUrl, { blocking: true });
  const flows = new FlowProducer({ connection: redis });
  const stageQueue = new Queue(TASK_QUEUE, { connection: redis });
  const perChunk = chunkNodes();
  const worker = new Worker<TaskJobData>(TASK_QUEUE, processTask, {
    connection: redis,
    concurrency: settings.poolSize,
    lockDuration: lockMs,
    stalledInterval: lockMs,
    maxStalledCount: 5,
  });
  worker.on('error', (e) => log(`worker: ${e.message}`));
  worker.on('failed', (job, e) => {
    log(`job ${job?.id ?? '?'} failed: ${e.message}`);
    // A job given up by BullMQ (its workers kept dying) fails its task rather than leaving it running.
    if (job) {
      void current(job.data.uuid)
        .then((row) =>
          row?.status === 'running'
            ? transition(ctx, row.id, 'running', 'failed', { logs: [`job ${job.id} failed: ${e.message}`] })
            : undefined,
        )
        .catch(() => {});
    }
  });
  await worker.waitUntilReady();
  log(`PhaseDesk worker ${me}: ${settings.poolSize} slot(s), ${perSlot} OpenMP thread(s) each, queue ${TASK_QUEUE}`);
  return {
    worker,
    store,
    hostPids: () => slots.map((h) => h.pid).filter((p): p is number => p !== undefined),
    async close(graceful = true) {
      if (closing) return;
      closing = true;
      if (!graceful) for (const h of slots) h.kill();
      // No new jobs; the running ones finish and are stored (a worker that must stop at once is killed: its jobs
      // then go to another worker when their locks lapse).
      await worker.close().catch(() => {});
      await flows.close().catch(() => {});
      await stageQueue.close().catch(() => {});
      await redis.quit().catch(() => {});
      await Promise.all(slots.map((h) => h.stop()));
      await store.close();
    },
  };
}
