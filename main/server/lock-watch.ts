// A job's lock on Redis lasts lockDuration from its last renewal; BullMQ renews it while the job runs, and once it
// lapsed another worker's stalled check hands the job on. A worker that cannot renew (a cut network, a Redis that
// restarted without its data) must therefore stop the job's calculation before the lock can have lapsed, or two
// workers compute the same task. LockWatch keeps, per running job, the time its last successful renewal was sent
// (the lock then lasts at least lockDuration from that moment) and aborts the job's lockLost signal when that time
// plus lockDuration has come, or at once when Redis answers that the lock is someone else's.
import { Worker, type Processor, type WorkerOptions } from 'bullmq';

export class LockLostError extends Error {
  constructor(jobId: string) {
    super(`job ${jobId}: its lock could not be renewed; the calculation stopped and the job goes to another worker`);
    this.name = 'LockLostError';
  }
}

interface Watched {
  renewedAt: number;
  lost: AbortController;
}

export class LockWatch {
  private readonly jobs = new Map<string, Watched>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly lockMs: number,
    /** `sinceMs`: since the last confirmed renewal was sent (undefined: Redis refused the renewal). */
    private readonly onLost: (jobId: string, sinceMs: number | undefined) => void,
  ) {
    this.timer = setInterval(() => this.check(Date.now()), Math.max(50, Math.min(250, Math.round(lockMs / 20))));
    this.timer.unref();
  }

  /** A job that took its lock at `lockedAt`; its signal aborts when the lock may have lapsed. */
  track(jobId: string, lockedAt: number): AbortSignal {
    const lost = new AbortController();
    this.jobs.set(jobId, { renewedAt: lockedAt, lost });
    return lost.signal;
  }

  untrack(jobId: string): void {
    this.jobs.delete(jobId);
  }

  /** Renewals sent at `sentAt` that Redis confirmed. */
  renewed(jobIds: string[], sentAt: number): void {
    for (const id of jobIds) {
      const j = this.jobs.get(id);
      if (j && sentAt > j.renewedAt) j.renewedAt = sentAt;
    }
  }

  /** Redis said the lock is gone or another worker's. */
  refused(jobIds: string[]): void {
    for (const id of jobIds) this.lose(id, undefined);
  }

  private check(now: number): void {
    for (const [id, j] of this.jobs) if (now >= j.renewedAt + this.lockMs) this.lose(id, now - j.renewedAt);
  }

  private lose(jobId: string, sinceMs: number | undefined): void {
    const j = this.jobs.get(jobId);
    if (!j) return;
    this.jobs.delete(jobId);
    this.onLost(jobId, sinceMs);
    j.lost.abort(new LockLostError(jobId));
  }

  close(): void {
    clearInterval(this.timer);
  }
}

/** A BullMQ Worker that tells its LockWatch when each renewal was sent and which ones Redis confirmed. */
export class LockWatchingWorker<T> extends Worker<T> {
  private readonly watch: LockWatch;

  constructor(queue: string, processor: Processor<T>, opts: WorkerOptions, watch: LockWatch) {
    super(queue, processor, opts);
    this.watch = watch;
  }

  override async extendJobLocks(jobIds: string[], tokens: string[], duration: number): Promise<string[]> {
    const sentAt = Date.now();
    const refused = await super.extendJobLocks(jobIds, tokens, duration);
    this.watch.renewed(
      jobIds.filter((id) => !refused.includes(id)),
      sentAt,
    );
    this.watch.refused(refused);
    return refused;
  }
}
