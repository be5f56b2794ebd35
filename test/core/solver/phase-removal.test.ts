// Phase removal during the Newton iteration (formula sheet §8.4-§8.5; native-core/src/solver/newton.cpp and
// feasibility.cpp, newton() and assemblage_feasible()). A stable set whose amount one step would make negative leaves, unless
// the sets left behind cannot meet the linear conditions any more. Near the congruent melting of Cu2O in
// cuo.tdb (about 1500.76 K) the oxide liquid and Cu2O differ by about 0.01 in x(O); the first Newton step
// with the oxide liquid (added from check_basins, its basin lies between the sampled points) carried the
// liquid past the overall composition, the liquid left, and Cu2O alone (stoichiometric, x(O) = 1/3) could
// not reach X(O) = 0.33: "Newton iteration limit reached". Checked here: convergence to oxide liquid +
// Cu2O with equal chemical potentials, mass balance, and - independently of the solver's own grid - that
// no state of any phase lies below the tangent of the answer (dense sampling of every phase's constitution
// with the phase-model API), so no other assemblage has a lower GM.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibrium, type EquilibriumResult } from '../../../worker/core/equilibrium.js';
import { PhaseModel } from '../../../worker/core/models.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';

const db = openDatabase(path.join(SHARED_TDB_DIR, 'cuo.tdb'));
const COMPONENTS = ['CU', 'O', 'VA'];
const PHASES = db.phasesFor(['CU', 'O']);

function solve(T: number, xO: number): EquilibriumResult {
  return equilibrium({ database: db, components: COMPONENTS, conditions: { T, P: 101325, X: { O: xO } } });
}

/** Converged, every stable set on the tangent (|sum_A mu_A x_A - GM| < 1e-6), mass balance. */
function expectEquilibrium(r: EquilibriumResult, xO: number, tag: string): void {
  expect(r.converged, `${tag}: ${r.reason}`).toBe(true);
  let np = 0,
    o = 0;
  for (const p of r.phases) {
    const muX = r.mu.CU * p.x.CU + r.mu.O * p.x.O;
    expect(Math.abs(muX - p.GM), `${tag}: ${p.name} off the tangent`).toBeLessThan(1e-6);
    expect(p.NP, tag).toBeGreaterThan(0);
    np += p.NP;
    o += p.NP * p.x.O;
  }
  expect(Math.abs(np - 1), tag).toBeLessThan(1e-10);
  expect(Math.abs(o - xO), tag).toBeLessThan(1e-10);
  expect(Math.abs(r.mu.CU * (1 - xO) + r.mu.O * xO - r.GM), tag).toBeLessThan(1e-6);
}

// Deterministic pseudo-random numbers (no dependency on Math.random).
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 0.5) / 4294967296;
  };
}

/**
 * Smallest G_M(y) - sum_A mu_A x_A(y) over a dense sampling of every phase (J/mol of atoms): uniform
 * random points on each sublattice simplex plus every straight line between two end members. Charged
 * phases with fixed site ratios are not sampled this way (none in cuo.tdb; the ionic liquid is neutral for
 * every y). A negative value is a state below the tangent: the answer would not be the minimum.
 */
function lowestBelowTangent(T: number, mu: Record<string, number>): { phase: string; d: number } {
  let worst = { phase: '', d: Infinity };
  for (const name of PHASES) {
    const m = PhaseModel.build(db, name, COMPONENTS);
    if (!m) continue;
    expect(m.info.charged, `${name} is charged: sample it with its charge constraint`).toBe(false);
    const nv = m.variables.length;
    const subl: number[][] = [];
    m.variables.forEach((v, k) => (subl[v.sublattice] ??= []).push(k));
    const pts: number[][] = [];
    const rnd = lcg(12345);
    for (let i = 0; i < 20000; i++) {
      const y = new Array<number>(nv).fill(0);
      for (const s of subl) {
        let sum = 0;
        for (const k of s) sum += y[k] = -Math.log(rnd());
        for (const k of s) y[k] /= sum;
      }
      pts.push(y);
    }
    const ends: number[][] = [[]];
    for (const s of subl) {
      const next: number[][] = [];
      for (const e of ends) for (const k of s) next.push([...e, k]);
      ends.splice(0, ends.length, ...next);
    }
    const endY = ends.map((ks) => {
      const y = new Array<number>(nv).fill(0);
      for (const k of ks) y[k] = 1;
      return y;
    });
    for (let a = 0; a < endY.length; a++)
      for (let b = a + 1; b < endY.length; b++)
        for (let j = 0; j <= 400; j++) {
          const t = j / 400;
          pts.push(endY[a].map((v, k) => t * v + (1 - t) * endY[b][k]));
        }
    const Y = new Float64Array(pts.length * nv);
    pts.forEach((y, i) => y.forEach((v, k) => (Y[i * nv + k] = Math.max(v, 1e-14))));
    const G = m.energies(T, 101325, Y);
    for (let i = 0; i < pts.length; i++) {
      const mo = m.moles(Y.subarray(i * nv, (i + 1) * nv), 0);
      if (!(mo.Nf > 1e-6) || !Number.isFinite(G[i])) continue;
      let muX = 0;
      m.info.elements.forEach((e, A) => (muX += (mu[e] * mo.M[A]) / mo.Nf));
      const d = G[i] - muX;
      if (d < worst.d) worst = { phase: name, d };
    }
  }
  return worst;
}

describe('phase removal keeps an assemblage that can meet the conditions (cuo.tdb near the Cu2O melting)', () => {
  it('1500 K, X(O) = 0.33: oxide liquid + Cu2O, on one tangent, nothing below it', () => {
    const r = solve(1500, 0.33);
    expectEquilibrium(r, 0.33, '1500 K X(O)=0.33');
    expect(r.phases.map((p) => p.name).sort()).toEqual(['CU2O', 'IONIC_LIQ']);
    const liq = r.phases.find((p) => p.name === 'IONIC_LIQ')!;
    const cu2o = r.phases.find((p) => p.name === 'CU2O')!;
    expect(Math.abs(cu2o.x.O - 1 / 3)).toBeLessThan(1e-9);
    // the oxide liquid on the Cu-rich side of the overall composition (the lever rule), not the metallic one
    expect(liq.x.O).toBeGreaterThan(0.3);
    expect(liq.x.O).toBeLessThan(0.33);
    // no state of any phase below the tangent hyperplane: no assemblage at X(O) = 0.33 has a lower GM
    const w = lowestBelowTangent(1500, r.mu);
    expect(w.d, `${w.phase} lies ${-w.d} J/mol below the tangent`).toBeGreaterThan(-1e-6);
  });

  it('1495-1502 K, X(O) = 0.30-0.3325 and just above 1/3: every point converges on one tangent', () => {
    for (const T of [1495, 1497.5, 1499, 1499.53, 1500, 1500.5, 1500.7, 1501, 1502]) {
      for (const xO of [0.3, 0.31, 0.32, 0.325, 0.3275, 0.33, 0.3325, 0.335, 0.34]) {
        const tag = `T=${T} X(O)=${xO}`;
        const r = solve(T, xO);
        expectEquilibrium(r, xO, tag);
        // below the congruent melting point (about 1500.76 K) Cu2O is stable between the two liquidus
        // branches; the overall composition 0.3325 lies inside that two-phase field down to 1495 K
        if (T < 1500.5 && (xO === 0.33 || xO === 0.3325)) {
          expect(
            r.phases.map((p) => p.name),
            tag,
          ).toContain('CU2O');
        }
      }
    }
    // the lowest-lying alternative check once more at one point of the scan
    const r = solve(1499.53, 0.3296);
    expectEquilibrium(r, 0.3296, '1499.53 K');
    const w = lowestBelowTangent(1499.53, r.mu);
    expect(w.d, `${w.phase} lies ${-w.d} J/mol below the tangent`).toBeGreaterThan(-1e-6);
  });
});
