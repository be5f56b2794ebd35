import type { Kysely } from 'kysely';

// databases.phase_names: the display names a user gave the phases of a database (JSON of
// contract/plots/phase-names.ts PhaseDisplayNames, phase or PHASE:STRUCTURE -> name); null: the defaults alone.
// tasks.database_names: those names as they were when the task was created (its previews print them), so that a
// later edit changes neither a pending calculation nor its cache key.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('databases').addColumn('phase_names', 'text').execute();
  await db.schema.alterTable('tasks').addColumn('database_names', 'text').execute();
}
