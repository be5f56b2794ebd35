// A lab worker's watch on its servers, once a second (main/server/probes.ts). PostgreSQL out of reach: the worker
// takes no new job until it answers again (running jobs keep their locks and wait to store, main/server/job-run.ts).
// Redis silent for a whole lock time: the session's connection is dead (a cut network keeps TCP waiting for
// minutes), so the session is closed and a new one opened, which works as soon as the network is back; the jobs of
// the old session have lost their locks by then and stopped (main/server/lock-watch.ts).
import type { Store } from '../db/index.js';
import type { QueueSession } from './queue-session.js';
import type { WorkerMetrics } from './worker-metrics.js';
import { probePostgres, probeRedis } from './probes.js';
import { repeatWithoutOverlap } from '../util/repeat.js';

const PROBE_EVERY_MS = 1000;

export interface SupervisedWorker {
  store: Store;
  lockMs: number;
  metrics: WorkerMetrics;
  log(line: string): void;
  session(): QueueSession;
  /** Closes the current session and opens a new one. */
  recycle(): QueueSession;
}

export class ConnectionSupervisor {
  private readonly timer: NodeJS.Timeout;
  private pausedForStore = false;
  private redisSilentSince: number | undefined;

  constructor(private readonly s: SupervisedWorker) {
    this.timer = repeatWithoutOverlap(PROBE_EVERY_MS, () => this.probe());
  }

  /** Whether new jobs wait for PostgreSQL (a new session starts paused then). */
  get paused(): boolean {
    return this.pausedForStore;
  }

  private async probe(): Promise<void> {
    const session = this.s.session();
    const [pg, redis] = await Promise.all([probePostgres(this.s.store), probeRedis(session.redis)]);
    this.s.metrics.reachable.set({ server: 'postgresql' }, pg ? 0 : 1);
    this.s.metrics.reachable.set({ server: 'redis' }, redis ? 0 : 1);
    if (pg && !this.pausedForStore) {
      this.pausedForStore = true;
      this.s.log(`PostgreSQL out of reach (${pg}): no new job until it answers`);
      void session.worker.pause(true).catch(() => {});
    } else if (!pg && this.pausedForStore) {
      this.pausedForStore = false;
      this.s.log('PostgreSQL answers again: taking jobs');
      void session.worker.resume();
    }
    this.watchRedis(session, redis);
  }

  private watchRedis(session: QueueSession, problem: string | null): void {
    if (!problem) {
      this.redisSilentSince = undefined;
      return;
    }
    const now = Date.now();
    this.redisSilentSince ??= now;
    if (now - this.redisSilentSince < this.s.lockMs || !session.wasReady()) return;
    this.redisSilentSince = undefined;
    this.s.log(`Redis silent for a lock time, ${this.s.lockMs / 1000} s (${problem}): a new connection`);
    const next = this.s.recycle();
    if (this.pausedForStore) void next.worker.pause(true).catch(() => {});
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
