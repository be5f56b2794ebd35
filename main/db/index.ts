import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DB } from './types.js';
import type { StoreDialect } from './dialect.js';
import * as m001 from './migrations/001_initial.js';
import * as m002 from './migrations/002_task_stage.js';
import * as m003 from './migrations/003_attempts.js';
import * as m004 from './migrations/004_database_setup.js';
import * as m005 from './migrations/005_task_run_times.js';
import * as m006 from './migrations/006_phase_names.js';
import { postgresPool } from './postgres-pool.js';

export type { DB } from './types.js';
export type { StoreDialect } from './dialect.js';

/** Migrations are registered statically (no directory scan) so they work from dist/ and under vitest alike. */
const MIGRATIONS: Record<string, Migration> = {
  '001_initial': m001,
  '002_task_stage': m002,
  '003_attempts': m003,
  '004_database_setup': m004,
  '005_task_run_times': m005,
  '006_phase_names': m006,
};

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

export interface Store {
  dialect: StoreDialect;
  /** Raw SQLite handle (embedded mode only; tests inspect the file through it). */
  sqlite?: Database.Database;
  db: Kysely<DB>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** postgres://user@host:port/db: records in PostgreSQL (lab server) instead of <dataDir>/phasedesk.sqlite. */
  databaseUrl?: string;
  /** Where a lost PostgreSQL connection is logged (default: stderr). */
  log?: (line: string) => void;
}

export async function openStore(dataDir: string, o: StoreOptions = {}): Promise<Store> {
  if (o.databaseUrl)
    return migrated({
      dialect: 'postgres',
      db: new Kysely<DB>({
        dialect: new PostgresDialect({ pool: postgresPool(o.databaseUrl, o.log ?? ((l) => console.error(l))) }),
      }),
    });
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new Database(join(dataDir, 'phasedesk.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  // WAL + synchronous=NORMAL: commits are atomic and survive a process crash; only an OS crash may lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return migrated({
    dialect: 'sqlite',
    sqlite,
    db: new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) }),
  });
}

async function migrated(s: Omit<Store, 'close'>): Promise<Store> {
  const migrator = new Migrator({ db: s.db, provider: new StaticProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    await s.db.destroy();
    throw new Error(
      `database migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? String(error)}`,
    );
  }
  let closed = false;
  return {
    ...s,
    async close() {
      if (!closed) {
        closed = true;
        await s.db.destroy();
      }
    },
  };
}
