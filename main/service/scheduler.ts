// Runs tasks in supervised calculation processes: pending -> queued -> running -> uploading -> completed | failed.
// One calculation host (worker/host.ts, a child process with the piscina worker in a thread) per pool slot.
// Cancellation is cooperative: a cancel message makes the host raise the job's SharedArrayBuffer cancel flag
// (worker/protocol.ts), which the calculation and the native core poll. A host that crashes (a native
// abort or segfault) fails only the task it was running and is replaced at once; a host is also replaced
// after settings.calcHost.maxTasks tasks or when it grew above maxRssMb.
import { dirname, join } from 'node:path';
import type { ServiceContext } from './context.js';
import { taskById, transition, updateRunningTask, type TaskRow } from './task-rows.js';
import { CalculationProcessCrash, type CalcHost, type HostOutput, type HostProgress } from './calc-host.js';
import { HostPool } from './host-pool.js';
import { calculationInput, calculationJob, DATABASE_GONE, ompThreadsFor } from './calc-job.js';
import { storeKeptFiles, storeOutcome } from './task-outcome.js';
import { CoalescedRuns } from '../util/coalesced-runs.js';

interface InFlight {
  taskId: number;
  host: CalcHost;
  progress: HostProgress;
  done: Promise<void>;
}

export class Scheduler {
  private readonly pool: HostPool;
  private readonly inflight = new Map<string, InFlight>();
  private readonly pumps: CoalescedRuns;
  private readonly progressTimer: NodeJS.Timeout;
  private closing = false;

  constructor(
    private readonly ctx: ServiceContext,
    workerFile: string,
  ) {
    this.pumps = new CoalescedRuns(
      () => this.pump(),
      (e) => this.ctx.log(`scheduler error: ${e.message}`),
    );
    // The host script sits next to the piscina worker file it runs (dist/worker/).
    const hostFile = join(dirname(workerFile), 'host.js');
    this.pool = new HostPool(
      hostFile,
      ctx.settings.calcHost,
      ctx.settings.poolSize,
      (l) => ctx.log(l),
      () => this.kick(),
    );
    // Progress and stage relayed by the hosts are copied to the task rows once a second.
    this.progressTimer = setInterval(() => {
      void this.saveProgress();
    }, 1000);
    this.progressTimer.unref();
  }

  /** Process ids of the calculation hosts (for memory checks). */
  hostPids(): number[] {
    return this.pool.pids();
  }

  private async saveProgress(): Promise<void> {
    try {
      for (const f of this.inflight.values()) {
        await updateRunningTask(this.ctx.store, f.taskId, { progress: f.progress.progress, stage: f.progress.stage });
      }
    } catch (e) {
      this.ctx.log(`progress update failed: ${(e as Error).message}`);
    }
  }

  /** OpenMP threads for one job: the request's value bounded by threadBudget / poolSize. */
  threadsFor(requested: number | null): number {
    return ompThreadsFor(this.ctx.settings, requested);
  }

  /** Recovery at start: pending/queued are picked up by pump(); running/uploading are failed. */
  async recover(): Promise<void> {
    const stuck = await this.ctx.store.db
      .selectFrom('tasks')
      .selectAll()
      .where('status', 'in', ['running', 'uploading'])
      .execute();
    for (const t of stuck) {
      await transition(this.ctx, t.id, t.status, 'failed', { logs: ['interrupted by a service restart'] });
      this.ctx.log(`task ${t.id} (${t.uuid}) failed: interrupted by a service restart`);
    }
  }

  kick(): void {
    if (this.closing) return;
    this.pumps.request();
  }

  requestStop(uuid: string): void {
    this.inflight.get(uuid)?.host.cancel();
  }

  /** Progress 0..1 of a running calculation, if it is in flight. */
  progressOf(uuid: string): number | undefined {
    return this.inflight.get(uuid)?.progress.progress;
  }

  /** Progress and stage of a running calculation, if it is in flight. */
  liveProgress(uuid: string): HostProgress | undefined {
    return this.inflight.get(uuid)?.progress;
  }

  private async pump(): Promise<void> {
    while (!this.closing && this.pool.idle()) {
      const busy = [...this.inflight.keys()];
      let q = this.ctx.store.db.selectFrom('tasks').selectAll().where('status', 'in', ['pending', 'queued']);
      if (busy.length > 0) q = q.where('uuid', 'not in', busy);
      const next = await q.orderBy('id').limit(1).executeTakeFirst();
      if (!next) return;
      await this.dispatch(next);
    }
  }

  private async dispatch(row: TaskRow): Promise<void> {
    if (row.status === 'pending' && !(await transition(this.ctx, row.id, 'pending', 'queued'))) return;
    const input = await calculationInput(this.ctx.store, row);
    if (!input) {
      await transition(this.ctx, row.id, 'queued', 'failed', { logs: [DATABASE_GONE] });
      return;
    }
    const ompThreads = this.threadsFor(row.omp_threads);
    if (
      !(await transition(this.ctx, row.id, 'queued', 'running', {
        logs: [`started with ${ompThreads} OpenMP thread(s)`],
      }))
    )
      return;
    const job = calculationJob(row, input, { ompThreads, taskDir: this.ctx.blobs.taskDir(row.uuid) });
    const host = this.pool.idle();
    if (!host) {
      await transition(this.ctx, row.id, 'running', 'failed', { logs: ['no calculation process was available'] });
      return;
    }
    const entry: InFlight = { taskId: row.id, host, progress: { progress: 0, stage: null }, done: Promise.resolve() };
    entry.done = host
      .run(job, (p) => {
        entry.progress = p;
      })
      .then(
        (out) => this.finish(row, out),
        (err: unknown) => this.fail(row, err),
      )
      .catch((e) => this.ctx.log(`task ${row.id}: bookkeeping error: ${(e as Error).message}`))
      .finally(() => {
        this.inflight.delete(row.uuid);
        this.pool.recycleIfDue(host);
        this.kick();
      });
    this.inflight.set(row.uuid, entry);
  }

  private async finish(row: TaskRow, out: HostOutput): Promise<void> {
    if (this.closing) return; // left as running: the next start fails it with a log line
    const now = await taskById(this.ctx.store, row.id);
    if (!now) {
      this.ctx.blobs.remove(row.uuid);
      return;
    } // deleted meanwhile
    // aborted meanwhile: keep the aborted state, and the files of what a calculation kept (a batch's rows done)
    if (now.status === 'aborted' && out.cancelled && out.kept) await storeKeptFiles(this.ctx, now);
    if (now.status !== 'running') return;
    if (out.cancelled) return;
    await storeOutcome(this.ctx, row, out);
  }

  private async fail(row: TaskRow, err: unknown): Promise<void> {
    const msg = (err as Error)?.message ?? String(err);
    this.ctx.log(`task ${row.id} (${row.uuid}) failed: ${msg}`);
    // A host killed by the shutdown is not a crash: the task is failed by the restart recovery.
    if (this.closing && err instanceof CalculationProcessCrash) return;
    if (this.closing) return;
    const now = await taskById(this.ctx.store, row.id);
    if (!now) {
      this.ctx.blobs.remove(row.uuid);
      return;
    }
    if (now.status === 'running') await transition(this.ctx, row.id, 'running', 'failed', { logs: [msg] });
  }

  /** Stops dispatching, raises every cancel flag, waits for calculations to return, then ends every host (killed after the grace period). */
  async close(graceMs = 10_000): Promise<void> {
    this.closing = true;
    this.pumps.stop();
    this.pool.retire();
    clearInterval(this.progressTimer);
    for (const f of this.inflight.values()) f.host.cancel();
    const all = Promise.all([...this.inflight.values()].map((f) => f.done));
    await Promise.race([all, new Promise((r) => setTimeout(r, graceMs).unref())]);
    await this.pool.stop({ killBusy: true });
  }
}
