// Benchmark part of `npm run bench:calc` (section `spinodal`): what `spinodal: true` adds to a binary diagram. For
// three miscibility gaps (the fcc gap of Al-Zn, the bcc gap of Cr-Fe, the fcc gap of Cu-Ni), the median of 5 runs of
// the diagram's mapping (worker/mapping/binary.ts, all cores, the database opened and warmed up once) and of the
// spinodal found at its gaps' tie-lines (worker/mapping/spinodal/in-gaps.ts, as binary_equilibrium runs it after the
// mapping), and their ratio. Goal: the spinodal adds under 20 % to the diagram's time.
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../worker/core/database.js';
import { preferSleepingOpenMpThreads } from '../../worker/core/native.js';
import { mapBinary } from '../../worker/mapping/binary.js';
import { spinodalsInGaps } from '../../worker/mapping/spinodal/in-gaps.js';
import { median, tdbDir } from '../support.js';

const REPEATS = 5;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const GAPS: { name: string; file: string; components: [string, string]; T: [number, number] }[] = [
  { name: 'Al-Zn fcc', file: path.join(tdbDir(), 'alzn_mey.tdb'), components: ['AL', 'ZN'], T: [300, 1000] },
  { name: 'Cr-Fe bcc', file: path.join(tdbDir(), 'crfe_bcc_magnetic.tdb'), components: ['CR', 'FE'], T: [500, 2200] },
  {
    name: 'Cu-Ni fcc',
    file: path.join(ROOT, 'databases', 'cuni_mey1992.tdb'),
    components: ['CU', 'NI'],
    T: [300, 1800],
  },
];

const seconds = (t0: number) => (performance.now() - t0) / 1000;

export async function benchSpinodal(): Promise<string[]> {
  // as the service's calculation host does: after the mapping's parallel batches the spinodal runs on one thread,
  // and spinning OpenMP waiters would take its core
  preferSleepingOpenMpThreads();
  const threads = availableParallelism();
  const lines = [`spinodal on a binary diagram, ${threads} threads, median of ${REPEATS} (goal: adds < 20 %):`];
  for (const g of GAPS) {
    const db = openDatabase(g.file);
    const withVa = db.info().elements.some((e) => e.name.toUpperCase() === 'VA');
    const components = withVa ? [...g.components, 'VA'] : [...g.components];
    const diagram = () => mapBinary({ database: db, components: g.components, T: g.T, threads });
    diagram();
    const mapping: number[] = [];
    const spinodal: number[] = [];
    let gaps = 0;
    for (let i = 0; i < REPEATS; i++) {
      let t0 = performance.now();
      const d = diagram();
      mapping.push(seconds(t0));
      t0 = performance.now();
      const s = spinodalsInGaps({ db, components, P: 101325 }, g.components, d.regions);
      spinodal.push(seconds(t0));
      gaps = s.reduce((n, p) => n + p.points.length, 0);
    }
    const [m, s] = [median(mapping), median(spinodal)];
    lines.push(
      `  ${g.name.padEnd(10)} diagram ${m.toFixed(3)} s, spinodal ${s.toFixed(4)} s (${gaps} tie-lines): ` +
        `+${((100 * s) / m).toFixed(1)} %`,
    );
  }
  return lines;
}
