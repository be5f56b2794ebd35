// The code of a database names its stored file (<dataDir>/databases/<code>.tdb), so every path that creates a
// record refuses the same codes (contract/database-code.ts): the console's import, the CLI's `db import` and the
// registration the bundled catalog uses. Too long (a 300-character code once gave a raw ENAMETOOLONG from
// copyfile), outside the safe characters, a Windows device name (CON, NUL, AUX), or equal to an existing code but for
// case (one file on macOS and Windows). Each refusal names the rule; nothing is stored.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ROOT, startFixture, tempDir, TDB, type Fixture } from '../service/helpers.js';
import { openStore } from '../../main/db/index.js';
import { registerDatabase } from '../../main/console/databases.js';

const CUNI = readFileSync(join(ROOT, 'databases', 'cuni_mey1992.tdb'), 'utf8');
const LONG = 'A'.repeat(300);

function cli(dataDir: string, ...args: string[]): { code: number; out: string; err: string } {
  try {
    const out = execFileSync(process.execPath, [join(ROOT, 'dist', 'main', 'cli.js'), ...args, '--data-dir', dataDir], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return { code: 0, out, err: '' };
  } catch (e) {
    const x = e as { status: number; stdout: string; stderr: string };
    return { code: x.status, out: x.stdout, err: x.stderr };
  }
}
const importArgs = (file: string, code: string) =>
  [
    'db',
    'import',
    file,
    '--code',
    code,
    '--name',
    'n',
    '--level',
    'free',
    '--type',
    'alloy',
    '--version',
    '1',
  ] as const;

const DEVICE = 'is a device name on Windows (CON, PRN, AUX, NUL, COM0-9, LPT0-9) and cannot name a file';
/** [code, why it is refused] for a data directory that holds ALZN_MEY1993. */
const REFUSED: [string, string][] = [
  [LONG, 'must be at most 64 characters (it has 300)'],
  ['CON', `'CON' ${DEVICE}`],
  ['nul', `'nul' ${DEVICE}`],
  ['Aux.tdb', `'Aux.tdb' ${DEVICE}`],
  ['../x', 'may only contain letters, digits, _ . - and must start with a letter or a digit'],
  [
    'alzn_mey1993',
    "'alzn_mey1993' differs from the existing database 'ALZN_MEY1993' only by case; the two files would be one on macOS and Windows",
  ],
];
/** The rows with a readable label (the long code by its length). */
const ROWS = REFUSED.map(([code, why]) => [code.length > 64 ? `a ${code.length}-character code` : code, code, why]);
/** The case collision needs the other codes: the store's check answers it, the rest the request's schema. */
const byStore = (code: string) => code === 'alzn_mey1993';

describe('db import --code', () => {
  const d = tempDir();
  const file = join(d, 'alzn.tdb');
  beforeAll(() => {
    writeFileSync(file, readFileSync(join(ROOT, 'databases', 'alzn_mey1993.tdb')));
    expect(cli(d, ...importArgs(file, 'ALZN_MEY1993')).code).toBe(0);
  });
  it.each(ROWS)('refuses %s as the console does, exit code 2 (bad input)', (_label, code, why) => {
    const r = cli(d, ...importArgs(file, code));
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe(`error: code: ${why}`);
    expect(r.err).not.toMatch(/ENAMETOOLONG|copyfile/);
  });
  it('stored nothing for the refused codes', () => {
    expect(readdirSync(join(d, 'databases')).sort()).toEqual(['ALZN_MEY1993.tdb']);
  });
});

describe('the console import', () => {
  let f: Fixture;
  let token: string;
  beforeAll(async () => {
    f = await startFixture({ bootstrap: true, catalogFile: '/nonexistent/catalog.json' });
    token = readFileSync(join(f.dataDir, 'console-token'), 'utf8').trim();
    const r = await upload({ file_name: 'alzn.tdb', code: 'ALZN_MEY1993', name: 'x', tdb: CUNI });
    expect(r.status, r.text).toBe(201);
  });
  afterAll(async () => {
    await f?.close();
  });
  const upload = (body: Record<string, unknown>) =>
    http(f.svc.port, 'POST', '/console/v1/databases', { headers: { 'x-phasedesk-console': token }, body });

  it.each(ROWS)('refuses %s', async (_label, code, why) => {
    const r = await upload({ file_name: 'a.tdb', code, name: 'x', tdb: CUNI });
    expect(r.status).toBe(400);
    // the schema names the field as every console refusal does ("code must ..."), the store's check "code: ..."
    expect(r.body.error).toBe(byStore(code) ? `code: ${why}` : `code ${why}`);
  });
  it('stored nothing for the refused codes', () => {
    expect(readdirSync(join(f.dataDir, 'databases')).sort()).toEqual(['ALFE.tdb', 'ALZN_MEY1993.tdb']);
  });
});

describe('the registration the bundled catalog uses', () => {
  it('refuses the same codes', async () => {
    const d = tempDir();
    const store = await openStore(d);
    const meta = (code: string) => ({ code, name: 'x', level: 'free', type: 't', version: '1' });
    const lists = { element_list: ['AL'], phase_list: ['LIQUID'] };
    await registerDatabase(store, d, TDB, meta('ALZN_MEY1993'), lists);
    for (const [code, why] of REFUSED)
      await expect(registerDatabase(store, d, TDB, meta(code), lists)).rejects.toThrow(`code: ${why}`);
    await store.close();
  });
});
