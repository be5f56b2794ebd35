// Benchmark part of `npm run bench:calc` (bench/calc.ts calls benchDiagrams()): wall time, median of 5
// runs, of a full binary phase diagram (300-2000 K, whole composition range, every phase of the
// database) mapped by worker/mapping/binary.ts, for three databases, on all cores. The database is
// opened once before the runs (warm: what the 2nd and later tasks on a database cost); result files
// are not written (the mapping is what is timed). Goal (issue 6): each < 0.5 s.
// Section `diagrams-all` (benchAllDiagrams): one diagram of every binary database in ../shared/tdb
// (exactly two elements besides VA and the electron), default phases, after one warm-up call per file.
// Databases are looked for in $PHASEDESK_BENCH_TDB_DIR, else ../shared/tdb beside the repository.
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../worker/core/database.js';
import { mapBinary } from '../../worker/mapping/binary.js';
import { tdbDir, median } from '../support.js';

const REPEATS = 5;

const SETUPS: { file: string; components: [string, string] }[] = [
  { file: 'alzn_mey.tdb', components: ['AL', 'ZN'] },
  { file: 'pbsn.tdb', components: ['PB', 'SN'] },
  { file: 'cumg.tdb', components: ['CU', 'MG'] },
];

export async function benchDiagrams(): Promise<string[]> {
  const threads = availableParallelism();
  const lines: string[] = [`binary phase diagrams, 300-2000 K, X 0-1, ${threads} threads, median of ${REPEATS} (goal < 0.5 s each):`];
  for (const s of SETUPS) {
    const db = openDatabase(path.join(tdbDir(), s.file));
    const times: number[] = [];
    let last = null as ReturnType<typeof mapBinary> | null;
    for (let i = 0; i < REPEATS; i++) {
      const t0 = performance.now();
      last = mapBinary({ database: db, components: s.components, T: [300, 2000], threads });
      times.push((performance.now() - t0) / 1000);
    }
    const d = last!;
    lines.push(`  ${s.file.padEnd(14)} ${s.components.join('-').padEnd(6)} ${median(times).toFixed(3)} s  ` +
      `(${d.stats.equilibria} equilibria, ${d.regions.length} two-phase regions, ${d.invariants.length} invariants, ` +
      `min ${Math.min(...times).toFixed(3)} s, max ${Math.max(...times).toFixed(3)} s)`);
  }
  return lines;
}

export async function benchAllDiagrams(): Promise<string[]> {
  const threads = availableParallelism();
  const dir = tdbDir();
  const lines: string[] = [`every binary database of ${dir}, 300-2000 K, X 0-1, ${threads} threads, one run each after a warm-up point:`];
  const times: number[] = [];
  for (const file of readdirSync(dir).filter((f) => f.toLowerCase().endsWith('.tdb')).sort()) {
    let db;
    try { db = openDatabase(path.join(dir, file)); } catch { continue; }
    const els = db.info().elements.map((e) => e.name.toUpperCase()).filter((n) => n !== 'VA' && n !== '/-');
    if (els.length !== 2) continue;
    const components: [string, string] = [els[0]!, els[1]!];
    // warm-up: models and the sampled grid are built once per database (what a second task costs)
    mapBinary({ database: db, components, T: [1000, 1010], X: [0.4, 0.6], threads: 1 });
    const t0 = performance.now();
    const d = mapBinary({ database: db, components, T: [300, 2000], threads });
    const s = (performance.now() - t0) / 1000;
    times.push(s);
    lines.push(`  ${file.padEnd(40)} ${components.join('-').padEnd(6)} ${s.toFixed(3)} s  (${d.stats.equilibria} equilibria, ` +
      `${d.stats.notConverged} not converged, ${d.regions.length} regions, ${d.invariants.length} invariants)`);
  }
  const under = times.filter((t) => t < 0.5).length;
  lines.push(`  ${times.length} diagrams, median ${median(times).toFixed(3)} s, max ${Math.max(...times).toFixed(3)} s, ` +
    `${under}/${times.length} under 0.5 s`);
  return lines;
}
