// The code of a database record names its stored file (<code>.tdb): the rules every path applies and the code the
// desktop derives from a file name (contract/database-code.ts).
import { describe, expect, it } from 'vitest';
import {
  caseCollision,
  codeFromFileName,
  databaseCodeProblem,
  nameFromFileName,
} from '../../contract/database-code.js';

describe('database codes', () => {
  it('accept letters, digits, _ . - up to 64 characters', () => {
    for (const c of ['ALZN_MEY1993', 'MC_FE_V2.059', 'a-b', 'X'.repeat(64)]) expect(databaseCodeProblem(c)).toBeNull();
  });
  it('refuse the empty, the long, other characters and a leading mark', () => {
    expect(databaseCodeProblem('')).toBe('must not be empty');
    expect(databaseCodeProblem('A'.repeat(300))).toBe('must be at most 64 characters (it has 300)');
    for (const c of ['a b', 'a/b', '..', '.hidden', '-x', 'é'])
      expect(databaseCodeProblem(c)).toMatch(/may only contain letters, digits/);
  });
  it('refuse Windows device names, with or without an extension, in any case', () => {
    for (const c of ['CON', 'nul', 'Aux', 'PRN', 'COM1', 'lpt9', 'NUL.tdb', 'con.x'])
      expect(databaseCodeProblem(c)).toMatch(/is a device name on Windows/);
    for (const c of ['CONSOLE', 'NULL', 'COM10', 'AUX_1']) expect(databaseCodeProblem(c)).toBeNull();
  });
  it('find a code that differs from an existing one only by case', () => {
    expect(caseCollision('alzn_mey1993', ['ALZN_MEY1993', 'CUNI'])).toBe('ALZN_MEY1993');
    expect(caseCollision('ALZN_MEY1993', ['ALZN_MEY1993'])).toBeUndefined();
  });
});

describe('a code and a name from a file name', () => {
  it('upper case, other characters as _, no folder, no extension', () => {
    expect(codeFromFileName('/home/me/mf-steel.tdb')).toBe('MF-STEEL');
    expect(codeFromFileName('C:\\data\\My base (v2).TDB')).toBe('MY_BASE_V2_');
    expect(codeFromFileName('mc_fe_v2.059.pycalphad.tdb')).toBe('MC_FE_V2.059.PYCALPHAD');
    expect(nameFromFileName('/home/me/mf-steel.tdb')).toBe('mf-steel');
  });
  it('a free code: a taken one (in any case) gets _2, _3; a device name or nothing usable a suffix', () => {
    expect(codeFromFileName('steel.tdb', ['steel'])).toBe('STEEL_2');
    expect(codeFromFileName('steel.tdb', ['STEEL', 'STEEL_2'])).toBe('STEEL_3');
    expect(codeFromFileName('nul.tdb')).toBe('NUL_TDB');
    expect(codeFromFileName('___.tdb')).toBe('DATABASE');
    const long = codeFromFileName(`${'x'.repeat(100)}.tdb`, ['X'.repeat(64)]);
    expect(long).toBe(`${'X'.repeat(62)}_2`);
    expect(databaseCodeProblem(long)).toBeNull();
  });
});
