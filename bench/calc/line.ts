// Benchmark part of `npm run bench:calc` (bench/calc.ts calls benchLine()): medians of 7 runs of a
// 200-point line_calculation for a binary (alzn_mey.tdb, Al-Zn at X(ZN) = 0.4, 300-1290 K: the
// issue's reference, where OpenCalphad's STEP of 103 points takes 57 ms and misses the FCC
// miscibility gap) and a ternary (crtiv_ghosh.tdb, Cr-Ti-V at X(TI) = X(V) = 0.3, 800-2000 K: BCC
// gap, Laves, melting), on 1 thread and on all cores.
//   core  = scan (equilibriumBatch) + transition refinement to 0.01 K (scanLine), database already
//           open in the worker (warm solver: what the 2nd and later tasks on a database cost); median of 7
//   cold  = the first run, database opened first (phase models and sampling grid prepared: a first task)
//   files = run(): core + result.json, result.csv and the preview SVG + PNG (warm); median of 3
// Databases are looked for in $PHASEDESK_BENCH_TDB_DIR, else ../shared/tdb beside the repository.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanLine } from '../../worker/scans/line-scan.js';
import { clearDatabaseCache } from '../../worker/system/system.js';
import { JobControl, type TaskJob } from '../../worker/protocol.js';
import { run } from '../../worker/calculations/line_calculation.js';

import { tdbDir, median } from '../support.js';

const REPEATS = 7;
const FILE_REPEATS = 3;
const POINTS = 200;

interface LineSetup {
  name: string;
  file: string;
  components: string[];
  T0: number;
  T1: number;
  x: Record<string, number>;
}

const SETUPS: LineSetup[] = [
  {
    name: 'binary Al-Zn X(ZN)=0.4 300-1290 K',
    file: 'alzn_mey.tdb',
    components: ['AL', 'ZN'],
    T0: 300,
    T1: 1290,
    x: { ZN: 0.4 },
  },
  {
    name: 'ternary Cr-Ti-V X(TI)=X(V)=0.3 800-2000 K',
    file: 'crtiv_ghosh.tdb',
    components: ['CR', 'TI', 'V'],
    T0: 800,
    T1: 2000,
    x: { TI: 0.3, V: 0.3 },
  },
];

function job(s: LineSetup, dir: string, threads: number): TaskJob<'line_calculation'> {
  return {
    taskUuid: 'bench',
    taskType: 'line_calculation',
    ompThreads: threads,
    taskDir: dir,
    control: new SharedArrayBuffer(16),
    config: {
      task_type: 'line_calculation',
      tdb_file: path.join(tdbDir(), s.file),
      condition: {
        components: s.components,
        temperature_start: s.T0,
        temperature_end: s.T1,
        pressure: 101325,
        points: POINTS,
        compositions_start: s.x,
        compositions_end: s.x,
      },
    },
  };
}

/** Printed lines: one per setup and thread count. */
export async function benchLine(): Promise<string[]> {
  const lines: string[] = [
    `line_calculation, ${POINTS} points, median of ${REPEATS} runs (transitions refined to 0.01 K)`,
  ];
  const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-bench-line-'));
  try {
    const all = availableParallelism();
    for (const s of SETUPS) {
      for (const threads of [...new Set([1, all])]) {
        const core: number[] = [],
          files: number[] = [];
        let transitions = '';
        // run 0: cold (database opened, solver prepared); then REPEATS warm runs of the core part
        clearDatabaseCache();
        let t0 = performance.now();
        scanLine(job(s, tmp, threads), new JobControl(new SharedArrayBuffer(16)));
        const cold = performance.now() - t0;
        for (let i = 0; i < REPEATS; i++) {
          t0 = performance.now();
          const scan = scanLine(job(s, tmp, threads), new JobControl(new SharedArrayBuffer(16)));
          core.push(performance.now() - t0);
          transitions = scan.transitions
            .map(
              (t) =>
                `${[...t.appearing.map((l) => `+${l}`), ...t.disappearing.map((l) => `-${l}`)].join(' ')} @${t.T.toFixed(2)} K`,
            )
            .join(', ');
        }
        for (let i = 0; i < FILE_REPEATS; i++) {
          t0 = performance.now();
          run(job(s, path.join(tmp, `r${i}`), threads), new JobControl(new SharedArrayBuffer(16)));
          files.push(performance.now() - t0);
        }
        lines.push(
          `  ${s.name}, ${threads} thread(s): core ${median(core).toFixed(1)} ms, cold (first run) ${cold.toFixed(1)} ms, ` +
            `with files ${median(files).toFixed(1)} ms (median of ${FILE_REPEATS})`,
        );
        if (threads === 1) lines.push(`    transitions: ${transitions}`);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return lines;
}

// Run directly: node dist/bench/calc/line.js
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  benchLine().then(
    (l) => console.log(l.join('\n')),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
