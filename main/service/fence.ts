// Fencing tokens of the lab server's jobs (table job_attempts, migration 003). Each time a worker starts a job (a
// task's job, a stage of a grid's flow) the job's attempt number is raised in the store; every write of that run
// (progress, status, result files) names its attempt and is refused once a later attempt exists. A worker whose
// lock lapsed (a cut network, a Redis that lost its data) can therefore never write over the worker that took the
// job after it. The number lives in PostgreSQL, not in BullMQ's job (whose attempt count does not survive a Redis
// that lost its data). The embedded service runs every task once and writes without a fence.
import { sql, type Kysely, type ExpressionBuilder } from 'kysely';
import type { DB, Store } from '../db/index.js';

/** The job and attempt a write belongs to. */
export interface Fence {
  jobId: string;
  attempt: number;
}

/** A new attempt of `jobId` (of task `taskId`) by `worker`: its number, 1 for the first. */
export async function startAttempt(db: Kysely<DB>, taskId: number, jobId: string, worker: string): Promise<number> {
  const now = Date.now();
  const r = await db
    .insertInto('job_attempts')
    .values({ job_id: jobId, task_id: taskId, attempt: 1, worker, started_ms: now })
    .onConflict((oc) =>
      oc.column('job_id').doUpdateSet({ attempt: sql<number>`job_attempts.attempt + 1`, worker, started_ms: now }),
    )
    .returning('attempt')
    .executeTakeFirstOrThrow();
  return Number(r.attempt);
}

/** A WHERE condition on tasks: the fence's attempt is still its job's latest. */
export function fenceHolds(fence: Fence) {
  return (eb: ExpressionBuilder<DB, 'tasks'>) =>
    eb.exists(
      eb
        .selectFrom('job_attempts')
        .select('job_attempts.attempt')
        .where('job_attempts.job_id', '=', fence.jobId)
        .where('job_attempts.attempt', '=', fence.attempt),
    );
}

/**
 * Inside a transaction: locks the fence's row (PostgreSQL; SQLite runs one write transaction at a time) and says
 * whether its attempt is still the latest. A new attempt waits for the lock, so whatever the transaction writes is
 * written before any later attempt starts, or not at all.
 */
export async function holdFence(store: Pick<Store, 'dialect'>, trx: Kysely<DB>, fence: Fence): Promise<boolean> {
  let q = trx.selectFrom('job_attempts').select('attempt').where('job_id', '=', fence.jobId);
  if (store.dialect === 'postgres') q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row !== undefined && Number(row.attempt) === fence.attempt;
}
