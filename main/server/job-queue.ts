// The API side of the lab server: tasks become BullMQ jobs on Redis, taken by `phasedesk worker` processes
// (main/server/worker.ts). The API never runs a calculation, so a restart of it (even a kill -9) leaves every running
// task to its worker. Every few seconds it adds the job of every task still waiting (the job id is the task's, so a
// job that exists already is not added twice) and reconciles the running tasks with the queue (reconcile.ts), so
// that nothing is lost with a Redis that restarted without its data. While Redis is out of reach new tasks are
// refused with 503 (queueUnavailable); the connection comes back by itself (ioredis retries with a growing delay),
// and a connection that stays silent for a lock time (a cut network keeps TCP waiting for minutes) is replaced.
import { createHash } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ServiceContext } from '../service/context.js';
import { redisConnection, TASK_QUEUE, taskJobId } from './redis.js';
import { CoalescedRuns } from '../util/coalesced-runs.js';
import { Reconciler } from './reconcile.js';
import { probeRedis } from './probes.js';
import { repeatWithoutOverlap } from '../util/repeat.js';

/** The data of a task's job; everything else the worker reads from the task record. */
export interface TaskJobData {
  uuid: string;
}

/** Signing key of the download URLs from PHASEDESK_URL_SECRET, the same in every API process. */
export function sharedUrlSecret(text: string): Buffer {
  if (text.length < 32)
    throw new Error('PHASEDESK_URL_SECRET must be at least 32 characters (for example: openssl rand -hex 32)');
  return createHash('sha256').update(text).digest();
}

const SWEEP_INTERVAL_MS = 5000;
/** Redis is probed this often, so that new tasks are accepted again as soon as it answers (as /readyz reports it). */
const PROBE_INTERVAL_MS = 1000;

/** Logs a failing background pass once, and once more when it works again. */
function failureLog(log: (l: string) => void, what: string) {
  let failing = false;
  return {
    failed(e: Error) {
      if (!failing) log(`${what} failed: ${e.message} (tried again every ${SWEEP_INTERVAL_MS / 1000} s)`);
      failing = true;
    },
    worked() {
      if (failing) log(`${what} works again`);
      failing = false;
    },
  };
}

export class JobQueue {
  readonly queue: Queue<TaskJobData>;
  readonly redis: Redis;
  private readonly added = new Set<string>();
  private readonly pumps: CoalescedRuns;
  private readonly reconciles: CoalescedRuns;
  private readonly reconciler: Reconciler;
  private readonly timer: NodeJS.Timeout;
  private readonly probeTimer: NodeJS.Timeout;
  /** Since when Redis has not answered the probe's PING (undefined: it answers). */
  private redisSilentSince: number | undefined;

  constructor(
    private readonly ctx: ServiceContext,
    redisUrl: string,
  ) {
    const pumpLog = failureLog(ctx.log, 'adding jobs');
    const reconcileLog = failureLog(ctx.log, 'reconciling the queue');
    this.pumps = new CoalescedRuns(
      () => this.pump().then(() => pumpLog.worked()),
      (e) => pumpLog.failed(e),
    );
    this.redis = redisConnection(redisUrl);
    this.redis.on('error', () => {
      /* the queue's error event and queueUnavailable report it */
    });
    this.redis.on('ready', () => {
      this.redisSilentSince = undefined;
    });
    this.queue = new Queue<TaskJobData>(TASK_QUEUE, { connection: this.redis });
    this.queue.on('error', (e) => ctx.log(`job queue: ${e.message}`));
    this.reconciler = new Reconciler(ctx, this.queue, ctx.settings.lab.lockSeconds * 1000);
    this.reconciles = new CoalescedRuns(
      () => this.reconcileNow().then(() => reconcileLog.worked()),
      (e) => reconcileLog.failed(e),
    );
    // Tasks another API process created but could not hand over (it ended in between) are picked up here; every
    // sweep adds the job of every waiting task again (a no-op for a job that exists), so a job lost with a Redis
    // that kept no data comes back too, and running tasks are reconciled.
    this.timer = setInterval(() => {
      this.added.clear();
      this.kick();
      this.reconciles.request();
    }, SWEEP_INTERVAL_MS);
    this.timer.unref();
    this.probeTimer = repeatWithoutOverlap(PROBE_INTERVAL_MS, () => this.watchRedis());
  }

  /** At start: the first reconciliation pass (tasks left running whose jobs Redis lost are found from now on). */
  async recover(): Promise<void> {
    this.reconciles.request();
  }

  /** Why new tasks cannot be queued now (Redis out of reach), or undefined. */
  queueUnavailable(): string | undefined {
    return this.redis.status === 'ready' && this.redisSilentSince === undefined ? undefined : 'Redis';
  }

  /** A connection that looks open but has not answered for a lock time is dropped; ioredis connects anew. */
  private async watchRedis(): Promise<void> {
    if (this.redis.status !== 'ready') return;
    const problem = await probeRedis(this.redis);
    if (!problem) {
      this.redisSilentSince = undefined;
      return;
    }
    const now = Date.now();
    this.redisSilentSince ??= now;
    if (now - this.redisSilentSince < this.ctx.settings.lab.lockSeconds * 1000) return;
    this.ctx.log(`Redis silent for ${this.ctx.settings.lab.lockSeconds} s (${problem}): a new connection`);
    this.redisSilentSince = undefined;
    this.redis.disconnect(true);
  }

  kick(): void {
    this.pumps.request();
  }

  private async reconcileNow(): Promise<void> {
    if (this.queueUnavailable()) throw new Error(`Redis connection ${this.redis.status}`);
    await this.reconciler.pass();
  }

  /** Adds a job for every pending or queued task this process has not added yet. */
  private async pump(): Promise<void> {
    if (this.queueUnavailable()) throw new Error(`Redis connection ${this.redis.status}`);
    const waiting = await this.ctx.store.db
      .selectFrom('tasks')
      .select(['uuid'])
      .where('status', 'in', ['pending', 'queued'])
      .orderBy('id')
      .execute();
    const still = new Set(waiting.map((w) => w.uuid));
    for (const uuid of this.added) if (!still.has(uuid)) this.added.delete(uuid);
    for (const { uuid } of waiting) {
      if (this.added.has(uuid)) continue;
      await this.queue.add('task', { uuid }, { jobId: taskJobId(uuid), removeOnComplete: true, removeOnFail: 1000 });
      this.added.add(uuid);
    }
  }

  /**
   * The task is already aborted in the database; the worker running it sees that at its next status check (twice a
   * second) and raises the calculation's cancel flag. A job still waiting is dropped here.
   */
  requestStop(uuid: string): void {
    void this.queue.remove(taskJobId(uuid)).catch(() => {
      /* running: its worker stops it */
    });
  }

  async close(): Promise<void> {
    this.pumps.stop();
    this.reconciles.stop();
    clearInterval(this.timer);
    clearInterval(this.probeTimer);
    await this.queue.close().catch(() => {});
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }
}
