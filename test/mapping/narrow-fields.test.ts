// Narrow fields, lenses next to pure elements, congruent points and invariants that are one
// (worker/mapping/binary.ts with field_search.ts and pure_edges.ts), each on the diagram window where it
// was once drawn wrong, so the test stays short:
//  - C-Fe (cfe_broshe): delta + gamma between pure Fe's gamma -> delta transition (1667.5 K) and the
//    peritectic (1767.8 K), three phases of which lie within 0.01 in x;
//  - Al-Ni (alni_dupin_2001): L + gamma' between the eutectic 1641.80 K and the peritectic 1642.65 K; the
//    liquidus next to Ni runs almost level (0.4 K over the last 0.025 in x) and ends at the melting point of
//    Ni, not in a "congruent point";
//  - Al-Fe (alfe): L + fcc between the eutectic 927.14 K and the melting point of Al; the bcc liquidus has
//    a real maximum near 1815 K with a lens on each side, the Fe side one ending at Fe's melting point;
//  - Al-Ni (alnifcc4sl): the L -> gamma' + gamma eutectic is one invariant, and gamma' + L ends in it, not
//    in a congruent point;
//  - Al-Co (alcocrni): the magnetic fcc + fcc#2 gap between its monotectoid on the B2 + fcc solvus (near
//    1091 K) and its critical point (near 1217 K), where the solvus was once drawn with a jump instead.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { PointConverter } from '../../worker/system/point-converter.js';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';

import { auditBinary } from '../../worker/mapping/audit.js';
import { field, mapWindow as map, span } from './windows.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

describe('narrow fields next to invariants and pure elements', () => {
  test('C-Fe: delta + gamma from pure Fe at 1667.5 K up to the peritectic', () => {
    const d = map('cfe_broshe.tdb', ['C', 'FE'], [1600, 1850]);
    const dg = field(d, 'FCC_A1', 'BCC_A2');
    expect(dg).toHaveLength(1);
    const [lo, hi] = span(dg[0]);
    expect(lo).toBeCloseTo(1667.5, 0);
    expect(dg[0].ends).toEqual({ low: 'pure_element', high: 'invariant' });
    const peritectic = d.invariants.find((v) => v.kind === 'peritectic')!;
    expect(hi).toBeCloseTo(peritectic.T, 1);
    expect(d.pureTransitions.map((p) => Math.round(p.T))).toEqual(expect.arrayContaining([1667, 1811]));
  }, 60_000);

  test("Al-Ni: L + gamma' between the eutectic and the peritectic; the Ni liquidus ends at pure Ni", () => {
    const d = map('alni_dupin_2001.tdb', ['AL', 'NI'], [1630, 1760]);
    const eut = d.invariants.find((v) => v.kind === 'eutectic')!,
      per = d.invariants.find((v) => v.kind === 'peritectic')!;
    expect(per.T - eut.T).toBeGreaterThan(0.5);
    const lg = field(d, 'LIQUID', 'FCC_L12');
    expect(lg).toHaveLength(1);
    expect(span(lg[0])[0]).toBeCloseTo(eut.T, 1);
    expect(span(lg[0])[1]).toBeCloseTo(per.T, 1);
    expect(d.congruentPoints.filter((c) => c.x > 0.9)).toEqual([]);
    const ni = d.pureTransitions.find((p) => p.x === 1);
    expect(ni?.T).toBeCloseTo(1728.25, 1);
  }, 120_000);

  test('Al-Fe: L + fcc up to the melting point of Al; bcc liquidus maximum with a lens on each side', () => {
    const low = map('alfe.tdb', ['AL', 'FE'], [900, 960]);
    const lf = field(low, 'LIQUID', 'FCC_A1');
    expect(lf).toHaveLength(1);
    expect(lf[0].ends).toEqual({ low: 'invariant', high: 'pure_element' });
    expect(span(lf[0])[1]).toBeCloseTo(933.47, 1);
    const high = map('alfe.tdb', ['AL', 'FE'], [1780, 1850]);
    const lb = field(high, 'LIQUID', 'BCC_A2');
    expect(lb.map((r) => r.phases.join('+')).sort()).toEqual(['BCC_A2+LIQUID', 'LIQUID+BCC_A2']);
    expect(high.congruentPoints).toHaveLength(1);
    const c = high.congruentPoints[0];
    // both lenses close at the one point
    for (const r of lb) {
      const end = r.tielines[r.tielines.length - 1];
      expect(end).toEqual({ T: c.T, x: [c.x, c.x] });
    }
    expect(high.pureTransitions.find((p) => p.x === 1)?.T).toBeCloseTo(1810.96, 1);
  }, 120_000);

  test("alnifcc4sl: the gamma' + gamma eutectic is one invariant ending three fields", () => {
    const d = map('alnifcc4sl.tdb', ['AL', 'NI'], [1250, 1266]);
    const eut = d.invariants.filter((v) => v.phases.map((p) => p.name).join() === 'L12 (FCC_L12),LIQUID,FCC_L12');
    expect(eut).toHaveLength(1);
    const ends = d.regions
      .flatMap((r) => [r.tielines[0], r.tielines[r.tielines.length - 1]])
      .filter((t) => Math.abs(t.T - eut[0].T) < 0.05);
    expect(ends.length).toBeGreaterThanOrEqual(3);
    expect(d.congruentPoints.filter((c) => Math.abs(c.T - eut[0].T) < 1)).toEqual([]);
  }, 120_000);

  test('Al-Co: the fcc miscibility gap from its monotectoid on the solvus to its critical point', () => {
    const d = map('alcocrni.tdb', ['AL', 'CO'], [1050, 1250]);
    const gap = d.regions.filter((r) => r.phases.join('+') === 'FCC_A1+FCC_A1#2');
    expect(gap).toHaveLength(1);
    expect(gap[0].ends).toEqual({ low: 'invariant', high: 'critical' });
    const mono = d.invariants.find((v) => v.kind === 'monotectoid');
    expect(mono?.T).toBeCloseTo(span(gap[0])[0], 1);
    expect(mono!.phases.map((p) => p.name)).toEqual(['BCC_B2', 'FCC_A1', 'FCC_A1#2']);
    expect(d.criticalPoints).toHaveLength(1);
    expect(d.criticalPoints[0].x).toBeGreaterThan(0.93);
    // the B2 + fcc solvus ends at the monotectoid on both sides instead of jumping through it
    const solvus = d.regions.filter((r) => r.phases.join('+') === 'BCC_B2+FCC_A1');
    expect(solvus).toHaveLength(2);
  }, 120_000);
});

// Fields the audit's scans found and the diagram did not draw because the point solver certified a state above
// the global minimum (native-core/src/solver/basins.cpp): an ordered basin of a four-sublattice FCC behind
// slightly ordered grid points of the disordered set's own basin, or behind the other ordering variants of
// an ordered set (Ni-Pt); a magnetic basin of a one-sublattice HCP between its sampled points (Co-Cr).
describe('basins between the sampled points', () => {
  const sets = (file: string, comps: string[], T: number, X: Record<string, number>) => {
    const db = openDatabase(path.join(SHARED_TDB_DIR, file));
    const r = equilibrium({ database: db, components: comps, conditions: { T, P: 101325, X } });
    expect(r.converged, r.reason).toBe(true);
    const xc = Object.keys(X)[0];
    return new PointConverter(db, comps)
      .point(r)
      .phases.map((p) => ({ structure: p.ordering?.structure ?? p.name, x: p.x[xc] }))
      .sort((a, b) => a.x - b.x);
  };
  // the stable sets in order of x: their structures, and their compositions within 5e-4
  const expectSets = (got: { structure: string; x: number }[], want: [string, number][]) => {
    expect(got.map((p) => p.structure)).toEqual(want.map(([s]) => s));
    got.forEach((p, i) => expect(Math.abs(p.x - want[i][1]), `x of ${p.structure}`).toBeLessThan(5e-4));
  };

  test('Ni-Pt (alnipt): A1 + L12, A1 + L10 and L10 + L12 where the single A1 or L12 was certified', () => {
    // each single state lay 0.7 to 1.4 J/mol above the two-phase tangent (the L10 maximum at 894.46 K 21.6 J/mol)
    expectSets(sets('alnipt.tdb', ['NI', 'PT', 'VA'], 760.42, { PT: 0.196 }), [
      ['A1', 0.1927],
      ['L12', 0.2329],
    ]);
    expectSets(sets('alnipt.tdb', ['NI', 'PT', 'VA'], 894.46, { PT: 0.4431 }), [
      ['A1', 0.4335],
      ['L10', 0.4526],
    ]);
    expectSets(sets('alnipt.tdb', ['NI', 'PT', 'VA'], 831.25, { PT: 0.6 }), [
      ['L10', 0.5654],
      ['A1', 0.6057],
    ]);
    expectSets(sets('alnipt.tdb', ['NI', 'PT', 'VA'], 760.42, { PT: 0.636 }), [
      ['L10', 0.5908],
      ['L12', 0.6414],
    ]);
  });

  test('Al-Fe (alfe): B2 next to its second-order transition, where the A2 state is a saddle, not a maximum', () => {
    // B2 lies 0.26 J/mol below A2 here; a straight path from a B2 grid point to A2 rises all the way
    expectSets(sets('alfe.tdb', ['AL', 'FE', 'VA'], 1539.58, { FE: 0.6575 }), [['B2', 0.6575]]);
  });

  test('Fe-Mg and Cu-Fe (COST507): a solution basin a few J/mol above its best sampled point decides the assemblage', () => {
    // the best grid point of the Fe-rich liquid has DF = -0.44 J/mol, its maximum +0.76 J/mol: BCC + LIQUID
    // was certified 0.39 J/mol above the monotectic's LIQUID + LIQUID (the liquid has no magnetic term)
    expectSets(sets('COST507.tdb', ['FE', 'MG', 'VA'], 1791.4788, { MG: 0.497515 }), [
      ['LIQUID', 0.0185],
      ['LIQUID', 0.9874],
    ]);
    // the Fe-rich FCC (-3.3 and +6.1 J/mol) 4 K above the eutectoid, where the FCC's Curie and Neel
    // temperatures (below 70 K) leave no narrow magnetic basin
    expectSets(sets('COST507.tdb', ['CU', 'FE', 'VA'], 1120, { FE: 0.498349 }), [
      ['FCC_A1', 0.0129],
      ['FCC_A1', 0.9748],
    ]);
  });

  test('Co-Cr (alcocrni): the magnetic HCP + HCP gap next to Co, 692.7-727.9 K', () => {
    expectSets(sets('alcocrni.tdb', ['CO', 'CR', 'VA'], 723.91, { CR: 0.015 }), [
      ['HCP_A3', 0.0071],
      ['HCP_A3', 0.3624],
    ]);
    const d = map('alcocrni.tdb', ['CO', 'CR'], [680, 760]);
    const gap = field(d, 'HCP_A3', 'HCP_A3#2');
    expect(gap).toHaveLength(1);
    expect(gap[0].ends).toEqual({ low: 'invariant', high: 'invariant' });
    expect(span(gap[0])[0]).toBeCloseTo(692.68, 1);
    expect(span(gap[0])[1]).toBeCloseTo(727.88, 1);
    // FCC + HCP from pure Co's allotropic transition up to the peritectoid at the top of the gap
    expect(
      d.regions
        .filter((r) => r.phases.join('+') === 'FCC_A1+HCP_A3')
        .map((r) => r.ends.low)
        .sort(),
    ).toEqual(['invariant', 'pure_element']);
  }, 60_000);
});

describe('the audit names the phases of a transition in any amount', () => {
  test('Cr-Ni (alcocrni) at 1256.25 K: the BCC_A2 + FCC_A1 solvus, FCC_A1 at 4e-10 at the refined bracket end', () => {
    const database = openDatabase(path.join(SHARED_TDB_DIR, 'alcocrni.tdb'));
    // one isotherm at 1256.25 K (the middle of the range)
    const r = auditBinary({ database, elements: ['CR', 'NI'], T: [1255.25, 1257.25], isotherms: 1, threads: 2 });
    expect(r.failures.completeness).toEqual([]);
    expect(r.transitionsCompared).toBeGreaterThan(0);
  }, 60_000);
});
