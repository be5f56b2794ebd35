// Benchmark part of `npm run bench:calc` (bench/calc.ts calls benchPropertiesScheil()): medians of 7
// runs of a 200-point thermodynamic_properties_next scan and of a Scheil run with 1 K steps (lever rule
// included), each for a binary (alzn_mey.tdb, Al-Zn) and a ternary alloy (sl_chen.tdb, A-B-C of Chen et
// al. 2009), on 1 thread and on all cores. Each run is what a task does: open the database (so the
// solver starts cold: models built, sampling grid computed), compute, no file writing. Databases are
// looked for in $PHASEDESK_BENCH_TDB_DIR, else ../shared/tdb beside the repository.
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../worker/core/database.js';
import { JobControl, type TaskJob } from '../../worker/protocol.js';
import { propertiesScan } from '../../worker/calculations/thermodynamic_properties_next.js';
import { scheilSolidification } from '../../worker/scans/scheil/run.js';
import { tdbDir, median } from '../support.js';

const REPEATS = 7;

function time(f: () => void): number {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

interface Alloy {
  label: string;
  file: string;
  components: string[];
  x: Record<string, number>;
  /** properties scan range, K */
  scan: [number, number];
  /** Scheil start, K (above the liquidus) */
  start: number;
}

const ALLOYS: Alloy[] = [
  {
    label: 'binary Al-30Zn (alzn_mey.tdb)',
    file: 'alzn_mey.tdb',
    components: ['AL', 'ZN'],
    x: { ZN: 0.3 },
    scan: [300, 1000],
    start: 1000,
  },
  {
    label: 'ternary A-25B-10C (sl_chen.tdb)',
    file: 'sl_chen.tdb',
    components: ['A', 'B', 'C'],
    x: { B: 0.25, C: 0.1 },
    scan: [500, 900],
    start: 900,
  },
];

export async function benchPropertiesScheil(): Promise<string[]> {
  const dir = tdbDir();
  const lines: string[] = [];
  const threadCounts = [...new Set([1, Math.max(1, availableParallelism())])];
  for (const a of ALLOYS) {
    const tdb = path.join(dir, a.file);
    for (const threads of threadCounts) {
      let info = '';
      const props = Array.from({ length: REPEATS }, () =>
        time(() => {
          const job: TaskJob<'thermodynamic_properties_next'> = {
            taskUuid: 'bench',
            taskType: 'thermodynamic_properties_next',
            ompThreads: threads,
            taskDir: '',
            control: new SharedArrayBuffer(16),
            config: {
              task_type: 'thermodynamic_properties_next',
              tdb_file: tdb,
              condition: {
                components: a.components,
                compositions_start: a.x,
                compositions_end: a.x,
                temperature_start: a.scan[0],
                temperature_end: a.scan[1],
                pressure: 101325,
                points: 200,
              },
            },
          };
          const r = propertiesScan(job, new JobControl(job.control));
          info = `${r.transitions.length} transitions`;
        }),
      );
      lines.push(
        `properties 200 points ${a.scan[0]}-${a.scan[1]} K, ${a.label}, ${threads} thread(s): median ${median(props).toFixed(1)} ms (${info})`,
      );
      const scheil = Array.from({ length: REPEATS }, () =>
        time(() => {
          const r = scheilSolidification({
            database: openDatabase(tdb),
            components: a.components,
            composition: a.x,
            startTemperature: a.start,
            temperatureStep: 1,
            threads,
          });
          info = `${r.steps.length} steps, liquidus ${r.liquidus_temperature?.toFixed(1)} K, end ${r.solidus_temperature?.toFixed(1)} K (${r.end_reason}), lever solidus ${r.lever_rule_solidus_temperature?.toFixed(1)} K`;
        }),
      );
      lines.push(
        `Scheil 1 K steps from ${a.start} K, ${a.label}, ${threads} thread(s): median ${median(scheil).toFixed(1)} ms (${info})`,
      );
    }
  }
  return lines;
}
