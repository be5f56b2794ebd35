// Behaviour of the phase models through the TypeScript wrapper: variables and constraints, N_f and
// M_A, properties from exact T/P derivatives, the value-only and batch paths, order-disorder identities,
// and errors (never crashes) on bad input.
import { describe, expect, it } from 'vitest';
import { PhaseModel, expandedParameterCount } from '../../../worker/core/models.js';
import { loadCore } from '../../../worker/core/native.js';
import { db, haveTdb, interiorPoint, model } from './helpers.js';

describe.skipIf(!haveTdb)('phase models', () => {
  it('lists variables in sublattice order with sorted constituents and one site-sum constraint per sublattice', () => {
    const m = model('alcfe_b2.tdb', 'B2_BCC', ['FE', 'AL', 'C', 'VA']);
    expect(m.variables.map((v) => `${v.sublattice}:${v.species}`)).toEqual([
      '0:AL',
      '0:FE',
      '0:VA',
      '1:AL',
      '1:FE',
      '1:VA',
      '2:C',
      '2:VA',
    ]);
    expect(m.constraints.map((c) => c.kind)).toEqual(['site_sum', 'site_sum', 'site_sum']);
    expect(Array.from(m.constraints[2].coeff)).toEqual([0, 0, 0, 0, 0, 0, 1, 1]);
    expect(m.info.elements).toEqual(['AL', 'C', 'FE']);
  });

  it('drops inactive constituents and returns null when a sublattice would be empty', () => {
    const m = model('alcfe_b2.tdb', 'B2_BCC', ['FE', 'C', 'VA']);
    expect(m.variables.some((v) => v.species === 'AL')).toBe(false);
    expect(PhaseModel.build(db('alcocrni.tdb'), 'AL13CO4', ['CR', 'NI'])).toBeNull();
  });

  it('adds the electroneutrality constraint (7.5) to a charged phase and not to the ionic liquid', () => {
    const m = model('pycalphad_inline_alcl3_charged.tdb', 'ALCL3', ['AL', 'CL', 'VA']);
    const charge = m.constraints.find((c) => c.kind === 'charge');
    expect(m.info.charged).toBe(true);
    expect(Array.from(charge!.coeff)).toEqual([3, 0, -1]);
    const il = model('femns.tdb', 'IONIC_LIQ', ['FE', 'S', 'VA']);
    expect(il.info.ionicLiquid).toBe(true);
    expect(il.constraints.some((c) => c.kind === 'charge')).toBe(false);
  });

  it('computes N_f and M_A with variable site ratios in the ionic liquid (7.1)', () => {
    const m = model('femns.tdb', 'IONIC_LIQ', ['FE', 'S', 'VA']);
    // variables: FE+2 | S, S-2, VA ; Q = 2 y_FE+2, P = 2 y_S-2 + Q y_VA
    const y = [1, 0.2, 0.5, 0.3];
    const r = m.moles(y, 2);
    const Q = 2;
    const P = 2 * 0.5 + Q * 0.3;
    expect(r.M[0]).toBeCloseTo(P, 12); // FE
    expect(r.M[1]).toBeCloseTo(Q * (0.2 + 0.5), 12); // S
    expect(r.Nf).toBeCloseTo(P + Q * 0.7, 12);
    // d2M is non-zero only because P contains Q y_VA
    expect(r.d2M.some((v) => v !== 0)).toBe(true);
    const e = m.evaluate(1600, 101325, y, 0);
    expect(e.Gf).toBeCloseTo(e.GM * r.Nf, 6);
  });

  it('gives SM, HM and CPM from exact T-derivatives (Al-Zn liquid Cp at 700 K, formula sheet §9.3)', () => {
    const m = model('alzn_mey.tdb', 'LIQUID', ['AL', 'ZN']);
    const p = m.properties(700, 101325, [0.7, 0.3]);
    expect(p.CPM).toBeCloseTo(29.63807, 4);
    expect(p.HM).toBeCloseTo(p.GM + 700 * p.SM, 8);
    // S = -dG/dT and Cp = -T d2G/dT2 against finite differences away from the 700 K breakpoint
    const h = 1e-2;
    const g = (T: number) => m.evaluate(T, 101325, [0.7, 0.3], 0).GM;
    const q = m.properties(710, 101325, [0.7, 0.3]);
    expect(q.SM).toBeCloseTo(-(g(710 + h) - g(710 - h)) / (2 * h), 5);
    expect(q.CPM).toBeCloseTo((-710 * (g(710 + h) - 2 * g(710) + g(710 - h))) / (h * h), 2);
  });

  it('reports VM as the P-derivative of GM for a volume model (6.2/6.3)', () => {
    const m = model('pycalphad_inline_fe_molar_volume.tdb', 'BCC_A2', ['FE']);
    const p = m.properties(300, 101325, [1]);
    expect(p.VM).toBeCloseTo(7.09241e-6, 9);
    const e = m.evaluate(300, 101325, [1], 1);
    expect(e.dGM[1]).toBeCloseTo(p.VM, 12);
  });

  it('gives the Curie temperature alone as properties() does, on both sides of the afm rule (IHJ §3.2)', () => {
    const m = model('crfe_bcc_magnetic.tdb', 'BCC_A2', ['CR', 'FE', 'VA']);
    for (const x of [0, 0.05, 0.2, 0.5, 0.8, 1]) {
      const y = [1 - x, x, 1];
      expect(m.curieTemperature(700, 101325, y)).toBe(m.properties(700, 101325, y).TC);
    }
    // Fe's Curie temperature, and Cr's Neel temperature: its negative T_C divided by the afm factor -1
    expect(m.curieTemperature(700, 101325, [0, 1, 1])).toBeCloseTo(1043, 9);
    expect(m.curieTemperature(700, 101325, [1, 0, 1])).toBeCloseTo(311.5, 9);
  });

  it('has a zero order-disorder bracket at disordered configurations (5.2)', () => {
    const ord = model('alcocrni.tdb', 'BCC_B2', ['AL', 'CO', 'CR', 'NI', 'VA']);
    const dis = model('alcocrni.tdb', 'BCC_A2', ['AL', 'CO', 'CR', 'NI', 'VA']);
    const x = [0.3, 0.25, 0.2, 0.15, 0.1];
    const yo = [...x, ...x, 1];
    const yd = [...x, 1];
    for (const T of [400, 1000, 1600]) {
      expect(ord.evaluate(T, 101325, yo, 0).GM).toBeCloseTo(dis.evaluate(T, 101325, yd, 0).GM, 7);
    }
    // and an ordered configuration differs
    const yOrd = [0.6, 0.1, 0.1, 0.1, 0.1, 0.0, 0.4, 0.3, 0.2, 0.1, 1];
    expect(
      Math.abs(ord.evaluate(800, 101325, yOrd, 0).GM - dis.evaluate(800, 101325, [0.3, 0.25, 0.2, 0.15, 0.1, 1], 0).GM),
    ).toBeGreaterThan(1);
  });

  it('expands the phase options B/F of Al-Fe (Sundman 2009) to 375 parameters (§5.5)', () => {
    expect(expandedParameterCount(db('Al-Fe_sundman2009.tdb'))).toBe(375);
  });

  it('gives the same GM on the value-only, single and batch paths', () => {
    const m = model('alcocrni.tdb', 'L12_FCC', ['AL', 'CO', 'CR', 'NI', 'VA']);
    const pts = [interiorPoint(m, 3), interiorPoint(m, 5), interiorPoint(m, 11)];
    const Y = Float64Array.from(pts.flatMap((p) => Array.from(p)));
    const single = pts.map((p) => m.evaluate(900, 101325, p, 2).GM);
    const fast = m.energies(900, 101325, Y);
    const batch = m.evaluateBatch(900, 101325, Y, 2, 2);
    for (let k = 0; k < pts.length; k++) {
      expect(fast[k]).toBeCloseTo(single[k], 9);
      expect(batch[k]).toBeCloseTo(single[k], 9);
    }
  });

  // The value-only path sums G, the ideal part and the magnetic term as scalars (CompiledModel::gf_value); the
  // energies with derivatives go through the jets. Both must give one G_M for every kind of model: IHJ magnetic
  // (BCC factor -1, others -3), Xiong (factor 0, Curie and Neel temperatures), an ordered phase with its
  // disordered part, and one with Einstein and two-state terms (which keeps the jets).
  it("gives the jets' G_M on the scalar value path for every kind of magnetic and ordered model", () => {
    const xiong = loadCore().Database.fromString(
      [
        'ELEMENT VA VACUUM 0 0 0 !',
        'ELEMENT FE BCC_A2 55.847 0 0 !',
        'ELEMENT MN CBCC_A12 54.938 0 0 !',
        'TYPE_DEFINITION % SEQ * !',
        'TYPE_DEFINITION & GES A_P_D BCC_A2 MAGNETIC 0.0 0.37 !',
        'PHASE BCC_A2 %& 2 1 3 !',
        'CONSTITUENT BCC_A2 :FE,MN:VA: !',
        'PARAMETER G(BCC_A2,FE:VA;0) 298.15 -1000-20*T; 6000 N !',
        'PARAMETER G(BCC_A2,MN:VA;0) 298.15 -3000-18*T; 6000 N !',
        'PARAMETER L(BCC_A2,FE,MN:VA;0) 298.15 -2000+T; 6000 N !',
        'PARAMETER TC(BCC_A2,FE:VA;0) 298.15 1043; 6000 N !',
        'PARAMETER NT(BCC_A2,MN:VA;0) 298.15 580; 6000 N !',
        'PARAMETER BMAGN(BCC_A2,FE:VA;0) 298.15 2.22; 6000 N !',
        'PARAMETER BMAGN(BCC_A2,MN:VA;0) 298.15 0.27; 6000 N !',
        'PARAMETER TC(BCC_A2,FE,MN:VA;0) 298.15 -400; 6000 N !',
      ].join('\n'),
      'xiong-inline.tdb',
    );
    const cases: [PhaseModel, string][] = [
      [model('crfe_bcc_magnetic.tdb', 'BCC_A2', ['CR', 'FE', 'VA']), 'IHJ, BCC'],
      [model('alcocrni.tdb', 'L12_FCC', ['AL', 'CO', 'CR', 'NI', 'VA']), 'IHJ, ordered with its disordered part'],
      [model('Al-Fe_sundman2009.tdb', 'BCC_4SL', ['AL', 'FE', 'VA']), 'IHJ, 4-sublattice BCC'],
      [PhaseModel.build(xiong, 'BCC_A2', ['FE', 'MN', 'VA'])!, 'Xiong'],
      [model('femn.tdb', 'LIQUID', ['FE', 'MN', 'VA']), 'Xiong with Einstein and two-state terms'],
      [model('pycalphad_inline_extrapolate_T.tdb', 'ORDERED', ['A', 'B', 'VA']), 'two sublattices, disordered part'],
    ];
    for (const [m, what] of cases) {
      for (const T of [300, 700, 1100, 1800]) {
        const pts = [1, 2, 3, 5, 8, 13].map((seed) => interiorPoint(m, seed));
        const fast = m.energies(T, 101325, Float64Array.from(pts.flatMap((p) => Array.from(p))));
        pts.forEach((p, k) => {
          const jets = m.evaluate(T, 101325, p, 2).GM;
          expect(Math.abs(fast[k]! - jets), `${what} at ${T} K, point ${k}`).toBeLessThanOrEqual(
            1e-9 * (1 + Math.abs(jets)),
          );
          expect(m.evaluate(T, 101325, p, 0).GM, `${what} at ${T} K, order 0`).toBe(fast[k]);
        });
      }
    }
  });

  it('refuses bad input with an Error instead of crashing', () => {
    const m = model('alzn_mey.tdb', 'LIQUID', ['AL', 'ZN']);
    expect(() => m.evaluate(700, 101325, [0.5], 2)).toThrow(/expected 2 site fractions/);
    expect(() => m.evaluate(-1, 101325, [0.5, 0.5], 2)).toThrow(/temperature/);
    expect(() => m.evaluate(700, 101325, [NaN, 0.5], 2)).toThrow(/finite/);
    expect(() => m.energies(700, 101325, [0.5, 0.5, 0.1])).toThrow(/multiple/);
    expect(() => PhaseModel.build(db('alzn_mey.tdb'), 'NO_SUCH_PHASE', ['AL'])).toThrow(/unknown phase NO_SUCH_PHASE/);
    expect(() => PhaseModel.build({} as never, 'LIQUID', ['AL'])).toThrow();
    expect(() => m.siteFractions([{ AL: 0.5, ZN: 0.5 }, { AL: 1 }])).toThrow(/sublattices/);
  });
});
