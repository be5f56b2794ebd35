// Benchmark part of `npm run bench:calc` (bench/calc.ts calls benchAlloyTemperatures()): the liquidus/solidus
// scan that every point calculation runs (worker/scans/alloy-temperatures.ts), from a point's equilibrium at
// 1000 K, median of 3 runs on a database already open (the point's own equilibrium has warmed it):
// a binary (Al-30Zn), a ternary with a wide melting range (Cr-30Ti-30V) and a quaternary with ordered phases
// whose equilibria are slow (Ni-10Al-10Co-10Cr in alcocrni.tdb). Prints the temperatures found, so a change of
// the scan that loses a transition shows here.
import path from 'node:path';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { alloyTemperatures } from '../../worker/scans/alloy-temperatures.js';
import { tdbDir, median } from '../support.js';

const REPEATS = 3;
const START_T = 1000;

const ALLOYS: { label: string; file: string; elements: string[]; X: Record<string, number> }[] = [
  { label: 'Al-30Zn (alzn_mey.tdb)', file: 'alzn_mey.tdb', elements: ['AL', 'ZN'], X: { ZN: 0.3 } },
  {
    label: 'Cr-30Ti-30V (crtiv_ghosh.tdb)',
    file: 'crtiv_ghosh.tdb',
    elements: ['CR', 'TI', 'V'],
    X: { TI: 0.3, V: 0.3 },
  },
  {
    label: 'Ni-10Al-10Co-10Cr (alcocrni.tdb)',
    file: 'alcocrni.tdb',
    elements: ['NI', 'AL', 'CO', 'CR'],
    X: { AL: 0.1, CO: 0.1, CR: 0.1 },
  },
];

export async function benchAlloyTemperatures(): Promise<string[]> {
  const dir = tdbDir();
  const lines: string[] = [];
  for (const a of ALLOYS) {
    const db = openDatabase(path.join(dir, a.file));
    const names = new Set(db.info().elements.map((e) => e.name.toUpperCase()));
    const components = names.has('VA') ? [...a.elements, 'VA'] : [...a.elements];
    const sys = { db, components, phases: undefined, formable: db.phasesFor(a.elements, true) };
    const point = equilibrium({ database: db, components, conditions: { T: START_T, P: 101325, X: a.X } });
    let found = '';
    const ms = Array.from({ length: REPEATS }, () => {
      const t0 = performance.now();
      const r = alloyTemperatures(sys, a.X, 101325, undefined, undefined, undefined, START_T, point);
      found = `liquidus ${r.liquidus?.toFixed(2) ?? 'none'} K, solidus ${r.solidus?.toFixed(2) ?? 'none'} K`;
      return performance.now() - t0;
    });
    lines.push(
      `alloy liquidus/solidus from ${START_T} K, ${a.label}: median ${median(ms).toFixed(0)} ms of ${ms.map((m) => m.toFixed(0)).join(', ')} (${found})`,
    );
  }
  return lines;
}
