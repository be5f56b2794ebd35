// The solver keeps a phase's grid at the energies of an earlier temperature while PhaseModel::energy_change_bound
// says none of its points can have come within reach of the tangent hyperplane (native-core/src/solver/sampling.cpp,
// stale_grid_phase; certify.cpp, scan_phase). The bound must never be smaller than the real change of a grid point's
// energy, magnetic phases included, and the economy must change no answer: a warm-started line of a stainless steel
// and of a 7-component aluminium alloy gives the same phases, amounts, G and μ as with every grid evaluated at every
// temperature (PHASEDESK_SOLVER_CURRENT_GRIDS), while it did keep grids.
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { loadTestingCore } from '../../support/hooks/testing-core.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';
import { openDatabase } from '../../../worker/core/database.js';
import { STEEL_TDB, steelSystem } from '../../../scripts/steel-sweep.js';
import { alAlloyLine, expectSameAnswers } from './warm-lines.js';

const testing = loadTestingCore();
const steelFile = path.join(SHARED_TDB_DIR, STEEL_TDB);
const STEEL_COMPONENTS = ['FE', 'CR', 'NI', 'MO', 'C', 'MN', 'SI', 'VA'];

afterEach(() => {
  delete process.env.PHASEDESK_SOLVER_CURRENT_GRIDS;
});

describe('the bound of the change of a grid energy between two temperatures', () => {
  const cases: [string, string, string[]][] = [
    [steelFile, 'SIGMA2_D8B', STEEL_COMPONENTS],
    [steelFile, 'LAVES_C14', STEEL_COMPONENTS],
    [steelFile, 'M23C6_D84', STEEL_COMPONENTS],
    [steelFile, 'LIQUID', STEEL_COMPONENTS],
    [steelFile, 'FCC_A1', STEEL_COMPONENTS], // magnetic, antiferromagnetic Cr-rich and Ni-rich
    [steelFile, 'BCC_A2', STEEL_COMPONENTS], // magnetic, bcc factor
    [steelFile, 'CEMENTITE_D011', STEEL_COMPONENTS],
    [path.join(SHARED_TDB_DIR, 'COST507.tdb'), 'LIQUID', ['AL', 'CU', 'MG', 'SI', 'ZN', 'VA']],
    [path.join(SHARED_TDB_DIR, 'alcocrni.tdb'), 'BCC_B2', ['AL', 'CO', 'CR', 'NI', 'VA']],
  ];
  const steps: [number, number][] = [
    [1300, 1301],
    [1300, 1250],
    [600, 1700],
    [400, 300],
    [1040, 1050], // across iron's Curie temperature
  ];
  test.each(cases)('%s %s: never below the largest change over the grid, and finite', (file, phase, components) => {
    for (const [T0, T1] of steps) {
      const r = testing.energyChangeBound(file, phase, components, T0, T1);
      expect(r.points, phase).toBeGreaterThan(100);
      expect(Number.isFinite(r.bound), `${phase} ${T0} -> ${T1}`).toBe(true);
      expect(r.bound, `${phase} ${T0} -> ${T1}`).toBeGreaterThanOrEqual(r.largestChange * (1 - 1e-12));
      // useful: the same order as the change (within a factor of 20), not a blanket
      expect(r.bound, `${phase} ${T0} -> ${T1}`).toBeLessThan(20 * r.largestChange + 1e-9);
    }
  });
});

/**
 * The line twice: with the economies (each spared re-scan checked against the whole scan) and with every grid at every
 * temperature and every point at every re-scan.
 */
function bothWays(run: () => ReturnType<typeof testing.warmSequence>) {
  process.env.PHASEDESK_SOLVER_CHECK_SCANS = '1';
  const kept = run();
  delete process.env.PHASEDESK_SOLVER_CHECK_SCANS;
  process.env.PHASEDESK_SOLVER_CURRENT_GRIDS = '1';
  const current = run();
  delete process.env.PHASEDESK_SOLVER_CURRENT_GRIDS;
  return { kept, current };
}

describe('grids kept at earlier energies and re-scans of the points within reach change no answer', () => {
  test('316L on MF Steel, 1800 -> 1400 K every 5 K, warm-started', () => {
    const db = openDatabase(steelFile);
    const sys = steelSystem(db, '316L');
    const xs = Object.keys(sys.X);
    const temperatures = Array.from({ length: 81 }, (_, i) => 1800 - 5 * i);
    const { kept, current } = bothWays(() =>
      testing.warmSequence(
        steelFile,
        sys.phases,
        sys.components,
        xs,
        xs.map((e) => sys.X[e]!),
        temperatures,
      ),
    );
    expect(current.staleGrids).toBe(0);
    expect(current.sparedScans).toBe(0);
    expect(kept.staleGrids).toBeGreaterThan(200);
    expect(kept.sparedScans).toBeGreaterThan(50);
    expect(kept.sparedScanViolations).toBe(0);
    expect(kept.points.every((p) => p.converged)).toBe(true);
    expectSameAnswers(kept, current);
  }, 120_000);

  test('a 7-component Al alloy on COST507, 950 -> 550 K every 4 K, warm-started', () => {
    const { kept, current } = bothWays(() => testing.warmSequence(...alAlloyLine()));
    expect(kept.staleGrids).toBeGreaterThan(50);
    expect(kept.sparedScans).toBeGreaterThan(50);
    expect(current.sparedScans).toBe(0);
    expect(kept.sparedScanViolations).toBe(0);
    expectSameAnswers(kept, current);
  }, 120_000);
});
