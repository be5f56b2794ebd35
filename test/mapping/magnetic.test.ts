// Curie/Neel lines of a binary diagram (worker/mapping/magnetic.ts): the site fractions of a solution at a
// composition, the single-phase field at a point of a traced diagram, and the bcc Curie line of Cr-Fe
// (crfe_bcc_magnetic.tdb: T_C of pure Fe 1043 K) checked against the phase model and point equilibria.
import path from 'node:path';
import { expect, test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { PhaseModel } from '../../worker/core/models.js';
import { mapBinary } from '../../worker/mapping/binary.js';
import { fieldAt, solutionSiteFractions } from '../../worker/mapping/magnetic.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

test('site fractions of a substitutional solution; none where the composition does not fix them', () => {
  const bcc = [
    { sublattice: 0, species: 'CR' },
    { sublattice: 0, species: 'FE' },
    { sublattice: 1, species: 'VA' },
  ];
  expect(Array.from(solutionSiteFractions(bcc, 'FE', 'CR', 0.3)!)).toEqual([0.7, 0.3, 1]);
  const interstitial = [
    { sublattice: 0, species: 'FE' },
    { sublattice: 1, species: 'C' },
    { sublattice: 1, species: 'VA' },
  ];
  expect(solutionSiteFractions(interstitial, 'C', 'FE', 0.01)).toBeNull();
});

test('the single-phase field at a point from the neighbouring two-phase regions', () => {
  const region = (phases: [string, string], x: [number, number]) => ({
    phases,
    tielines: [
      { T: 500, x },
      { T: 900, x },
    ],
    ends: { low: 'range_edge' as const, high: 'range_edge' as const },
  });
  const regions = [region(['FCC_A1', 'LIQUID'], [0.2, 0.3]), region(['LIQUID', 'BCC_A2'], [0.6, 0.7])];
  expect(fieldAt(regions, 700, 0.1)).toBe('FCC_A1');
  expect(fieldAt(regions, 700, 0.25)).toBeNull();
  expect(fieldAt(regions, 700, 0.45)).toBe('LIQUID');
  expect(fieldAt(regions, 700, 0.9)).toBe('BCC_A2');
  expect(fieldAt(regions, 1000, 0.9)).toBeNull(); // no region spans T: not decided here
});

test('Cr-Fe: the bcc Curie line lies where T_C = T and the point equilibrium is single bcc', () => {
  const db = openDatabase(path.join(SHARED_TDB_DIR, 'crfe_bcc_magnetic.tdb'));
  const d = mapBinary({ database: db, components: ['CR', 'FE'], T: [300, 2000], threads: 1 });
  const line = d.magneticLines.find((l) => l.phase === 'BCC_A2');
  expect(line).toBeDefined();
  expect(line!.points.length).toBeGreaterThan(5);
  const end = line!.points.find((p) => p.x === 1)!;
  expect(end.T).toBeCloseTo(1043, 3);
  const model = PhaseModel.build(db, 'BCC_A2', ['CR', 'FE', 'VA'])!;
  // (the ends of the line can touch a field: the magnetic miscibility gap of bcc closes on the Curie line)
  for (const [k, p] of line!.points.entries()) {
    const y = model.siteFractions([{ CR: 1 - p.x, FE: p.x }, { VA: 1 }]);
    expect(model.properties(p.T, 101325, y).TC).toBeCloseTo(p.T, 3);
    if (k === 0 || k === line!.points.length - 1) continue;
    const r = equilibrium({ database: db, components: ['CR', 'FE', 'VA'], conditions: { T: p.T, X: { FE: p.x } } });
    const sets = r.phases.filter((q) => q.NP > 1e-10);
    expect(
      sets.map((q) => q.name),
      JSON.stringify({ p, x: sets.map((q) => [q.x.FE, q.NP]) }),
    ).toEqual(['BCC_A2']);
  }
});
