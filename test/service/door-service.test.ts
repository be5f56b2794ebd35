// Service-side hardening: TDB imports parsed off the event loop, the CLI refusing what the console refuses, keys
// never issued already expired, a private data directory, and the start command's addresses.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { api, ensureBuilt, http, ROOT, startFixture, tempDir, until, type Fixture, sqliteOf } from './helpers.js';
import { openStore } from '../../main/db/index.js';

const CUNI = readFileSync(join(ROOT, 'databases', 'cuni_mey1992.tdb'), 'utf8');
const cliPath = () => join(ROOT, 'dist', 'main', 'cli.js');
function cli(dataDir: string, ...args: string[]): { code: number; out: string; err: string } {
  try {
    return {
      code: 0,
      out: execFileSync(process.execPath, [cliPath(), ...args, '--data-dir', dataDir], {
        encoding: 'utf8',
        stdio: 'pipe',
      }),
      err: '',
    };
  } catch (e) {
    const x = e as { status: number; stdout: string; stderr: string };
    return { code: x.status, out: x.stdout, err: x.stderr };
  }
}
const mode = (p: string) => statSync(p).mode & 0o777;
ensureBuilt();

let f: Fixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

describe('TDB import', () => {
  it('a big import is parsed off the event loop: API requests keep being answered while it runs', async () => {
    f = await startFixture();
    const token = f.svc.consoleToken;
    // ~5 MB: the Cu-Ni file and 70,000 FUNCTIONs; the reader takes seconds on it.
    const parts = [CUNI];
    for (let i = 0; i < 70_000; i++)
      parts.push(`FUNCTION GFILL${i} 298.15 ${i}.5*T+1.25*T*LN(T)-3.5E-3*T**2; 6000 N !\n`);
    const tdb = parts.join('');
    expect(tdb.length).toBeGreaterThan(5_000_000);
    let importDone = false;
    const imported = http(f.svc.port, 'POST', '/console/v1/databases', {
      headers: { 'x-phasedesk-console': token },
      body: { file_name: 'big.tdb', code: 'BIG', name: 'big', tdb, subscribe_user: null },
    }).then((r) => {
      importDone = true;
      return r;
    });
    // Requests sent one after another while the import is pending; with the parse on the event loop none could
    // be answered before the import's own answer.
    let answeredDuringImport = 0;
    while (!importDone) {
      const r = await api(f.svc.port, 'GET', '/key/info', { key: f.keyA });
      expect(r.status).toBe(200);
      if (!importDone) answeredDuringImport++;
    }
    const r = await imported;
    expect(r.status, r.text).toBe(201);
    expect(r.body.elements).toEqual(['CU', 'NI']);
    expect(answeredDuringImport).toBeGreaterThan(5);
    console.log(`GET /key/info answered ${answeredDuringImport} times while the import ran`);
  }, 120_000);

  it('`db import` refuses exactly what the console refuses (one code path), and reads CR-only line endings', async () => {
    const d = tempDir();
    writeFileSync(join(d, 'e.tdb'), '$ only a comment\n');
    const r = cli(
      d,
      'db',
      'import',
      join(d, 'e.tdb'),
      '--code',
      'E',
      '--name',
      'e',
      '--level',
      'free',
      '--type',
      'alloy',
      '--version',
      '1',
    );
    expect(r.code).toBe(2); // bad input (docs/cli.md "Exit codes")
    expect(r.err.trim()).toBe(
      'error: tdb: e.tdb:1: no ELEMENT declared (a TDB database declares its elements with ELEMENT commands)',
    );
    writeFileSync(join(d, 'bad.tdb'), 'ELEMENT AL FCC_A1 26.98 0 0 !\nFOO BAR !\n');
    const bad = cli(
      d,
      'db',
      'import',
      join(d, 'bad.tdb'),
      '--code',
      'B',
      '--name',
      'b',
      '--level',
      'free',
      '--type',
      'alloy',
      '--version',
      '1',
    );
    expect(bad.err.trim()).toBe("error: tdb: bad.tdb:2: unknown command 'FOO'");

    writeFileSync(join(d, 'cr.tdb'), CUNI.replace(/\r?\n/g, '\r'));
    const ok = cli(
      d,
      'db',
      'import',
      join(d, 'cr.tdb'),
      '--code',
      'CR',
      '--name',
      'cr',
      '--level',
      'free',
      '--type',
      'alloy',
      '--version',
      '1',
    );
    expect(ok.code, ok.err).toBe(0);
    const again = cli(
      d,
      'db',
      'import',
      join(d, 'cr.tdb'),
      '--code',
      'CR',
      '--name',
      'cr',
      '--level',
      'free',
      '--type',
      'alloy',
      '--version',
      '1',
    );
    expect(again.err.trim()).toBe(
      "error: code: a database with code 'CR' already exists (set replace to overwrite it)",
    );
    expect(
      cli(
        d,
        'db',
        'import',
        join(d, 'cr.tdb'),
        '--code',
        'CR',
        '--name',
        'cr',
        '--level',
        'free',
        '--type',
        'alloy',
        '--version',
        '1',
        '--replace',
      ).code,
    ).toBe(0);
    const store = await openStore(d);
    const row = await store.db.selectFrom('databases').selectAll().where('code', '=', 'CR').executeTakeFirstOrThrow();
    await store.close();
    expect(JSON.parse(row.element_list)).toEqual(['CU', 'NI']);
    expect(JSON.parse(row.phase_list)).toEqual(expect.arrayContaining(['LIQUID', 'FCC_A1']));
    // the stored copy is the file with LF line endings (what the calculations read)
    expect(readFileSync(row.file_path, 'utf8')).toBe(CUNI.replace(/\r?\n/g, '\n'));
  }, 120_000);
});

describe('keys and files', () => {
  it('the CLI refuses to issue a key that has already expired, or whose expiry is not a time', () => {
    const d = tempDir();
    cli(d, 'plan', 'set', 'p', '--limit', '5');
    cli(d, 'user', 'create', 'u', '--plan', 'p');
    const past = cli(d, 'key', 'issue', 'u', '--expires', '2020-01-01T00:00:00Z');
    expect(past.code).toBe(2);
    expect(past.err.trim()).toBe(
      'error: expiry 2020-01-01T00:00:00Z is in the past: the key would be expired when issued',
    );
    expect(cli(d, 'key', 'issue', 'u', '--expires', 'tomorrow').err).toMatch(/^error: expiry 'tomorrow' is not a time/);
    expect(cli(d, 'key', 'issue', 'u', '--expires', '2999-01-01T00:00:00Z').out).toMatch(/^API key: tk_/m);
  }, 60_000);

  it('the data directory is 0700; the SQLite file, the secret and task files are not readable by others', async () => {
    const dataDir = join(tempDir(), 'fresh', 'PhaseDesk');
    f = await startFixture({ dataDir });
    const r = await api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: { title: 'w', task_config: { task_type: '__test_write', tdb_code: 'ALFE' } },
    });
    await until(
      () => api(f!.svc.port, 'GET', `/task/${r.body.id}`, { key: f!.keyA }),
      (x) => x.body?.status === 'completed',
    );
    const uuid = (
      sqliteOf(f.svc.store).prepare('SELECT uuid FROM tasks WHERE id = ?').get(r.body.id) as { uuid: string }
    ).uuid;
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'tasks'))).toBe(0o700);
    for (const p of ['phasedesk.sqlite', 'phasedesk.sqlite-wal', 'secret', 'console-token'])
      expect([p, mode(join(dataDir, p))]).toEqual([p, 0o600]);
    expect(mode(join(dataDir, 'tasks', uuid))).toBe(0o700);
    expect(mode(join(dataDir, 'tasks', uuid, 'result'))).toBe(0o700);
    expect(mode(join(dataDir, 'tasks', uuid, 'result', 'result.txt'))).toBe(0o600);
    // A cache hit's copied files too.
    const hit = await api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: { title: 'w', task_config: { task_type: '__test_write', tdb_code: 'ALFE' } },
    });
    expect(hit.body.status).toBe('completed');
    const hitUuid = (
      sqliteOf(f.svc.store).prepare('SELECT uuid FROM tasks WHERE id = ?').get(hit.body.id) as { uuid: string }
    ).uuid;
    expect(mode(join(dataDir, 'tasks', hitUuid, 'preview', 'preview.txt'))).toBe(0o600);
  });
});

describe('start', () => {
  it('prints the API base URL and the app URL to open in a browser', async () => {
    const d = tempDir();
    const child = spawn(process.execPath, [cliPath(), 'start', '--port', '0', '--data-dir', d], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    try {
      await until(
        async () => out,
        (o) => /in a browser/.test(o) || child.exitCode !== null,
        50,
      );
      const api2 = /PhaseDesk listening on (http:\/\/127\.0\.0\.1:(\d+)\/api\/v2)$/m.exec(out);
      expect(api2, out).not.toBeNull();
      expect(out).toContain(`Open http://127.0.0.1:${api2![2]}/ in a browser`);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 120_000);
});
