// `npm run bench:cli`: whole-process wall times of the command line and of `npm start`, medians, each with its goal
// and, where the old path can still be run, the figure before the per-command loading measured in the same run:
//   help   `node bin/phasedesk.js --help`                       (goal < 0.15 s)
//   calc   `node bin/phasedesk.js calc` of one point task       (goal < 0.3 s)
//   npm    `npm run calc -- ...` and `npx phasedesk --help` in the clone (npm's own start added; nothing installed)
//   start  `npm start` with nothing changed since the last build, until the listener is up (goal < 3 s)
// "Before" of help and calc: the same command with the modules the dispatcher used to import for every command
// (fastify, Kysely, SQLite and the console) preloaded. "Before" of start: the former script (full `tsc -p`, full
// `vite build`, then the service). Sections can be selected: `npm run bench:cli -- help calc`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './support.js';
import { LOCK_FILE } from '../main/service/data-dir-lock.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(ROOT, 'bin', 'phasedesk.js');
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-bench-cli-'));

/** The static imports of the former main/cli.ts, loaded before the command to reproduce its start-up. */
const FORMER_DISPATCH_IMPORTS = [
  'main/config.js',
  'main/db/index.js',
  'main/server.js',
  'main/console/users.js',
  'main/console/keys.js',
  'main/console/databases.js',
  'main/console/admin.js',
  'main/service/files.js',
];
const formerPreload = path.join(tmp, 'former-dispatch.mjs');
writeFileSync(
  formerPreload,
  FORMER_DISPATCH_IMPORTS.map((m) => `import ${JSON.stringify(pathToFileURL(path.join(ROOT, 'dist', m)).href)};`).join(
    '\n',
  ) + '\n',
);

// The CPU time (user + system, all threads) a node process used, written by the process itself at exit: on a
// machine shared with other work it changes far less than the wall time and tells what an idle machine would see.
const cpuLog = path.join(tmp, 'cpu.log');
const cpuHook = path.join(tmp, 'cpu-at-exit.mjs');
writeFileSync(
  cpuHook,
  `import { appendFileSync } from 'node:fs';
process.on('exit', () => { const u = process.cpuUsage(); appendFileSync(${JSON.stringify(cpuLog)}, ((u.user + u.system) / 1000) + '\\n'); });\n`,
);

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(3)} s`;
}

interface Timing {
  wall: number;
  cpu?: number;
}

/** Wall and CPU time of a node process running `args` (with the CPU hook preloaded). */
function timeNode(args: string[]): Timing {
  writeFileSync(cpuLog, '');
  const wall = timeProcess(process.execPath, ['--import', cpuHook, ...args]);
  const cpu = Number(readFileSync(cpuLog, 'utf8').trim().split('\n').pop());
  return { wall, cpu };
}

function medianTimings(n: number, run: () => Timing): Timing {
  run(); // warm the file cache
  const xs = Array.from({ length: n }, run);
  return { wall: median(xs.map((x) => x.wall)), cpu: median(xs.map((x) => x.cpu ?? NaN)) };
}

function timingLine(what: string, t: Timing, goal: number | null, before?: Timing): string {
  return (
    line(what, t.wall, goal, before?.wall) +
    `\n${''.padEnd(4)}CPU time ${seconds(t.cpu!)}` +
    (before ? `, before ${seconds(before.cpu!)}` : '')
  );
}

/** Wall time of a whole process, in ms; throws when it fails. */
function timeProcess(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', env });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
}

function medianOf(n: number, run: () => number): number {
  run(); // warm the file cache
  return median(Array.from({ length: n }, run));
}

function line(what: string, ms: number, goal: number | null, before?: number): string {
  return (
    `${what.padEnd(44)} ${seconds(ms).padStart(9)}` +
    (goal === null ? '' : `  goal < ${goal} s ${ms < goal * 1000 ? 'met' : 'NOT met'}`) +
    (before === undefined ? '' : `  before ${seconds(before)}`)
  );
}

const pointConfig = path.join(tmp, 'point.json');
writeFileSync(
  pointConfig,
  JSON.stringify({
    task_type: 'point_calculation',
    condition: { components: ['AL', 'ZN'], temperature: 600, pressure: 101325, compositions: { ZN: 0.4 } },
  }),
);
const calcArgs = [
  'calc',
  pointConfig,
  '--tdb',
  path.join(ROOT, 'databases', 'alzn_mey1993.tdb'),
  '--out',
  path.join(tmp, 'out'),
  '--threads',
  '1',
];

async function benchHelp(): Promise<string[]> {
  const now = medianTimings(9, () => timeNode([BIN, '--help']));
  const before = medianTimings(9, () => timeNode(['--import', formerPreload, BIN, '--help']));
  const bare = medianTimings(9, () => timeNode(['-e', '0']));
  return [
    timingLine('phasedesk --help (node bin/phasedesk.js)', now, 0.15, before),
    timingLine("node -e 0 (Node's own start, for scale)", bare, null),
  ];
}

async function benchCalc(): Promise<string[]> {
  const now = medianTimings(7, () => timeNode([BIN, ...calcArgs]));
  const before = medianTimings(7, () => timeNode(['--import', formerPreload, BIN, ...calcArgs]));
  return [timingLine('phasedesk calc, one point task', now, 0.3, before)];
}

async function benchNpm(): Promise<string[]> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const run = medianOf(3, () => timeProcess(npm, ['run', '--silent', 'calc', '--', ...calcArgs.slice(1)]));
  // the first npx call links the clone into npm's npx cache and runs its install script, which finds everything built
  const npxFirst = timeProcess(npx, ['--yes', 'phasedesk', '--help']);
  const npxHelp = medianOf(3, () => timeProcess(npx, ['phasedesk', '--help']));
  return [
    line('npm run calc -- (one point task)', run, null),
    line('npx phasedesk --help (in the clone)', npxHelp, null),
    line('npx phasedesk --help, first call in this clone', npxFirst, null),
  ];
}

/**
 * Spawns a shell command that starts the service; resolves with the ms until it prints that it listens, once the
 * stopped service has released its data directory (the next start would otherwise find it in use).
 */
async function timeUntilListening(command: string, dataDir: string): Promise<number> {
  const ms = await timeUntilListeningOnce(command);
  const lock = path.join(dataDir, LOCK_FILE);
  for (let i = 0; i < 200 && existsSync(lock); i++) await new Promise((r) => setTimeout(r, 50));
  return ms;
}

function timeUntilListeningOnce(command: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, { cwd: ROOT, shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        /* already gone */
      }
    };
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('PhaseDesk listening on')) {
        const ms = performance.now() - t0;
        child.once('exit', () => resolve(ms));
        stop();
      }
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.once('exit', (code) => {
      if (!out.includes('PhaseDesk listening on'))
        reject(new Error(`start exited (${code}) before listening:\n${out}\n${err}`));
    });
  });
}

async function benchStart(): Promise<string[]> {
  const dataDir = path.join(tmp, 'data');
  const flags = `--port 0 --data-dir ${JSON.stringify(dataDir)}`;
  // The former script, once: a full compile and renderer build every time (this first start also creates the data
  // directory, which is then reused, so the timed starts below do not import the bundled databases).
  const tsc = JSON.stringify(path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'));
  const vite = JSON.stringify(path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'));
  const before = await timeUntilListening(
    `node ${tsc} -p tsconfig.json --incremental false && node ${vite} build --config renderer/vite.config.ts --logLevel error && node dist/main/cli.js start ${flags}`,
    dataDir,
  );
  await timeUntilListening(`npm start --silent -- ${flags}`, dataDir); // not counted: the file cache warms up after the full build
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) runs.push(await timeUntilListening(`npm start --silent -- ${flags}`, dataDir));
  const service: number[] = [];
  const serviceCpu: number[] = [];
  for (let i = 0; i < 3; i++) {
    writeFileSync(cpuLog, '');
    service.push(
      await timeUntilListening(`node --import ${JSON.stringify(cpuHook)} dist/main/cli.js start ${flags}`, dataDir),
    );
    serviceCpu.push(Number(readFileSync(cpuLog, 'utf8').trim().split('\n').pop()));
  }
  return [
    line('npm start, nothing changed, until listening', median(runs), 3, before),
    timingLine(
      '  of which the service itself (cli.js start)',
      { wall: median(service), cpu: median(serviceCpu) },
      null,
    ) + ' (CPU until it stopped after SIGTERM)',
  ];
}

const SECTIONS: Record<string, () => Promise<string[]>> = {
  help: benchHelp,
  calc: benchCalc,
  npm: benchNpm,
  start: benchStart,
};

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !(w in SECTIONS));
  if (unknown.length)
    throw new Error(`unknown section(s) ${unknown.join(', ')}; known: ${Object.keys(SECTIONS).join(', ')}`);
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (figures are wall times of whole processes)`,
  );
  try {
    for (const [name, run] of Object.entries(SECTIONS)) {
      if (wanted.length && !wanted.includes(name)) continue;
      console.log(`== ${name}`);
      for (const l of await run()) console.log(l);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

main().catch((e: unknown) => {
  console.error((e as Error).message);
  process.exit(1);
});
