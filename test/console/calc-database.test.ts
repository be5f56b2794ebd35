// `phasedesk calc --db CODE` through a data directory: the record of the code is read from the SQLite file alone
// (main/db/database-rows.ts), invisible records are not offered, and a file the reader cannot use (no `databases`
// table: a store of an older schema) is opened through the store, which migrates it, as before.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../main/db/index.js';
import { readDatabaseRows } from '../../main/db/database-rows.js';
import { registerDatabase, setDatabaseState } from '../../main/console/databases.js';
import { databaseOfCode } from '../../main/console/calc-database.js';
import { ROOT, tempDir } from '../service/helpers.js';

const ALZN = join(ROOT, 'databases', 'alzn_mey1993.tdb');
const META = { level: 'free', type: 'thermodynamic', version: '1' };
const SELECTION = { inhibit_phases: ['@ordered'], note: 'the ordered phases are not assessed' };

/** A data directory whose store holds MYALZN (visible, with a phase selection) and HIDDEN (invisible). */
async function dataDirWithRecords(): Promise<string> {
  const dataDir = tempDir();
  const store = await openStore(dataDir);
  try {
    const lists = { element_list: ['AL', 'ZN'], phase_list: ['FCC_A1', 'HCP_A3', 'LIQUID'] };
    await registerDatabase(
      store,
      dataDir,
      ALZN,
      { ...META, code: 'MYALZN', name: 'a', phase_selection: SELECTION },
      lists,
    );
    await registerDatabase(store, dataDir, ALZN, { ...META, code: 'HIDDEN', name: 'h' }, lists);
    await setDatabaseState(store, 'HIDDEN', 'invisible');
  } finally {
    await store.close();
  }
  return dataDir;
}

describe('calc --db CODE through a data directory', () => {
  it('the record of the code, any case, from the SQLite file: the stored file, its hash and the selection', async () => {
    const dataDir = await dataDirWithRecords();
    const rows = readDatabaseRows(join(dataDir, 'phasedesk.sqlite'));
    expect(rows?.map((r) => [r.code, r.state]).sort()).toEqual([
      ['HIDDEN', 'invisible'],
      ['MYALZN', 'enable'],
    ]);
    const db = await databaseOfCode('myalzn', dataDir);
    const file = join(dataDir, 'databases', 'MYALZN.tdb');
    expect(db).toEqual({
      code: 'MYALZN',
      file,
      sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
      selection: SELECTION,
      from: 'data directory',
    });
  });

  it('an invisible record is neither found nor listed; a bundled code is still found', async () => {
    const dataDir = await dataDirWithRecords();
    await expect(databaseOfCode('HIDDEN', dataDir)).rejects.toThrow(/no database of that code/);
    await expect(databaseOfCode('HIDDEN', dataDir)).rejects.not.toThrow(/codes: .*HIDDEN/);
    await expect(databaseOfCode('HIDDEN', dataDir)).rejects.toThrow(/codes: .*MYALZN/);
    expect((await databaseOfCode('ALZN_MEY1993', dataDir)).from).toBe('bundled catalog');
  });

  it('a SQLite file without the table is read through the store, which migrates it', async () => {
    const dataDir = tempDir();
    const file = join(dataDir, 'phasedesk.sqlite');
    new Database(file).exec('CREATE TABLE other (a TEXT)').close();
    expect(readDatabaseRows(file)).toBeUndefined();
    expect((await databaseOfCode('ALZN_MEY1993', dataDir)).from).toBe('bundled catalog');
    expect(readDatabaseRows(file)).toEqual([]);
  });
});
