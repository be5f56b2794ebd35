// Order-disorder pairs whose ordered sublattices hold fewer constituents than the disordered phase (Thermo-Calc's rule
// "some constituents may not enter all ordering sublattices", native-core/src/io/database.hpp order_disorder_layout):
// mc_al's GP_MAT orders (AL,MG,SI) on the fcc sites of FCC_A1, which takes 16 elements. The partitioned energy must
// be the disordered phase's energy wherever the ordered sublattices hold the same fractions (the ordering term
// G_ord(y) - G_ord(x) vanishes, formula sheet §5.3), magnetic parameters of the disordered part included.
import { describe, expect, it } from 'vitest';
import { openDatabase, openDatabaseFromString } from '../../../worker/core/database.js';
import { PhaseModel } from '../../../worker/core/models.js';
import { seededRandom } from '../../support/random.js';
import { haveTdb, tdbPath } from '../io/helpers.js';

const P = 101325;

/** GM of `ordered` with every merged sublattice at the fractions x, and GM of `disordered` at x, at T. */
function bothAt(ordered: PhaseModel, disordered: PhaseModel, merged: number, x: Record<string, number>, T: number) {
  const interstitial = ordered.info.numSublattices - merged;
  const ySpec = [
    ...Array.from({ length: merged }, () => x),
    ...Array.from({ length: interstitial }, () => ({ VA: 1 })),
  ];
  const dSpec = [x, ...Array.from({ length: interstitial }, () => ({ VA: 1 }))];
  return {
    ordered: ordered.evaluate(T, P, ordered.siteFractions(ySpec), 0).GM,
    disordered: disordered.evaluate(T, P, disordered.siteFractions(dSpec), 0).GM,
  };
}

describe('ordered sublattices with a subset of the disordered constituents', () => {
  const text = [
    'ELEMENT VA VACUUM 0 0 0 !',
    'ELEMENT A BLANK 10 0 0 !',
    'ELEMENT B BLANK 20 0 0 !',
    'ELEMENT C BLANK 30 0 0 !',
    'TYPE_DEFINITION M GES A_P_D DIS MAGNETIC -3.0 0.28 !',
    'TYPE_DEFINITION O GES A_P_D ORD DIS_PART DIS !',
    'PHASE DIS %M 2 1 1 !',
    'CONSTITUENT DIS :A,B,C:VA: !',
    'PARAMETER G(DIS,A:VA;0) 1 -1000-2*T; 6000 N !',
    'PARAMETER G(DIS,B:VA;0) 1 -3000-T; 6000 N !',
    'PARAMETER G(DIS,C:VA;0) 1 500; 6000 N !',
    'PARAMETER L(DIS,A,B:VA;0) 1 -8000; 6000 N !',
    'PARAMETER L(DIS,A,B:VA;1) 1 1500; 6000 N !',
    'PARAMETER TC(DIS,A:VA;0) 1 900; 6000 N !',
    'PARAMETER BMAGN(DIS,A:VA;0) 1 1.5; 6000 N !',
    'PHASE ORD %O 3 0.5 0.5 1 !',
    'CONSTITUENT ORD :A,B:A,B:VA: !',
    'PARAMETER G(ORD,A:B:VA;0) 1 -20000; 6000 N !',
    'PARAMETER G(ORD,B:A:VA;0) 1 -20000; 6000 N !',
    'PARAMETER L(ORD,A,B:A:VA;0) 1 700; 6000 N !',
  ].join('\n');
  const db = openDatabaseFromString(text, 'subset.tdb');

  it('loads the pair without a warning', () => {
    expect(db.info().loadWarnings).toEqual([]);
    expect(db.info().phases.find((p) => p.name === 'ORD')!.disorderedPart).toBe('DIS');
  });

  it('the ordering energy vanishes at every disordered state; an ordered state lies below', () => {
    const ord = PhaseModel.build(db, 'ORD', ['A', 'B', 'VA'])!;
    const dis = PhaseModel.build(db, 'DIS', ['A', 'B', 'VA'])!;
    const rand = seededRandom(11);
    for (let i = 0; i < 20; i++) {
      const xa = rand();
      const T = 300 + 1500 * rand();
      const g = bothAt(ord, dis, 2, { A: xa, B: 1 - xa }, T);
      expect(Math.abs(g.ordered - g.disordered), `x(A) = ${xa}, T = ${T}`).toBeLessThan(1e-9 * Math.abs(g.disordered));
    }
    const ordered = ord.evaluate(500, P, ord.siteFractions([{ A: 1 }, { B: 1 }, { VA: 1 }]), 0).GM;
    expect(ordered).toBeLessThan(bothAt(ord, dis, 2, { A: 0.5, B: 0.5 }, 500).disordered);
  });

  it('with a third element active, C enters only through the disordered part', () => {
    const ord = PhaseModel.build(db, 'ORD', ['A', 'B', 'C', 'VA'])!;
    expect(ord.variables.map((v) => `${v.sublattice}:${v.species}`)).toEqual(['0:A', '0:B', '1:A', '1:B', '2:VA']);
  });
});

describe.skipIf(!haveTdb)('mc_al GP_MAT (DIS_PART FCC_A1)', () => {
  const db = openDatabase(tdbPath('mc_al_v2.032.pycalphad.tdb'));
  it('is read as an ordered phase of FCC_A1 and offered', () => {
    const info = db.info();
    expect(info.phases.find((p) => p.name === 'GP_MAT')!.disorderedPart).toBe('FCC_A1');
    expect(info.loadWarnings.filter((w) => w.phase === 'GP_MAT')).toEqual([]);
    expect(db.phasesFor(['AL', 'MG', 'SI'])).toContain('GP_MAT');
  });

  it('equals FCC_A1 wherever its four fcc sublattices hold the same fractions', () => {
    const comps = ['AL', 'MG', 'SI', 'VA'];
    const gp = PhaseModel.build(db, 'GP_MAT', comps)!;
    const fcc = PhaseModel.build(db, 'FCC_A1', comps)!;
    const rand = seededRandom(5);
    for (let i = 0; i < 20; i++) {
      const w = [rand(), rand(), rand()];
      const s = w[0] + w[1] + w[2];
      const T = 300 + 600 * rand();
      const g = bothAt(gp, fcc, 4, { AL: w[0] / s, MG: w[1] / s, SI: w[2] / s }, T);
      expect(Math.abs(g.ordered - g.disordered), `T = ${T}`).toBeLessThan(1e-9 * Math.abs(g.disordered));
    }
  });
});
