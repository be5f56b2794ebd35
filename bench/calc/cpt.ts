// bench:calc part for binary_cpt_diagram: wall time of a 20 x 50 x 10 composition x
// temperature x pressure grid of Al-Zn (bundled alzn_mey1993.tdb) through the whole task (grid
// equilibria, boundary bisection, surfaces, result files, VTK zip, previews), with 1 OpenMP thread
// and with all (os.availableParallelism()), median of BENCH_CPT_REPEATS (default 3) runs, plus the
// throughput in equilibria per second (grid nodes + bisection equilibria, over the whole wall time), the
// scaling (median time on 1 thread / median time on all) and the peak memory: the high-water mark of the
// resident set (getrusage maxrss) of a process that runs one task, so each run is a child process of its
// own (node itself, the addon's arena and the JS heap together; a bare node process is about 45 MB of it).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../../worker/calculations/binary_cpt_diagram.js';
import { TASK_REGISTRY } from '../../contract/tasks/registry.js';
import { CONTROL_BYTES, JobControl } from '../../worker/protocol.js';

const REPEATS = Number(process.env.BENCH_CPT_REPEATS ?? 3);

function bundledTdb(name: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const c = path.join(dir, 'databases', name);
    if (existsSync(c)) return c;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`databases/${name} not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** 20 compositions (0.025 .. 0.975), 50 temperatures (400 .. 890 K), 10 pressures (1e5 .. 1e9 Pa, log). */
export const CPT_BENCH_CONDITION = {
  components: ['AL', 'ZN'],
  x_component: 'ZN',
  composition_start: 0.025,
  composition_end: 0.975,
  composition_step: 0.05,
  temperature_start: 400,
  temperature_end: 890,
  temperature_step: 10,
  pressure_start: 1e5,
  pressure_end: 1e9,
  pressure_points: 10,
  pressure_scale: 'log',
  include_tielines: true,
  tieline_stride: 5,
};

interface Run {
  ms: number;
  equilibria: number;
  summary: string;
  maxRssMB: number;
}

/** One task in a child process (its peak resident set is then this task's alone). */
function onceInChild(threads: number): Run {
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--once', String(threads)], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').pop()!) as Run;
}

function once(threads: number): Run {
  const dir = mkdtempSync(path.join(tmpdir(), 'phasedesk-bench-cpt-'));
  try {
    const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
    const t0 = performance.now();
    const out = run(
      {
        taskUuid: 'bench',
        taskType: 'binary_cpt_diagram',
        ompThreads: threads,
        taskDir: dir,
        control: control.buffer,
        // the configuration as the service hands it over: parsed by the task type's schema
        config: {
          ...TASK_REGISTRY.binary_cpt_diagram.schema.parse({
            task_type: 'binary_cpt_diagram',
            tdb_code: 'ALZN_MEY1993',
            condition: CPT_BENCH_CONDITION,
          }),
          tdb_file: bundledTdb('alzn_mey1993.tdb'),
        },
      },
      control,
    );
    const ms = performance.now() - t0;
    // the calculation logs "<n> equilibria in <s> s ..."
    const m = out.logs.map((l) => /^(\d+) equilibria in/.exec(l)).find((x) => x);
    return {
      ms,
      equilibria: m ? Number(m[1]) : NaN,
      summary: out.summary ?? '',
      maxRssMB: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

export async function benchCpt(): Promise<string[]> {
  const lines: string[] = [];
  const all = availableParallelism();
  const threadCounts = all > 1 ? [1, all] : [1];
  const medians: number[] = [];
  for (const threads of threadCounts) {
    const runs = Array.from({ length: Math.max(1, REPEATS) }, () => onceInChild(threads));
    const ms = median(runs.map((r) => r.ms));
    medians.push(ms);
    const eq = runs[0]!.equilibria;
    lines.push(
      `binary_cpt_diagram 20x50x10 Al-Zn grid, ${threads} thread(s): ${(ms / 1000).toFixed(2)} s median of ${runs.length} ` +
        `(${eq} equilibria incl. boundary bisection, ${Math.round(eq / (ms / 1000))} equilibria/s; peak RSS of the task's process ` +
        `${Math.max(...runs.map((r) => r.maxRssMB)).toFixed(0)} MB; ${runs[0]!.summary})`,
    );
  }
  if (medians.length > 1) {
    const scaling = medians[0]! / medians[medians.length - 1]!;
    lines.push(
      `  scaling 1 -> ${threadCounts[threadCounts.length - 1]} threads: ${scaling.toFixed(2)}x (goal >= 1.8x on 2 threads of an otherwise idle machine: ` +
        `${scaling >= 1.8 ? 'met' : 'not met'})`,
    );
  }
  return lines;
}

// `node dist/bench/calc/cpt.js` runs this part alone.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--once');
  if (at >= 0) console.log(JSON.stringify(once(Number(process.argv[at + 1]))));
  else
    benchCpt().then(
      (l) => {
        for (const s of l) console.log(s);
      },
      (e) => {
        console.error(e);
        process.exitCode = 1;
      },
    );
}
