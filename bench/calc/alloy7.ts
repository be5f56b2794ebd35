// Benchmark part of `npm run bench:calc` (bench/calc.ts calls benchAlloy7()): the 7-component Al alloy of
// the speed goals on COST507 (AL-ZN-MG-CU-SI-FE-MN, X = 0.025 ZN, 0.029 MG, 0.007 CU, 0.002 SI, 0.002 FE,
// 0.001 MN, every phase), each figure next to its goal:
//   first  = the first equilibrium at 900 K with the database loaded (phase models and sampling grids built
//            in the call; a new database object each run), median of BENCH_ALLOY7_REPEATS (default 3), goal < 0.2 s
//   line   = a 200-point line_calculation 950 -> 550 K at the alloy composition (scan + transitions refined
//            to 0.01 K), database opened in the run (what a first task costs), 1 thread, goal < 2 s
//   Scheil = scheil_solidification from 950 K with 1 K steps, lever rule included, database opened in the
//            run, 1 thread, one run (it is the slow one), goal < 5 s
// Each figure is the wall time and, in brackets, the CPU time of this process (the machines these run on
// are often shared: the CPU time is the steadier figure of a single-thread run).
// With PHASEDESK_BENCH_BEFORE=<path of an older phasedesk_core.node> the same figures are measured
// again in a child process that loads that addon, and printed as "before" in the same run.
// Databases are looked for in $PHASEDESK_BENCH_TDB_DIR, else ../shared/tdb beside the repository.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanLine } from '../../worker/scans/line-scan.js';
import { clearDatabaseCache } from '../../worker/system/system.js';
import { loadCore } from '../../worker/core/native.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { openDatabase } from '../../worker/core/database.js';
import { JobControl, CONTROL_BYTES, type TaskJob } from '../../worker/protocol.js';

import { scheilSolidification } from '../../worker/scans/scheil/run.js';
import { tdbDir, median } from '../support.js';

const REPEATS = Math.max(1, Number(process.env.BENCH_ALLOY7_REPEATS ?? 3));
const FILE = 'COST507.tdb';
const ELEMENTS = ['AL', 'ZN', 'MG', 'CU', 'SI', 'FE', 'MN'];
const X = { ZN: 0.025, MG: 0.029, CU: 0.007, SI: 0.002, FE: 0.002, MN: 0.001 };
const GOALS = { first: 200, line: 2000, scheil: 5000 };

interface Timed {
  wall: number;
  cpu: number;
}
interface Figures {
  first: Timed & { info: string };
  line: Timed & { info: string };
  scheil: Timed & { info: string };
}

function timed<T>(f: () => T): { value: T } & Timed {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { value, wall, cpu: (c.user + c.system) / 1000 };
}

function medianTimed(runs: Timed[]): Timed {
  return { wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)) };
}

/** The three figures, measured in this process with the addon it loads. */
export function measureAlloy7(): Figures {
  const file = path.join(tdbDir(), FILE);
  const core = loadCore();
  const components = [...ELEMENTS, 'VA'];
  const firsts: Timed[] = [];
  let info = '';
  for (let k = 0; k < REPEATS; k++) {
    const database = core.Database.fromFile(file); // a new database: models and grids are built again
    const r = timed(() => equilibrium({ database, components, conditions: { T: 900, P: 101325, X } }));
    firsts.push(r);
    info = `converged ${r.value.converged}, ${r.value.phases.map((p) => p.name).join('+')}, GM ${r.value.GM.toFixed(4)} J/mol`;
  }
  const first = { ...medianTimed(firsts), info };

  const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-bench-alloy7-'));
  let line: Figures['line'];
  try {
    const job: TaskJob<'line_calculation'> = {
      taskUuid: 'bench',
      taskType: 'line_calculation',
      ompThreads: 1,
      taskDir: tmp,
      control: new SharedArrayBuffer(CONTROL_BYTES),
      config: {
        task_type: 'line_calculation',
        tdb_file: file,
        condition: {
          components: ELEMENTS,
          temperature_start: 950,
          temperature_end: 550,
          pressure: 101325,
          points: 200,
          compositions_start: X,
          compositions_end: X,
        },
      },
    };
    const runs: Timed[] = [];
    for (let k = 0; k < REPEATS; k++) {
      clearDatabaseCache();
      const r = timed(() => scanLine(job, new JobControl(new SharedArrayBuffer(CONTROL_BYTES))));
      runs.push(r);
      const bad = r.value.results.filter((q) => !q.converged).length;
      info = `${r.value.transitions.length} transitions, ${bad} points not converged`;
    }
    line = { ...medianTimed(runs), info };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }

  const s = timed(() =>
    scheilSolidification({
      database: openDatabase(file),
      components: ELEMENTS,
      composition: X,
      startTemperature: 950,
      temperatureStep: 1,
      threads: 1,
    }),
  );
  const q = s.value;
  const scheil = {
    wall: s.wall,
    cpu: s.cpu,
    info:
      `${q.steps.length} steps, liquidus ${q.liquidus_temperature?.toFixed(2)} K, ` +
      `end ${q.solidus_temperature?.toFixed(2)} K (${q.end_reason}), lever solidus ${q.lever_rule_solidus_temperature?.toFixed(2)} K`,
  };
  return { first, line, scheil };
}

const fmtT = (t: Timed) => `${(t.wall / 1000).toFixed(2)} s (cpu ${(t.cpu / 1000).toFixed(2)} s)`;
const verdict = (t: Timed, goal: number) =>
  `goal < ${goal / 1000} s: ${t.wall < goal ? 'met' : t.cpu < goal ? 'met in cpu time' : 'not met'}`;

/** Printed lines: each figure with its goal, and the "before" figures when an older addon is named. */
export async function benchAlloy7(): Promise<string[]> {
  if (!existsSync(path.join(tdbDir(), FILE))) return [`7-component Al alloy: ${FILE} not found in ${tdbDir()}`];
  const lines = [
    `7-component Al alloy on ${FILE} (${ELEMENTS.join('-')}, X = ${Object.entries(X)
      .map(([e, v]) => `${v} ${e}`)
      .join(', ')}), 1 thread`,
  ];
  const now = measureAlloy7();
  const beforeAddon = process.env.PHASEDESK_BENCH_BEFORE;
  let before: Figures | null = null;
  if (beforeAddon) {
    const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--json'], {
      env: { ...process.env, PHASEDESK_CORE_ADDON: beforeAddon },
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    before = JSON.parse(out.trim().split('\n').pop()!) as Figures;
  }
  const row = (label: string, key: keyof Figures) => {
    lines.push(`  ${label}: ${fmtT(now[key])}, ${verdict(now[key], GOALS[key])} (${now[key].info})`);
    if (before) lines.push(`    before (${path.basename(beforeAddon!)}): ${fmtT(before[key])} (${before[key].info})`);
  };
  row('first equilibrium 900 K, database loaded, median', 'first');
  row('line_calculation 200 points 950-550 K, median', 'line');
  row('Scheil 1 K steps from 950 K with lever rule, one run', 'scheil');
  return lines;
}

// `node dist/bench/calc/alloy7.js` runs this part alone; with --json it prints the raw figures (the "before" child).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--json')) console.log(JSON.stringify(measureAlloy7()));
  else
    benchAlloy7().then(
      (l) => {
        for (const s of l) console.log(s);
      },
      (e) => {
        console.error(e);
        process.exitCode = 1;
      },
    );
}
