// Runs tasks in supervised calculation processes: pending -> queued -> running -> uploading -> completed | failed.
// One calculation host (worker/host.ts, a child process with the piscina worker in a thread) per pool slot.
// Cancellation is cooperative: a cancel message makes the host raise the job's SharedArrayBuffer cancel flag
// (worker/protocol.ts), which the calculation and the native core poll. A host that crashes (a native
// abort or segfault) fails only the task it was running and is replaced at once; a host is also replaced
// after settings.calcHost.maxTasks tasks or when it grew above maxRssMb.
import { dirname, join } from 'node:path';
import type { ServiceContext } from './context.js';
import { transition, type TaskRow } from './task-rows.js';
import { CalcHost, CalculationProcessCrash, type HostOutput, type HostProgress } from './calc-host.js';
import type { HostJob } from '../../worker/protocol.js';
import { storeOutcome } from './task-outcome.js';

interface InFlight {
  taskId: number;
  host: CalcHost;
  progress: HostProgress;
  done: Promise<void>;
}

export class Scheduler {
  private readonly hostFile: string;
  private readonly hosts: CalcHost[] = [];
  private readonly inflight = new Map<string, InFlight>();
  private pumping = false;
  private again = false;
  private closing = false;

  constructor(
    private readonly ctx: ServiceContext,
    workerFile: string,
  ) {
    // The host script sits next to the piscina worker file it runs (dist/worker/).
    this.hostFile = join(dirname(workerFile), 'host.js');
    for (let i = 0; i < ctx.settings.poolSize; i++) this.hosts.push(this.newHost());
    // Progress and stage relayed by the hosts are copied to the task rows once a second.
    this.progressTimer = setInterval(() => {
      void this.saveProgress();
    }, 1000);
    this.progressTimer.unref();
  }

  private readonly progressTimer: NodeJS.Timeout;

  private newHost(): CalcHost {
    return new CalcHost(this.hostFile, this.ctx.settings.calcHost, (host, how) => this.hostEnded(host, how));
  }

  /** A host ended (crash, kill, or a planned stop): its slot gets a new host unless the service is closing. */
  private hostEnded(host: CalcHost, how: string): void {
    const i = this.hosts.indexOf(host);
    if (i < 0) return; // retired on purpose
    if (this.closing) return;
    this.ctx.log(`calculation process ${host.pid} ended (${how}); starting a new one`);
    const replace = () => {
      if (this.closing || this.hosts[i] !== host) return;
      this.hosts[i] = this.newHost();
      this.kick();
    };
    // A host that could not even start (a broken installation) is retried once a second, not in a busy loop.
    if (host.started) replace();
    else setTimeout(replace, 1000).unref();
  }

  /** Replaces a host that ran its share of tasks or grew too large (native memory is returned with the process). */
  private recycleIfDue(host: CalcHost): void {
    const { maxTasks, maxRssMb } = this.ctx.settings.calcHost;
    if (this.closing || host.exited || (host.tasksRun < maxTasks && host.rssMb <= maxRssMb)) return;
    const i = this.hosts.indexOf(host);
    if (i < 0) return;
    this.hosts[i] = this.newHost();
    this.ctx.log(
      `calculation process ${host.pid} replaced after ${host.tasksRun} task(s), resident size ${Math.round(host.rssMb)} MB`,
    );
    void host.stop();
  }

  /** Process ids of the calculation hosts (for memory checks). */
  hostPids(): number[] {
    return this.hosts.map((h) => h.pid).filter((p): p is number => p !== undefined);
  }

  private async saveProgress(): Promise<void> {
    try {
      for (const [uuid, f] of this.inflight) {
        await this.ctx.store.db
          .updateTable('tasks')
          .set({ progress: f.progress.progress, stage: f.progress.stage })
          .where('uuid', '=', uuid)
          .where('status', '=', 'running')
          .execute();
      }
    } catch (e) {
      this.ctx.log(`progress update failed: ${(e as Error).message}`);
    }
  }

  /** OpenMP threads for one job: the request's value bounded by threadBudget / poolSize. */
  threadsFor(requested: number | null): number {
    const perSlot = Math.max(1, Math.floor(this.ctx.settings.threadBudget / this.ctx.settings.poolSize));
    return requested === null ? perSlot : Math.max(1, Math.min(requested, perSlot));
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
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void this.pump()
      .catch((e) => this.ctx.log(`scheduler error: ${(e as Error).message}`))
      .finally(() => {
        this.pumping = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
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

  private idleHost(): CalcHost | undefined {
    return this.hosts.find((h) => !h.busy && !h.exited);
  }

  private async pump(): Promise<void> {
    while (!this.closing && this.idleHost()) {
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
    const db = row.database_id
      ? await this.ctx.store.db
          .selectFrom('databases')
          .select(['file_path', 'code', 'file_sha256'])
          .where('id', '=', row.database_id)
          .executeTakeFirst()
      : undefined;
    if (!db) {
      await transition(this.ctx, row.id, 'queued', 'failed', {
        logs: ['the database file of this task is no longer available'],
      });
      return;
    }
    const ompThreads = this.threadsFor(row.omp_threads);
    if (
      !(await transition(this.ctx, row.id, 'queued', 'running', {
        logs: [`started with ${ompThreads} OpenMP thread(s)`],
      }))
    )
      return;
    const config = JSON.parse(row.task_config) as Record<string, unknown>;
    // The code is replaced by the server-managed file path before the config reaches the worker.
    delete config.tdb_code;
    config.tdb_file = db.file_path;
    const job: HostJob = {
      taskUuid: row.uuid,
      taskType: row.task_type,
      config,
      ompThreads,
      taskDir: this.ctx.blobs.taskDir(row.uuid),
      database: { code: db.code, sha256: db.file_sha256 },
    };
    const host = this.idleHost();
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
        (out) => this.finish(row, out, entry.progress),
        (err: unknown) => this.fail(row, err),
      )
      .catch((e) => this.ctx.log(`task ${row.id}: bookkeeping error: ${(e as Error).message}`))
      .finally(() => {
        this.inflight.delete(row.uuid);
        this.recycleIfDue(host);
        this.kick();
      });
    this.inflight.set(row.uuid, entry);
  }

  private async current(row: TaskRow) {
    return this.ctx.store.db.selectFrom('tasks').selectAll().where('id', '=', row.id).executeTakeFirst();
  }

  private async finish(row: TaskRow, out: HostOutput, live: HostProgress): Promise<void> {
    if (this.closing) return; // left as running: the next start fails it with a log line
    const now = await this.current(row);
    if (!now) {
      this.ctx.blobs.remove(row.uuid);
      return;
    } // deleted meanwhile
    if (now.status !== 'running') return; // aborted meanwhile: keep the aborted state
    if (out.cancelled) return;
    await storeOutcome(this.ctx, row, out, live);
  }

  private async fail(row: TaskRow, err: unknown): Promise<void> {
    const msg = (err as Error)?.message ?? String(err);
    this.ctx.log(`task ${row.id} (${row.uuid}) failed: ${msg}`);
    // A host killed by the shutdown is not a crash: the task is failed by the restart recovery.
    if (this.closing && err instanceof CalculationProcessCrash) return;
    if (this.closing) return;
    const now = await this.current(row);
    if (!now) {
      this.ctx.blobs.remove(row.uuid);
      return;
    }
    if (now.status === 'running') await transition(this.ctx, row.id, 'running', 'failed', { logs: [msg] });
  }

  /** Stops dispatching, raises every cancel flag, waits for calculations to return, then ends every host (killed after the grace period). */
  async close(graceMs = 10_000): Promise<void> {
    this.closing = true;
    clearInterval(this.progressTimer);
    for (const f of this.inflight.values()) f.host.cancel();
    const all = Promise.all([...this.inflight.values()].map((f) => f.done));
    await Promise.race([all, new Promise((r) => setTimeout(r, graceMs).unref())]);
    await Promise.all(this.hosts.map((h) => (h.busy ? (h.kill(), h.stop(0)) : h.stop())));
  }
}
