// The data directory's catalog of databases as `phasedesk calc --db CODE` reads it: a read-only look at the SQLite
// file through better-sqlite3 alone. Opening the store (Kysely, its dialect and the migrations) for this one query
// cost a calculation's process 31 MB and 0.24 s, held beside the calculation to its end.
import Database from 'better-sqlite3';
import type { DatabasesTable } from './types.js';

export type DatabaseRow = Pick<DatabasesTable, 'code' | 'file_path' | 'file_sha256' | 'phase_selection' | 'state'>;

/**
 * The rows of the `databases` table of the SQLite store `file`, read-only; undefined when they cannot be read so (a
 * store of an older schema, which only openStore migrates; a file that is not a store), for the caller to open the
 * store instead.
 */
export function readDatabaseRows(file: string): DatabaseRow[] | undefined {
  let sqlite: Database.Database | undefined;
  try {
    sqlite = new Database(file, { readonly: true, fileMustExist: true });
    return sqlite
      .prepare('SELECT code, file_path, file_sha256, phase_selection, state FROM databases')
      .all() as DatabaseRow[];
  } catch {
    return undefined;
  } finally {
    sqlite?.close();
  }
}
