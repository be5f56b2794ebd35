// Benchmark part of `npm run bench:calc` (section `ternary`): wall time, median of BENCH_TERNARY_REPEATS (default 3)
// runs, of a ternary isothermal section mapped by worker/mapping/ternary.ts (default seed grid of 12 divisions,
// tracing, triangle refinement and the completeness self-check), on all cores, for every ternary system of the
// shared databases at two temperatures each. The database is opened and one point solved at the section's T before
// the runs (warm: what the 2nd and later tasks on a database cost); result files are not written. Goal: each < 2 s.
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { mapTernary } from '../../worker/mapping/ternary.js';
import { tdbDir, median } from '../support.js';

const REPEATS = Number(process.env.BENCH_TERNARY_REPEATS ?? 3);

const SYSTEMS: { file: string; components: [string, string, string]; T: [number, number] }[] = [
  { file: 'crtiv_ghosh.tdb', components: ['CR', 'TI', 'V'], T: [1000, 1400] },
  { file: 'Cr-Fe-Ni_shallow_bcc.tdb', components: ['CR', 'FE', 'NI'], T: [600, 800] },
  { file: 'alcrni.tdb', components: ['AL', 'CR', 'NI'], T: [1273, 1473] },
  { file: 'COST507.tdb', components: ['AL', 'CU', 'MG'], T: [700, 800] },
  { file: 'COST507.tdb', components: ['AL', 'MG', 'SI'], T: [700, 800] },
  { file: 'sl_chen.tdb', components: ['A', 'B', 'C'], T: [500, 700] },
  { file: 'alcocrni.tdb', components: ['CO', 'CR', 'NI'], T: [1273, 1473] },
  { file: 'CrFeNb_Jacob2016.tdb', components: ['CR', 'FE', 'NB'], T: [1273, 1473] },
  { file: 'alnipt.tdb', components: ['AL', 'NI', 'PT'], T: [1273, 1473] },
  { file: 'alfeo.tdb', components: ['AL', 'FE', 'O'], T: [1273, 1473] },
];
const SETUPS = SYSTEMS.flatMap((s) =>
  s.T.map((T) => ({ file: s.file, components: s.components, T, pdens: undefined as number | undefined })),
);

export async function benchTernary(): Promise<string[]> {
  const threads = availableParallelism();
  const lines: string[] = [
    `ternary isothermal sections, default seed grid (12 divisions) + self-check, ${threads} threads, median of ${REPEATS} (goal < 2 s each):`,
  ];
  let over = 0;
  for (const s of SETUPS) {
    const db = openDatabase(path.join(tdbDir(), s.file));
    const elements = new Set(db.info().elements.map((e) => e.name));
    equilibrium({
      database: db,
      components: elements.has('VA') ? [...s.components, 'VA'] : [...s.components],
      conditions: { T: s.T, X: { [s.components[1]]: 1 / 3, [s.components[2]]: 1 / 3 } },
      options: s.pdens ? { pdens: s.pdens } : {},
    });
    const times: number[] = [];
    let last = null as ReturnType<typeof mapTernary> | null;
    for (let i = 0; i < REPEATS; i++) {
      const t0 = performance.now();
      last = mapTernary({ database: db, components: s.components, T: s.T, threads, pdens: s.pdens });
      times.push((performance.now() - t0) / 1000);
    }
    const d = last!;
    lines.push(
      `  ${s.file.padEnd(25)} ${s.components.join('-').padEnd(9)} ${String(s.T).padStart(5)} K${s.pdens ? ` pdens ${s.pdens}` : ''}  ${median(times).toFixed(3)} s  ` +
        `(${d.stats.equilibria} equilibria, grid ${d.stats.gridSeconds.toFixed(3)} s, ${d.regions.length} two-phase regions, ${d.triangles.length} triangles, ` +
        `self-check ${d.selfCheck?.agree}/${d.selfCheck?.points}${d.selfCheck?.disagreements.length ? ` ${d.selfCheck.disagreements.length} disagreeing` : ''}, ` +
        `min ${Math.min(...times).toFixed(3)} s, max ${Math.max(...times).toFixed(3)} s)${median(times) < 2 ? '' : '  OVER the 2 s goal'}`,
    );
    if (median(times) >= 2) over++;
  }
  lines.push(`  ${SETUPS.length - over} of ${SETUPS.length} sections within the 2 s goal`);
  return lines;
}
