import type { Kysely } from 'kysely';
import { bigintType } from '../dialect.js';

// tasks.started_ms and tasks.finished_ms: when the calculation began to run and when the task reached its terminal
// state, in milliseconds (the record's created_at and updated_at have the specification's one-second text); the
// task record's duration_ms extension is their difference. Null for tasks that never ran (a cache hit, a task
// cancelled while it waited) and for tasks finished before this migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('started_ms', bigintType(db)).execute();
  await db.schema.alterTable('tasks').addColumn('finished_ms', bigintType(db)).execute();
}
