// Benchmark part of `npm run bench:calc -- liquidus` (bench/calc.ts): wall and CPU time of liquidus projections
// through the whole task (grid, valleys, invariant points and their checks, isotherms, result files and preview), on
// all cores, median of BENCH_LIQUIDUS_REPEATS (default 3) runs after one warm-up run each (the database opened and
// its models built: what the 2nd and later tasks on it cost), the default grid of 20 divisions; the systems of
// test/calculations/liquidus-projection.test.ts. Goal: < 5 s each on the 2-core machine.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DatabasePhaseSelection } from '../../contract/phase-selection.js';
import { run } from '../../worker/calculations/liquidus_projection.js';
import { CONTROL_BYTES, JobControl, type TaskJob } from '../../worker/protocol.js';
import { median, tdbDir } from '../support.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const REPEATS = Number(process.env.BENCH_LIQUIDUS_REPEATS ?? 3);
const GOAL_S = 5;

const SYSTEMS: { file: string; components: string[]; steel?: boolean }[] = [
  { file: 'COST507.tdb', components: ['AL', 'CU', 'MG'] },
  { file: 'COST507.tdb', components: ['AL', 'MG', 'SI'] },
  { file: 'alcrni.tdb', components: ['NI', 'AL', 'CR'] },
  { file: 'mf-steel.tdb', components: ['FE', 'CR', 'NI'], steel: true },
  { file: 'mf-steel.tdb', components: ['FE', 'CR', 'C'], steel: true },
];

function recommended(): DatabasePhaseSelection {
  const catalog = JSON.parse(readFileSync(path.join(ROOT, 'databases', 'catalog.json'), 'utf8')) as {
    code: string;
    phase_selection?: DatabasePhaseSelection;
  }[];
  return catalog.find((e) => e.code === 'MF_STEEL')!.phase_selection!;
}

function once(s: (typeof SYSTEMS)[number], threads: number): { wall: number; cpu: number; summary: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'phasedesk-bench-liquidus-'));
  try {
    const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
    const job: TaskJob<'liquidus_projection'> = {
      taskUuid: 'bench',
      taskType: 'liquidus_projection',
      ompThreads: threads,
      taskDir: dir,
      control: control.buffer,
      ...(s.steel ? { database: { code: 'MF_STEEL', sha256: 'bench', phase_selection: recommended() } } : {}),
      config: {
        task_type: 'liquidus_projection',
        tdb_file: path.join(tdbDir(), s.file),
        condition: { components: s.components, pressure: 101325 },
      },
    };
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const out = run(job, control);
    const wall = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    return { wall, cpu: (c.user + c.system) / 1e6, summary: out.summary ?? '' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchLiquidus(): Promise<string[]> {
  const threads = availableParallelism();
  const lines = [
    `liquidus projections, 20 divisions, whole task with files, ${threads} threads, median of ${REPEATS} (goal < ${GOAL_S} s each):`,
  ];
  let over = 0;
  for (const s of SYSTEMS) {
    once(s, threads);
    const runs = Array.from({ length: REPEATS }, () => once(s, threads));
    const wall = median(runs.map((r) => r.wall)),
      cpu = median(runs.map((r) => r.cpu));
    if (wall >= GOAL_S) over++;
    lines.push(
      `  ${s.file.padEnd(14)} ${s.components.join('-').padEnd(9)} ${wall.toFixed(2)} s (CPU ${cpu.toFixed(2)} s)  ${runs[0]!.summary}${wall < GOAL_S ? '' : '  OVER the goal'}`,
    );
  }
  lines.push(`  ${SYSTEMS.length - over} of ${SYSTEMS.length} projections within the ${GOAL_S} s goal`);
  return lines;
}
