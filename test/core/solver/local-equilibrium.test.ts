// options.local of equilibriumBatch (native-core/src/solver/equilibrium.hpp, WarmStart::local): Newton from the given
// start among its phases, without the grid re-scan, the basin check or the grid energies at the new temperature. Next
// to its start it lands on the certified answer; where the re-scan would add a composition set the start does not
// hold (the Al-Zn fcc miscibility gap entered from above), it does not, and says so with `local: true`.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibrium, equilibriumBatch, type EquilibriumResult } from '../../../worker/core/equilibrium.js';

const TDB = path.resolve(__dirname, '../../../../shared/tdb');
const names = (r: EquilibriumResult) => r.phases.map((p) => p.name).sort();

describe('equilibriumBatch options.local', () => {
  const db = openDatabase(path.join(TDB, 'alzn_mey.tdb'));
  const components = ['AL', 'ZN', 'VA'];
  const solve = (T: number, x: number, start: EquilibriumResult, local: boolean) =>
    equilibriumBatch({
      database: db,
      components,
      conditions: [{ T, X: { ZN: x } }],
      options: { starts: [start], local: [local] },
    })[0]!;
  // the solver's grid energies exist once it has solved anything (a local solve needs them for its start's sets)
  const above = equilibrium({ database: db, components, conditions: { T: 700, X: { ZN: 0.4 } } });

  it('next to its start, the local answer is the certified one', () => {
    const start = equilibrium({ database: db, components, conditions: { T: 700, X: { ZN: 0.1 } } });
    const local = solve(702, 0.1, start, true);
    const certified = solve(702, 0.1, start, false);
    expect(local.converged).toBe(true);
    expect(local.local).toBe(true);
    expect(certified.local).toBeUndefined();
    expect(names(local)).toEqual(names(certified));
    expect(Math.abs(local.GM - certified.GM)).toBeLessThan(1e-6);
    expect(Math.abs(local.mu.ZN! - certified.mu.ZN!)).toBeLessThan(1e-4);
  });

  it('does not split a phase the grid re-scan would split: the miscibility gap entered from above', () => {
    const local = solve(560, 0.4, above, true);
    const certified = solve(560, 0.4, above, false);
    const cold = equilibrium({ database: db, components, conditions: { T: 560, X: { ZN: 0.4 } } });
    expect(names(certified)).toEqual(names(cold));
    expect(certified.phases.length).toBe(2);
    expect(local.converged).toBe(true);
    expect(local.local).toBe(true);
    expect(local.phases.length).toBe(1);
    expect(local.GM).toBeGreaterThan(certified.GM + 1);
  });
});
