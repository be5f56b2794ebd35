// Where and how a traced field ends, on the binaries of the MatCalc databases where the diagram self-audit
// (worker/mapping/audit.ts) found it wrong, each on a window of its diagram so that the test stays short:
//  - Co-Cu (mc_fe): the hcp + fcc lens next to Co, 1e-5 wide, ends at the monotectoid of 694.66 K, below which hcp
//    and the Cu-rich fcc form another field of the same phases; the composition search of the lens's trace found
//    that field and went on in it (tracing.ts);
//  - Cu-V (mc_fe): the liquid + fcc lens next to Cu, 3e-5 wide, ends at the peritectic 0.04 K above the melting
//    point of Cu; the search's first step went across the lens and the fcc range into fcc + hcp (field_search.ts);
//  - Ni-V (mc_fe), Cu-Zn (mc_al): a boundary found by the composition search, off its prediction, and kept after a
//    step of 2.5 K was drawn 0.005 from the equilibrium where it curves fast (next to a congruent minimum, along a
//    lens 0.034 wide from the melting point of Zn to a peritectic; Mn-Pd of mc_fe likewise, 0.01 off after 5 K);
//  - Al-Cu (COST 507): the field beyond an invariant that the composition search reaches must begin there; epsilon +
//    delta, reached from epsilon above the congruent formation of zeta from epsilon at 861.34 K, holds below it too;
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import type { NativeDatabase } from '../../worker/core/native.js';
import { X_TOL } from '../../worker/mapping/audit/context.js';
import { mapBinary, type BinaryDiagram } from '../../worker/mapping/binary.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const mcFe = openDatabase(path.join(SHARED_TDB_DIR, 'mc_fe_v2.059.pycalphad.tdb'));
const mcAl = openDatabase(path.join(SHARED_TDB_DIR, 'mc_al_v2.032.pycalphad.tdb'));
const cost507 = openDatabase(path.join(SHARED_TDB_DIR, 'COST507.tdb'));

/**
 * The largest distance between a region's boundaries drawn between two neighbouring tie-lines (a quarter, half and
 * three quarters of the way, where that lies in [T0, T1]) and the tie-line of the equilibrium there, found at
 * compositions across and around the drawn one (1 when none of them is two-phase).
 */
function chordError(db: NativeDatabase, d: BinaryDiagram, phases: string, [T0, T1]: [number, number]): number {
  const [c1, c2] = d.components;
  const region = d.regions.find((r) => r.phases.join('+') === phases)!;
  const tieLineAt = (T: number, x: number[]) => {
    for (const X of [0.5, 0.25, 0.75, 0, 1, -1, 2].map(
      (f) => x[0] + f * (x[1] - x[0]) + (f < 0 ? -0.005 : f > 1 ? 0.005 : 0),
    )) {
      const r = equilibrium({ database: db, components: [c1, c2, 'VA'], conditions: { T, X: { [c2]: X } } });
      const sets = r.phases.filter((p) => p.NP > 1e-9).map((p) => p.x[c2] ?? 0);
      if (sets.length === 2) return sets.sort((p, q) => p - q);
    }
    return null;
  };
  let worst = 0;
  for (let k = 0; k + 1 < region.tielines.length; k++) {
    const [a, b] = [region.tielines[k], region.tielines[k + 1]];
    if (b.T - a.T < 0.05) continue;
    for (const w of [0.25, 0.5, 0.75]) {
      const T = a.T + w * (b.T - a.T);
      if (T < T0 || T > T1) continue;
      const x = [0, 1].map((j) => a.x[j] + w * (b.x[j] - a.x[j]));
      const eq = tieLineAt(T, x);
      worst = Math.max(worst, eq ? Math.max(...[0, 1].map((j) => Math.abs(eq[j] - x[j]))) : 1);
    }
  }
  return worst;
}

describe('field ends and steps (MatCalc binaries)', () => {
  test('Co-Cu: the hcp + fcc lens next to Co ends at the monotectoid, over hcp + Cu-rich fcc', () => {
    const d = mapBinary({ database: mcFe, components: ['CO', 'CU'], T: [650, 750], threads: 2 });
    const hcpFcc = d.regions.filter((r) => r.phases.join('+') === 'HCP_A3+FCC_A1');
    expect(hcpFcc).toHaveLength(2);
    // each field keeps to its own side: the lens next to Co, the other across the diagram
    const [wide, lens] = [...hcpFcc].sort((a, b) => a.tielines[0].T - b.tielines[0].T);
    expect(Math.min(...wide.tielines.map((t) => t.x[1]))).toBeGreaterThan(0.99);
    expect(Math.max(...lens.tielines.map((t) => t.x[1]))).toBeLessThan(0.01);
    expect(lens.ends).toEqual({ low: 'invariant', high: 'pure_element' });
    expect(d.invariants.map((v) => [v.kind, v.T.toFixed(1)])).toEqual([['monotectoid', '694.7']]);
    expect(d.pureTransitions).toHaveLength(1);
    expect(d.pureTransitions[0].T).toBeCloseTo(694.985, 2);
  }, 60_000);

  test('Cu-V: the liquid + fcc lens next to Cu ends at the peritectic above the melting point of Cu', () => {
    const d = mapBinary({ database: mcFe, components: ['CU', 'V'], T: [300, 2000], threads: 2 });
    const lens = d.regions.find((r) => r.phases.join('+') === 'LIQUID+FCC_A1')!;
    expect(lens.ends).toEqual({ low: 'pure_element', high: 'invariant' });
    const peritectic = d.invariants.find((v) => v.kind === 'peritectic')!;
    expect(lens.tielines[lens.tielines.length - 1].T).toBeCloseTo(peritectic.T, 1);
    expect(d.congruentPoints).toEqual([]);
    expect(d.pureTransitions.map((p) => p.T.toFixed(2))).toEqual(['1357.77']);
  }, 60_000);

  test('Ni-V (mc_fe), Cu-Zn (mc_al): boundaries found by the composition search are drawn within X_TOL', () => {
    // a step found by the search (Ni-V: from 1 K above the congruent minimum of 607.38 K; next to it the boundaries
    // go as the square root of T - Tc) and a bisection's point found by it (Cu-Zn: the lens above pure Zn)
    const niv = mapBinary({ database: mcFe, components: ['NI', 'V'], T: [300, 2000], threads: 2 });
    expect(chordError(mcFe, niv, 'FCC_A1+LIQUID', [608.4, 620])).toBeLessThan(X_TOL);
    const cuzn = mapBinary({ database: mcAl, components: ['CU', 'ZN'], T: [600, 800], threads: 2 });
    expect(chordError(mcAl, cuzn, 'HCP_ZN+LIQUID', [692, 696])).toBeLessThan(X_TOL);
  }, 120_000);

  test('Al-Cu (COST 507): both sides of zeta in epsilon close at the congruent point, not at an invariant', () => {
    const d = mapBinary({ database: cost507, components: ['AL', 'CU'], T: [840, 880], threads: 2 });
    const sides = d.regions.filter((r) => [...r.phases].sort().join('+') === 'ALCU_EPSILON+ALCU_ZETA');
    expect(sides).toHaveLength(2);
    for (const r of sides) expect(r.ends.high).toBe('congruent');
    expect(d.congruentPoints.map((c) => [[...c.phases].sort().join('+'), c.T.toFixed(1)])).toEqual([
      ['ALCU_EPSILON+ALCU_ZETA', '861.3'],
    ]);
    expect(d.invariants.filter((v) => Math.abs(v.T - 861.34) < 0.1)).toEqual([]);
  }, 60_000);
});
