import type { Kysely } from 'kysely';
import { bigintType } from '../dialect.js';

// job_attempts: the fencing token of every lab-server job (a task's job, each stage of a grid's flow): the attempt
// number, raised in PostgreSQL each time a worker starts the job, so that a worker whose lock lapsed cannot write
// over the one that took the job after it (main/server/fence.ts).
// lab_workers: each worker's heartbeat, slots and calculation-process restarts, for /metrics and /readyz.
export async function up(db: Kysely<any>): Promise<void> {
  const bigint = bigintType(db);
  await db.schema
    .createTable('job_attempts')
    .addColumn('job_id', 'text', (c) => c.primaryKey())
    .addColumn('task_id', bigint, (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('worker', 'text', (c) => c.notNull())
    .addColumn('started_ms', bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('job_attempts_task').on('job_attempts').column('task_id').execute();
  await db.schema
    .createTable('lab_workers')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('started_ms', bigint, (c) => c.notNull())
    .addColumn('heartbeat_ms', bigint, (c) => c.notNull())
    .addColumn('slots', 'integer', (c) => c.notNull())
    .addColumn('busy', 'integer', (c) => c.notNull())
    .addColumn('lock_ms', 'integer', (c) => c.notNull())
    .addColumn('host_restarts', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('lab_workers').execute();
  await db.schema.dropTable('job_attempts').execute();
}
