import type { Kysely } from 'kysely';

// tasks.stage: a short text of what a running calculation is doing, next to tasks.progress.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('stage', 'text').execute();
}
