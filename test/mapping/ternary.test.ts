// Ternary isothermal sections (worker/mapping/ternary.ts) of shared ternary databases at two temperatures each,
// checked against independent point equilibria on both sides of every traced boundary, at every triangle's
// centroid, and by the mapper's own completeness self-check.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { baseName, mapTernary, type TernarySection } from '../../worker/mapping/ternary.js';
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
    const r = equilibrium({ database: db, components: [...s.components, 'VA'].filter((e) => e !== 'VA' || db.info().elements.some((x) => x.name === 'VA')),
      conditions: { T: s.T, P: s.P, X: { [s.components[1]]: c[1]!, [s.components[2]]: c[2]! } }, options: pdens ? { pdens } : {} });
    expect(sorted(r.phases.filter((p) => p.NP > 1e-9).map((p) => p.name)), `centroid of ${t.phases.join('+')}`).toBe(sorted([...t.phases]));
  }
}

function checkBoundaries(db: ReturnType<typeof openDatabase>, s: TernarySection, minProbes: number, pdens?: number, allowed = 0) {
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
    const s = mapTernary({ database: db, components: ['CR', 'FE', 'NI'], T: 800, threads: 2, gridDivisions: 10, window: [[0, 1], [0, 1], [0.1, 1]] });
    expect(s.regions).toHaveLength(1);
    expect([...s.regions[0]!.ends].sort()).toEqual(['edge', 'window']);
    const nickel = s.regions[0]!.tielines.map((t) => Math.max(t.x[0][2], t.x[1][2]));
    expect(Math.min(...nickel)).toBeGreaterThan(0.1 - 1e-6);
    expect(Math.min(...nickel)).toBeLessThan(0.12);
    // the seed and check grids span the window (the simplex x(NI) >= 0.1): 55 cell centroids as without a window
    expect(s.selfCheck!.points).toBe(55);
    expect(s.selfCheck!.disagreements).toEqual([]);
  });

  test('Al-Cr-Ni (alcrni, GLOBAL_MIN_PDENS 300) at 1273 K and 1473 K', () => {
    for (const T of [1273, 1473]) {
      // B2 (ordered NiAl, disordered Cr-rich bcc) has several wells: the sections need a denser sampling than 60
      const { db, s } = section('alcrni.tdb', ['AL', 'CR', 'NI'], T, 300);
      expect(s.regions.length).toBeGreaterThanOrEqual(6);
      expect(s.triangles.length).toBeGreaterThanOrEqual(3);
      checkTriangles(db, s, 300);
      // one probe in about 60 may meet a point where the solver's answer is not unique (a metastable single phase)
      checkBoundaries(db, s, 30, 300, 1);
      // the point solver itself is not unique here everywhere (docs/calculations.md): the self-check reports such
      // points instead of hiding them; they stay rare
      const c = s.selfCheck!;
      expect(c.agree + c.disagreements.length + c.not_converged).toBe(c.points);
      expect(c.disagreements.length).toBeLessThanOrEqual(2);
    }
  });

  test('Al-Cu-Mg (COST507) at 700 K', () => {
    const { db, s } = section('COST507.tdb', ['AL', 'CU', 'MG'], 700);
    expect(s.triangles.length).toBeGreaterThanOrEqual(8);
    checkTriangles(db, s);
    checkBoundaries(db, s, 5);
  });
});
