// More ternary isothermal sections of the shared databases, two temperatures each, with a coarser seed grid (8
// divisions) to stay fast: every section is checked against point equilibria inside and outside its boundaries and
// in the middle of every region (ternary-support.ts), and by its own completeness self-check.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { mapTernary } from '../../worker/mapping/ternary.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { probeBoundaries } from './ternary-support.js';

const CASES: {
  file: string;
  components: [string, string, string];
  T: [number, number];
  minRegions: number;
  grid?: number;
}[] = [
  { file: 'sl_chen.tdb', components: ['A', 'B', 'C'], T: [500, 700], minRegions: 1 },
  { file: 'alcocrni.tdb', components: ['CO', 'CR', 'NI'], T: [1273, 1473], minRegions: 2 },
  { file: 'COST507.tdb', components: ['AL', 'MG', 'SI'], T: [700, 800], minRegions: 4 },
  { file: 'CrFeNb_Jacob2016.tdb', components: ['CR', 'FE', 'NB'], T: [1273, 1473], minRegions: 5 },
  { file: 'alfeo.tdb', components: ['AL', 'FE', 'O'], T: [1173, 1473], minRegions: 10 },
  // the 4-sublattice FCC_L12 makes every point equilibrium of alnipt slow: a seed grid of 6 divisions
  { file: 'alnipt.tdb', components: ['AL', 'NI', 'PT'], T: [1273, 1473], minRegions: 8, grid: 6 },
];

describe('ternary isothermal sections of further systems', () => {
  for (const c of CASES) {
    test(`${c.components.join('-')} (${c.file}) at ${c.T.join(' K and ')} K`, () => {
      const db = openDatabase(path.join(SHARED_TDB_DIR, c.file));
      for (const T of c.T) {
        const s = mapTernary({ database: db, components: c.components, T, threads: 2, gridDivisions: c.grid ?? 8 });
        expect(s.regions.length, `${T} K`).toBeGreaterThanOrEqual(c.minRegions);
        for (const t of s.triangles) expect(t.refinement).toBeLessThanOrEqual(1e-5);
        const { probes, failures, notConverged, narrowFields } = probeBoundaries(s, db);
        // fields the section does not draw, narrower than its sampling (docs/calculations.md, limits): printed
        for (const f of narrowFields)
          console.log(
            `${c.file} ${T} K: a narrow ${f.found.join(' + ')} field beside ${f.region} at ${f.x.map((v) => v.toFixed(4)).join(', ')} is not drawn`,
          );
        expect(narrowFields.length, `${T} K`).toBeLessThanOrEqual(1);
        expect(probes.length - notConverged, `${T} K`).toBeGreaterThanOrEqual(s.regions.length);
        expect(notConverged, `${T} K`).toBeLessThanOrEqual(probes.length / 20);
        expect(failures, `${T} K: ${JSON.stringify(failures.slice(0, 3))}`).toEqual([]);
        expect(s.selfCheck!.disagreements, `${T} K`).toEqual([]);
        expect(s.selfCheck!.overlaps, `${T} K`).toEqual([]);
      }
    }, 180_000);
  }
});
