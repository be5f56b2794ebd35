// The API side of the lab server: tasks become BullMQ jobs on Redis, taken by `phasedesk worker` processes
// (main/server/worker.ts). The API never runs a calculation, so a restart of it (even a kill -9) leaves every running
// task to its worker; at start it only adds the jobs of tasks still waiting (the job id is the task's, so a job that
// exists already is not added twice).
import { createHash } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ServiceContext } from '../service/context.js';
import { redisConnection, TASK_QUEUE, taskJobId } from './redis.js';
import { CoalescedRuns } from '../util/coalesced-runs.js';

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

export class JobQueue {
  readonly queue: Queue<TaskJobData>;
  private readonly redis: Redis;
  private readonly added = new Set<string>();
  private readonly pumps: CoalescedRuns;

  constructor(
    private readonly ctx: ServiceContext,
    redisUrl: string,
  ) {
    this.pumps = new CoalescedRuns(
      () => this.pump(),
      (e) => this.ctx.log(`job queue error: ${e.message}`),
    );
    this.redis = redisConnection(redisUrl);
    this.queue = new Queue<TaskJobData>(TASK_QUEUE, { connection: this.redis });
    this.queue.on('error', (e) => ctx.log(`job queue: ${e.message}`));
    // Tasks another API process created but could not hand over (it ended in between) are picked up here.
    // Every sweep adds the job of every waiting task again (a no-op for a job that exists), so a job lost with a Redis
    // that kept no data comes back too.
    this.timer = setInterval(() => {
      this.added.clear();
      this.kick();
    }, SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  private readonly timer: NodeJS.Timeout;

  /** Tasks left running stay with their workers; waiting ones get their job (again) at the next kick. */
  async recover(): Promise<void> {
    await this.queue.waitUntilReady();
  }

  kick(): void {
    this.pumps.request();
  }

  /** Adds a job for every pending or queued task this process has not added yet. */
  private async pump(): Promise<void> {
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
    clearInterval(this.timer);
    await this.queue.close();
    await this.redis.quit().catch(() => {});
  }
}
