// The random-point check of delivered ternary sections (worker/mapping/audit/random-points.ts) and the sections of
// the audit the suite runs (AUDIT_SECTIONS with `suite`; npm run audit:diagrams runs them all). A disagreement fails
// the test unless docs/diagram-audit.md lists it ("Known disagreements", check random_points).
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { AUDIT_SECTIONS, auditSection, deliveredSection, sectionName } from '../../worker/mapping/audit-sections.js';
import {
  boundarySegments,
  checkRandomPoints,
  distanceToSegments,
  randomCompositions,
} from '../../worker/mapping/audit/random-points.js';
import type { TernaryIsothermalSectionResult } from '../../contract/results/ternary_isothermal_section.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { knownDisagreements } from './audit-known.js';

const ROOT = path.resolve(__dirname, '../..');
const CATALOG = path.join(ROOT, 'databases', 'catalog.json');
const known = knownDisagreements(ROOT);

/** A section document with one two-phase region of two tie-lines and nothing else. */
function oneRegion(): TernaryIsothermalSectionResult {
  const c = (a: number, b: number) => ({ A: 1 - a - b, B: a, C: b });
  const t0 = { x: [c(0.2, 0.1), c(0.6, 0.1)] as [ReturnType<typeof c>, ReturnType<typeof c>] };
  const t1 = { x: [c(0.2, 0.3), c(0.6, 0.3)] as [ReturnType<typeof c>, ReturnType<typeof c>] };
  return {
    components: ['A', 'B', 'C'],
    window: { A: [0, 1], B: [0, 1], C: [0.05, 1] },
    two_phase_regions: [
      {
        phases: ['P', 'Q'],
        labels: ['P', 'Q'],
        ends: ['edge', 'edge'],
        tielines: [t0, t1],
        boundaries: [
          { phase: 'P', x: [t0.x[0], t1.x[0]] },
          { phase: 'Q', x: [t0.x[1], t1.x[1]] },
        ],
      },
    ],
    three_phase_triangles: [],
  } as unknown as TernaryIsothermalSectionResult;
}

describe('random-point check: geometry', () => {
  test('a region bounded by two tie-lines and two phase boundaries: four segments, distances in the plane', () => {
    const doc = oneRegion();
    const segs = boundarySegments(doc);
    expect(segs).toHaveLength(4);
    // the Gibbs plane: B at (1, 0), C at (1/2, sqrt(3)/2); x(C) = 0.1 lies at height 0.1 * sqrt(3)/2
    const h = Math.sqrt(3) / 2;
    // the middle of the region (x(B) 0.4, x(C) 0.2) is 0.1 h from both tie-lines, and the phase boundaries, each
    // parallel to the C axis at the plane's x = 0.2 + x(C)/2 and 0.6 + x(C)/2, lie 0.2 * h away (60 degree lines)
    const mid: [number, number] = [0.4 + 0.1, 0.2 * h];
    expect(distanceToSegments(mid, segs)).toBeCloseTo(0.1 * h, 12);
    // beyond a segment's end the distance is to the end point
    expect(
      distanceToSegments(
        [0, 0],
        [
          [
            [3, 4],
            [6, 8],
          ],
        ],
      ),
    ).toBeCloseTo(5, 12);
  });

  test('random compositions: in the window, summing to 1, uniform over the triangle (mean 1/3 each)', () => {
    const doc = oneRegion();
    const xs = randomCompositions(doc, 3000, 5);
    expect(xs).toHaveLength(3000);
    for (const x of xs) {
      expect(x.A! + x.B! + x.C!).toBeCloseTo(1, 12);
      expect(x.C!).toBeGreaterThanOrEqual(0.05);
    }
    // Dirichlet(1, 1, 1) cut at x(C) >= 0.05: the mean of x(C) is 0.05 + 0.95/3 (the rest of the triangle is a
    // scaled triangle); its standard error with 3000 points is about 0.004
    const mean = (k: 'A' | 'B' | 'C') => xs.reduce((a, x) => a + x[k]!, 0) / xs.length;
    expect(mean('C')).toBeCloseTo(0.05 + 0.95 / 3, 1);
    expect(Math.abs(mean('A') - mean('B'))).toBeLessThan(0.02);
  });
});

describe('random-point check of a delivered section', () => {
  const crtiv = AUDIT_SECTIONS.find((s) => s.file === 'crtiv_ghosh.tdb')!;
  const file = path.join(SHARED_TDB_DIR, crtiv.file);
  const db = openDatabase(file);
  const { doc, phases, components } = deliveredSection(db, file, crtiv, { catalog: CATALOG, threads: 2 });

  test('a map with a two-phase field taken out disagrees inside that field', () => {
    const whole = checkRandomPoints(doc, { db, components, phases, points: 120, seed: 3, threads: 2 });
    expect(whole.disagreements).toEqual([]);
    expect(whole.agree).toBeGreaterThan(100);
    const widest = doc.two_phase_regions.reduce((a, r) => (r.tielines.length > a.tielines.length ? r : a));
    const cut = { ...doc, two_phase_regions: doc.two_phase_regions.filter((r) => r !== widest) };
    const r = checkRandomPoints(cut, { db, components, phases, points: 120, seed: 3, threads: 2 });
    expect(r.disagreements.length).toBeGreaterThan(0);
    // the answers the cut map misses hold the removed field's two phases
    const pair = widest.phases
      .map((p) => p.split('#')[0])
      .sort()
      .join('+');
    const found = r.disagreements.map((d) => /: the equilibrium gives (\S+), the map \S+$/.exec(d)?.[1]);
    expect(found.every((f) => f !== undefined)).toBe(true);
    expect(found.some((f) => f!.split('+').sort().join('+') === pair)).toBe(true);
  }, 120_000);
});

describe('ternary sections of the audit', () => {
  test.each(AUDIT_SECTIONS.filter((s) => s.suite).map((s) => [sectionName(s), s] as const))(
    '%s: 300 random points agree with the field that holds them',
    (name, s) => {
      const r = auditSection(s, { tdbDir: SHARED_TDB_DIR, catalog: CATALOG, threads: 2 });
      console.log(
        `${name}: ${r.regions} regions, ${r.triangles} triangles; ${r.points} points, ${r.nearBoundary} near a boundary, ` +
          `${r.notConverged} not converged, ${r.agree} agree, ${r.metastableAnswers} metastable answers, ` +
          `${r.disagreements.length} disagree, ${r.seconds.toFixed(1)} s`,
      );
      expect(r.points).toBe(300);
      expect(r.nearBoundary + r.notConverged + r.agree + r.metastableAnswers + r.disagreements.length).toBe(300);
      expect(r.nearBoundary).toBeLessThan(150);
      expect(r.notConverged).toBeLessThanOrEqual(15);
      const unexplained = r.disagreements.filter(
        (d) => !known.some((k) => k.system === name && k.check === 'random_points' && k.pattern.test(d)),
      );
      expect(unexplained, `${name}: disagreements not listed in docs/diagram-audit.md`).toEqual([]);
    },
    300_000,
  );
});
