// The command line loads only what the command it runs needs: `--help` nothing beyond the dispatcher, `calc` the
// task-config schemas, the calculation and the core but never the HTTP server, Kysely or SQLite, a console command
// the store but not the HTTP server. Checked by recording every module the real process resolves (a resolve hook
// registered with --import), through bin/phasedesk.js as a user runs it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../service/helpers.js';
import { openStore } from '../../main/db/index.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-cli-load-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const hooks = path.join(tmp, 'hooks.mjs');
writeFileSync(
  hooks,
  `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.PHASEDESK_TEST_MODULE_LOG, r.url + '\\n');
  return r;
}\n`,
);
const register = path.join(tmp, 'register.mjs');
writeFileSync(
  register,
  `import { register } from 'node:module';\nregister(${JSON.stringify(new URL(`file://${hooks}`).href)});\n`,
);

let runs = 0;
/** Runs bin/phasedesk.js with the arguments; returns its output and the files (relative to the repository) it loaded. */
function phasedesk(...args: string[]) {
  const log = path.join(tmp, `modules-${++runs}.txt`);
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, ['--import', register, path.join(ROOT, 'bin', 'phasedesk.js'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, PHASEDESK_TEST_MODULE_LOG: log },
  });
  const loaded = [
    ...new Set(
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((u) => u.startsWith('file:')),
    ),
  ].map((u) => path.relative(ROOT, new URL(u).pathname));
  // node_modules is a link in some checkouts: name a package by its folder after the last node_modules/
  const packages = new Set(
    loaded
      .filter((f) => f.includes('node_modules/'))
      .map((f) => {
        const [scopeOrName, name] = f.slice(f.lastIndexOf('node_modules/') + 'node_modules/'.length).split('/');
        return scopeOrName.startsWith('@') ? `${scopeOrName}/${name}` : scopeOrName;
      }),
  );
  return { ...r, loaded, packages };
}

/** A point of Al-Zn on the bundled database: FCC_A1 + FCC_A1#2. */
const ALZN_POINT = {
  task_type: 'point_calculation',
  condition: { components: ['AL', 'ZN'], temperature: 600, pressure: 101325, compositions: { ZN: 0.4 } },
};

const SERVICE_ONLY = ['fastify', '@fastify/static', 'kysely', 'better-sqlite3', 'piscina'];

describe('the command line loads what its command needs', () => {
  it('--help: the dispatcher and its options only, exit code 0', () => {
    const r = phasedesk('--help');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^usage: phasedesk <command>/);
    expect(r.loaded.filter((f) => !f.startsWith('bin/')).sort()).toEqual([
      'dist/main/cli.js',
      'dist/main/cli/options.js',
    ]);
    expect([...r.packages]).toEqual([]);
  });

  it('no command: the usage on stderr, exit code 2; an unknown command is named', () => {
    expect(phasedesk().status).toBe(2);
    const r = phasedesk('frobnicate');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'frobnicate'/);
    expect([...r.packages]).toEqual([]);
  });

  it('calc of a point task: zod, the calculation and the core, never the service, Kysely or SQLite', () => {
    const cfg = path.join(tmp, 'point.json');
    writeFileSync(cfg, JSON.stringify(ALZN_POINT));
    const r = phasedesk(
      'calc',
      cfg,
      '--tdb',
      path.join(ROOT, 'databases', 'alzn_mey1993.tdb'),
      '--out',
      path.join(tmp, 'out'),
      '--threads',
      '1',
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('FCC_A1 + FCC_A1#2 at 600 K (converged)');
    expect(r.loaded).toContain('dist/worker/calculations/point_calculation.js');
    expect(r.packages).toContain('zod');
    for (const p of SERVICE_ONLY) expect(r.packages, p).not.toContain(p);
    // nothing of the service: its server, store, routes (the task-config schemas aside) and scheduler
    expect(
      r.loaded.filter((f) => /^dist\/main\/(server\.js|db\/|service\/|cli\/start|api\/(?!task-config\.js))/.test(f)),
    ).toEqual([]);
    expect(r.loaded.filter((f) => /^dist\/worker\/calculations\//.test(f))).toEqual([
      'dist/worker/calculations/point_calculation.js',
    ]);
  });

  it('calc --db CODE with a data directory: the record read from the SQLite file, without Kysely or the migrations', async () => {
    const dataDir = path.join(tmp, 'data-calc');
    await (await openStore(dataDir)).close();
    const cfg = path.join(tmp, 'point-db.json');
    writeFileSync(cfg, JSON.stringify(ALZN_POINT));
    const args = ['--db', 'ALZN_MEY1993', '--data-dir', dataDir, '--out', path.join(tmp, 'out-db'), '--threads', '1'];
    const r = phasedesk('calc', cfg, ...args);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('FCC_A1 + FCC_A1#2 at 600 K (converged)');
    expect(r.packages).toContain('better-sqlite3');
    expect(r.packages).not.toContain('kysely');
    expect(r.loaded.filter((f) => /^dist\/main\/db\/(index|migrations\/)/.test(f))).toEqual([]);
  });

  it('a command against a running service loads neither the service nor the store', () => {
    const r = phasedesk('task', 'list', '--url', 'http://127.0.0.1:9/api/v2');
    // no key in this environment, or none of the developer's: 3 (no key) or 4 (nothing listening)
    expect([3, 4], r.stderr).toContain(r.status);
    for (const p of SERVICE_ONLY) expect(r.packages, p).not.toContain(p);
    expect(r.loaded.filter((f) => /^dist\/main\/(server\.js|db\/|service\/|console\/)/.test(f))).toEqual([]);
  });

  it('batch of a table: the batch calculation and the core, never the service, Kysely or SQLite', () => {
    const csv = path.join(tmp, 'alloys.csv');
    writeFileSync(csv, 'ZN,T\n0.1,600\n0.4,700\n');
    const r = phasedesk('batch', csv, '--db', 'ALZN_MEY1993', '--balance', 'AL', '--out', path.join(tmp, 'b'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('2 row(s): 2 ok, 0 not converged, 0 failed');
    for (const p of SERVICE_ONLY) expect(r.packages, p).not.toContain(p);
    expect(r.loaded.filter((f) => /^dist\/main\/(server\.js|db\/|service\/|cli\/start)/.test(f))).toEqual([]);
    expect(r.loaded.filter((f) => /^dist\/worker\/calculations\//.test(f))).toEqual([
      'dist/worker/calculations/equilibrium_batch.js',
    ]);
  });

  it('a console command opens the store without loading the HTTP server', () => {
    const r = phasedesk('plan', 'set', 'basic', '--limit', '5', '--data-dir', path.join(tmp, 'data'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('ok');
    expect(r.packages).toContain('kysely');
    expect(r.packages).not.toContain('fastify');
    expect(r.loaded).not.toContain('dist/main/server.js');
  });
});
