// Ternary isothermal sections (worker/mapping/ternary.ts) of shared ternary databases at two temperatures each,
// checked against independent point equilibria on both sides of every traced boundary, at every triangle's
// centroid, and by the mapper's own completeness self-check.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { baseName } from '../../contract/phases.js';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { mapTernary, type TernarySection } from '../../worker/mapping/ternary.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { probeBoundaries } from './ternary-support.js';

const sorted = (l: string[]) => l.map(baseName).sort().join('+');

function section(file: string, components: [string, string, string], T: number, pdens?: number) {
  const db = openDatabase(path.join(SHARED_TDB_DIR, file));
  const s = mapTernary({ database: db, components, T, threads: 2, gridDivisions: 10, pdens });
  return { db, s };
}

/** Every triangle: corners refined to 1e-5, and a point equilibrium at its centroid gives its three phases. */
function checkTriangles(db: ReturnType<typeof openDatabase>, s: TernarySection, pdens?: number) {
  for (const t of s.triangles) {
    expect(t.refinement, t.phases.join('+')).toBeLessThanOrEqual(1e-5);
    const c = [0, 1, 2].map((k) => (t.corners[0][k]! + t.corners[1][k]! + t.corners[2][k]!) / 3);
    const r = equilibrium({
      database: db,
      components: [...s.components, 'VA'].filter((e) => e !== 'VA' || db.info().elements.some((x) => x.name === 'VA')),
      conditions: { T: s.T, P: s.P, X: { [s.components[1]]: c[1]!, [s.components[2]]: c[2]! } },
      options: pdens ? { pdens } : {},
    });
    expect(sorted(r.phases.filter((p) => p.NP > 1e-9).map((p) => p.name)), `centroid of ${t.phases.join('+')}`).toBe(
      sorted([...t.phases]),
    );
  }
}

function checkBoundaries(
  db: ReturnType<typeof openDatabase>,
  s: TernarySection,
  minProbes: number,
  pdens?: number,
  allowed = 0,
) {
  const { probes, failures } = probeBoundaries(s, db, { pdens });
  expect(probes.length).toBeGreaterThanOrEqual(minProbes);
  expect(failures.length, JSON.stringify(failures.slice(0, 4))).toBeLessThanOrEqual(allowed);
}

describe('ternary isothermal sections against point equilibria', () => {
  test('Cr-Ti-V (crtiv_ghosh) at 1000 K and 1400 K', () => {
    const low = section('crtiv_ghosh.tdb', ['CR', 'TI', 'V'], 1000);
    // the C15 Laves field with bcc on both sides (both ends on the Cr-Ti edge) and the hcp + bcc field at the Ti corner
    expect(low.s.regions.map((r) => sorted(r.phases)).sort()).toEqual(['BCC_A2+HCP_A3', 'BCC_A2+LAVES_C15']);
    expect(low.s.regions.every((r) => r.ends.every((e) => e === 'edge'))).toBe(true);
    checkBoundaries(low.db, low.s, 30);
    expect(low.s.selfCheck!.disagreements).toEqual([]);
    const high = section('crtiv_ghosh.tdb', ['CR', 'TI', 'V'], 1400);
    expect(high.s.triangles.map((t) => sorted(t.phases))).toEqual(['BCC_A2+LAVES_C15+LAVES_C36']);
    checkTriangles(high.db, high.s);
    checkBoundaries(high.db, high.s, 20);
    expect(high.s.selfCheck!.disagreements).toEqual([]);
  });

  test('Cr-Fe-Ni with a shallow bcc gap (Cr-Fe-Ni_shallow_bcc) at 600 K and 800 K: gap, three-set triangle, critical point', () => {
    const low = section('Cr-Fe-Ni_shallow_bcc.tdb', ['CR', 'FE', 'NI'], 600);
    expect(low.s.triangles.map((t) => sorted(t.phases))).toEqual(['BCC_A2+BCC_A2+BCC_A2']);
    expect(low.s.criticalPoints).toHaveLength(1);
    checkTriangles(low.db, low.s);
    checkBoundaries(low.db, low.s, 10);
    expect(low.s.selfCheck!.disagreements).toEqual([]);
    const high = section('Cr-Fe-Ni_shallow_bcc.tdb', ['CR', 'FE', 'NI'], 800);
    // one gap from the Cr-Fe edge to the Cr-Ni edge
    expect(high.s.regions).toHaveLength(1);
    expect(high.s.regions[0]!.ends).toEqual(['edge', 'edge']);
    checkBoundaries(high.db, high.s, 10);
    expect(high.s.selfCheck!.disagreements).toEqual([]);
  });

  test('a composition window: seeds and self-check inside it, traces stop at its border', () => {
    const db = openDatabase(path.join(SHARED_TDB_DIR, 'Cr-Fe-Ni_shallow_bcc.tdb'));
    // x(NI) >= 0.1 cuts off the part of the gap near the Cr-Fe edge, where both ends of a tie-line hold little Ni; every
    // tie-line with a part inside the window belongs to the section
    const s = mapTernary({
      database: db,
      components: ['CR', 'FE', 'NI'],
      T: 800,
      threads: 2,
      gridDivisions: 10,
      window: [
        [0, 1],
        [0, 1],
        [0.1, 1],
      ],
    });
    expect(s.regions).toHaveLength(1);
    expect([...s.regions[0]!.ends].sort()).toEqual(['edge', 'window']);
    const nickel = s.regions[0]!.tielines.map((t) => Math.max(t.x[0][2], t.x[1][2]));
    expect(Math.min(...nickel)).toBeGreaterThan(0.1 - 1e-6);
    expect(Math.min(...nickel)).toBeLessThan(0.12);
    // the seed and check grids span the window (the simplex x(NI) >= 0.1): 55 cell centroids as without a window
    expect(s.selfCheck!.points).toBe(55);
    expect(s.selfCheck!.disagreements).toEqual([]);
  });

  test('Al-Cr-Ni (alcrni) at 1273 K and 1473 K with the default sampling density and seed grid', () => {
    for (const T of [1273, 1473]) {
      const db = openDatabase(path.join(SHARED_TDB_DIR, 'alcrni.tdb'));
      const s = mapTernary({ database: db, components: ['AL', 'CR', 'NI'], T, threads: 2 });
      expect(s.regions.length).toBeGreaterThanOrEqual(6);
      expect(s.triangles.length).toBeGreaterThanOrEqual(3);
      // no two mapped fields share area
      expect(s.selfCheck!.overlaps, `${T} K`).toEqual([]);
      checkTriangles(db, s);
      // one probe in about 60 may meet a point where the cold point solver's answer is metastable
      checkBoundaries(db, s, 30, undefined, 1);
      const c = s.selfCheck!;
      expect(c.agree + c.disagreements.length + c.not_converged + c.metastable_answers).toBe(c.points);
      expect(c.disagreements, `${T} K`).toEqual([]);
      if (T === 1273) {
        // gamma + gamma' and the Cr-rich bcc beside NiAl: states of one model each, named by their ordering
        expect(s.regions.map((r) => [...r.labels!].sort().join(' + '))).toEqual(
          expect.arrayContaining(['A1 (L12_FCC) + L12 (L12_FCC)', 'A2 (B2) + B2 (B2)']),
        );
        expect(s.singlePhaseLabels.map((l) => l.label)).toEqual(
          expect.arrayContaining(['A1 (L12_FCC)', 'L12 (L12_FCC)', 'A2 (B2)', 'B2 (B2)']),
        );
      }
    }
  }, 180_000);

  test('Al-Cr-Ni (alcrni) at 1273 K: the Al-rich B2 below the states a cold point solver used to find', () => {
    // B2 with Al on one sublattice and Al, Cr, Ni on the other lies 75-125 J/mol below the liquid + B2 + B2 triangle
    // the point solver found at every sampling density before the sampling grid held single-sublattice faces
    const db = openDatabase(path.join(SHARED_TDB_DIR, 'alcrni.tdb'));
    const r = equilibrium({
      database: db,
      components: ['AL', 'CR', 'NI', 'VA'],
      conditions: { T: 1273, P: 101325, X: { CR: 0.2339, NI: 0.15 } },
    });
    expect(r.GM).toBeLessThan(-87464);
    const b2 = r.phases
      .filter((p) => p.name === 'B2' && p.NP > 1e-9)
      .map((p) => p.x.NI!)
      .sort();
    expect(b2[1]).toBeGreaterThan(0.28);
    expect(b2[1]).toBeLessThan(0.31);
  });

  test('Al-Cu-Mg (COST507) at 700 K and 800 K', () => {
    for (const [T, minTriangles] of [
      [700, 8],
      [800, 4],
    ] as const) {
      const { db, s } = section('COST507.tdb', ['AL', 'CU', 'MG'], T);
      expect(s.triangles.length, `${T} K`).toBeGreaterThanOrEqual(minTriangles);
      checkTriangles(db, s);
      checkBoundaries(db, s, 5);
      expect(s.selfCheck!.overlaps, `${T} K`).toEqual([]);
      expect(s.selfCheck!.disagreements, `${T} K`).toEqual([]);
    }
  }, 180_000);
});
