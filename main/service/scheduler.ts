// Runs tasks on a piscina pool: pending -> queued -> running -> uploading -> completed | failed.
// Cancellation is cooperative through a SharedArrayBuffer control block (worker/protocol.ts); a worker is
// never terminated while native code may be running in it.
import { Piscina } from 'piscina';
import type { ServiceContext } from './context.js';
import { transition, logLine, type TaskRow } from './tasks.js';
import { scanTaskFiles, removeTaskDir, taskDir } from './files.js';
import { CONTROL_BYTES, JobControl, type CalculationJob, type CalculationOutput } from '../../worker/protocol.js';
import { rfc3339 } from '../util/time.js';

interface InFlight { taskId: number; control: JobControl; done: Promise<void> }

export class Scheduler {
  private readonly pool: Piscina<CalculationJob, CalculationOutput & { cancelled?: boolean }>;
  private readonly inflight = new Map<string, InFlight>();
  private pumping = false;
  private again = false;
  private closing = false;

  constructor(private readonly ctx: ServiceContext, workerFile: string) {
    const size = ctx.settings.poolSize;
    this.pool = new Piscina({ filename: workerFile, minThreads: size, maxThreads: size, idleTimeout: 60_000, env: process.env });
    // A worker that dies rejects its job (handled per job); the pool error event must not crash the process.
    this.pool.on('error', (e: unknown) => ctx.log(`worker pool error: ${(e as Error)?.message ?? String(e)}`));
    // Progress written by the worker into the control block is copied to tasks.progress once a second.
    this.progressTimer = setInterval(() => { void this.saveProgress(); }, 1000);
    this.progressTimer.unref();
  }

  private readonly progressTimer: NodeJS.Timeout;

  private async saveProgress(): Promise<void> {
    try {
      for (const [uuid, f] of this.inflight) {
        await this.ctx.store.db.updateTable('tasks').set({ progress: f.control.getProgress() })
          .where('uuid', '=', uuid).where('status', '=', 'running').execute();
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
    const stuck = await this.ctx.store.db.selectFrom('tasks').selectAll().where('status', 'in', ['running', 'uploading']).execute();
    for (const t of stuck) {
      await transition(this.ctx, t.id, t.status, 'failed', { logs: ['interrupted by a service restart'] });
      this.ctx.log(`task ${t.id} (${t.uuid}) failed: interrupted by a service restart`);
    }
  }

  kick(): void {
    if (this.closing) return;
    if (this.pumping) { this.again = true; return; }
    this.pumping = true;
    void this.pump().catch((e) => this.ctx.log(`scheduler error: ${(e as Error).message}`)).finally(() => {
      this.pumping = false;
      if (this.again) { this.again = false; this.kick(); }
    });
  }

  requestStop(uuid: string): void { this.inflight.get(uuid)?.control.cancel(); }

  /** Progress 0..1 of a running calculation, if it is in flight. */
  progressOf(uuid: string): number | undefined { return this.inflight.get(uuid)?.control.getProgress(); }

  private async pump(): Promise<void> {
    while (!this.closing && this.inflight.size < this.ctx.settings.poolSize) {
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
      ? await this.ctx.store.db.selectFrom('databases').select(['file_path', 'code', 'file_sha256']).where('id', '=', row.database_id).executeTakeFirst()
      : undefined;
    if (!db) {
      await transition(this.ctx, row.id, 'queued', 'failed', { logs: ['the database file of this task is no longer available'] });
      return;
    }
    const ompThreads = this.threadsFor(row.omp_threads);
    if (!(await transition(this.ctx, row.id, 'queued', 'running', { logs: [`started with ${ompThreads} OpenMP thread(s)`] }))) return;
    const config = JSON.parse(row.task_config) as Record<string, unknown>;
    // The code is replaced by the server-managed file path before the config reaches the worker.
    delete config.tdb_code;
    config.tdb_file = db.file_path;
    const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
    const job: CalculationJob = {
      taskUuid: row.uuid, taskType: row.task_type, config, ompThreads,
      taskDir: taskDir(this.ctx.settings.dataDir, row.uuid), control: control.buffer,
      database: { code: db.code, sha256: db.file_sha256 },
    };
    const done = this.pool.run(job)
      .then((out) => this.finish(row, out, control), (err: unknown) => this.fail(row, err))
      .catch((e) => this.ctx.log(`task ${row.id}: bookkeeping error: ${(e as Error).message}`))
      .finally(() => { this.inflight.delete(row.uuid); this.kick(); });
    this.inflight.set(row.uuid, { taskId: row.id, control, done });
  }

  private async current(row: TaskRow) {
    return this.ctx.store.db.selectFrom('tasks').selectAll().where('id', '=', row.id).executeTakeFirst();
  }

  private async finish(row: TaskRow, out: CalculationOutput & { cancelled?: boolean }, control: JobControl): Promise<void> {
    if (this.closing) return; // left as running: the next start fails it with a log line
    const now = await this.current(row);
    if (!now) { removeTaskDir(this.ctx.settings.dataDir, row.uuid); return; } // deleted meanwhile
    if (now.status !== 'running') return; // aborted meanwhile: keep the aborted state
    if (out.cancelled) return;
    if (!(await transition(this.ctx, row.id, 'running', 'uploading', { logs: out.logs, progress: control.getProgress() }))) return;
    try {
      const files = scanTaskFiles(this.ctx.settings.dataDir, row.uuid);
      const sqlite = this.ctx.store.sqlite;
      const ins = sqlite.prepare('INSERT INTO task_files (task_id, kind, rel_path, name, size, sha256) VALUES (?, ?, ?, ?, ?, ?)');
      sqlite.transaction(() => { for (const f of files) ins.run(row.id, f.kind, f.relPath, f.name, f.size, f.sha256); })();
      if (await transition(this.ctx, row.id, 'uploading', 'completed', { result: out.summary, logs: [`${files.length} file(s) stored`], progress: 1 })) {
        if (row.cache_key) {
          await this.ctx.store.db.insertInto('calc_cache')
            .values({ cache_key: row.cache_key, task_uuid: row.uuid, result: out.summary, created_at: rfc3339() })
            .onConflict((oc) => oc.column('cache_key').doUpdateSet({ task_uuid: row.uuid, result: out.summary, created_at: rfc3339() }))
            .execute();
        }
      }
    } catch (e) {
      await transition(this.ctx, row.id, 'uploading', 'failed', { logs: [`storing result files failed: ${(e as Error).message}`] });
    }
  }

  private async fail(row: TaskRow, err: unknown): Promise<void> {
    const msg = (err as Error)?.message ?? String(err);
    this.ctx.log(`task ${row.id} (${row.uuid}) failed: ${msg}`);
    if (this.closing) return;
    const now = await this.current(row);
    if (!now) { removeTaskDir(this.ctx.settings.dataDir, row.uuid); return; }
    if (now.status === 'running') await transition(this.ctx, row.id, 'running', 'failed', { logs: [msg] });
  }

  /** Stops dispatching, raises every cancel flag and waits for calculations to return before closing the pool. */
  async close(graceMs = 10_000): Promise<void> {
    this.closing = true;
    clearInterval(this.progressTimer);
    for (const f of this.inflight.values()) f.control.cancel();
    const all = Promise.all([...this.inflight.values()].map((f) => f.done));
    await Promise.race([all, new Promise((r) => setTimeout(r, graceMs).unref())]);
    await this.pool.destroy();
  }
}

export { logLine };
