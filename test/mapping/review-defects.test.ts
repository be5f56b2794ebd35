// Fields, lenses and invariants that an independent review of binary diagrams found drawn wrong, each on the
// window where it was wrong (the issue-level companions of narrow-fields.test.ts; the diagram self-audit checks
// the same systems as a whole):
//  - Fe-Nb (CrFeNb_Jacob2016): alpha + gamma between pure Fe's alpha -> gamma transition (1184.8 K) and the
//    peritectoid, and gamma + delta between the eutectoid and pure Fe's gamma -> delta transition (1667.5 K);
//  - Al-Cu (COST507): gamma_D83 + gamma_H between the eutectoid (1054 K) and the peritectoid (1150 K), and
//    epsilon + zeta between the eutectoids at 852 and 856 K and their congruent maximum, also on a window
//    of 25 K whose seed grid steps over all of eta, epsilon and zeta (0.05 in x);
//  - Al-Co (alcocrni): L + fcc between the Al-rich eutectic and the melting point of Al;
//  - Nb-Re (nbre_liu): the bcc + liquid lens next to pure Nb ends at Nb's melting point, not in a congruent point;
//  - Al-Cu and Al-Cr: a real liquidus maximum next to the element, with the lens on the element's side;
//  - Co-Cr (alcocrni): the hcp monotectoid is one invariant, not two 0.4 K apart.
import { describe, expect, test } from 'vitest';
import { type BinaryDiagram } from '../../worker/mapping/binary.js';
import { field, mapWindow as map, span } from './windows.js';

const kinds = (d: BinaryDiagram, kind: string) => d.invariants.filter((v) => v.kind === kind);

describe('defects of the diagram review', () => {
  test('Fe-Nb: alpha + gamma and gamma + delta reach the allotropic transitions of pure Fe', () => {
    const d = map('CrFeNb_Jacob2016.tdb', ['FE', 'NB'], [1150, 1700]);
    const ag = field(d, 'FCC_A1', 'BCC_A2').sort((a, b) => span(a)[0] - span(b)[0]);
    expect(ag).toHaveLength(2);
    const [peritectoid] = kinds(d, 'peritectoid'),
      [eutectoid] = kinds(d, 'eutectoid');
    expect(ag[0].ends).toEqual({ low: 'pure_element', high: 'invariant' });
    expect(span(ag[0])[0]).toBeCloseTo(1184.8, 0);
    expect(span(ag[0])[1]).toBeCloseTo(peritectoid.T, 1);
    expect(ag[1].ends).toEqual({ low: 'invariant', high: 'pure_element' });
    expect(span(ag[1])[0]).toBeCloseTo(eutectoid.T, 1);
    expect(span(ag[1])[1]).toBeCloseTo(1667.5, 0);
    expect(d.pureTransitions.filter((p) => p.x === 0).map((p) => Math.round(p.T))).toEqual(
      expect.arrayContaining([1185, 1667]),
    );
  }, 120_000);

  test('Al-Cu: gamma_D83 + gamma_H from 1054 to 1150 K and epsilon + zeta above the 852 K eutectoid', () => {
    const high = map('COST507.tdb', ['AL', 'CU'], [1040, 1160]);
    const gg = field(high, 'GAMMA_D83', 'GAMMA_H');
    expect(gg).toHaveLength(1);
    expect(gg[0].ends).toEqual({ low: 'invariant', high: 'invariant' });
    expect(span(gg[0])[0]).toBeCloseTo(1054.2, 0);
    expect(span(gg[0])[1]).toBeCloseTo(1150.5, 0);
    const low = map('COST507.tdb', ['AL', 'CU'], [845, 870]);
    const ez = field(low, 'ALCU_EPSILON', 'ALCU_ZETA');
    // one field on each side of the congruent maximum, from the eta + epsilon + zeta eutectoid (852.4 K) and from
    // the zeta + epsilon + delta eutectoid (855.9 K); this window's grid steps over the whole eta-zeta group
    expect(ez).toHaveLength(2);
    expect(ez.map((r) => Math.round(span(r)[0] * 10) / 10).sort()).toEqual([852.4, 855.9]);
    for (const r of ez) expect(r.ends.high).toBe('congruent');
    expect(field(low, 'ALCU_ETA', 'ALCU_ZETA')).toHaveLength(1);
    expect(low.congruentPoints.map((c) => c.phases.slice().sort().join('+'))).toContain('ALCU_EPSILON+ALCU_ZETA');
  }, 120_000);

  test('Al-Co: L + fcc between the Al-rich eutectic and the melting point of Al', () => {
    const d = map('alcocrni.tdb', ['AL', 'CO'], [900, 960]);
    const lf = field(d, 'LIQUID', 'FCC_A1');
    expect(lf).toHaveLength(1);
    expect(lf[0].ends).toEqual({ low: 'invariant', high: 'pure_element' });
    expect(span(lf[0])[1]).toBeCloseTo(933.47, 1);
    expect(d.pureTransitions.find((p) => p.x === 0)?.T).toBeCloseTo(933.47, 1);
  }, 120_000);

  test('Nb-Re: the lens next to pure Nb ends at its melting point, no congruent point', () => {
    const d = map('nbre_liu.tdb', ['NB', 'RE'], [2700, 2800]);
    expect(d.congruentPoints).toEqual([]);
    const lens = field(d, 'BCC_RENB', 'LIQUID_RENB');
    expect(lens).toHaveLength(1);
    expect(lens[0].ends.high).toBe('pure_element');
  }, 120_000);

  test.each([
    ['COST507.tdb', ['AL', 'CU'], [1340, 1370], 'FCC_A1', 1358.7],
    ['alcocrni.tdb', ['AL', 'CR'], [2170, 2200], 'BCC_A2', 2188.7],
  ] as const)(
    '%s %j: a liquidus maximum with a lens on the element side',
    (file, comps, T, solid, Tmax) => {
      const d = map(file, [...comps] as [string, string], [...T] as [number, number]);
      expect(d.congruentPoints).toHaveLength(1);
      const c = d.congruentPoints[0];
      expect(c.T).toBeCloseTo(Tmax, 0);
      const lenses = field(d, 'LIQUID', solid);
      expect(lenses).toHaveLength(2);
      const elementSide = lenses.find((r) => r.ends.low === 'pure_element');
      expect(elementSide?.ends.high).toBe('congruent');
      const melting = d.pureTransitions.find((p) => p.x === 1)!;
      expect(melting.T).toBeLessThan(c.T);
      expect(span(elementSide!)[0]).toBeCloseTo(melting.T, 1);
    },
    120_000,
  );

  test('Co-Cr: the hcp monotectoid is one invariant', () => {
    const d = map('alcocrni.tdb', ['CO', 'CR'], [680, 700]);
    const near = d.invariants.filter((v) => Math.abs(v.T - 692.5) < 2);
    expect(near).toHaveLength(1);
    expect(near[0].kind).toBe('monotectoid');
  }, 120_000);
});
