// Discovery of the binary systems the mapping tests cover: the bundled databases (databases/*.tdb)
// and every file of the shared test databases (../shared/tdb) that holds exactly two elements besides
// the vacancy VA (and the electron). Files the TDB reader refuses are reported, not skipped silently; a file of
// mobility parameters alone is no thermodynamic database and has no system.
import { isCoreError } from '../../worker/core/errors.js';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { openDatabase, type NativeDatabase } from '../../worker/core/database.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

export const BUNDLED_DIR = path.resolve(__dirname, '../../databases');

export interface BinarySystem {
  name: string;
  file: string;
  db: NativeDatabase;
  elements: [string, string];
}

export function binarySystems(): { systems: BinarySystem[]; unreadable: { file: string; error: string }[] } {
  const systems: BinarySystem[] = [];
  const unreadable: { file: string; error: string }[] = [];
  const files = [
    ...readdirSync(BUNDLED_DIR)
      .filter((f) => f.toLowerCase().endsWith('.tdb'))
      .map((f) => path.join(BUNDLED_DIR, f)),
    ...readdirSync(SHARED_TDB_DIR)
      .filter((f) => f.toLowerCase().endsWith('.tdb'))
      .map((f) => path.join(SHARED_TDB_DIR, f)),
  ].sort();
  for (const file of files) {
    let db: NativeDatabase;
    try {
      db = openDatabase(file);
    } catch (e) {
      // mobility data alone is read beside its thermodynamic database: no system of its own
      if (!isCoreError(e, 'PD_TDB_MOBILITY_ONLY')) unreadable.push({ file, error: (e as Error).message });
      continue;
    }
    const els = db
      .info()
      .elements.map((e) => e.name.toUpperCase())
      .filter((n) => n !== 'VA' && n !== '/-');
    if (els.length !== 2) continue;
    systems.push({
      name: `${path.basename(path.dirname(file))}/${path.basename(file)}`,
      file,
      db,
      elements: [els[0], els[1]],
    });
  }
  return { systems, unreadable };
}
