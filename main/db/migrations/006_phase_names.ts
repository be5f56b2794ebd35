import type { Kysely } from 'kysely';

// databases.phase_names: the display names a user gave the phases of a database (JSON of
// contract/plots/phase-names.ts PhaseDisplayNames, phase or PHASE:STRUCTURE -> name); null: the defaults alone.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('databases').addColumn('phase_names', 'text').execute();
}
