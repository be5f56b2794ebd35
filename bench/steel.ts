// `npm run bench:steel`: the real-alloy tasks of the speed goals as whole `phasedesk calc` processes on one thread,
// each the median of BENCH_STEEL_RUNS (default 5) runs with its peak resident set (getrusage maxrss of the process,
// written by the process itself at exit) and its goal. The steel tasks run on the bundled MF Steel database with its
// recommended phase selection (`--db MF_STEEL`); 316L = Fe-17Cr-12Ni-2.5Mo-0.02C-1.5Mn-0.5Si (mass %). The last row is
// the 7-component Al alloy of bench:calc's alloy7 on COST507 (every phase); `solution` is the solution-treatment window
// of 316L, `solidify` and `alsolid` the solidification with back diffusion of 316L and of the Al alloy (goals of
// kinetics part 1).
// With PHASEDESK_BENCH_BEFORE_TREE=/path/of/an/older/checkout (its dist/ and addon built), each run of a task is also
// run with that checkout's command line, alternately, and printed beside as "before" with the ratio before/now.
// Sections can be selected by the names in the first column: `npm run bench:steel -- point scheil`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, tdbDir } from './support.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUNS = Math.max(1, Number(process.env.BENCH_STEEL_RUNS ?? 5));
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-bench-steel-'));

const STEEL = ['FE', 'CR', 'NI', 'MO', 'C', 'MN', 'SI'];
const SS316L = { CR: 0.17, NI: 0.12, MO: 0.025, C: 0.0002, MN: 0.015, SI: 0.005 };
const mass = { pressure: 101325, composition_unit: 'mass_fraction' };

interface SteelTask {
  name: string;
  what: string;
  /** seconds and (when given) MB of peak resident set */
  goal: { s: number; mb?: number };
  database: string[];
  config: Record<string, unknown>;
}

const TASKS: SteelTask[] = [
  {
    name: 'point',
    what: 'point_calculation 316L at 1300 K',
    goal: { s: 0.3, mb: 200 },
    database: ['--db', 'MF_STEEL'],
    config: {
      task_type: 'point_calculation',
      condition: { components: STEEL, temperature: 1300, compositions: SS316L, ...mass },
    },
  },
  {
    name: 'line',
    what: 'line_calculation 316L 1900 -> 600 K, 131 points',
    goal: { s: 1.5, mb: 300 },
    database: ['--db', 'MF_STEEL'],
    config: {
      task_type: 'line_calculation',
      condition: {
        components: STEEL,
        temperature_start: 1900,
        temperature_end: 600,
        points: 131,
        compositions_start: SS316L,
        compositions_end: SS316L,
        ...mass,
      },
    },
  },
  {
    name: 'scheil',
    what: 'scheil_solidification 316L from 1781 K, 1 K steps',
    goal: { s: 3, mb: 300 },
    database: ['--db', 'MF_STEEL'],
    config: {
      task_type: 'scheil_solidification',
      condition: { components: STEEL, compositions: SS316L, start_temperature: 1781, temperature_step: 1, ...mass },
    },
  },
  {
    name: 'isopleth',
    what: 'isopleth Fe-13Cr-xC, 0-1 mass % C, 900-1800 K',
    goal: { s: 2, mb: 300 },
    database: ['--db', 'MF_STEEL'],
    config: {
      task_type: 'isopleth',
      condition: {
        components: ['FE', 'CR', 'C'],
        temperature_start: 900,
        temperature_end: 1800,
        composition_start: { CR: 0.13, C: 0 },
        composition_end: { CR: 0.13, C: 0.01 },
        ...mass,
      },
    },
  },
  {
    name: 'ternary',
    what: 'ternary_isothermal_section Fe-Cr-Ni 1073 K',
    goal: { s: 0.5, mb: 300 },
    database: ['--db', 'MF_STEEL'],
    config: {
      task_type: 'ternary_isothermal_section',
      condition: { components: ['FE', 'CR', 'NI'], temperature: 1073, pressure: 101325 },
    },
  },
  {
    name: 'solution',
    what: 'solution_treatment 316L from 900 K (window, solvus, incipient melting)',
    goal: { s: 3, mb: 300 },
    database: ['--db', 'MF_STEEL'],
    config: {
      task_type: 'solution_treatment',
      condition: { components: STEEL, compositions: SS316L, temperature_start: 900, ...mass },
    },
  },
  {
    name: 'solidify',
    what: 'solidification 316L with back diffusion (mf-mobility beside MF Steel), 10 K/s, from 1781 K, 1 K steps',
    goal: { s: 10 },
    database: ['--db', 'MF_STEEL', '--mobility-tdb', path.join(tdbDir(), 'mf-mobility.tdb')],
    config: {
      task_type: 'solidification',
      condition: {
        components: STEEL,
        compositions: SS316L,
        start_temperature: 1781,
        temperature_step: 1,
        cooling_rate: 10,
        secondary_arm_spacing: 50e-6,
        ...mass,
      },
    },
  },
  {
    name: 'alsolid',
    what: 'solidification COST507 7-component Al alloy with back diffusion (kawin Al-Mg-Si mobilities beside), 10 K/s',
    goal: { s: 5 },
    database: ['--tdb', path.join(tdbDir(), 'COST507.tdb'), '--mobility-tdb', path.join(tdbDir(), 'kawin_AlMgSi.tdb')],
    config: {
      task_type: 'solidification',
      tdb_code: 'COST507',
      condition: {
        components: ['AL', 'ZN', 'MG', 'CU', 'SI', 'FE', 'MN'],
        compositions: { ZN: 0.025, MG: 0.029, CU: 0.007, SI: 0.002, FE: 0.002, MN: 0.001 },
        start_temperature: 950,
        temperature_step: 1,
        cooling_rate: 10,
        pressure: 101325,
        composition_unit: 'mole_fraction',
      },
    },
  },
  {
    name: 'alloy7',
    what: 'scheil_solidification COST507 7-component Al alloy from 950 K, 1 K steps',
    goal: { s: 2 },
    database: ['--tdb', path.join(tdbDir(), 'COST507.tdb')],
    config: {
      task_type: 'scheil_solidification',
      tdb_code: 'COST507',
      condition: {
        components: ['AL', 'ZN', 'MG', 'CU', 'SI', 'FE', 'MN'],
        compositions: { ZN: 0.025, MG: 0.029, CU: 0.007, SI: 0.002, FE: 0.002, MN: 0.001 },
        start_temperature: 950,
        temperature_step: 1,
        pressure: 101325,
        composition_unit: 'mole_fraction',
      },
    },
  },
];

// The process's CPU time and peak resident set, appended by the process itself at exit.
const usageLog = path.join(tmp, 'usage.log');
const usageHook = path.join(tmp, 'usage-at-exit.mjs');
writeFileSync(
  usageHook,
  `import { appendFileSync } from 'node:fs';
process.on('exit', () => { const u = process.resourceUsage(); appendFileSync(${JSON.stringify(usageLog)}, JSON.stringify({ cpu: (u.userCPUTime + u.systemCPUTime) / 1000, rss: u.maxRSS / 1024 }) + '\\n'); });\n`,
);

interface Run {
  wall: number;
  cpu: number;
  rss: number;
  summary: string;
}

/** One `phasedesk calc` of the task with the command line of `tree`. */
function runOnce(tree: string, task: SteelTask): Run {
  const config = path.join(tmp, `${task.name}.json`);
  writeFileSync(config, JSON.stringify({ tdb_code: 'MF_STEEL', ...task.config }));
  const out = path.join(tmp, 'out');
  rmSync(out, { recursive: true, force: true });
  writeFileSync(usageLog, '');
  const args = ['--import', usageHook, path.join(tree, 'bin', 'phasedesk.js'), 'calc', config, ...task.database];
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [...args, '--out', out, '--threads', '1'], {
    encoding: 'utf8',
    env: { ...process.env, OMP_NUM_THREADS: '1' },
  });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${task.name} (${tree}) exited ${r.status}: ${r.stderr || r.stdout}`);
  const usage = JSON.parse(readFileSync(usageLog, 'utf8').trim().split('\n').at(-1)!) as { cpu: number; rss: number };
  const summary = r.stdout.trim().split('\n').at(-1) ?? '';
  return { wall, cpu: usage.cpu / 1000, rss: usage.rss, summary };
}

function figure(runs: Run[]): string {
  const wall = median(runs.map((r) => r.wall));
  return `${wall.toFixed(2)} s (CPU ${median(runs.map((r) => r.cpu)).toFixed(2)} s), peak RSS ${Math.max(...runs.map((r) => r.rss)).toFixed(0)} MB`;
}

function benchTask(task: SteelTask, before: string | undefined): string[] {
  const now: Run[] = [];
  const old: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (before) old.push(runOnce(before, task));
    now.push(runOnce(ROOT, task));
  }
  const goal = `goal < ${task.goal.s} s${task.goal.mb ? `, < ${task.goal.mb} MB` : ''}`;
  const lines = [`${task.name.padEnd(9)} ${task.what}: ${figure(now)}; ${goal}`, `          ${now.at(-1)!.summary}`];
  if (before) {
    const ratio = median(old.map((r) => r.wall)) / median(now.map((r) => r.wall));
    lines.push(`          before: ${figure(old)}; before/now ${ratio.toFixed(2)}x`);
  }
  return lines;
}

function main(): void {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !TASKS.some((t) => t.name === w));
  if (unknown.length)
    throw new Error(`unknown task(s) ${unknown.join(', ')}; known: ${TASKS.map((t) => t.name).join(', ')}`);
  const before = process.env.PHASEDESK_BENCH_BEFORE_TREE
    ? path.resolve(process.env.PHASEDESK_BENCH_BEFORE_TREE)
    : undefined;
  console.log(
    `whole \`phasedesk calc\` processes, 1 thread, median of ${RUNS}${before ? `; before = ${before}, run alternately` : ''}`,
  );
  try {
    for (const task of TASKS) {
      if (wanted.length && !wanted.includes(task.name)) continue;
      for (const line of benchTask(task, before)) console.log(line);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main();
