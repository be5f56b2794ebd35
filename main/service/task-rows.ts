// A task's record and the one way its status changes: a compare-and-set through the contract's state machine
// (contract/task-states.ts), with the log lines that say why. The API, the embedded scheduler and the lab server's
// workers all move tasks with transition().
import { sql, type Selectable } from 'kysely';
import type { Store } from '../db/index.js';
import type { TasksTable } from '../db/types.js';
import { taskTime } from '../util/time.js';
import { assertTransition, TERMINAL, type TaskState } from '../../contract/task-states.js';
import { fenceHolds, type Fence } from './fence.js';

export type TaskRow = Selectable<TasksTable>;

export function logLine(msg: string): string {
  return `[${taskTime()}] ${msg}`;
}
function appendLog(prev: string | null, lines: string[]): string {
  return [...(prev ? [prev] : []), ...lines.map(logLine)].join('\n');
}

/** A task's log with one more line (the log of a task whose status stays as it is). */
export function withLogLine(prev: string | null | undefined, msg: string): string {
  return `${prev ?? ''}\n${logLine(msg)}`.trimStart();
}

/** The task's record as it is now, or undefined when it was deleted. */
export async function taskByUuid(store: Store, uuid: string): Promise<TaskRow | undefined> {
  return store.db.selectFrom('tasks').selectAll().where('uuid', '=', uuid).executeTakeFirst();
}

export async function taskById(store: Store, id: number): Promise<TaskRow | undefined> {
  return store.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Changes the progress, stage or log of a task that is still running (a task cancelled or failed meanwhile keeps
 * its record). The progress never goes back: the parts of a grid finish in any order, and a task that runs again
 * after its worker was lost starts its calculation from the beginning. With a fence (a lab-server job's attempt,
 * main/service/fence.ts) nothing is written once a later attempt of the job exists.
 */
export async function updateRunningTask(
  store: Store,
  id: number,
  set: { progress?: number; stage?: string | null; logs?: string },
  fence?: Fence,
): Promise<void> {
  const { progress, ...rest } = set;
  const values: Record<string, unknown> = { ...rest };
  if (progress !== undefined)
    values.progress = sql<number>`case when progress < ${progress} then ${progress} else progress end`;
  if (Object.keys(values).length === 0) return;
  let q = store.db.updateTable('tasks').set(values).where('id', '=', id).where('status', '=', 'running');
  if (fence) q = q.where(fenceHolds(fence));
  await q.execute();
}

/**
 * Moves a task from `from` to `to` if it is still in `from` (compare-and-set), and with a fence only while the
 * fence's attempt is its job's latest. The state machine is consulted first, so an illegal move throws whatever
 * the database says.
 */
export async function transition(
  ctx: { store: Store },
  id: number,
  from: string,
  to: TaskState,
  patch: { result?: string | null; logs?: string[]; progress?: number; stage?: string | null } = {},
  fence?: Fence,
): Promise<boolean> {
  assertTransition(from, to);
  const row = await ctx.store.db.selectFrom('tasks').select(['logs']).where('id', '=', id).executeTakeFirst();
  if (!row) return false;
  const now = new Date();
  const set: Partial<Record<keyof TasksTable, unknown>> = { status: to, updated_at: taskTime(now) };
  if (to === 'running') set.started_ms = now.getTime();
  if ((TERMINAL as readonly string[]).includes(to)) set.finished_ms = now.getTime();
  if (patch.result !== undefined) set.result = patch.result;
  if (patch.progress !== undefined) set.progress = patch.progress;
  if (patch.stage !== undefined) set.stage = patch.stage;
  if (patch.logs && patch.logs.length > 0) set.logs = appendLog(row.logs, patch.logs);
  let q = ctx.store.db
    .updateTable('tasks')
    .set(set as never)
    .where('id', '=', id)
    .where('status', '=', from);
  if (fence) q = q.where(fenceHolds(fence));
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
