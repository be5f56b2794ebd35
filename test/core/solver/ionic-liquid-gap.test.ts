// The liquid miscibility gap of the two-sublattice ionic liquid (formula sheet §7, §8) in cuo.tdb:
// IONIC_LIQ:Y (CU+1,CU+2,CU+3)P(O-2,VA)Q with variable site ratios P and Q. Inside the gap (Cu-rich metallic
// liquid + oxide liquid, critical point near 1624 K in this database) the solver used to stop at the Newton
// iteration limit with two oscillating liquid sets, or to report the single liquid (a saddle point) as the
// equilibrium. Checked here: convergence, two IONIC_LIQ sets on one common tangent (the result's μ against
// each set's GM = sum_A μ_A x_A), mass balance, one tie line for every overall composition inside the gap
// at a given T, and a lower GM than the single-liquid answer (singleSet).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibrium, type EquilibriumResult } from '../../../worker/core/equilibrium.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';

const db = openDatabase(path.join(SHARED_TDB_DIR, 'cuo.tdb'));
const COMPONENTS = ['CU', 'O', 'VA'];

function solve(T: number, xO: number, singleSet = false): EquilibriumResult {
  return equilibrium({
    database: db,
    components: COMPONENTS,
    conditions: { T, P: 101325, X: { O: xO } },
    options: singleSet ? { singleSet: true } : undefined,
  });
}

/** Converged, two liquid sets on the common tangent, mass balance; returns the two x(O), lower first. */
function twoLiquids(r: EquilibriumResult, xO: number, tag: string): [number, number] {
  expect(r.converged, `${tag}: ${r.reason}`).toBe(true);
  expect(
    r.phases.map((p) => p.name),
    tag,
  ).toEqual(['IONIC_LIQ', 'IONIC_LIQ']);
  let np = 0,
    o = 0;
  for (const p of r.phases) {
    const muX = r.mu.CU * p.x.CU + r.mu.O * p.x.O;
    expect(Math.abs(muX - p.GM), `${tag}: set ${p.setNumber} off the tangent`).toBeLessThanOrEqual(1e-6);
    expect(p.NP, tag).toBeGreaterThan(0);
    np += p.NP;
    o += p.NP * p.x.O;
  }
  expect(Math.abs(np - 1), tag).toBeLessThanOrEqual(1e-10);
  expect(Math.abs(o - xO), tag).toBeLessThanOrEqual(1e-10);
  const xs = r.phases.map((p) => p.x.O).sort((a, b) => a - b) as [number, number];
  // two distinct liquids on either side of the overall composition
  expect(xs[0], tag).toBeLessThan(xO);
  expect(xs[1], tag).toBeGreaterThan(xO);
  expect(xs[1] - xs[0], tag).toBeGreaterThan(0.05);
  return xs;
}

describe('ionic liquid miscibility gap (cuo.tdb)', () => {
  it('1514.29 K, X(O) = 0.15 ... 0.30: two liquids on one tie line, below the single-liquid answer', () => {
    const ties: [number, number][] = [];
    for (const xO of [0.15, 0.2, 0.25, 0.3]) {
      const tag = `T=1514.29 X(O)=${xO}`;
      const r = solve(1514.29, xO);
      ties.push(twoLiquids(r, xO, tag));
      const single = solve(1514.29, xO, true);
      expect(single.converged, `${tag} single set: ${single.reason}`).toBe(true);
      expect(single.phases.length, tag).toBe(1);
      expect(r.GM, `${tag}: the gap is lower than one liquid`).toBeLessThan(single.GM - 1e-3);
    }
    // one temperature, one tie line: the liquids' compositions do not depend on the overall composition
    for (const t of ties) {
      expect(Math.abs(t[0] - ties[0][0])).toBeLessThanOrEqual(1e-7);
      expect(Math.abs(t[1] - ties[0][1])).toBeLessThanOrEqual(1e-7);
    }
    // metallic (Cu-rich) and oxide liquid
    expect(ties[0][0]).toBeGreaterThan(0.05);
    expect(ties[0][0]).toBeLessThan(0.15);
    expect(ties[0][1]).toBeGreaterThan(0.3);
    expect(ties[0][1]).toBeLessThan(1 / 3);
  });

  it('closer to the critical point (1550 K and 1600 K) every composition inside the gap splits on one tie line', () => {
    for (const [T, xs] of [
      [1550, [0.14, 0.16, 0.18, 0.2, 0.22, 0.24, 0.26, 0.28]],
      [1600, [0.18, 0.2, 0.22, 0.24, 0.25]],
    ] as const) {
      let first: [number, number] | null = null;
      for (const xO of xs) {
        const tag = `T=${T} X(O)=${xO}`;
        const t = twoLiquids(solve(T, xO), xO, tag);
        first ??= t;
        expect(Math.abs(t[0] - first[0]), tag).toBeLessThanOrEqual(1e-7);
        expect(Math.abs(t[1] - first[1]), tag).toBeLessThanOrEqual(1e-7);
      }
      // the gap narrows on heating towards its critical point
      if (T === 1600) expect(first![1] - first![0]).toBeLessThan(0.15);
    }
  });

  it('above the critical point (1635.71 K, X(O) = 0.25) one liquid', () => {
    const r = solve(1635.71, 0.25);
    expect(r.converged, r.reason).toBe(true);
    expect(r.phases.map((p) => p.name)).toEqual(['IONIC_LIQ']);
    const p = r.phases[0];
    expect(Math.abs(p.x.O - 0.25)).toBeLessThanOrEqual(1e-10);
    expect(Math.abs(r.mu.CU * p.x.CU + r.mu.O * p.x.O - p.GM)).toBeLessThanOrEqual(1e-6);
  });
});
