// The map of a ternary section refined from its self-check (worker/mapping/ternary/strategy.ts selfCheck): a point
// equilibrium off the seed grid that finds phases the map does not draw there seeds the field the map missed, and the
// check is repeated. Al-Co-Ni of alcocrni at 1073 K: the tie-triangle of three compounds AL9CO2 + AL13CO4 + AL3NI1
// (no two-phase field of its own to trace into it, and no seed-grid node inside) was found by two check points only.
import path from 'node:path';
import { expect, test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { mapTernary } from '../../worker/mapping/ternary.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

test('Al-Co-Ni (alcocrni) at 1073 K: the triangle only the self-check met is mapped, no disagreement left', () => {
  const db = openDatabase(path.join(SHARED_TDB_DIR, 'alcocrni.tdb'));
  const s = mapTernary({ database: db, components: ['AL', 'CO', 'NI'], T: 1073, threads: 1 });
  expect(s.selfCheck!.disagreements).toEqual([]);
  expect(s.selfCheck!.overlaps).toEqual([]);
  expect(s.logs.some((l) => /^self-check round 1: 2 disagreements seeded [1-9]\d* fields$/.test(l))).toBe(true);
  const tri = s.triangles.find((t) => [...t.phases].sort().join('+') === 'AL13CO4+AL3NI1+AL9CO2');
  expect(tri).toBeDefined();
  // the corners are the compounds' own compositions: Al9Co2 (x(Al) = 9/11), Al13Co4 (13/17), Al3Ni (3/4)
  const corner = (name: string) => tri!.corners[tri!.phases.indexOf(name)]!;
  expect(corner('AL9CO2')[0]).toBeCloseTo(9 / 11, 4);
  expect(corner('AL13CO4')[0]).toBeCloseTo(13 / 17, 4);
  expect(corner('AL3NI1')[0]).toBeCloseTo(3 / 4, 4);
  // an independent point equilibrium at the triangle's centroid holds the same three phases
  const c = [0, 1, 2].map((k) => tri!.corners.reduce((a, x) => a + x[k]! / 3, 0));
  const r = equilibrium({
    database: db,
    components: ['AL', 'CO', 'NI', 'VA'],
    conditions: { T: 1073, P: 101325, X: { CO: c[1]!, NI: c[2]! } },
  });
  expect(
    r.phases
      .filter((p) => p.NP > 1e-6)
      .map((p) => p.name)
      .sort(),
  ).toEqual(['AL13CO4', 'AL3NI1', 'AL9CO2']);
}, 120_000);
