// Mobilities and diffusivities (worker/system/diffusion.ts, native-core/src/models/mobility_model.hpp) against
// hand computation from the TDB expressions: a regular binary whose interdiffusion coefficient has Darken's closed
// form, the Fe-Cr-Ni fcc mobilities of kawin_FeCrNi.tdb summed by hand, the thermodynamic factor against finite
// differences of the solver's chemical potentials, Jonsson's magnetic factor in bcc, and an interstitial.
import { describe, expect, it } from 'vitest';
import { openDatabase, openDatabaseFromString } from '../../../worker/core/database.js';
import { equilibrium } from '../../../worker/core/equilibrium.js';
import { magneticOrderDegree } from '../../../worker/core/mobility.js';
import { PhaseModel } from '../../../worker/core/models.js';
import { diffusionPhase, phaseDiffusion, thermodynamicFactor } from '../../../worker/system/diffusion.js';

const R = 8.3145;
const TDB = '../shared/tdb';

// A-B fcc regular solution, Omega = 12000 J/mol, with mobilities of both elements linear in x plus one
// interaction term for A.
const REGULAR = `
ELEMENT VA VACUUM 0 0 0 !
ELEMENT A FCC_A1 10 0 0 !
ELEMENT B FCC_A1 20 0 0 !
PHASE FCC_A1 % 2 1 1 !
CONSTITUENT FCC_A1 :A,B:VA: !
PARAMETER G(FCC_A1,A:VA;0) 1 -1000*T; 6000 N !
PARAMETER G(FCC_A1,B:VA;0) 1 -1200*T; 6000 N !
PARAMETER G(FCC_A1,A,B:VA;0) 1 12000; 6000 N !
PARAMETER MQ(FCC_A1&A,A:VA;0) 1 -280000-70*T; 6000 N !
PARAMETER MQ(FCC_A1&A,B:VA;0) 1 -260000-75*T; 6000 N !
PARAMETER MQ(FCC_A1&A,A,B:VA;0) 1 15000; 6000 N !
PARAMETER MQ(FCC_A1&B,A:VA;0) 1 -270000-72*T; 6000 N !
PARAMETER MQ(FCC_A1&B,B:VA;0) 1 -250000-78*T; 6000 N !
`;

function stable(
  db: ReturnType<typeof openDatabase>,
  comps: string[],
  phase: string,
  T: number,
  X: Record<string, number>,
) {
  const r = equilibrium({ database: db, components: comps, phases: [phase], conditions: { T, P: 101325, X } });
  expect(r.converged).toBe(true);
  expect(r.phases).toHaveLength(1);
  return r;
}

describe('mobilities and diffusivities', () => {
  it("gives Darken's interdiffusion coefficient of a regular binary", () => {
    const db = openDatabaseFromString(REGULAR, 'regular.tdb');
    const comps = ['A', 'B', 'VA'];
    const model = PhaseModel.build(db, 'FCC_A1', comps)!;
    const ph = diffusionPhase(db, model, comps)!;
    for (const [T, xB] of [
      [1200, 0.3],
      [1500, 0.62],
    ]) {
      const r = stable(db, comps, 'FCC_A1', T, { B: xB });
      const set = r.phases[0];
      const d = phaseDiffusion(ph, T, 101325, set.y, set.x);
      const xA = 1 - xB,
        RT = R * T;
      const MA = Math.exp((xA * (-280000 - 70 * T) + xB * (-260000 - 75 * T) + xA * xB * 15000) / RT) / RT;
      const MB = Math.exp((xA * (-270000 - 72 * T) + xB * (-250000 - 78 * T)) / RT) / RT;
      expect(d.mobility.A / MA).toBeCloseTo(1, 10);
      expect(d.mobility.B / MB).toBeCloseTo(1, 10);
      expect(d.dependent).toBe(xB > 0.5 ? 'B' : 'A');
      const phi = 1 - (2 * 12000 * xA * xB) / RT;
      const darken = (xA * RT * MB + xB * RT * MA) * phi;
      const other = d.dependent === 'A' ? 'B' : 'A';
      expect(d.chemical[other][other] / darken).toBeCloseTo(1, 8);
    }
  });

  it('sums the Fe-Cr-Ni fcc mobility parameters as the TDB writes them (kawin_FeCrNi.tdb)', () => {
    const db = openDatabase(`${TDB}/kawin_FeCrNi.tdb`);
    const comps = ['CR', 'FE', 'NI', 'VA'];
    const model = PhaseModel.build(db, 'FCC_A1', comps)!;
    const ph = diffusionPhase(db, model, comps)!;
    const T = 1373,
      RT = R * T;
    const x = { CR: 0.2, FE: 0.55, NI: 0.25 };
    const y = model.siteFractions([{ CR: x.CR, FE: x.FE, NI: x.NI }, { VA: 1 }]);
    const d = phaseDiffusion(ph, T, 101325, y, x);
    // MQ(FCC_A1&CR, ...) of the file's lines 190-206: end members, binary and ternary (Muggianu) interactions
    const { CR: c, FE: f, NI: n } = x;
    const s = c + f + n;
    const v = (xi: number) => xi + (1 - s) / 3;
    const mqCr =
      c * (-235000 - 82.0 * T) +
      f * (-286000 - 71.9 * T) +
      n * (-287000 - 64.4 * T) +
      c * f * -105000 +
      c * n * -68000 +
      f * n * 16100 +
      c * f * n * (v(c) * 310000 + v(f) * 320000 + v(n) * 120000);
    expect(d.mobility.CR / (Math.exp(mqCr / RT) / RT)).toBeCloseTo(1, 10);
    expect(d.tracer.CR / (Math.exp(mqCr / RT) / 1)).toBeCloseTo(1, 10);
    expect(d.dependent).toBe('FE');
    expect(Object.keys(d.chemical).sort()).toEqual(['CR', 'NI']);
    // the chemical matrix from the intrinsic one: D_kj = D'_kj - x_k sum_i D'_ij (all substitutional)
    for (const k of ['CR', 'NI'])
      for (const j of ['CR', 'NI']) {
        const sum = ['CR', 'FE', 'NI'].reduce((a, i) => a + d.intrinsic[i][j], 0);
        expect(d.chemical[k][j]).toBeCloseTo(d.intrinsic[k][j] - x[k as 'CR' | 'NI'] * sum, 25);
      }
    // diagonal terms positive and the largest (a stable, nearly ideal solid solution)
    expect(d.chemical.CR.CR).toBeGreaterThan(Math.abs(d.chemical.CR.NI));
    expect(d.chemical.NI.NI).toBeGreaterThan(Math.abs(d.chemical.NI.CR));
  });

  it("matches the thermodynamic factor to finite differences of the solver's chemical potentials", () => {
    const db = openDatabase(`${TDB}/kawin_FeCrNi.tdb`);
    const comps = ['CR', 'FE', 'NI', 'VA'];
    const model = PhaseModel.build(db, 'FCC_A1', comps)!;
    const T = 1273;
    const X = { CR: 0.22, NI: 0.18 };
    const r = stable(db, comps, 'FCC_A1', T, X);
    const G = thermodynamicFactor(model, T, 101325, r.phases[0].y)!;
    const els = model.info.elements; // CR, FE, NI; FE dependent
    const h = 1e-5;
    for (const j of ['CR', 'NI']) {
      const up = stable(db, comps, 'FCC_A1', T, { ...X, [j]: X[j as 'CR' | 'NI'] + h });
      const down = stable(db, comps, 'FCC_A1', T, { ...X, [j]: X[j as 'CR' | 'NI'] - h });
      for (const i of els) {
        const fd = (up.mu[i]! - down.mu[i]!) / (2 * h);
        const exact = G[els.indexOf(i)][els.indexOf(j)] - G[els.indexOf(i)][els.indexOf('FE')];
        expect(Math.abs(fd - exact)).toBeLessThan(1e-4 * Math.abs(exact) + 1e-2);
      }
    }
    // Gibbs-Duhem: sum_i x_i dmu_i = 0 for every dN_j
    for (let j = 0; j < 3; j++) {
      const gd = els.reduce((a, el, i) => a + r.phases[0].x[el] * G[i][j], 0);
      expect(Math.abs(gd)).toBeLessThan(1e-6 * Math.abs(G[j][j]));
    }
  });

  it("applies Jonsson's ferromagnetic factor in bcc and none in fcc", () => {
    // xi = 1 at 0 K, (140 p / 79)(1/2 + 1/21 + 1/60) at T*, continuous there
    expect(magneticOrderDegree(1e-6, 0.4)).toBeCloseTo(1, 12);
    expect(magneticOrderDegree(1, 0.4)).toBeCloseTo(((140 * 0.4) / 79) * (1 / 2 + 1 / 21 + 1 / 60), 12);
    expect(magneticOrderDegree(1 - 1e-9, 0.4)).toBeCloseTo(magneticOrderDegree(1, 0.4), 6);
    const tau = 0.8,
      p = 0.4;
    const below = 1 - ((140 * p) / 79) * (474 / 497) * (1 / p - 1) * (tau ** 4 / 2 + tau ** 10 / 15 + tau ** 16 / 40);
    expect(magneticOrderDegree(tau, p)).toBeCloseTo(below, 12);

    const db = openDatabase(`${TDB}/kawin_FeCrNi.tdb`);
    const comps = ['CR', 'FE', 'NI', 'VA'];
    const model = PhaseModel.build(db, 'BCC_A2', comps)!;
    const ph = diffusionPhase(db, model, comps)!;
    const T = 900,
      RT = R * T;
    const y = model.siteFractions([{ FE: 1 - 2e-9, CR: 1e-9, NI: 1e-9 }, { VA: 1 }]);
    const props = model.properties(T, 101325, y);
    expect(props.TC).toBeCloseTo(1043, 0);
    const xi = magneticOrderDegree(T / props.TC, 0.4);
    const d = phaseDiffusion(ph, T, 101325, y, { FE: 1, CR: 0, NI: 0 });
    expect(d.magnetic_order).toBeCloseTo(xi, 10);
    // MQ(BCC_A2&FE,FE:*) and MF(BCC_A2&FE,FE:*) of the file, read back through the mobility's own sums
    const mq = -218000,
      mf = RT * Math.log(4.6e-5);
    const expected = (Math.exp(mf / RT) * Math.exp(((1 + 0.3 * xi) * mq) / RT)) / RT;
    expect(d.mobility.FE / expected).toBeCloseTo(1, 4);
  });
});

// Fe-C austenite (Fe)1(C,VA)1: carbon interstitial, its flux in the volume-fixed frame of iron.
const AUSTENITE = `
ELEMENT VA VACUUM 0 0 0 !
ELEMENT C GRAPHITE 12 0 0 !
ELEMENT FE FCC_A1 56 0 0 !
PHASE FCC_A1 % 2 1 1 !
CONSTITUENT FCC_A1 :FE:C,VA: !
PARAMETER G(FCC_A1,FE:VA;0) 1 -1000*T; 6000 N !
PARAMETER G(FCC_A1,FE:C;0) 1 50000-1100*T; 6000 N !
PARAMETER G(FCC_A1,FE:C,VA;0) 1 -30000; 6000 N !
PARAMETER MQ(FCC_A1&C,FE:VA;0) 1 -147700-98*T; 6000 N !
PARAMETER MQ(FCC_A1&FE,FE:VA;0) 1 -286000-72*T; 6000 N !
`;

describe('interstitial diffusion', () => {
  it('gives carbon in austenite D = u_C yVa M_C dmu_C/du_C and finite differences agree', () => {
    const db = openDatabaseFromString(AUSTENITE, 'austenite.tdb');
    const comps = ['C', 'FE', 'VA'];
    const model = PhaseModel.build(db, 'FCC_A1', comps)!;
    const ph = diffusionPhase(db, model, comps)!;
    expect([...ph.interstitials]).toEqual(['C']);
    const T = 1200,
      xC = 0.04;
    const r = stable(db, comps, 'FCC_A1', T, { C: xC });
    const set = r.phases[0];
    const d = phaseDiffusion(ph, T, 101325, set.y, set.x);
    expect(d.dependent).toBe('FE');
    expect(d.interstitials).toEqual(['C']);
    // u_C = x_C / x_Fe = y_C; mu_C(u_C) from the solver at u_C +- h (x_C = u / (1 + u))
    const uC = xC / (1 - xC);
    const h = 1e-6;
    const muAt = (u: number) => stable(db, comps, 'FCC_A1', T, { C: u / (1 + u) }).mu.C!;
    const dmu = (muAt(uC + h) - muAt(uC - h)) / (2 * h);
    const yVa = 1 - uC;
    // the CEF sum: each end member weighted by its site fractions, so FE:VA by y_Fe y_Va (FE:C absent = 0)
    const MC = Math.exp((yVa * (-147700 - 98 * T)) / (R * T)) / (R * T);
    // the flux of iron in the lattice frame is driven by dmu_Fe/du_C = -u_C dmu_C/du_C (Gibbs-Duhem per Fe atom),
    // and D_CC = D'_CC - u_C D'_FeC
    const MFe = Math.exp((yVa * (-286000 - 72 * T)) / (R * T)) / (R * T);
    expect(d.mobility.C / MC).toBeCloseTo(1, 10);
    const expected = uC * yVa * MC * dmu - uC * (1 * MFe * (-uC * dmu));
    expect(d.chemical.C.C / expected).toBeCloseTo(1, 5);
    expect(d.intrinsic.C.C / (uC * yVa * MC * dmu)).toBeCloseTo(1, 5);
  });
});

describe('mobility data as databases write it', () => {
  it('reads parameters that leave out a vacancy sublattice, and an ordered phase takes its DIS_PART phase data', () => {
    // kawin_NiCrAl.tdb writes MQ(FCC_A1&AL,NI;0) for FCC_A1 (AL,CR,NI)(VA)
    const db = openDatabase(`${TDB}/kawin_NiCrAl.tdb`);
    expect(db.info().warnings.filter((w) => /PARAMETER M[QF]\(/.test(w))).toEqual([]);
    const comps = ['AL', 'CR', 'NI', 'VA'];
    const x = { AL: 0.12, CR: 0.1, NI: 0.78 };
    const fcc = PhaseModel.build(db, 'FCC_A1', comps)!;
    const l12 = PhaseModel.build(db, 'FCC_L12', comps)!;
    const yFcc = fcc.siteFractions([x, { VA: 1 }]);
    const yL12 = l12.siteFractions(l12.info.numSublattices === 5 ? [x, x, x, x, { VA: 1 }] : [x, x, { VA: 1 }]);
    const T = 1273;
    const a = phaseDiffusion(diffusionPhase(db, fcc, comps)!, T, 101325, yFcc, x);
    const b = phaseDiffusion(diffusionPhase(db, l12, comps)!, T, 101325, yL12, x);
    // MQ(FCC_A1&AL,NI;0) = -284000 + RT ln(7.5e-4) and the rest, as the disordered phase: the same sums at y = x
    for (const el of ['AL', 'CR', 'NI']) expect(b.mobility[el]! / a.mobility[el]!).toBeCloseTo(1, 10);
    expect(a.mobility.AL).toBeGreaterThan(0);
  });
});
