// One task as a whole `phasedesk calc` process on one thread, as a user runs it, with the process's wall time, CPU
// time and peak resident set (getrusage of the process, written by the process itself at exit): the runner of
// bench:steel and bench:aging.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { median } from './support.js';

export interface CalcRun {
  /** s */
  wall: number;
  /** s, user + system */
  cpu: number;
  /** MB */
  rss: number;
  /** the last line the command printed (the task's summary) */
  summary: string;
}

export class CalcProcess {
  private readonly usageLog: string;
  private readonly usageHook: string;

  /** `tmp`: a folder of this run's own for the configurations, the outputs and the usage log. */
  constructor(private readonly tmp: string) {
    this.usageLog = path.join(tmp, 'usage.log');
    this.usageHook = path.join(tmp, 'usage-at-exit.mjs');
    writeFileSync(
      this.usageHook,
      `import { appendFileSync } from 'node:fs';
process.on('exit', () => { const u = process.resourceUsage(); appendFileSync(${JSON.stringify(this.usageLog)}, JSON.stringify({ cpu: (u.userCPUTime + u.systemCPUTime) / 1000, rss: u.maxRSS / 1024 }) + '\\n'); });\n`,
    );
  }

  /** The output folder of the task named `name` (its result/ and preview/ after a run). */
  out(name: string): string {
    return path.join(this.tmp, `out-${name}`);
  }

  /** One `phasedesk calc` of `config` with the command line of the checkout `tree`; `database`: --tdb/--db options. */
  run(tree: string, name: string, config: Record<string, unknown>, database: string[]): CalcRun {
    const file = path.join(this.tmp, `${name}.json`);
    writeFileSync(file, JSON.stringify(config));
    const out = this.out(name);
    rmSync(out, { recursive: true, force: true });
    writeFileSync(this.usageLog, '');
    const args = ['--import', this.usageHook, path.join(tree, 'bin', 'phasedesk.js'), 'calc', file, ...database];
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [...args, '--out', out, '--threads', '1'], {
      encoding: 'utf8',
      env: { ...process.env, OMP_NUM_THREADS: '1' },
    });
    const wall = (performance.now() - t0) / 1000;
    if (r.status !== 0) throw new Error(`${name} (${tree}) exited ${r.status}: ${r.stderr || r.stdout}`);
    const usage = JSON.parse(readFileSync(this.usageLog, 'utf8').trim().split('\n').at(-1)!) as {
      cpu: number;
      rss: number;
    };
    const summary = r.stdout.trim().split('\n').at(-1) ?? '';
    return { wall, cpu: usage.cpu / 1000, rss: usage.rss, summary };
  }
}

/** Median wall and CPU time and the largest peak resident set of some runs of one task. */
export function runsFigure(runs: CalcRun[]): string {
  const wall = median(runs.map((r) => r.wall));
  return `${wall.toFixed(2)} s (CPU ${median(runs.map((r) => r.cpu)).toFixed(2)} s), peak RSS ${Math.max(...runs.map((r) => r.rss)).toFixed(0)} MB`;
}

/** "before: ...; before/now Nx" from the runs of an older checkout beside this one's. */
export function beforeFigure(before: CalcRun[], now: CalcRun[]): string {
  const ratio = median(before.map((r) => r.wall)) / median(now.map((r) => r.wall));
  return `before: ${runsFigure(before)}; before/now ${ratio.toFixed(2)}x`;
}

/** `runs` runs of one task with this checkout's command line (`now`) and, alternately, the older one's (`old`). */
export function alternateRuns(
  runs: number,
  root: string,
  before: string | undefined,
  run: (tree: string) => CalcRun,
): { now: CalcRun[]; old: CalcRun[] } {
  const now: CalcRun[] = [];
  const old: CalcRun[] = [];
  for (let i = 0; i < runs; i++) {
    if (before) old.push(run(before));
    now.push(run(root));
  }
  return { now, old };
}

/**
 * The tasks named on the command line (all when none is), each benched by `bench` with the older checkout of
 * PHASEDESK_BENCH_BEFORE_TREE (if set) and its lines printed under a header; `tmp` is removed at the end.
 */
export function benchSelected<T extends { name: string }>(
  tasks: readonly T[],
  o: { runs: number; tmp: string; header: string },
  bench: (task: T, before: string | undefined) => string[],
): void {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !tasks.some((t) => t.name === w));
  if (unknown.length)
    throw new Error(`unknown task(s) ${unknown.join(', ')}; known: ${tasks.map((t) => t.name).join(', ')}`);
  const before = process.env.PHASEDESK_BENCH_BEFORE_TREE
    ? path.resolve(process.env.PHASEDESK_BENCH_BEFORE_TREE)
    : undefined;
  console.log(`${o.header}, 1 thread, median of ${o.runs}${before ? `; before = ${before}, run alternately` : ''}`);
  try {
    for (const task of tasks) {
      if (wanted.length && !wanted.includes(task.name)) continue;
      for (const line of bench(task, before)) console.log(line);
    }
  } finally {
    rmSync(o.tmp, { recursive: true, force: true });
  }
}
