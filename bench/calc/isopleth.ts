// Benchmark part of `npm run bench:calc -- isopleth` (bench/calc.ts): wall time of a 4-component isopleth through
// the whole task (grid, line tracing, result files and preview), Al-4.4Cu-0.5Si-xMg (mass percent, Mg 0-2 %) from
// COST507 at 650-950 K and the default resolution, on all cores, median of BENCH_ISOPLETH_REPEATS (default 3) runs
// after one warm-up run (the database opened and its models built: what the 2nd and later tasks on it cost).
// Goal: < 10 s. Databases from $PHASEDESK_BENCH_TDB_DIR, else ../shared/tdb beside the repository.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '../../worker/calculations/isopleth.js';
import { CONTROL_BYTES, JobControl, type TaskJob } from '../../worker/protocol.js';
import { median, tdbDir } from '../support.js';

const REPEATS = Number(process.env.BENCH_ISOPLETH_REPEATS ?? 3);

export const ISOPLETH_BENCH_CONDITION = {
  components: ['AL', 'CU', 'MG', 'SI'], temperature_start: 650, temperature_end: 950, pressure: 101325,
  composition_unit: 'mass_fraction' as const, composition_start: { CU: 0.044, SI: 0.005, MG: 0 }, composition_end: { CU: 0.044, SI: 0.005, MG: 0.02 },
};

function once(threads: number): { s: number; out: ReturnType<typeof run> } {
  const dir = mkdtempSync(path.join(tmpdir(), 'phasedesk-bench-isopleth-'));
  try {
    const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
    const t0 = performance.now();
    const job: TaskJob<'isopleth'> = {
      taskUuid: 'bench', taskType: 'isopleth', ompThreads: threads, taskDir: dir, control: control.buffer,
      config: { task_type: 'isopleth', tdb_file: path.join(tdbDir(), 'COST507.tdb'), condition: ISOPLETH_BENCH_CONDITION },
    };
    const out = run(job, control);
    return { s: (performance.now() - t0) / 1000, out };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchIsopleth(): Promise<string[]> {
  const threads = availableParallelism();
  once(threads);
  const runs = Array.from({ length: REPEATS }, () => once(threads));
  const times = runs.map((r) => r.s);
  const last = runs[runs.length - 1]!.out;
  return [
    `isopleth Al-4.4Cu-0.5Si-xMg (mass %, Mg 0-2 %, COST507), 650-950 K, ${threads} threads, median of ${REPEATS} (goal < 10 s):`,
    `  ${median(times).toFixed(2)} s (min ${Math.min(...times).toFixed(2)} s, max ${Math.max(...times).toFixed(2)} s): ${last.summary}`,
    ...last.logs.filter((l) => /equilibria in/.test(l)).map((l) => `  ${l}`),
  ];
}
