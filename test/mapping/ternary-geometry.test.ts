// The overlap check of the ternary self-check (worker/mapping/ternary/geometry.ts): fields of a stable section meet
// only along their edges; two tie-triangles, or a tie-triangle and a two-phase region, that share area are reported.
import { describe, expect, test } from 'vitest';
import {
  findOverlaps,
  selfCheck,
  type TernaryTriangle,
  type TernaryTwoPhaseRegion,
  type Vec3,
} from '../../worker/mapping/ternary/geometry.js';

const tri = (phases: [string, string, string], corners: [Vec3, Vec3, Vec3]): TernaryTriangle => ({
  phases,
  corners,
  refinement: 0,
});
const region = (phases: [string, string], tielines: [Vec3, Vec3][]): TernaryTwoPhaseRegion => ({
  phases,
  tielines: tielines.map((x) => ({ x })),
  ends: ['three_phase', 'edge'],
});

// LIQUID + B2 + B2#2 and a second answer of the same phases whose B2 corner lies elsewhere (alcrni, 1273 K)
const stable = tri(
  ['LIQUID', 'B2', 'B2#2'],
  [
    [0.7163, 0.1337, 0.15],
    [0.6173, 0.0879, 0.2949],
    [0.5149, 0.48, 0.0051],
  ],
);
const metastable = tri(
  ['LIQUID', 'B2', 'B2#2'],
  [
    [0.7118, 0.1277, 0.1604],
    [0.5824, 0.0221, 0.3955],
    [0.5086, 0.4861, 0.0053],
  ],
);

describe('overlapping fields', () => {
  test('two tie-triangles of the same phases that share area', () => {
    const found = findOverlaps({ regions: [], triangles: [stable, metastable] });
    expect(found).toHaveLength(1);
    expect(found[0]!.kind).toBe('triangles');
    expect(found[0]!.phases).toEqual([
      ['LIQUID', 'B2', 'B2#2'],
      ['LIQUID', 'B2', 'B2#2'],
    ]);
  });

  test('tie-triangles that share only an edge do not overlap', () => {
    const a = tri(
      ['A', 'B', 'C'],
      [
        [1, 0, 0],
        [0, 1, 0],
        [0.3, 0.3, 0.4],
      ],
    );
    const b = tri(
      ['A', 'B', 'D'],
      [
        [1, 0, 0],
        [0, 1, 0],
        [0.4, 0.6, 0],
      ],
    );
    expect(findOverlaps({ regions: [], triangles: [a, b] })).toEqual([]);
  });

  test('a two-phase region whose tie-lines run into a tie-triangle; one ending on its edge does not count', () => {
    const t = tri(
      ['A', 'B', 'C'],
      [
        [0.8, 0.1, 0.1],
        [0.1, 0.8, 0.1],
        [0.1, 0.1, 0.8],
      ],
    );
    // tie-lines of A + B from the A-B edge up to the triangle's A-B edge: they end on it
    const ending = region(
      ['A', 'B'],
      [
        [
          [0.9, 0.1, 0],
          [0.1, 0.9, 0],
        ],
        [
          [0.85, 0.1, 0.05],
          [0.1, 0.85, 0.05],
        ],
        [
          [0.8, 0.1, 0.1],
          [0.1, 0.8, 0.1],
        ],
      ],
    );
    expect(findOverlaps({ regions: [ending], triangles: [t] })).toEqual([]);
    // the same region traced on, into the triangle
    const through = region(
      ['A', 'B'],
      [
        ...ending.tielines.map((l) => l.x),
        [
          [0.7, 0.1, 0.2],
          [0.1, 0.7, 0.2],
        ],
      ],
    );
    const found = findOverlaps({ regions: [through], triangles: [t] });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      kind: 'triangle_region',
      phases: [
        ['A', 'B', 'C'],
        ['A', 'B'],
      ],
    });
    // the point lies inside both fields: on the last tie-line and inside the triangle
    expect(found[0]!.x[2]).toBeCloseTo(0.2, 12);
  });

  test('a two-phase answer on the edge two triangles share agrees (the tie-line between two line compounds)', () => {
    // COST507 Al-Cu-Mg at 700 K: S and Q phases at fixed compositions, between S + Q + tau and S + Q + Laves
    const a = tri(
      ['SPHASE', 'QPHASE', 'TAU'],
      [
        [0.5, 0.25, 0.25],
        [0.4375, 0.1875, 0.375],
        [0.5193, 0.0865, 0.3942],
      ],
    );
    const b = tri(
      ['QPHASE', 'SPHASE', 'LAVES_C14'],
      [
        [0.4375, 0.1875, 0.375],
        [0.5, 0.25, 0.25],
        [0.4066, 0.2601, 0.3334],
      ],
    );
    const X: Vec3 = [0.4444444444444444, 0.19444444444444445, 0.3611111111111111];
    const c = selfCheck({ regions: [], triangles: [a, b] }, [{ ok: true, X, labels: ['SPHASE', 'QPHASE'] }]);
    expect(c.disagreements).toEqual([]);
    expect(c.agree).toBe(1);
    // the same answer away from the edge disagrees
    const inside = selfCheck({ regions: [], triangles: [a, b] }, [
      { ok: true, X: [0.44, 0.22, 0.34], labels: ['SPHASE', 'QPHASE'] },
    ]);
    expect(inside.disagreements).toHaveLength(1);
  });

  test('the self-check reports overlaps beside its point answers', () => {
    const c = selfCheck({ regions: [], triangles: [stable, metastable] }, [
      { ok: true, X: [0.62, 0.23, 0.15], labels: ['LIQUID', 'B2', 'B2#2'] },
    ]);
    expect(c.agree).toBe(1);
    expect(c.overlaps).toHaveLength(1);
    expect(selfCheck({ regions: [], triangles: [stable] }, []).overlaps).toEqual([]);
  });
});
