import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DB } from './types.js';
import * as m001 from './migrations/001_initial.js';
import * as m002 from './migrations/002_task_stage.js';

export type { DB } from './types.js';

/** Migrations are registered statically (no directory scan) so they work from dist/ and under vitest alike. */
const MIGRATIONS: Record<string, Migration> = { '001_initial': m001, '002_task_stage': m002 };

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> { return MIGRATIONS; }
}

export interface Store {
  /** Raw handle: used for the few synchronous transactions that must not interleave (task creation limits). */
  sqlite: Database.Database;
  db: Kysely<DB>;
  close(): Promise<void>;
}

export async function openStore(dataDir: string): Promise<Store> {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new Database(join(dataDir, 'phasedesk.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  // WAL + synchronous=NORMAL: commits are atomic and survive a process crash; only an OS crash may lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  const migrator = new Migrator({ db, provider: new StaticProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    await db.destroy();
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? String(error)}`);
  }
  let closed = false;
  return {
    sqlite, db,
    async close() { if (!closed) { closed = true; await db.destroy(); } },
  };
}
