// At the exact composition of a stoichiometric state the chemical potentials are not unique: any μ between the
// tangents of the two sides holds. The defect fractions that would settle the last 1e-11 of the composition lie
// below the model's site-fraction floor, and Newton repeated the same state to its iteration limit (every such
// point of the diagram self-audit's scans: femns Mn-S, parameter_filter_test B-C, alfeo Al-O). A residual that
// has stopped falling is accepted within the mass-balance tolerance, 1e-9 (newton.cpp, kStalledResidual).
// A phase on its way to the pure-vacancy configuration says that no equilibrium exists, also when the
// iteration limit stops it first.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibrium, saysNoEquilibrium } from '../../../worker/core/equilibrium.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';

const at = (file: string, els: [string, string], T: number, x: number) => {
  const db = openDatabase(path.join(SHARED_TDB_DIR, file));
  const components = db.info().elements.some((e) => e.name.toUpperCase() === 'VA') ? [...els, 'VA'] : [...els];
  return equilibrium({
    database: db,
    components,
    phases: db.phasesFor(els),
    conditions: { T, P: 101325, X: { [els[1]]: x } },
  });
};

describe('exact stoichiometric compositions', () => {
  it.each([
    ['femns.tdb', ['MN', 'S'], 335.6, 0.5, ['IONIC_LIQ']],
    ['parameter_filter_test.tdb', ['B', 'C'], 1185.6, 0.5, ['BETA']],
    ['alfeo.tdb', ['AL', 'O'], 335.6, 0.883, ['CORUNDUM', 'GAS']],
  ] as const)('%s %j at %s K, x=%s converges', (file, els, T, x, phases) => {
    const r = at(file, [...els] as [string, string], T, x);
    expect(r.converged, r.reason).toBe(true);
    expect(
      r.phases
        .filter((p) => p.NP > 1e-9)
        .map((p) => p.name)
        .sort(),
    ).toEqual([...phases]);
    // the answer is a tangent: G_M = sum_A x_A μ_A, and the overall composition is met
    const gm = Object.entries(r.x).reduce((s, [A, xa]) => s + xa * r.mu[A], 0);
    expect(Math.abs(gm - r.GM)).toBeLessThan(1e-6 * Math.max(1, Math.abs(r.GM)));
    expect(Math.abs(r.x[els[1]] - x)).toBeLessThan(1e-9);
  });

  it('the potentials at X(S) = 0.5 lie between those just to either side (Mn-S ionic liquid)', () => {
    const mid = at('femns.tdb', ['MN', 'S'], 335.6, 0.5);
    const lo = at('femns.tdb', ['MN', 'S'], 335.6, 0.4999),
      hi = at('femns.tdb', ['MN', 'S'], 335.6, 0.5001);
    expect([mid.converged, lo.converged, hi.converged]).toEqual([true, true, true]);
    expect(mid.mu.MN).toBeLessThan(lo.mu.MN);
    expect(mid.mu.MN).toBeGreaterThan(hi.mu.MN);
    expect(mid.mu.S).toBeGreaterThan(lo.mu.S);
    expect(mid.mu.S).toBeLessThan(hi.mu.S);
  });

  it('a stoichiometric phase the hull gives alone where it decomposes: Cu-O at X(O) = 0.5, 1386.45 K', () => {
    // the hull's answer is CUO alone; IONIC_LIQ and GAS entered in turn, took no amount and left, until the
    // iteration limit. The cold start 1e-6 away converges, and Newton from its sets at X(O) = 0.5 gives the answer.
    const r = at('cuo.tdb', ['CU', 'O'], 1386.45, 0.5);
    expect(r.converged, r.reason).toBe(true);
    expect(
      r.phases
        .filter((p) => p.NP > 1e-9)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['GAS', 'IONIC_LIQ']);
    expect(Math.abs(r.x.O - 0.5)).toBeLessThan(1e-9);
  });

  it('a phase running into its pure-vacancy configuration says so at the iteration limit too (V-O, HALITE)', () => {
    const r = at('pycalphad_inline_V_O_gas_halite.tdb', ['O', 'V'], 335.6, 1e-6);
    expect(r.converged).toBe(false);
    expect(saysNoEquilibrium(r), r.reason).toBe(true);
    expect(r.reason).toMatch(/HALITE runs into its pure-vacancy configuration/);
  });

  it('... and where a tiny amount of it fails the tangent check (V-O at X(V) = 1e-9: HALITE takes the V at N_f ~ 1e-12)', () => {
    for (const T of [300, 900, 1500]) {
      const r = at('pycalphad_inline_V_O_gas_halite.tdb', ['V', 'O'], T, 1 - 1e-9);
      expect(r.converged).toBe(false);
      expect(saysNoEquilibrium(r), `${T} K: ${r.reason}`).toBe(true);
      expect(r.reason).toMatch(/HALITE runs into its pure-vacancy configuration/);
    }
  });
});
