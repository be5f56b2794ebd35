// Fields that cross an edge of a binary diagram between two seed-grid nodes of one phase (worker/mapping/seed-grid.ts
// seedsOnEdges): MF Steel's Ni-rich FCC + FCC#2 miscibility gap of Cr-Ni lies at 500 K between x(Ni) 0.958 and 0.994,
// between the grid columns at 0.95 and 1, and closes at 582.4 K, below the second grid row of a 500-2200 K diagram.
// The diagram from 300 K (grid nodes inside the gap) finds it; the one from 500 K did not.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { DatabasePhaseSelection } from '../../contract/phase-selection.js';
import { openDatabase } from '../../worker/core/database.js';
import { mapBinary } from '../../worker/mapping/binary.js';
import { selectPhases } from '../../worker/system/phase-selection.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const catalog = JSON.parse(readFileSync(path.resolve(__dirname, '../../databases/catalog.json'), 'utf8')) as {
  code: string;
  phase_selection?: DatabasePhaseSelection;
}[];

describe('a field that crosses the edge of the diagram', () => {
  test('Cr-Ni from 500 K: the fcc miscibility gap below 582 K is mapped', () => {
    const database = openDatabase(path.join(SHARED_TDB_DIR, 'mf-steel.tdb'));
    const { phases } = selectPhases(
      database,
      ['CR', 'NI'],
      { database: catalog.find((e) => e.code === 'MF_STEEL')!.phase_selection! },
      'mf-steel.tdb',
    );
    const d = mapBinary({ database, components: ['CR', 'NI'], phases, T: [500, 2200], threads: 2 });
    const gap = d.regions.find((r) => r.phases.join('+') === 'FCC_A1+FCC_A1#2');
    expect(gap).toBeDefined();
    const lowest = gap!.tielines.reduce((a, b) => (b.T < a.T ? b : a));
    expect(lowest.T).toBe(500);
    expect(lowest.x[0]).toBeCloseTo(0.9584, 3);
    expect(lowest.x[1]).toBeCloseTo(0.9938, 3);
    const critical = d.criticalPoints.find((c) => c.phase === 'FCC_A1');
    expect(critical?.T).toBeCloseTo(582.4, 0);
  }, 60_000);
});
