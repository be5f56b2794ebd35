// Databases that parse but would break calculations are refused at import, through the console's import
// (main/console/admin.ts importUploadedDatabase, what POST /console/v1/databases runs) and through the
// CLI's `db import` (dist/main/cli.js) alike: the message names the file and the line, nothing is stored.
// A CR-only file imports through both.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../main/db/index.js';
import { importUploadedDatabase } from '../../main/console/admin.js';
import { HttpError } from '../../main/util/errors.js';
import { ensureBuilt, ROOT, tempDir } from '../service/helpers.js';

const HEAD = 'ELEMENT VA VACUUM 0 0 0 !\nELEMENT AL FCC_A1 26.98 0 0 !\nELEMENT ZN HCP_A3 65.38 0 0 !\n';
const LIQUID =
  'PHASE LIQUID:L % 1 1 !\nCONSTITUENT LIQUID:L :AL,ZN: !\n' +
  'PARAMETER G(LIQUID,AL;0) 298.15 F1#; 6000 N !\nPARAMETER G(LIQUID,ZN;0) 298.15 -2000; 6000 N !\n';

function chain(n: number): string {
  let s = HEAD;
  for (let i = 1; i < n; ++i) s += `FUNCTION F${i} 298.15 F${i + 1}#+1; 6000 N !\n`;
  return s + `FUNCTION F${n} 298.15 -1000+0*T; 6000 N !\n` + LIQUID;
}
const BIG = 'Q'.repeat(1_000_000);
const HOSTILE: { file: string; text: string; message: RegExp }[] = [
  {
    file: 'chain.tdb',
    text: chain(10_000),
    message: /^chain\.tdb:\d+: FUNCTION F\d+ nests FUNCTION references 65 levels deep .*at most 64 levels\)$/,
  },
  {
    file: 'long-element.tdb',
    text: HEAD + `ELEMENT ${BIG} FCC_A1 1 0 0 !\n` + chain(2),
    message: /^long-element\.tdb:4: ELEMENT name 'Q+\.\.\.' is 1000000 characters long \(at most 64\)$/,
  },
  {
    file: 'long-phase.tdb',
    text: chain(2) + `PHASE ${BIG} % 1 1 !\n`,
    message: /^long-phase\.tdb:10: PHASE name 'Q+\.\.\.' is 1000000 characters long \(at most 64\)$/,
  },
  { file: 'no-element.tdb', text: 'PHASE LIQUID:L % 1 1 !\n', message: /^no-element\.tdb:1: no ELEMENT declared/ },
];
const META = { level: 'free', type: 'thermodynamic', version: '1' };

let dir: string;
beforeAll(() => {
  ensureBuilt(); // the CLI runs from dist/
  dir = tempDir();
  for (const h of HOSTILE) writeFileSync(join(dir, h.file), h.text, 'latin1');
  writeFileSync(join(dir, 'cr-only.tdb'), chain(3).replace(/\n/g, '\r'), 'latin1');
});

const cli = (dataDir: string, file: string, code: string) =>
  spawnSync(
    process.execPath,
    [
      join(ROOT, 'dist', 'main', 'cli.js'),
      'db',
      'import',
      join(dir, file),
      '--code',
      code,
      '--name',
      code,
      '--level',
      META.level,
      '--type',
      META.type,
      '--version',
      META.version,
      '--data-dir',
      dataDir,
    ],
    { encoding: 'utf8' },
  );

async function storedDatabases(dataDir: string): Promise<string[]> {
  const store = await openStore(dataDir);
  try {
    return (await store.db.selectFrom('databases').select('code').execute()).map((r) => r.code);
  } finally {
    await store.close();
  }
}

describe('hostile databases are refused at import with file and line', () => {
  it('through the console import', async () => {
    const dataDir = tempDir();
    const store = await openStore(dataDir);
    try {
      for (const [i, h] of HOSTILE.entries()) {
        const err = await importUploadedDatabase(store, dataDir, {
          ...META,
          code: `H${i}`,
          name: h.file,
          file_name: h.file,
          tdb: h.text,
          replace: false,
          subscribe_user: null,
        }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err, h.file).toBeInstanceOf(HttpError);
        expect((err as HttpError).status).toBe(400);
        const message = (err as Error).message;
        expect(message.startsWith('tdb: '), message.slice(0, 200)).toBe(true);
        expect(message.slice(5)).toMatch(h.message);
      }
      const ok = await importUploadedDatabase(store, dataDir, {
        ...META,
        code: 'CR',
        name: 'cr',
        file_name: 'cr-only.tdb',
        tdb: chain(3).replace(/\n/g, '\r'),
        replace: false,
        subscribe_user: null,
      });
      expect(ok.elements).toEqual(['AL', 'ZN']);
      expect(ok.phases_loaded).toEqual(['LIQUID']);
    } finally {
      await store.close();
    }
    expect(await storedDatabases(dataDir)).toEqual(['CR']);
    expect(readdirSync(join(dataDir, 'databases')).sort()).toEqual(['CR.tdb']);
  });

  it('through the CLI `db import`', async () => {
    const dataDir = tempDir();
    for (const [i, h] of HOSTILE.entries()) {
      const r = cli(dataDir, h.file, `H${i}`);
      expect(r.status, `${h.file}: ${r.stdout}`).toBe(2);
      const line = r.stderr
        .trim()
        .split('\n')
        .find((l) => l.startsWith('error: '));
      expect(line, r.stderr.slice(0, 300)).toBeDefined();
      // the CLI says what the console says: the field (tdb), then file, line and reason
      expect(line!.startsWith('error: tdb: '), line).toBe(true);
      expect(line!.slice('error: tdb: '.length)).toMatch(h.message);
      expect(r.stderr).not.toMatch(/vector::|_M_range_check|std::|terminate/);
    }
    const ok = cli(dataDir, 'cr-only.tdb', 'CR');
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/database imported: /);
    expect(await storedDatabases(dataDir)).toEqual(['CR']);
    expect(existsSync(join(dataDir, 'databases', 'H0.tdb'))).toBe(false);
  });
});
