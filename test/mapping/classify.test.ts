// Invariant classification (worker/mapping/binary.ts classifyInvariant): kind and reaction from the
// phase that lies between in composition and the side of the outer two-phase field.
import { describe, expect, test } from 'vitest';
import { classifyInvariant, cutAt } from '../../worker/mapping/binary.js';

const below = -1 as const,
  above = 1 as const;
function inv(names: [string, string, string], outerSide: 1 | -1) {
  const ph = names.map((base, k) => ({ base, x: 0.2 + 0.3 * k }));
  return classifyInvariant(500, ph, [{ xs: [ph[0].x, ph[2].x], side: outerSide }]);
}

describe('classifyInvariant', () => {
  test('middle phase decomposing on cooling', () => {
    expect(inv(['FCC_A1', 'LIQUID', 'HCP_A3'], below)).toMatchObject({
      kind: 'eutectic',
      reaction: 'LIQUID -> FCC_A1 + HCP_A3',
    });
    expect(inv(['LIQUID', 'LIQUID', 'FCC_A1'], below)).toMatchObject({
      kind: 'monotectic',
      reaction: 'LIQUID#2 -> LIQUID + FCC_A1',
    });
    expect(inv(['FCC_A1', 'FCC_A1', 'HCP_A3'], below)).toMatchObject({
      kind: 'monotectoid',
      reaction: 'FCC_A1#2 -> FCC_A1 + HCP_A3',
    });
    expect(inv(['BCC_A2', 'FCC_A1', 'CEMENTITE'], below)).toMatchObject({ kind: 'eutectoid' });
    expect(inv(['LIQUID', 'BCC_A2', 'FCC_A1'], below).kind).toBe('invariant'); // metatectic: no own kind in the schema
  });
  test('outer phases reacting on cooling', () => {
    expect(inv(['LIQUID', 'AL5FE4', 'B2_BCC'], above)).toMatchObject({
      kind: 'peritectic',
      reaction: 'LIQUID + B2_BCC -> AL5FE4',
    });
    expect(inv(['AL5FE2', 'AL2FE', 'AL5FE4'], above)).toMatchObject({ kind: 'peritectoid' });
    expect(inv(['LIQUID', 'CUMG2', 'LIQUID'], above)).toMatchObject({
      kind: 'syntectic',
      reaction: 'LIQUID + LIQUID#2 -> CUMG2',
    });
  });
  test('the side follows the majority of the fields seen, inner fields counting for the other side', () => {
    const ph = [
      { base: 'FCC_A1', x: 0.1 },
      { base: 'LIQUID', x: 0.5 },
      { base: 'HCP_A3', x: 0.9 },
    ];
    // two inner fields seen above and one outer field mis-seen above: eutectic by majority
    const r = classifyInvariant(600, ph, [
      { xs: [0.1, 0.5], side: above },
      { xs: [0.5, 0.9], side: above },
      { xs: [0.1, 0.9], side: above },
    ]);
    expect(r.kind).toBe('eutectic');
    expect(r.phases.map((p) => p.name)).toEqual(['FCC_A1', 'LIQUID', 'HCP_A3']);
    expect(classifyInvariant(600, ph, []).kind).toBe('invariant');
  });
  test('a field is matched among the pairs of its own phases where two phases lie 1e-5 apart', () => {
    // Co-Cu of mc_fe at 694.66 K: hcp and the Co-rich fcc 1e-5 apart, the Cu-rich fcc at 0.998; by composition alone
    // hcp + Cu-rich fcc is closer to the inner pair fcc + fcc#2, and the votes cancel
    const ph = [
      { base: 'HCP_A3', x: 0.00206 },
      { base: 'FCC_A1', x: 0.00207 },
      { base: 'FCC_A1', x: 0.99784 },
    ];
    const hcpFcc = { xs: [0.0021, 0.99785] as [number, number], bases: ['HCP_A3', 'FCC_A1'] as [string, string] };
    const gap = { xs: [0.00211, 0.99784] as [number, number], bases: ['FCC_A1', 'FCC_A1'] as [string, string] };
    const lens = { xs: [0.00198, 0.00199] as [number, number], bases: ['HCP_A3', 'FCC_A1'] as [string, string] };
    const r = classifyInvariant(694.66, ph, [
      { ...hcpFcc, side: below },
      { ...gap, side: above },
      { ...gap, side: above },
      { ...hcpFcc, side: below },
      { ...lens, side: above },
      { ...hcpFcc, side: below },
    ]);
    expect(r).toMatchObject({ kind: 'monotectoid', reaction: 'FCC_A1 -> HCP_A3 + FCC_A1#2' });
  });
});

describe('cutAt', () => {
  const tl = [
    { T: 100, x: [0.1, 0.5] as [number, number] },
    { T: 102, x: [0.2, 0.6] as [number, number] },
    { T: 104, x: [0.3, 0.7] as [number, number] },
  ];
  test('a low end traced past an invariant is cut there, the boundary interpolated', () => {
    const c = cutAt(tl, 101, -1);
    expect(c.map((t) => t.T)).toEqual([101, 102, 104]);
    expect(c[0].x[0]).toBeCloseTo(0.15, 12);
    expect(c[0].x[1]).toBeCloseTo(0.55, 12);
  });
  test('a high end likewise; a cut outside the traced range changes nothing', () => {
    const c = cutAt(tl, 103, 1);
    expect(c.map((t) => t.T)).toEqual([100, 102, 103]);
    expect(c[2].x[1]).toBeCloseTo(0.65, 12);
    expect(cutAt(tl, 99, -1)).toEqual(tl);
  });
});
