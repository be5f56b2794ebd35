// The L10 band of Ni-rich fcc in alnifcc4sl (a four-sublattice FCC_L12, Al-Ni): below ~660 K the disordered A1
// orders as L10 (two sublattices richer in Al) in a band 0.001-0.01 wide between the L12 + L10 field and the
// A1 range; the A1/L10 second-order line meets the L12 solvus at ~370 K (a critical end point), below which
// the solvus is L12 + A1. The disordered state is a stationary point of G by symmetry on both sides of the
// line, so an equilibrium that stops there is a saddle, 1 J/mol above the L10 state next to it; certified as
// converged, it hid the band from the diagram (L12 + A1 drawn down to 510 K, the line ending at ~415 K) while
// warm-started scans found it.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { PointConverter } from '../../worker/system/point-converter.js';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { PhaseModel } from '../../worker/core/models.js';
import { mapBinary } from '../../worker/mapping/binary.js';

import { SHARED_TDB_DIR } from '../support/shared.js';

const database = openDatabase(path.join(SHARED_TDB_DIR, 'alnifcc4sl.tdb'));
const components = ['AL', 'NI', 'VA'];
const conv = new PointConverter(database, components);

/** The stable sets at (T, x(NI)) as the results name them (structure of FCC_L12: A1, L12, L10), sorted by x. */
function state(T: number, x: number): string[] {
  const r = equilibrium({ database, components, conditions: { T, X: { NI: x } } });
  expect(r.converged, `${T} K x=${x}: ${r.reason}`).toBe(true);
  return r.phases
    .filter((p) => p.NP > 1e-9)
    .sort((a, b) => a.x.NI - b.x.NI)
    .map((p) => conv.ordering(p)?.structure ?? p.name);
}

/** Bisection in x at fixed T between a and b (states differing by `differ`) to 1e-5: the two sides. */
function bisect(T: number, a: number, b: number, differ: (l: string[], r: string[]) => boolean): [number, number] {
  const sb = state(T, b);
  expect(differ(state(T, a), sb), `${T} K: no change between ${a} and ${b}`).toBe(true);
  while (b - a > 1e-5) {
    const m = (a + b) / 2;
    if (differ(state(T, m), sb)) a = m;
    else b = m;
  }
  return [a, b];
}

const same = (l: string[], r: string[]) => l.join('+') === r.join('+');

describe('alnifcc4sl: the L10 band next to the L12 solvus of Ni-rich fcc', () => {
  test('the disordered state is not certified where L10 lies below it (a saddle of G)', () => {
    const T = 480,
      x = 0.985;
    const r = equilibrium({ database, components, conditions: { T, X: { NI: x } } });
    expect(r.converged).toBe(true);
    const stable = r.phases.filter((p) => p.NP > 1e-9);
    expect(stable.map((p) => conv.ordering(p)?.structure)).toEqual(['L10']);
    // the disordered state at the same composition, from the model: equal site fractions on the four sublattices
    const model = PhaseModel.build(database, 'FCC_L12', components)!;
    const fcc: Record<string, number>[] = [0, 1, 2, 3].map(() => ({ AL: 1 - x, NI: x }));
    const y = model.siteFractions([...fcc, { VA: 1 }]);
    const gDisordered = model.evaluate(T, 101325, y, 0).GM;
    expect(gDisordered - r.GM).toBeGreaterThan(0.5);
  });

  test('the diagram draws the L12 + L10 field and the A1/L10 line where point equilibria find them', () => {
    const d = mapBinary({ database, components: ['AL', 'NI'], xComponent: 'NI', T: [300, 700], threads: 2 });
    const line = d.orderDisorder.secondOrderLines.find(
      (l) => l.ordered === 'L10 (FCC_L12)' && l.disordered === 'A1 (FCC_L12)',
    );
    expect(line, 'the A1/L10 line').toBeDefined();
    const lineAt = (T: number) => {
      const p = line!.points;
      for (let i = 0; i + 1 < p.length; i++)
        if ((p[i].T - T) * (p[i + 1].T - T) <= 0 && p[i].T !== p[i + 1].T)
          return p[i].x + ((T - p[i].T) / (p[i + 1].T - p[i].T)) * (p[i + 1].x - p[i].x);
      return null;
    };
    for (const T of [420, 480]) {
      // independent of the mapper: the L12 + L10 -> L10 boundary and the L10 -> A1 transition by bisection
      const [b0, b1] = bisect(T, 0.975, 0.9875, (l, r) => l.length === 2 && r.length === 1);
      expect(state(T, b0)).toEqual(['L12', 'L10']);
      expect(state(T, b1)).toEqual(['L10']);
      const [c0, c1] = bisect(T, b1, 0.995, (l, r) => !same(l, r));
      expect(state(T, c0)).toEqual(['L10']);
      expect(state(T, c1)).toEqual(['A1']);
      expect(c0 - b1, `${T} K: an L10 band`).toBeGreaterThan(5e-4);
      // the diagram: an L12 + L10 field whose L10 boundary is there, and the line through the transition
      const field = d.regions.find(
        (r) =>
          r.phases.join('+') === 'L12 (FCC_L12)+L10 (FCC_L12)' &&
          r.tielines[0].T <= T &&
          r.tielines[r.tielines.length - 1].T >= T,
      );
      expect(field, `${T} K: L12 + L10 drawn`).toBeDefined();
      const tl = field!.tielines,
        k = tl.findIndex((t) => t.T >= T);
      const a = tl[Math.max(0, k - 1)],
        b = tl[k];
      const xb = b.T > a.T ? a.x[1] + ((T - a.T) / (b.T - a.T)) * (b.x[1] - a.x[1]) : b.x[1];
      expect(Math.abs(xb - b1), `${T} K: L10 boundary drawn at ${xb}, found at ${b1}`).toBeLessThan(5e-4);
      const xc = lineAt(T);
      expect(xc, `${T} K: the A1/L10 line crosses`).not.toBeNull();
      expect(Math.abs(xc! - c1), `${T} K: A1/L10 line drawn at ${xc}, found at ${c1}`).toBeLessThan(5e-4);
      expect(
        d.regions.some(
          (r) =>
            r.phases.join('+') === 'L12 (FCC_L12)+A1 (FCC_L12)' &&
            r.tielines[0].T <= T &&
            r.tielines[r.tielines.length - 1].T >= T,
        ),
        `${T} K: no L12 + A1 field`,
      ).toBe(false);
    }
    // the line ends where it meets the solvus: below it the solvus is L12 + A1 again, and both fields end there
    const low = Math.min(...line!.points.map((p) => p.T));
    const ends = d.regions
      .filter((r) => /^L12 \(FCC_L12\)\+(A1|L10) \(FCC_L12\)$/.test(r.phases.join('+')))
      .flatMap((r) => [r.tielines[0].T, r.tielines[r.tielines.length - 1].T]);
    expect(
      ends.some((t) => Math.abs(t - low) < 0.5),
      `line ends at ${low} K, fields at ${ends.join(', ')}`,
    ).toBe(true);
    expect(low).toBeGreaterThan(330);
    expect(low).toBeLessThan(410);
    expect(state(low - 15, 0.9905)).toEqual(['A1']);
    expect(state(low - 15, 0.985)).toEqual(['L12', 'A1']);
  }, 60_000);

  test('alni_tough_chempot: the A1/L10 line runs to the low end of a window whose grid columns miss the L10 band', () => {
    const tough = openDatabase(path.join(SHARED_TDB_DIR, 'alni_tough_chempot.tdb'));
    const toughConv = new PointConverter(tough, components);
    const structures = (T: number, x: number) => {
      const r = equilibrium({ database: tough, components, conditions: { T, X: { NI: x } } });
      expect(r.converged).toBe(true);
      return r.phases
        .filter((p) => p.NP > 1e-9)
        .sort((a, b) => a.x.NI - b.x.NI)
        .map((p) => toughConv.ordering(p)?.structure ?? p.name);
    };
    const d = mapBinary({ database: tough, components: ['AL', 'NI'], xComponent: 'NI', T: [300, 700], threads: 2 });
    const line = d.orderDisorder.secondOrderLines.find(
      (l) => l.ordered === 'L10 (FCC_L12)' && l.disordered === 'A1 (FCC_L12)',
    );
    expect(line, 'the A1/L10 line').toBeDefined();
    const pts = [...line!.points].sort((a, b) => a.T - b.T);
    expect(pts[0].T).toBeLessThan(300.01);
    for (const T of [300, 350]) {
      const k = pts.findIndex((p) => p.T >= T);
      const a = pts[Math.max(0, k - 1)],
        b = pts[k];
      const x = b.T > a.T ? a.x + ((T - a.T) / (b.T - a.T)) * (b.x - a.x) : b.x;
      expect(structures(T, x - 4e-4), `${T} K, below the line at ${x}`).toEqual(['L10']);
      expect(structures(T, x + 4e-4), `${T} K, above the line at ${x}`).toEqual(['A1']);
    }
  }, 60_000);
});
