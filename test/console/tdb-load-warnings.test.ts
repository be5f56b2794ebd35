// What the TDB reader drops, seen where a user meets it: the import report of the console and of `db import` lists
// every warning with file and line (mf-steel.tdb as published, a file cut off before its last '!'); `phasedesk calc`
// prints them and exits 2 (bad input) on a file of which nothing usable remains. GET /api/v2/database/{db_id}
// (load_warnings) is checked in console.contract.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openStore } from '../../main/db/index.js';
import { importUploadedDatabase } from '../../main/console/admin.js';
import { calcCommand } from '../../main/console/calc.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { ensureBuilt, ROOT, tempDir } from '../service/helpers.js';

const META = { level: 'free', type: 'thermodynamic', version: '1' };
const ALZN = join(ROOT, 'databases', 'alzn_mey1993.tdb');
const MF_STEEL = join(SHARED_TDB_DIR, 'mf-steel.tdb');

/** 1-based number of the first line of `text` matching `re`. */
function lineOf(text: string, re: RegExp): number {
  return text.split(/\r?\n/).findIndex((l) => re.test(l)) + 1;
}

describe('the import report lists what was dropped, at its file and line', () => {
  it('console import: a file cut off before its last "!" imports without the cut command', async () => {
    const text = readFileSync(ALZN, 'latin1');
    const cut = text.slice(0, text.lastIndexOf('!'));
    const dataDir = tempDir();
    const store = await openStore(dataDir);
    try {
      const r = await importUploadedDatabase(store, dataDir, {
        ...META,
        code: 'CUT',
        name: 'cut',
        file_name: 'cut.tdb',
        tdb: cut,
        replace: false,
        subscribe_user: null,
      });
      const last = cut.slice(cut.lastIndexOf('!') + 1);
      const line = cut.split(/\r?\n/).length - last.trimStart().split(/\r?\n/).length + 1;
      expect(r.warnings).toContainEqual(
        expect.stringMatching(new RegExp(`^cut\\.tdb:${line}: command not terminated by '!' .*; dropped$`)),
      );
      expect(r.phases_loaded.sort()).toEqual(['FCC_A1', 'HCP_A3', 'LIQUID']);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!existsSync(MF_STEEL))('console import and `db import` of mf-steel.tdb as published', async () => {
    ensureBuilt();
    const text = readFileSync(MF_STEEL, 'latin1');
    const tau = `mf-steel.tdb:${lineOf(text, /^PHASE TAU1_ALFESI /)}: PHASE TAU1_ALFESI: expected`;
    const dataDir = tempDir();
    const store = await openStore(dataDir);
    try {
      const r = await importUploadedDatabase(store, dataDir, {
        ...META,
        code: 'MF',
        name: 'mf',
        file_name: 'mf-steel.tdb',
        tdb: text,
        replace: false,
        subscribe_user: null,
      });
      expect(r.phases_loaded).toHaveLength(358);
      for (const p of ['TAU1_ALFESI', 'FCC2_L10', 'GAS']) expect(r.phases_loaded).not.toContain(p);
      expect(r.warnings.filter((w) => w.startsWith(tau))).toHaveLength(1);
    } finally {
      await store.close();
    }
    const cli = spawnSync(
      process.execPath,
      [
        join(ROOT, 'dist', 'main', 'cli.js'),
        'db',
        'import',
        MF_STEEL,
        '--code',
        'MF',
        '--name',
        'mf',
        '--level',
        META.level,
        '--type',
        META.type,
        '--version',
        META.version,
        '--data-dir',
        tempDir(),
      ],
      { encoding: 'utf8' },
    );
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout.split('\n').filter((l) => l.startsWith(`warning: ${tau}`))).toHaveLength(1);
    expect(cli.stdout).toMatch(/database imported: /);
  });
});

describe('phasedesk calc', () => {
  const point = {
    task_type: 'point_calculation',
    condition: { components: ['AL', 'ZN'], temperature: 600, pressure: 101325, compositions: { ZN: 0.4 } },
  };
  async function calc(tdbText: string, name: string): Promise<{ code: number; errors: string[]; out: string[] }> {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify(point));
    writeFileSync(join(dir, name), tdbText);
    const errors: string[] = [];
    const out: string[] = [];
    const e = vi.spyOn(console, 'error').mockImplementation((m: unknown) => void errors.push(String(m)));
    const o = vi.spyOn(console, 'log').mockImplementation((m: unknown) => void out.push(String(m)));
    try {
      const code = await calcCommand([join(dir, 'config.json'), '--tdb', join(dir, name), '--out', join(dir, 'out')]);
      return { code, errors, out };
    } finally {
      e.mockRestore();
      o.mockRestore();
    }
  }

  it('a TDB of which nothing usable remains is bad input: exit code 2, FILE:LINE', async () => {
    const r = await calc('ELEMENT AL FCC_A1 26.98 0 0 !\nELEMENT ZN HCP_A3 65.38 0 0 !\nFROB !\n', 'bad.tdb');
    expect(r.code).toBe(2);
    expect(r.errors.join('\n')).toMatch(/^phasedesk calc: --tdb .*bad\.tdb: bad\.tdb:3: unknown command 'FROB'$/);
  });

  it('a TDB with a dropped command calculates, the warning printed with file and line', async () => {
    const text = readFileSync(ALZN, 'latin1') + '\nPHASE BROKEN % 0.5 0.5 !\n';
    const r = await calc(text, 'alzn.tdb');
    expect(r.code, r.errors.join('\n')).toBe(0);
    const line = lineOf(text, /^PHASE BROKEN/);
    expect(r.errors).toContainEqual(expect.stringMatching(new RegExp(`^warning: alzn\\.tdb:${line}: PHASE BROKEN: `)));
  });
});
