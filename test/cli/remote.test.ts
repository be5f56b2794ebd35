// The commands against a running service through the real CLI (bin/phasedesk.js): db list, task
// list|show|result|cancel|delete and submit, the key from PHASEDESK_API_KEY or a config file (never an option), and
// the exit codes docs/cli.md documents: 0 done, 1 the task failed, 2 bad input, 3 no key or access refused, 4 the
// service unreachable. Also `--help` of every command, and `calc --db CODE` on a bundled and an imported database.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_HELP } from '../../main/cli/options.js';
import { pointConfig, ROOT, startFixture, TDB, type Fixture } from '../service/helpers.js';
import { registerDatabase } from '../../main/console/databases.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-cli-remote-'));
let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(async () => {
  await f?.close();
  rmSync(tmp, { recursive: true, force: true });
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI without blocking this process (the service under test answers in it). The environment holds no
 * key of the developer's: an empty config home, the key only when `key` is given.
 */
function phasedesk(args: string[], o: { key?: string; env?: Record<string, string> } = {}): Promise<Run> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: tmp,
    XDG_CONFIG_HOME: path.join(tmp, 'config-home'),
    PHASEDESK_URL: f.svc.baseUrl,
    ...(o.key ? { PHASEDESK_API_KEY: o.key } : {}),
    ...o.env,
  };
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [path.join(ROOT, 'bin', 'phasedesk.js'), ...args], { env });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', reject);
    p.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function writeJson(name: string, v: unknown): string {
  const file = path.join(tmp, name);
  writeFileSync(file, JSON.stringify(v));
  return file;
}

describe('commands against a running service', () => {
  it('submit --wait --out: the task runs, its files are written, the record and the list show it', async () => {
    const cfg = writeJson('point.json', pointConfig({ thermo_outputs: ['ac(FE)'] }));
    const out = path.join(tmp, 'out');
    const r = await phasedesk(['submit', cfg, '--title', 'cli point', '--out', out, '--no-cache'], { key: f.keyA });
    expect(r.status, r.stderr).toBe(0);
    const id = Number(/^task (\d+) completed/m.exec(r.stdout)![1]);
    for (const file of ['result/result.json', 'result/result.csv', 'preview/point.svg', 'preview/point.png'])
      expect(existsSync(path.join(out, file)), file).toBe(true);
    expect(readFileSync(path.join(out, 'result', 'result.csv'), 'utf8')).toMatch(/^T \[K\],P \[Pa\],x\(AL\)/);

    const list = await phasedesk(['task', 'list', '--desc'], { key: f.keyA });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^${id}\\s+completed\\s+point_calculation\\s+ALFE\\s.*cli point$`, 'm'));
    const json = await phasedesk(['task', 'list', '--status', 'completed', '--json'], { key: f.keyA });
    expect(JSON.parse(json.stdout).data.map((t: { id: number }) => t.id)).toContain(id);

    const show = await phasedesk(['task', 'show', String(id)], { key: f.keyA });
    expect(show.stdout).toMatch(/^status:\s+completed$/m);
    expect(show.stdout).toMatch(/^duration:\s+\d+\.\d{3} s$/m);
    const record = JSON.parse((await phasedesk(['task', 'show', String(id), '--json'], { key: f.keyA })).stdout);
    expect(record).toMatchObject({ id, status: 'completed', title: 'cli point' });

    const files = await phasedesk(['task', 'result', String(id)], { key: f.keyA });
    expect(
      files.stdout
        .split('\n')
        .map((l) => l.split('\t')[0])
        .filter(Boolean)
        .sort(),
    ).toEqual(['result.csv', 'result.json']);
    const csv = await phasedesk(['task', 'result', String(id), '--file', 'result.csv'], { key: f.keyA });
    expect(csv.stdout).toBe(readFileSync(path.join(out, 'result', 'result.csv'), 'utf8'));
    const missing = await phasedesk(['task', 'result', String(id), '--file', 'nope.csv'], { key: f.keyA });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/has no result file nope\.csv \(files: result\.csv, result\.json\)/);

    expect((await phasedesk(['task', 'delete', String(id)], { key: f.keyA })).stdout).toBe(`task ${id} deleted\n`);
    const gone = await phasedesk(['task', 'show', String(id)], { key: f.keyA });
    expect(gone.status).toBe(2);
    expect(gone.stderr).toMatch(/404 Task not found/);
  });

  it('submit without --wait prints the id; task cancel stops it, a second cancel is bad input', async () => {
    const cfg = writeJson('sleep.json', { task_type: '__test_sleep', tdb_code: 'ALFE', seconds: 60 });
    const r = await phasedesk(['submit', cfg], { key: f.keyA });
    expect(r.status, r.stderr).toBe(0);
    const id = /^task (\d+) pending$/m.exec(r.stdout)![1]!;
    const c = await phasedesk(['task', 'cancel', id], { key: f.keyA });
    expect(c.stdout).toBe(`task ${id} aborted\n`);
    const again = await phasedesk(['task', 'cancel', id], { key: f.keyA });
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/409 Task cannot be stopped/);
  });

  it('submit --wait of a task that fails: exit code 1 with its logs', async () => {
    const cfg = writeJson('crash.json', { task_type: '__test_throw', tdb_code: 'ALFE' });
    const r = await phasedesk(['submit', cfg, '--wait'], { key: f.keyA });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^task \d+ failed/m);
  });

  it('db list: the codes of the databases with their elements; --json the records', async () => {
    const r = await phasedesk(['db', 'list'], { key: f.keyA });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^CODE\s+VERSION\s+LEVEL\s+ELEMENTS\s+NAME$/m);
    expect(r.stdout).toMatch(/^ALFE\s+1\.0\s+free\s+AL FE\s+Al-Fe test$/m);
    expect(JSON.parse((await phasedesk(['db', 'list', '--json'], { key: f.keyA })).stdout)[0].code).toBe('ALFE');
  });

  it('the key from a config file (with the service url), never from an option', async () => {
    const file = path.join(tmp, 'cli.json');
    writeFileSync(file, JSON.stringify({ api_key: f.keyA, url: f.svc.baseUrl }));
    chmodSync(file, 0o600);
    const r = await phasedesk(['db', 'list', '--config', file], { env: { PHASEDESK_URL: '' } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    chmodSync(file, 0o644);
    expect((await phasedesk(['db', 'list', '--config', file])).stderr).toMatch(/readable by other users/);
    const viaEnv = await phasedesk(['task', 'list'], { env: { PHASEDESK_CLI_CONFIG: file } });
    expect(viaEnv.status, viaEnv.stderr).toBe(0);
    const option = await phasedesk(['task', 'list', '--key', f.keyA]);
    expect(option.status).toBe(2);
    expect(option.stderr).toMatch(/Unknown option '--key'/);
  });

  it('exit codes: 2 bad input, 3 no key or a refused key, 4 no service', async () => {
    const typo = writeJson('typo.json', pointConfig({ inhibit_phase: ['FCC_A1'] }));
    const cases: [string[], { key?: string; env?: Record<string, string> }, number, RegExp][] = [
      [['submit', typo], { key: f.keyA }, 2, /unknown key inhibit_phase \(did you mean inhibit_phases\?\)/],
      [['submit', path.join(tmp, 'none.json')], { key: f.keyA }, 2, /none\.json: ENOENT/],
      [['task', 'show', 'x'], { key: f.keyA }, 2, /ID must be a positive integer/],
      [['task', 'show'], { key: f.keyA }, 2, /give exactly one task ID/],
      [['task', 'frob'], { key: f.keyA }, 2, /unknown command 'task frob'/],
      [['task', 'list', '--page', '0'], { key: f.keyA }, 2, /--page must be a positive integer/],
      [['task', 'show', '1', '--wait'], { key: f.keyA }, 2, /task show takes no --wait/],
      [['task', 'list'], {}, 3, /no API key: set PHASEDESK_API_KEY or write/],
      [['task', 'list'], { key: 'tk_' + 'x'.repeat(32) }, 3, /401/],
      [['task', 'list', '--url', 'http://127.0.0.1:9/api/v2'], { key: f.keyA }, 4, /cannot reach the service/],
      [['frobnicate'], {}, 2, /unknown command 'frobnicate'/],
      [['user', 'create', 'x', '--plan', 'none', '--data-dir', path.join(tmp, 'd')], {}, 2, /plan 'none' does not/],
      [['key', 'list', '--bogus'], {}, 2, /Unknown option '--bogus'/],
    ];
    for (const [args, o, status, message] of cases) {
      const r = await phasedesk(args, o);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(status);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  });
});

describe('--help', () => {
  it.each(Object.keys(COMMAND_HELP))('phasedesk %s --help: that command’s usage, exit code 0', async (command) => {
    const words = command.split(' ');
    for (const args of [
      [...words, '--help'],
      ['help', ...words],
    ]) {
      const r = await phasedesk(args);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.startsWith(`usage: phasedesk ${command}`), r.stdout).toBe(true);
    }
  });

  it.each(['calc', 'server', 'worker'])('phasedesk %s --help: its own usage', async (command) => {
    for (const args of [
      [command, '--help'],
      ['help', command],
    ]) {
      const r = await phasedesk(args);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^usage: phasedesk ${command}`));
    }
  });

  it('a group word gives its commands; the general usage lists the exit codes', async () => {
    const r = await phasedesk(['key', '--help']);
    expect(r.stdout.match(/^usage: phasedesk key /gm)).toHaveLength(6);
    expect((await phasedesk(['--help'])).stdout).toMatch(/exit codes: 0 done, 1 failed, 2 bad input/);
  });
});

describe('calc --db CODE', () => {
  const cfg = () =>
    writeJson('alzn.json', {
      task_type: 'point_calculation',
      condition: { components: ['AL', 'ZN'], temperature: 600, pressure: 101325, compositions: { ZN: 0.4 } },
    });

  it('a bundled database by its code, before any service ran (no data directory)', async () => {
    const out = path.join(tmp, 'calc-bundled');
    const dataDir = path.join(tmp, 'never-started');
    const r = await phasedesk(['calc', cfg(), '--db', 'alzn_mey1993', '--out', out, '--data-dir', dataDir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('FCC_A1 + FCC_A1#2 at 600 K (converged)');
    const doc = JSON.parse(readFileSync(path.join(out, 'result', 'result.json'), 'utf8'));
    expect(doc.provenance.database).toMatchObject({ code: 'ALZN_MEY1993', file_name: 'alzn_mey1993.tdb' });
    expect(existsSync(dataDir)).toBe(false);
  });

  it('a database imported into the data directory, also named by the configuration’s tdb_code', async () => {
    await registerDatabase(
      f.svc.store,
      f.dataDir,
      TDB,
      { code: 'MINE', name: 'mine', level: 'free', type: 'alloy', version: '1', support_task_list: [] },
      { element_list: ['AL', 'FE', 'VA'], phase_list: ['LIQUID', 'FCC_A1', 'BCC_A2'] },
    );
    const withCode = writeJson('mine.json', { ...pointConfig(), tdb_code: 'MINE' });
    const out = path.join(tmp, 'calc-mine');
    const r = await phasedesk(['calc', withCode, '--out', out, '--data-dir', f.dataDir, '--threads', '1']);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(path.join(out, 'result', 'result.json'), 'utf8'));
    expect(doc.provenance.database.code).toBe('MINE');
  });

  it('an unknown code is bad input naming the close one; --tdb with --db too', async () => {
    const r = await phasedesk(['calc', cfg(), '--db', 'ALZN_MEY1992', '--out', tmp, '--data-dir', path.join(tmp, 'x')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--db ALZN_MEY1992: no database of that code .* \(did you mean ALZN_MEY1993\?\); codes: /);
    const both = await phasedesk(['calc', cfg(), '--db', 'ALZN_MEY1993', '--tdb', TDB, '--out', tmp]);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/give --tdb FILE or --db CODE, not both/);
  });
});
