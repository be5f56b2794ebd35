// The queue against the records: PostgreSQL is the truth about tasks, Redis only holds their jobs, and Redis may
// restart without its data (no AOF, a lost volume, a failover). Every pass, each task the records say is running
// (or uploading) must have a live job: its own job, or for a grid or batch whose flow was added, the flow's merge job. A task
// whose job has been missing for a whole lock time (a worker still computing it would have stopped by then,
// main/server/lock-watch.ts) gets its job again: a worker claims it as a new attempt and runs the task from its
// stored stages (a grid's chunks already stored return at once). A task whose job failed, or that lost its job too
// often, is failed with the reason. Tasks waiting (pending, queued) get their jobs from the pump (job-queue.ts).
import type { Queue } from 'bullmq';
import type { ServiceContext } from '../service/context.js';
import { transition } from '../service/task-rows.js';
import { cptJobId } from './cpt-flow.js';
import { batchJobId } from './batch-flow.js';
import { taskJobId } from './redis.js';
import type { TaskJobData } from './job-queue.js';

/** A task whose job had to be added again this many times is failed instead. */
export const MAX_RECREATIONS = 5;
const LIVE = new Set(['active', 'waiting', 'delayed', 'prioritized', 'waiting-children']);

type JobHealth = { kind: 'live' } | { kind: 'missing' } | { kind: 'failed'; reason: string };

async function jobHealth(queue: Queue<TaskJobData>, uuid: string, taskType: string): Promise<JobHealth> {
  const flowMerge =
    taskType === 'binary_cpt_diagram'
      ? [cptJobId(uuid, { kind: 'merge' })]
      : taskType === 'equilibrium_batch'
        ? [batchJobId(uuid, { kind: 'merge' })]
        : [];
  const ids = [taskJobId(uuid), ...flowMerge];
  for (const id of ids) {
    const state = await queue.getJobState(id);
    if (LIVE.has(state)) return { kind: 'live' };
    if (state === 'failed') {
      const job = await queue.getJob(id);
      return { kind: 'failed', reason: `its job ${id} failed: ${job?.failedReason ?? 'no reason given'}` };
    }
  }
  return { kind: 'missing' };
}

export class Reconciler {
  /** uuid -> when its job was first seen missing */
  private readonly missingSince = new Map<string, number>();
  private readonly recreated = new Map<string, number>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly queue: Queue<TaskJobData>,
    private readonly graceMs: number,
  ) {}

  /** One pass over the running tasks; returns how many got their job again. */
  async pass(now = Date.now()): Promise<number> {
    const rows = await this.ctx.store.db
      .selectFrom('tasks')
      .select(['id', 'uuid', 'status', 'task_type'])
      .where('status', 'in', ['running', 'uploading'])
      .orderBy('id')
      .execute();
    const seen = new Set(rows.map((r) => r.uuid));
    for (const uuid of this.missingSince.keys()) if (!seen.has(uuid)) this.missingSince.delete(uuid);
    for (const uuid of this.recreated.keys()) if (!seen.has(uuid)) this.recreated.delete(uuid);
    let added = 0;
    for (const r of rows) {
      const health = await jobHealth(this.queue, r.uuid, r.task_type);
      if (health.kind === 'live') {
        this.missingSince.delete(r.uuid);
        continue;
      }
      if (health.kind === 'failed') {
        await this.fail(r, health.reason);
        continue;
      }
      const since = this.missingSince.get(r.uuid) ?? now;
      this.missingSince.set(r.uuid, since);
      if (now - since < this.graceMs) continue;
      if (await this.recreate(r)) added++;
    }
    return added;
  }

  private async fail(r: { id: number; uuid: string; status: string }, reason: string): Promise<void> {
    if (await transition(this.ctx, r.id, r.status, 'failed', { logs: [reason] }))
      this.ctx.log(`task ${r.uuid} failed: ${reason}`);
  }

  private async recreate(r: { id: number; uuid: string; status: string }): Promise<boolean> {
    this.missingSince.delete(r.uuid);
    const times = (this.recreated.get(r.uuid) ?? 0) + 1;
    this.recreated.set(r.uuid, times);
    if (times > MAX_RECREATIONS) {
      await this.fail(r, `its job was lost ${MAX_RECREATIONS} times (Redis lost its data or no worker could run it)`);
      return false;
    }
    await this.queue.add(
      'task',
      { uuid: r.uuid },
      { jobId: taskJobId(r.uuid), removeOnComplete: true, removeOnFail: 1000 },
    );
    this.ctx.log(`task ${r.uuid} (${r.status}) had no job on Redis: its job added again (time ${times})`);
    return true;
  }
}
