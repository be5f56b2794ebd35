// Expression parsing, temperature ranges (formula sheet §0) and exact derivatives.
import { describe, expect, it } from 'vitest';
import { openDatabase, openDatabaseFromString } from '../../../worker/core/database.js';
import { haveTdb, tdbPath } from './helpers.js';

const HEAD = 'ELEMENT AL FCC_A1 26.98 0 0 !\nPHASE LIQUID:L % 1 1 !\nCONSTITUENT LIQUID:L :AL: !\n';
const R = 8.3145;

function db(functions: string) {
  return openDatabaseFromString(HEAD + functions, 'expr.tdb');
}

describe('temperature ranges (§0)', () => {
  const d = db(`FUNCTION F 298.15 1+0*T; 500 Y 2+0*T; 1000 Y 3+0*T; 3000 N !
FUNCTION ONE 400 7*T; 600 N !
FUNCTION NEST 298.15 F#+10; 700 Y F#+100; 6000 N !`);
  it('uses the upper range exactly at a breakpoint', () => {
    expect(d.evaluateFunction('F', 500, 1e5).v).toBe(2);
    expect(d.evaluateFunction('F', 499.999999, 1e5).v).toBe(1);
    expect(d.evaluateFunction('F', 1000, 1e5).v).toBe(3);
  });
  it('extrapolates the first range below and the last above', () => {
    expect(d.evaluateFunction('F', 10, 1e5).v).toBe(1);
    expect(d.evaluateFunction('F', 8000, 1e5).v).toBe(3);
  });
  it('a single range has no limits', () => {
    expect(d.evaluateFunction('ONE', 100, 1e5).v).toBeCloseTo(700, 12);
    expect(d.evaluateFunction('ONE', 5000, 1e5).v).toBeCloseTo(35000, 12);
  });
  it('nested functions use their own ranges', () => {
    expect(d.evaluateFunction('NEST', 600, 1e5).v).toBe(12); // F at 600 = 2, NEST range 1
    expect(d.evaluateFunction('NEST', 800, 1e5).v).toBe(102);
    expect(d.evaluateFunction('NEST', 1200, 1e5).v).toBe(103);
  });
  it.skipIf(!haveTdb)('Al-Zn GHSERAL at its 700 K breakpoint takes the upper range', () => {
    const z = openDatabase(tdbPath('alzn_mey.tdb'));
    const at = z.evaluateFunction('GHSERAL', 700, 101325).v;
    // upper range of GHSERAL (alzn_mey.tdb), written out
    const T = 700;
    const upper =
      -11276.24 + 223.0269 * T - 38.58443 * T * Math.log(T) + 18.531982e-3 * T ** 2 - 5.764227e-6 * T ** 3 + 74092 / T;
    const lower =
      -7976.15 + 137.0715 * T - 24.3672 * T * Math.log(T) - 1.884662e-3 * T ** 2 - 0.877664e-6 * T ** 3 + 74092 / T;
    expect(Math.abs(upper - lower)).toBeGreaterThan(1e-3); // the ranges really differ at 700 K
    expect(at).toBeCloseTo(upper, 6);
  });
});

describe('syntax', () => {
  it('numbers, unary minus, powers, LN = LOG, EXP, SQRT, R and R#', () => {
    const d = db(`FUNCTION A 1 .0000E+00+5004.-1234.26E-25*T**2; 6000 N !
FUNCTION B 1 -T**2; 6000 N !
FUNCTION C 1 LN(T)-LOG(T)+EXP(0)+SQRT(4); 6000 N !
FUNCTION D 1 R*T+R#; 6000 N !
FUNCTION E 1 T**(-1)+T**-2; 6000 N !
FUNCTION G 1 2**3**2; 6000 N !`);
    expect(d.evaluateFunction('A', 10).v).toBeCloseTo(5004 - 1234.26e-25 * 100, 9);
    expect(d.evaluateFunction('B', 3).v).toBe(-9);
    expect(d.evaluateFunction('C', 300).v).toBeCloseTo(3, 12);
    expect(d.evaluateFunction('D', 100).v).toBeCloseTo(R * 101, 9);
    expect(d.evaluateFunction('E', 2).v).toBeCloseTo(0.75, 14);
    expect(d.evaluateFunction('G', 1).v).toBe(512); // right-associative
  });
  it('function references with and without #, defined before or after use', () => {
    const d = db(`FUNCTION USE1 1 2*LATER#+LATER; 6000 N !
FUNCTION LATER 1 T; 6000 N !`);
    expect(d.evaluateFunction('USE1', 5).v).toBe(15);
    expect(d.evaluateFunction('use1#', 5).v).toBe(15);
  });
  it('default limits ",,N" and missing lower limit', () => {
    const d = db(`FUNCTION U 298.15 0;,,N !
FUNCTION W 298.15 1; 500 Y 2;,,, N REF !
PARAMETER G(LIQUID,AL;0) +W#; N !`);
    expect(d.evaluateFunction('U', 300).v).toBe(0);
    expect(d.evaluateFunction('W', 9000).v).toBe(2);
    expect(d.info().parameterCount).toBe(1);
  });
  it('multi-line commands, $ comments, mixed case and abbreviated keywords', () => {
    const d = openDatabaseFromString(
      `$ header comment
Elem AL FCC_A1 26.98 0 0 !
ELEM ZN HCP_A3 65.38 0 0 ! trailing "text
PHAS LIQUID:L % 1 1 !
CONS LIQUID:L :AL,ZN: !
FUN GA 298.15 +1000   $ comment in the middle
   -2*T; 6000
   N !
PARA G(LIQUID,AL;0) 298.15 GA#; 6000 N !
TYPE_DEF % SEQ * !
TEMP_LIM 298.15 6000 !
DEFINE_SYSTEM_DEFAULT ELEMENT 2 !
DEFAULT_COMMAND DEF_SYS_ELEMENT VA !
DATABASE_INFO 'line one'
  ' line two' !
LIST_OF_REFERENCES NUMBER SOURCE
  REF1 'Author – en dash, UTF-8' !
ASSESSED_SYSTEMS AL-ZN(TDB +LIQUID) !
VERSION_DATE 2024 !
`,
      'mixed.tdb',
    );
    expect(d.evaluateFunction('GA', 100).v).toBe(800);
    expect(d.info().parameterCount).toBe(1);
    expect(d.info().elements.map((e) => e.name)).toEqual(['AL', 'ZN']);
  });
});

describe('exact derivatives vs finite differences', () => {
  const d = db(`FUNCTION H 1 -7976.15+137.093038*T-24.3671976*T*LN(T)-.001884662*T**2-8.77664E-07*T**3+74092*T**(-1)
   +R*T*LN(1E-05*P)+1E-6*P*T+EXP(-T/1000)*SQRT(P/1E5)+(T/300)**(P/1E6); 6000 N !
FUNCTION K 1 H#*H#/(1+T); 6000 N !`);
  for (const name of ['H', 'K']) {
    for (const [T, P] of [
      [300, 1e5],
      [950, 3e6],
      [2500, 101325],
    ]) {
      it(`${name} at T=${T}, P=${P}`, () => {
        const j = d.evaluateFunction(name, T, P);
        const hT = 1e-4 * T,
          hP = 1e-4 * P;
        const f = (t: number, p: number) => d.evaluateFunction(name, t, p);
        const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(1, Math.abs(a), Math.abs(b));
        expect(rel(j.t, (f(T + hT, P).v - f(T - hT, P).v) / (2 * hT))).toBeLessThan(1e-6);
        expect(rel(j.p, (f(T, P + hP).v - f(T, P - hP).v) / (2 * hP))).toBeLessThan(1e-6);
        expect(rel(j.tt, (f(T + hT, P).t - f(T - hT, P).t) / (2 * hT))).toBeLessThan(1e-6);
        expect(rel(j.tp, (f(T, P + hP).t - f(T, P - hP).t) / (2 * hP))).toBeLessThan(1e-6);
        expect(rel(j.pp, (f(T, P + hP).p - f(T, P - hP).p) / (2 * hP))).toBeLessThan(1e-6);
        expect(j.t).not.toBe(0);
        expect(j.p).not.toBe(0);
      });
    }
  }
});

describe('overrides and undefined symbols', () => {
  it('withOverrides replaces a FUNCTION by a constant everywhere it is used', () => {
    const d = db(`FUNCTION VV0 1 10*T; 6000 N !
FUNCTION SUM 1 VV0#+1; 6000 N !`);
    const o = d.withOverrides({ VV0: -5 });
    expect(o.evaluateFunction('SUM', 300).v).toBe(-4);
    expect(o.evaluateFunction('SUM', 300).t).toBe(0);
    expect(d.evaluateFunction('SUM', 300).v).toBe(3001); // original unchanged
    expect(() => d.withOverrides({ NOPE: 1 })).toThrow(/NOPE/);
  });
  it('an undefined FUNCTION is 0 (as pycalphad) and is reported with file and line', () => {
    const u = db(`FUNCTION S 1 ZERO#+1; 6000 N !\nPARAMETER G(LIQUID,AL;0) 1 S#; 6000 N !`);
    expect(u.evaluateFunction('S', 300).v).toBe(1);
    expect(u.info().warnings.some((w) => /^expr\.tdb:\d+: .*ZERO.*not defined; taken as 0/.test(w))).toBe(true);
    if (!haveTdb) return;
    const d = openDatabase(tdbPath('Cr-Fe-Ni_shallow_bcc.tdb'));
    expect(d.info().warnings.some((w) => /^Cr-Fe-Ni_shallow_bcc\.tdb:\d+: .*ZERO.*not defined/.test(w))).toBe(true);
  });
  it('FUNCTIONs on a cycle are dropped with a warning naming file and line; the others load', () => {
    const d = db(`FUNCTION A 1 B#; 6000 N !\nFUNCTION B 1 A#+1; 6000 N !\nFUNCTION C 1 2*T; 6000 N !`);
    expect(d.functionNames()).toEqual(['C']);
    expect(d.info().warnings).toEqual([
      'expr.tdb:4: FUNCTION A refers to itself (through FUNCTION B); dropped',
      'expr.tdb:5: FUNCTION B refers to itself (through FUNCTION A); dropped',
    ]);
    expect(() => db(`FUNCTION A 1 B#; 6000 N !\nFUNCTION B 1 A#+1; 6000 N !`).evaluateFunction('A', 300)).toThrow(
      /unknown FUNCTION 'A'/,
    );
  });
  it('unknown names throw a plain Error', () => {
    expect(() => db('').evaluateFunction('MISSING', 300)).toThrow(/unknown FUNCTION 'MISSING'/);
  });
});
