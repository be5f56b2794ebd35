// `npm run bench:batch`: rows per second of an equilibrium_batch of the 7-component Al alloy family of the speed
// goals (COST507, the alloy7 composition of bench/calc/alloy7.ts with each solute varied by +-30 %), run in this
// process as `phasedesk batch` runs it, with every core (or BENCH_THREADS):
//   phases   BENCH_BATCH_ALLOYS alloys (default 1000) at 700, 750 and 800 K: phases, amounts, phase compositions
//            (goal: 10,000 alloys x 3 temperatures under 2 minutes on a quiet 2-core machine, 250 rows/s)
//   liquidus BENCH_BATCH_LIQUIDUS_ALLOYS alloys (default 300) at the same temperatures with T_liquidus and T_solidus
//            (goal: the same batch under 5 minutes, 100 rows/s). The batch's first alloy gets the scan on one thread
//            and its first waves of searches start from the guesses of few alloys, which weigh on 100 alloys; 300
//            solve as many equilibria per alloy as 1000 (docs/benchmarks.md) in a third of the time
// `node dist/bench/batch.js liquidus` (or `phases`) runs only the sections named. The liquidus section also prints the
// equilibria its searches solved per alloy, by stage (worker/scans/liquidus-batch.ts searchCounts).
// Each section runs BENCH_BATCH_REPEATS times (default 3) and prints the median rows/s, every run's figure, the median
// CPU time of the process per row (all threads: the steadier figure on a shared machine), and the process's peak
// resident size after it (a batch's memory does not grow with its rows: the rows go to disk).
// The alloys are a low-discrepancy sequence (fractional parts of multiples of square roots of primes), so every run
// computes the same rows. Databases are looked for in $PHASEDESK_BENCH_TDB_DIR, else ../shared/tdb.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { validateTaskConfig } from '../main/requests/task-config.js';
import { loadCalculation } from '../worker/index.js';
import { resetSearchCounts, searchCounts } from '../worker/scans/liquidus-batch.js';
import { SEARCH_STAGES } from '../worker/scans/liquidus-newton.js';
import { CONTROL_BYTES, JobControl } from '../worker/protocol.js';
import { median, tdbDir } from './support.js';
import { alloyTable, SOLUTES } from './alloy-table.js';

const TEMPERATURES = [700, 750, 800];
const GOAL_ROWS_PER_S = { phases: (10_000 * 3) / 120, liquidus: (10_000 * 3) / 300 };

const count = (name: string, fallback: number) => Math.max(1, Math.floor(Number(process.env[name] ?? fallback)));
const ALLOYS = count('BENCH_BATCH_ALLOYS', 1000);
const LIQUIDUS_ALLOYS = count('BENCH_BATCH_LIQUIDUS_ALLOYS', 300);
const REPEATS = count('BENCH_BATCH_REPEATS', 3);
const THREADS = count('BENCH_THREADS', availableParallelism());

/** One batch of the section; returns rows per second, CPU ms of this process per row and the summary. */
async function runOnce(
  alloys: number,
  outputs: string[],
): Promise<{ rowsPerS: number; cpuMsPerRow: number; summary: string }> {
  const cfg = {
    task_type: 'equilibrium_batch',
    tdb_code: 'COST507',
    condition: {
      components: [...SOLUTES, 'AL'],
      pressure: 101325,
      table: { csv: alloyTable(alloys), temperatures: TEMPERATURES },
      thermo_outputs: outputs,
    },
  };
  const v = validateTaskConfig('equilibrium_batch', cfg);
  if (!v.ok) throw new Error(v.error);
  const dir = mkdtempSync(path.join(tmpdir(), 'phasedesk-bench-batch-'));
  const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
  const job = {
    taskUuid: 'bench',
    taskType: 'equilibrium_batch',
    config: { ...v.value, tdb_file: path.join(tdbDir(), 'COST507.tdb') },
    ompThreads: THREADS,
    taskDir: dir,
    control: control.buffer,
  };
  try {
    const rows = alloys * TEMPERATURES.length;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const out = await (await loadCalculation('equilibrium_batch'))!(job, control);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(c0);
    return { rowsPerS: rows / seconds, cpuMsPerRow: (cpu.user + cpu.system) / 1000 / rows, summary: out.summary ?? '' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function section(name: keyof typeof GOAL_ROWS_PER_S, alloys: number, outputs: string[]): Promise<void> {
  const runs: number[] = [];
  const cpu: number[] = [];
  let summary = '';
  resetSearchCounts();
  for (let i = 0; i < REPEATS; i++) {
    const r = await runOnce(alloys, outputs);
    runs.push(r.rowsPerS);
    cpu.push(r.cpuMsPerRow);
    summary = r.summary;
  }
  const rssMb = process.resourceUsage().maxRSS / 1024;
  console.log(
    `${name.padEnd(8)} ${alloys} alloys x ${TEMPERATURES.length} T: median ${median(runs).toFixed(1)} rows/s ` +
      `(runs ${runs.map((r) => r.toFixed(1)).join(', ')}; goal >= ${GOAL_ROWS_PER_S[name].toFixed(0)}), ` +
      `CPU ${median(cpu).toFixed(1)} ms per row (all threads), ` +
      `peak RSS ${rssMb.toFixed(0)} MB; ${summary}`,
  );
  if (searchCounts.alloys > 0) console.log(`         ${searchCountsText()}`);
}

/** The searches' equilibria per alloy, and Newton iterations and CPU per equilibrium, by stage, over the section's runs. */
function searchCountsText(): string {
  const { equilibria, iterations, cpuMs, local, alloys, scans } = searchCounts;
  const per = (n: number) => (n / alloys).toFixed(2);
  const each = (n: number, i: number) => (n / equilibria[i]!).toFixed(1);
  const stages = SEARCH_STAGES.map(
    (name, i) =>
      `${name} ${per(equilibria[i]!)} (${each(iterations[i]!, i)} iterations, ${each(cpuMs[i]!, i)} ms CPU each)`,
  ).join(', ');
  const total = equilibria.reduce((t, n) => t + n, 0);
  return `equilibria per alloy: ${stages}; total ${per(total)}, of which local ${per(local)}; scans ${scans} of ${alloys} alloys`;
}

async function main(): Promise<void> {
  console.log(`equilibrium_batch of alloy7 (COST507), ${THREADS} thread(s), ${REPEATS} run(s) per section`);
  // the first run of a process builds the phase models and sampling grids: one warm-up row first
  await runOnce(1, ['phase_name']);
  const named = process.argv.slice(2);
  const wanted = (name: string) => named.length === 0 || named.includes(name);
  if (wanted('phases')) await section('phases', ALLOYS, ['phase_name', 'NP(*)', 'x(*,*)']);
  if (wanted('liquidus'))
    await section('liquidus', LIQUIDUS_ALLOYS, ['phase_name', 'NP(*)', 'x(*,*)', 'T_liquidus', 'T_solidus']);
}

main().catch((e: Error) => {
  console.error(`bench:batch: ${e.message}`);
  process.exitCode = 1;
});
