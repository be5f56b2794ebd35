// The runner's own rules: tolerance comparison, unsupported kinds reported (not skipped), errors of a
// kind turned into an "error" verdict, and the conversion kind on a hand-made case.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareEntry, toleranceOf } from '../../worker/validation/compare.js';
import { runValidation } from '../../worker/validation/runner.js';
import { parseFormula } from '../../worker/validation/kinds/conversion.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

describe('validation runner', () => {
  it('applies |computed - value| <= atol + rtol*|value| element-wise', () => {
    const e = { quantity: 'GM', value: -1000, tolerance: { rtol: 1e-5, atol: 0 } };
    expect(compareEntry(e, -1000.009).ok).toBe(true);
    expect(compareEntry(e, -1000.011).ok).toBe(false);
    const nested = { quantity: 'Y', value: [{ A: 0.5, B: 0.5 }], tolerance: { rtol: 0, atol: 1e-9 } };
    expect(compareEntry(nested, [{ A: 0.5, B: 0.5 + 1e-10, C: 3 }]).ok).toBe(true);
    expect(compareEntry(nested, [{ A: 0.5, B: 0.6 }]).ok).toBe(false);
    expect(compareEntry({ quantity: 'n', value: 375, compare: 'equal' }, 374).ok).toBe(false);
    expect(compareEntry({ quantity: 'x', value: 2, compare: 'less_than' }, 1).ok).toBe(true);
    expect(compareEntry({ quantity: 'x', value: 2, compare: 'less_than' }, [1, 3]).ok).toBe(false);
    expect(compareEntry({ quantity: 'x', value: 0, compare: 'greater_than' }, [1, 3]).ok).toBe(true);
  });

  it('takes a tolerance the fields leave out from its basis (README defaults of the numpy calls)', () => {
    expect(toleranceOf({ rtol: 1e-3, atol: 0, basis: 'numpy.testing.assert_allclose(rtol=1e-07, atol=0)' })).toEqual({
      rtol: 1e-3,
      atol: 0,
    });
    expect(toleranceOf({ basis: 'numpy.testing.assert_allclose' })).toEqual({ rtol: 1e-7, atol: 0 });
    expect(toleranceOf({ basis: 'numpy.isclose' })).toEqual({ rtol: 1e-5, atol: 1e-8 });
    expect(toleranceOf({ basis: 'numpy.allclose(atol=1e-4)' })).toEqual({ rtol: 1e-5, atol: 1e-4 });
    expect(toleranceOf({ basis: 'numpy.testing.assert_almost_equal(decimal=3)' })).toEqual({ rtol: 0, atol: 1.5e-3 });
    expect(toleranceOf({ basis: 'numpy.testing.assert_almost_equal' }).atol).toBeCloseTo(1.5e-7, 20);
    expect(toleranceOf({ basis: 'curator' })).toEqual({ rtol: 0, atol: 0 });
    expect(toleranceOf(undefined)).toEqual({ rtol: 0, atol: 0 });
    const e = { quantity: 'GM', value: 1, tolerance: { basis: 'numpy.testing.assert_almost_equal(decimal=2)' } };
    expect(compareEntry(e, 1.014).ok).toBe(true);
    expect(compareEntry(e, 1.016).ok).toBe(false);
  });

  it('reads formulas with the known element symbols', () => {
    expect(parseFormula('AL2O3', ['AL', 'O', 'TI'])).toEqual({ AL: 2, O: 3 });
    expect(parseFormula('TIO2', ['AL', 'O', 'TI'])).toEqual({ TI: 1, O: 2 });
    expect(() => parseFormula('XY', ['AL'])).toThrow();
  });

  it('reports unsupported kinds and failing kinds instead of skipping them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pd-val-'));
    const file = path.join(dir, 'cases.json');
    writeFileSync(
      file,
      JSON.stringify({
        schema: 'calphad-validation-cases/1',
        cases: [
          {
            id: 'a',
            kind: 'no_such_kind',
            description: '',
            tdb: null,
            components: [],
            phases: [],
            conditions: {},
            expected: [{ quantity: 'Q', value: 1 }],
          },
          {
            id: 'b',
            kind: 'conversion',
            description: '',
            tdb: null,
            components: ['AL2O3', 'TIO2', 'O'],
            phases: [],
            conditions: { 'W(AL2O3)': 0.81, 'W(TIO2)': 0.13 },
            element_masses: { AL: 26.982, TI: 47.88, O: 15.999 },
            expected: [
              { quantity: 'X(AL2O3)', value: 0.59632604, tolerance: { rtol: 1e-5, atol: 1e-8 } },
              { quantity: 'X(TIO2)', value: 0.5, tolerance: { rtol: 1e-5, atol: 1e-8 } },
            ],
          },
          {
            id: 'c',
            kind: 'property',
            description: '',
            tdb: 'missing.tdb',
            components: ['AL'],
            phases: ['LIQUID'],
            conditions: { T: 300 },
            expected: [{ quantity: 'GM', phase: 'LIQUID', value: 0 }],
          },
        ],
      }),
    );
    const r = await runValidation(file, { tdbDir: dir });
    expect(r.cases.map((c) => c.verdict)).toEqual(['unsupported', 'mismatch', 'error']);
    expect(r.cases[1].entries.map((e) => e.verdict)).toEqual(['matched', 'mismatch']);
    expect(r.summary.no_such_kind).toMatchObject({ total: 1, unsupported: 1, matched: 0 });
    expect(r.summary.conversion).toMatchObject({ total: 1, mismatch: 1 });
  });

  it('reports a quantity it cannot read or compute as unsupported with its name, and a failed one as error', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pd-val-'));
    const file = path.join(dir, 'cases.json');
    writeFileSync(
      file,
      JSON.stringify({
        schema: 'calphad-validation-cases/1',
        cases: [
          {
            id: 'q',
            kind: 'equilibrium',
            description: '',
            tdb: 'pycalphad_inline_ideal_ABC.tdb',
            components: ['A', 'B', 'C'],
            phases: ['TEST'],
            conditions: { T: 1000, 'X(B)': 0.3, 'X(C)': 0.2 },
            expected: [
              { quantity: 'SURFACE_TENSION(TEST)', value: 1 },
              { quantity: 'GM((', value: 1 },
              { quantity: 'X(NOPHASE,A)', value: 1 },
              { quantity: 'MU(A)', value: 8.3145 * 1000 * Math.log(0.5), tolerance: { rtol: 1e-9 } },
            ],
          },
        ],
      }),
    );
    const r = await runValidation(file, { tdbDir: SHARED_TDB_DIR });
    const [a, b, c, d] = r.cases[0].entries;
    expect(a).toMatchObject({ verdict: 'unsupported', message: 'quantity SURFACE_TENSION(TEST)' });
    expect(b.verdict).toBe('unsupported');
    expect(b.message).toContain('GM((');
    expect(c).toMatchObject({ verdict: 'error', message: 'NOPHASE is not stable here' });
    expect(d.verdict).toBe('matched');
  });
});
