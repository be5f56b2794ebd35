import type { Kysely } from 'kysely';

// A database record carries where its file comes from, its licence and the attribution the licence requires, and
// its recommended phase selection (JSON, contract/phase-selection.ts); a task keeps the selection of its database as
// it was when the task was created, so that a later edit neither changes a pending calculation nor its cache key.
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['source', 'license', 'attribution', 'phase_selection'])
    await db.schema.alterTable('databases').addColumn(column, 'text').execute();
  await db.schema.alterTable('tasks').addColumn('database_selection', 'text').execute();
}
