// Order/disorder in binary diagrams: alfe.tdb has B2_BCC with DIS_PART BCC_A2. The mapping
// labels the disordered state BCC_A2 and locates the second-order B2/A2 transition; each located point
// is checked against point equilibria below (20 K, see the comment in the test) and 2 K above, which
// must differ in the ordering state (site fractions of the two bcc sublattices equal = disordered).
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { PointConverter } from '../../worker/system/point-converter.js';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { PhaseModel } from '../../worker/core/models.js';
import { mapBinary, type BinaryDiagram } from '../../worker/mapping/binary.js';

import { SHARED_TDB_DIR } from '../support/shared.js';

test('alfe: B2/A2 second-order line located and confirmed by point equilibria', () => {
  const db = openDatabase(path.join(SHARED_TDB_DIR, 'alfe.tdb'));
  const comps = ['AL', 'FE', 'VA'];
  const d = mapBinary({ database: db, components: ['AL', 'FE'], T: [300, 2000], threads: 2 });
  expect(d.orderDisorder.phases).toContainEqual({ ordered: 'B2_BCC', disordered: 'BCC_A2' });
  const line = d.orderDisorder.secondOrderLines.find((l) => l.ordered === 'B2_BCC');
  expect(line).toBeDefined();
  expect(line!.points.length).toBeGreaterThan(5);
  const model = PhaseModel.build(db, 'B2_BCC', comps)!;
  // order parameter: largest difference of one species' fraction between the first two sublattices
  const order = (y: Float64Array) => {
    let m = 0;
    model.variables.forEach((v, k) => {
      if (v.sublattice !== 0) return;
      const j = model.variables.findIndex((w) => w.sublattice === 1 && w.species === v.species);
      if (j >= 0) m = Math.max(m, Math.abs(y[k] - y[j]));
    });
    return m;
  };
  const state = (T: number, x: number) => {
    const r = equilibrium({ database: db, components: comps, conditions: { T, X: { FE: x } } });
    const b2 = r.phases.filter((p) => p.name === 'B2_BCC');
    if (!r.converged || r.phases.length !== 1 || b2.length !== 1) return null; // only single bcc points decide
    return order(b2[0].y) > 1e-3 ? 'ordered' : 'disordered';
  };
  let checked = 0;
  for (const p of line!.points.filter((_, k) => k % 3 === 0)) {
    // 20 K below: next to T_c the solver can stop in the disordered state (a stationary point of G by
    // symmetry) although the ordered one is lower; the mapping takes T_c from the ordered side with the
    // mean-field law eta^2 ~ (T_c - T), so the plain point equilibrium turns ordered only some K below
    const lo = state(p.T - 20, p.x),
      hi = state(p.T + 2, p.x);
    if (!lo || !hi) continue;
    checked++;
    expect(lo === 'ordered' && hi === 'disordered', `T=${p.T} x=${p.x}: ${lo} 20 K below, ${hi} 2 K above`).toBe(true);
  }
  expect(checked).toBeGreaterThan(2);
  // no three-phase "invariant" is made of the two ordering states of one phase
  for (const v of d.invariants) {
    const names = v.phases.map((q) => q.name);
    expect(names.includes('B2_BCC') && names.includes('BCC_A2')).toBe(false);
  }
}, 120_000);

// Four-sublattice BCC (Al-Fe, Sundman et al., Acta Mater. 57 (2009) 2896): one phase, BCC_4SL, with
// three states A2 (the DIS_PART BCC_A2), B2 and D03. The diagram draws both second-order lines, the
// A2/B2 one down to where it meets the A2 + B2 field (941 K) and the D03/B2 one up to where it meets
// the A2 + D03 / A2 + B2 fields (838 K), and labels the ordered fields by their structure. Each line
// point is confirmed by cold point equilibria at the same x: the more ordered state 20 K below (see the
// alfe test), the less ordered one 2 K above.
describe('four-sublattice ordering: Al-Fe (Sundman 2009)', () => {
  const db = openDatabase(path.join(SHARED_TDB_DIR, 'Al-Fe_sundman2009.tdb'));
  const comps = ['AL', 'FE', 'VA'];
  const conv = new PointConverter(db, comps);
  const structureAt = (T: number, x: number) => {
    const r = equilibrium({ database: db, components: comps, conditions: { T, X: { FE: x } } });
    const sets = r.phases.filter((p) => p.NP > 1e-9);
    if (!r.converged || sets.length !== 1) return null; // only single bcc points decide
    return sets[0].name === 'BCC_A2' ? 'A2' : (conv.ordering(sets[0])?.structure ?? null);
  };
  let d: BinaryDiagram;
  beforeAll(() => {
    d = mapBinary({
      database: db,
      components: ['AL', 'FE'],
      T: [800, 1000],
      X: [0.7, 0.78],
      grid: { nT: 5, nX: 9 },
      threads: 2,
    });
  }, 120_000);

  test('the D03/B2 and the A2/B2 lines are traced and confirmed by point equilibria on both sides', () => {
    for (const [ordered, disordered, below, above, Tmin, Tmax] of [
      ['D03 (BCC_4SL)', 'B2 (BCC_4SL)', 'D03', 'B2', 830, 855],
      ['B2 (BCC_4SL)', 'BCC_A2', 'B2', 'A2', 945, 995],
    ] as const) {
      const line = d.orderDisorder.secondOrderLines.find((l) => l.ordered === ordered && l.disordered === disordered);
      expect(line, `${ordered}/${disordered} line`).toBeDefined();
      // the line spans its range without gaps (A2/B2: down to the tricritical point at 941 K)
      expect(Math.min(...line!.points.map((p) => p.T))).toBeLessThan(Tmin);
      expect(Math.max(...line!.points.map((p) => p.T))).toBeGreaterThan(Tmax);
      for (let i = 1; i < line!.points.length; i++)
        expect(Math.abs(line!.points[i].T - line!.points[i - 1].T)).toBeLessThan(60);
      let checked = 0;
      for (const p of line!.points) {
        const lo = structureAt(p.T - 20, p.x),
          hi = structureAt(p.T + 2, p.x);
        if (!lo || !hi) continue;
        checked++;
        expect(`${lo}/${hi}`, `T=${p.T.toFixed(2)} x=${p.x.toFixed(4)}`).toBe(`${below}/${above}`);
      }
      expect(checked).toBeGreaterThan(1);
    }
  }, 60_000);

  test('fields and single-phase labels are named by the ordering (B2, D03), not BCC_4SL / BCC_4SL#2', () => {
    const regions = d.regions.map((r) => [...r.phases].sort().join('+'));
    expect(regions).toContain('BCC_A2+D03 (BCC_4SL)');
    expect(regions).toContain('B2 (BCC_4SL)+BCC_A2');
    expect(d.singlePhaseLabels.map((l) => l.label)).toEqual(
      expect.arrayContaining(['B2 (BCC_4SL)', 'D03 (BCC_4SL)', 'BCC_A2']),
    );
    expect([...regions, ...d.singlePhaseLabels.map((l) => l.label)].some((l) => /BCC_4SL(#|\+|$)/.test(l))).toBe(false);
    // the A2 + B2 field closes at a tricritical point, ordered state first
    expect(d.tricriticalPoints.map((c) => c.phases)).toContainEqual(['B2 (BCC_4SL)', 'BCC_A2']);
  });
});
