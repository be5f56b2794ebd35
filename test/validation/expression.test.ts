// The reader of quantity names (worker/validation/expression.ts) and the reference-phase reading of
// GM_FORMATION (worker/validation/quantities.ts): the README's written-out forms become the right atoms,
// condition overrides, derivatives and phrases; malformed names are refused.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCore } from '../../worker/core/native.js';
import { parseExpression, parsePhrase, ParseError } from '../../worker/validation/expression.js';
import { conditionValues, expandPoints, pointOverride } from '../../worker/validation/conditions.js';
import { parseAssignments } from '../../worker/validation/expression.js';
import { referencePhases } from '../../worker/validation/references.js';
import { Unsupported } from '../../worker/validation/scope.js';
import type { ValidationCase } from '../../worker/validation/types.js';

describe('quantity names', () => {
  it('reads atoms with phases, composition sets, derivatives and condition overrides', () => {
    expect(parseExpression('X(FCC_A1#*, zn)')).toEqual({
      type: 'atom',
      atom: { name: 'X', args: ['FCC_A1#*', 'ZN'], at: {}, wrt: undefined, text: 'X(FCC_A1#*, zn)' },
    });
    const d = parseExpression('MU(AL).X(ZN)');
    expect(d.type === 'atom' && d.atom.wrt).toBe('X(ZN)');
    const diff = parseExpression('GM(P=1e10) - GM(P=101325)');
    expect(diff).toMatchObject({
      type: 'bin',
      op: '-',
      left: { atom: { name: 'GM', at: { P: 1e10 } } },
      right: { atom: { at: { P: 101325 } } },
    });
    expect(parseExpression('GM (T=500)')).toMatchObject({ atom: { name: 'GM', at: { T: 500 } } });
    expect(parseExpression('HM(REG, y) - 500*SM(REG, y)')).toMatchObject({
      right: { type: 'bin', op: '*', right: { atom: { args: ['REG', 'y'] } } },
    });
    expect(parseExpression('-MU(A)/(8.3145*1000)')).toMatchObject({ type: 'bin', op: '/', left: { type: 'neg' } });
    expect(() => parseExpression('GM(FCC_A1')).toThrow(ParseError);
    expect(() => parseExpression('T_melting (G(LIQUID) = G(FCC_A1) for pure CU)')).toThrow(ParseError);
  });

  it('reads the phrases around an expression', () => {
    expect(parsePhrase('max_over_grid(T0(FCC_A1,HCP_A3))')).toEqual({
      type: 'over_grid',
      which: 'max',
      inner: 'T0(FCC_A1,HCP_A3)',
    });
    expect(parsePhrase('GM of isolated BCC_A2 (single composition set)')).toEqual({
      type: 'isolated',
      inner: 'GM',
      phase: 'BCC_A2',
    });
    expect(parsePhrase('X(ZN) at which GM(FCC_A1)=GM(HCP_A3)')).toEqual({
      type: 'root',
      variable: 'X(ZN)',
      left: 'GM(FCC_A1)',
      right: 'GM(HCP_A3)',
    });
    expect(parsePhrase('number_of_stable_phases at T=1600, X(CR)=0.3')).toEqual({
      type: 'at',
      inner: 'number_of_stable_phases',
      at: { T: 1600, 'X(CR)': 0.3 },
    });
    expect(parsePhrase('NP(FCC_A1) at X(ZN)=[1e-10,0.05]')).toEqual({
      type: 'at',
      inner: 'NP(FCC_A1)',
      at: { 'X(ZN)': [1e-10, 0.05] },
    });
    expect(parsePhrase('X(LIQUID,SN) at eutectic')).toEqual({ type: 'expr', text: 'X(LIQUID,SN) at eutectic' });
  });

  it('reads every spelling of "... isolated" (README), with or without the phase', () => {
    const phase = (q: string) => parsePhrase(q);
    for (const q of [
      'GM of isolated BCC_A2',
      'GM of the isolated BCC_A2 (single composition set)',
      'GM for isolated BCC_A2',
      'GM of BCC_A2 isolated',
      'GM isolated BCC_A2',
      'GM isolated (BCC_A2)',
    ])
      expect(phase(q), q).toEqual({ type: 'isolated', inner: 'GM', phase: 'BCC_A2' });
    expect(phase('MU(SN) of isolated BCT_A5')).toEqual({ type: 'isolated', inner: 'MU(SN)', phase: 'BCT_A5' });
    // the phase is the one the quantity names (quantities.ts isolatedPhase)
    for (const q of ['GM(BCC_A2) isolated', 'GM(BCC_A2) isolated (single composition set)', 'GM(BCC_A2), isolated'])
      expect(phase(q), q).toEqual({ type: 'isolated', inner: 'GM(BCC_A2)', phase: null });
    expect(phase('X(BCC_A2,CR).T isolated')).toEqual({ type: 'isolated', inner: 'X(BCC_A2,CR).T', phase: null });
    // "at" is outermost: the point's conditions apply to the isolated phase
    expect(phase('GM(BCC_A2) isolated at T=1000')).toEqual({
      type: 'at',
      inner: 'GM(BCC_A2) isolated',
      at: { T: 1000 },
    });
    expect(phase('max_over_grid(GM(FCC_A1) isolated)')).toMatchObject({
      type: 'over_grid',
      inner: 'GM(FCC_A1) isolated',
    });
    // on single atoms of an expression: before, after, or among the arguments
    const iso = (q: string) => {
      const e = parseExpression(q);
      return e.type === 'atom' ? e.atom : null;
    };
    expect(iso('GM(LIQUID) isolated')).toMatchObject({ name: 'GM', args: ['LIQUID'], isolated: true });
    expect(iso('isolated GM(LIQUID)')).toMatchObject({ args: ['LIQUID'], isolated: true });
    expect(iso('GM(LIQUID, isolated)')).toMatchObject({ args: ['LIQUID'], isolated: true });
    expect(iso('GM(LIQUID isolated)')).toMatchObject({ args: ['LIQUID'], isolated: true });
    expect(iso('GM(LIQUID)')?.isolated).toBeUndefined();
    expect(parseExpression('GM(LIQUID) isolated - GM(SOLID)')).toMatchObject({
      left: { atom: { isolated: true } },
      right: { atom: { args: ['SOLID'] } },
    });
    expect(parseExpression('(GM(A1) - GM(A2)) isolated')).toMatchObject({
      left: { atom: { isolated: true } },
      right: { atom: { isolated: true } },
    });
  });

  it('reads the conditions of "Q at ..." in every separator, with units and signs', () => {
    expect(parseAssignments('T=1600, X(CR)=0.3')).toEqual({ T: 1600, 'X(CR)': 0.3 });
    expect(parseAssignments('T = 1600 K, x(cr) = 0.3')).toEqual({ T: 1600, 'X(CR)': 0.3 });
    expect(parseAssignments('T=1600 and X(CR)=0.3')).toEqual({ T: 1600, 'X(CR)': 0.3 });
    expect(parseAssignments('(T=1600; P=1e5 Pa; MU(B)=-2.5e4)')).toEqual({ T: 1600, P: 1e5, 'MU(B)': -25000 });
    expect(parseAssignments('X(ZN)=[1e-10, 0.05]')).toEqual({ 'X(ZN)': [1e-10, 0.05] });
    expect(parseAssignments('X(CR)=0.3 K')).toBeNull();
    expect(parseAssignments('eutectic')).toBeNull();
    expect(parseExpression('GM(MU(B)=-20000)')).toMatchObject({ atom: { at: { 'MU(B)': -20000 } } });
    // "at" before "at which": the root is taken at the point
    expect(parsePhrase('X(ZN) at which GM(FCC_A1)=GM(HCP_A3) at T=600')).toEqual({
      type: 'at',
      inner: 'X(ZN) at which GM(FCC_A1)=GM(HCP_A3)',
      at: { T: 600 },
    });
  });

  it("replaces the case's (grid) composition conditions by the point's own", () => {
    const grid = { min: 0, max: 1, step: 0.1 };
    const ternary = { T: 1000, P: 101325, 'X(B)': grid, 'X(C)': grid };
    // the point names X(A) and X(B): the case's X(C) grid goes, its X(B) is replaced
    expect(pointOverride(ternary, { 'X(A)': 0.2, 'X(B)': 0.3 }, ['A', 'B', 'C'])).toEqual({
      T: 1000,
      P: 101325,
      'X(A)': 0.2,
      'X(B)': 0.3,
    });
    // the same keys, however the case spells them: a plain override; a new T replaces the case's
    expect(
      pointOverride({ T: 1000, 'x(b)': grid, 'X(C)': grid }, { T: 900, 'X(B)': 0.3, 'X(C)': 0.3 }, ['A', 'B', 'C']),
    ).toEqual({
      T: 900,
      'X(B)': 0.3,
      'X(C)': 0.3,
    });
    // fewer than C - 1 at the point: the case's fill in, a grid one before a fixed one is dropped
    expect(pointOverride({ T: 1, 'X(B)': grid, 'X(C)': 0.1 }, { 'X(A)': 0.5 }, ['A', 'B', 'C'])).toEqual({
      T: 1,
      'X(C)': 0.1,
      'X(A)': 0.5,
    });
    // all C fractions at the point: the case's dependent element (A) is left out
    expect(pointOverride(ternary, { 'X(A)': 0.4, 'X(B)': 0.3, 'X(C)': 0.3 }, ['A', 'B', 'C'])).toEqual({
      T: 1000,
      P: 101325,
      'X(B)': 0.3,
      'X(C)': 0.3,
    });
    expect(() => pointOverride(ternary, { 'X(A)': 0.4, 'X(B)': 0.4, 'X(C)': 0.4 }, ['A', 'B', 'C'])).toThrow(
      /more composition conditions/,
    );
  });

  it('expands lists and numpy-style ranges of conditions', () => {
    expect(conditionValues('T', { min: 300, max: 400, step: 50 })).toEqual([300, 350]);
    expect(conditionValues('X(B)', [0.1, 0.2])).toEqual([0.1, 0.2]);
    expect(expandPoints({ T: [300, 400], P: 1e5, 'X(B)': [0.1, 0.2] })).toHaveLength(4);
    expect(() => conditionValues('T', { min: 1, max: 0, step: 1 })).toThrow(/max > min/);
  });
});

describe('GM_FORMATION reference phases', () => {
  const db = loadCore().Database.fromFile(path.join(__dirname, 'tdb', 'lens_ideal.tdb'));
  const base: ValidationCase = {
    id: 'x',
    kind: 'equilibrium',
    description: '',
    tdb: null,
    components: ['A', 'B'],
    phases: [],
    conditions: {},
    expected: [],
  };
  it('takes a field, then the notes, then the ELEMENT line', () => {
    expect(referencePhases({ ...base, reference_phases: { a: 'liquid', B: 'REG' } } as ValidationCase, db)).toEqual({
      A: 'LIQUID',
      B: 'REG',
    });
    expect(
      referencePhases(base, db, { quantity: 'GM_FORMATION', value: 0, reference_phases: ['LIQUID'] } as never),
    ).toEqual({ A: 'LIQUID', B: 'LIQUID' });
    expect(referencePhases({ ...base, notes: 'relative to LIQUID for A and REG for B' }, db)).toEqual({
      A: 'LIQUID',
      B: 'REG',
    });
    expect(referencePhases({ ...base, notes: 'reference states: A=REG, B in LIQUID' }, db)).toEqual({
      A: 'REG',
      B: 'LIQUID',
    });
    expect(referencePhases({ ...base, notes: 'references REG (A), LIQUID (B)' }, db)).toEqual({
      A: 'REG',
      B: 'LIQUID',
    });
    expect(referencePhases({ ...base, notes: 'relative to pure LIQUID' }, db)).toEqual({ A: 'LIQUID', B: 'LIQUID' });
    // ELEMENT A SOLID / B SOLID
    expect(referencePhases(base, db)).toEqual({ A: 'SOLID', B: 'SOLID' });
  });
  it('says which element has no reference phase', () => {
    const abc = loadCore().Database.fromFile(path.join(__dirname, 'tdb', 'eutectic_ideal.tdb'));
    const c = { ...base, components: ['A', 'B', 'C'], notes: 'A in ALPHA, B in BETA' };
    expect(referencePhases(c, abc)).toMatchObject({ A: 'ALPHA', B: 'BETA', C: 'GAMMA' });
    const noSer = loadCore().Database.fromFile(
      path.join(__dirname, '..', '..', '..', 'shared', 'tdb', 'pycalphad_inline_ideal_ABC.tdb'),
    );
    expect(() => referencePhases({ ...base, components: ['A', 'B', 'C'] }, noSer)).toThrow(Unsupported);
  });
});
