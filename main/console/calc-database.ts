// `phasedesk calc --db CODE`: the database a code names, as the service would use it. First the data directory's
// catalog (a database the user imported, or a bundled one the first start registered): its file, hash and
// recommended phase selection, read from the SQLite file alone (main/db/database-rows.ts), or through the store
// for PostgreSQL or a file of an older schema (a `calc --tdb` loads neither).
// Else the bundled catalog (databases/catalog.json) of this installation, so that a fresh install computes on the
// bundled databases before the service ever started. Both are loaded only for --db: a `calc --tdb` loads neither
// the store nor the console's modules. Codes compare without case, as the catalog refuses codes that
// differ only by case.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { resolveSettings } from '../config.js';
import { PACKAGE_ROOT } from '../util/package-root.js';
import { closeName } from '../../contract/nearest-name.js';
import type { DatabasePhaseSelection } from '../../contract/phase-selection.js';
import type { DatabaseRow } from '../db/database-rows.js';

export interface CodedDatabase {
  code: string;
  file: string;
  /** sha256 of the file as the catalog recorded it (the data directory's), else computed from the file */
  sha256?: string;
  selection: DatabasePhaseSelection | null;
  from: 'data directory' | 'bundled catalog';
}

/** The data directory's record of the code, or the codes it has; undefined when there is no store to read. */
async function fromDataDirectory(
  code: string,
  dataDir: string | undefined,
): Promise<{ db?: CodedDatabase; codes: string[] } | undefined> {
  const settings = resolveSettings(dataDir ? { dataDir } : {});
  const databaseUrl = settings.lab.databaseUrl;
  const sqliteFile = join(settings.dataDir, 'phasedesk.sqlite');
  if (!databaseUrl && !existsSync(sqliteFile)) return undefined;
  const rows = databaseUrl ? undefined : (await import('../db/database-rows.js')).readDatabaseRows(sqliteFile);
  return recordOfCode(code, rows ?? (await rowsOfStore(settings.dataDir, databaseUrl)));
}

/** The `databases` rows through the store (PostgreSQL, or a SQLite file the store migrates first). */
async function rowsOfStore(dataDir: string, databaseUrl: string | undefined): Promise<DatabaseRow[]> {
  const { openStore } = await import('../db/index.js');
  const store = await openStore(dataDir, { databaseUrl });
  try {
    return await store.db
      .selectFrom('databases')
      .select(['code', 'file_path', 'file_sha256', 'phase_selection', 'state'])
      .execute();
  } finally {
    await store.close();
  }
}

/** The visible record of the code among the rows, or the visible codes. */
function recordOfCode(code: string, rows: DatabaseRow[]): { db?: CodedDatabase; codes: string[] } {
  const row = rows.find((r) => r.code.toUpperCase() === code.toUpperCase() && r.state !== 'invisible');
  if (!row) return { codes: rows.filter((r) => r.state !== 'invisible').map((r) => r.code) };
  const selection = row.phase_selection ? (JSON.parse(row.phase_selection) as DatabasePhaseSelection) : null;
  return {
    db: { code: row.code, file: row.file_path, sha256: row.file_sha256, selection, from: 'data directory' },
    codes: [],
  };
}

/** The bundled catalog's entry of the code, or the codes it has. */
async function fromBundledCatalog(code: string): Promise<{ db?: CodedDatabase; codes: string[] }> {
  const { readCatalog } = await import('./databases.js');
  const catalog = readCatalog(join(PACKAGE_ROOT, 'databases', 'catalog.json'));
  if (!catalog) return { codes: [] };
  const e = catalog.entries.find((x) => x.code.toUpperCase() === code.toUpperCase());
  if (!e) return { codes: catalog.entries.map((x) => x.code) };
  return {
    db: {
      code: e.code,
      file: resolve(catalog.baseDir, e.file),
      selection: e.phase_selection ?? null,
      from: 'bundled catalog',
    },
    codes: [],
  };
}

/** The database of `code`, or an Error naming the known codes (and the one close to it) for a code neither has. */
export async function databaseOfCode(code: string, dataDir: string | undefined): Promise<CodedDatabase> {
  const local = await fromDataDirectory(code, dataDir);
  if (local?.db) return local.db;
  const bundled = await fromBundledCatalog(code);
  if (bundled.db) return bundled.db;
  const known = [...new Set([...(local?.codes ?? []), ...bundled.codes])].sort();
  const near = closeName(code, known);
  throw new Error(
    `--db ${code}: no database of that code in the data directory or the bundled catalog` +
      `${near ? ` (did you mean ${near}?)` : ''}; codes: ${known.join(', ') || 'none'}`,
  );
}
