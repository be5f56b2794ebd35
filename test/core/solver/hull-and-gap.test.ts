// Two properties of one solve that its speed rests on (native-core/src/solver/hull.cpp, newton.cpp):
// - the hull keeps its columns and costs while (T, P) and the kinds of conditions repeat; a solve that reuses
//   them must give exactly the answer of a solver that computes them afresh (same pivots, same vertices);
// - a set of a miscibility gap whose amount keeps falling leaves after a few halvings of its amount
//   (gap_step_limit) instead of crawling to 1e-10 at half steps, and the equilibrium is the same.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibrium, type EquilibriumConditions, type EquilibriumResult } from '../../../worker/core/equilibrium.js';

const TDB = path.resolve(__dirname, '../../../../shared/tdb');

// Everything the result says, without the iteration count.
function answer(r: EquilibriumResult): unknown {
  return {
    converged: r.converged,
    reason: r.reason,
    GM: r.GM,
    HM: r.HM,
    mu: r.mu,
    phases: r.phases.map((p) => [p.name, p.NP, Array.from(p.y)]),
    metastable: r.metastable.map((p) => [p.name, p.DF, Array.from(p.y)]),
  };
}

describe('hull columns reused at one temperature', () => {
  it('gives bit for bit the answer of a fresh solver, along a composition line and at a repeated point', () => {
    const components = ['CR', 'TI', 'V', 'VA'];
    const reused = openDatabase(path.join(TDB, 'crtiv_ghosh.tdb'));
    const line: EquilibriumConditions[] = [0.1, 0.25, 0.4, 0.25].map((cr) => ({
      T: 1000,
      P: 101325,
      X: { CR: cr, TI: 0.3 },
    }));
    for (const conditions of line) {
      const fresh = openDatabase(path.join(TDB, 'crtiv_ghosh.tdb')); // new database: new solver, nothing cached
      const a = equilibrium({ database: reused, components, conditions });
      const b = equilibrium({ database: fresh, components, conditions });
      expect(a.converged, a.reason).toBe(true);
      expect(answer(a)).toEqual(answer(b));
    }
  });
});

describe('a vanishing miscibility-gap set', () => {
  it('leaves without halving its amount down to 1e-10 (Al-Co-Cr-Ni, 1523 K, equal fractions)', () => {
    const database = openDatabase(path.join(TDB, 'alcocrni.tdb'));
    const r = equilibrium({
      database,
      components: ['AL', 'CO', 'CR', 'NI', 'VA'],
      conditions: { T: 1523, P: 101325, X: { AL: 0.25, CO: 0.25, CR: 0.25 } },
    });
    expect(r.converged, r.reason).toBe(true);
    expect(r.phases.map((p) => p.name)).toEqual(['BCC_B2', 'BCC_B2']);
    // halving from the hull's amount to 1e-10 alone took 29 iterations (59 in all)
    expect(r.iterations).toBeLessThan(45);
    expect(r.phases.reduce((s, p) => s + p.NP, 0)).toBeCloseTo(1, 10);
  });
});

describe('a second liquid across a narrow barrier', () => {
  it('Cu-O (cuo.tdb) at 1610.42 K, X(O)=0.18: two ionic liquids (0.175 and 0.249), below the single liquid', () => {
    const cuo = openDatabase(path.join(TDB, 'cuo.tdb'));
    const r = equilibrium({ database: cuo, components: ['CU', 'O', 'VA'], conditions: { T: 1610.42, X: { O: 0.18 } } });
    expect(r.converged).toBe(true);
    const liquids = r.phases
      .filter((p) => p.NP > 1e-9 && p.name === 'IONIC_LIQ')
      .map((p) => p.x.O)
      .sort();
    expect(liquids).toHaveLength(2);
    expect(liquids[0]).toBeCloseTo(0.1752, 3);
    expect(liquids[1]).toBeCloseTo(0.2493, 3);
    expect(r.GM).toBeLessThan(-120268.65);
  });
});
