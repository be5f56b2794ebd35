// Malformed input: the error names the file and the line and says what is wrong. Each file below has nothing usable
// left once its malformed command is dropped (no phase remains), so it is refused with that command's FILE:LINE;
// a file that keeps a phase loads with warnings instead (drops.test.ts).
import { describe, expect, it, vi } from 'vitest';
import { openDatabase, openDatabaseFromString, readTdbInfo } from '../../../worker/core/database.js';
import { equilibrium } from '../../../worker/core/equilibrium.js';
import { isCoreError, type CoreError } from '../../../worker/core/errors.js';
import { PhaseModel } from '../../../worker/core/models.js';

const HEAD = 'ELEMENT AL FCC_A1 26.98 0 0 !\nELEMENT ZN HCP_A3 65.38 0 0 !\n';

function errorOf(text: string, name = 'bad.tdb'): string {
  try {
    openDatabaseFromString(text, name);
  } catch (e) {
    expect(e).toBeInstanceOf(Error);
    return (e as Error).message;
  }
  throw new Error('expected the database to be rejected');
}

describe('errors name file and line', () => {
  const cases: [string, string, RegExp][] = [
    ['missing ;', HEAD + 'FUNCTION F 298.15 1+2*T 6000 N !\n', /^bad\.tdb:3: FUNCTION F: unexpected '6' in expression/],
    ['unbalanced (', HEAD + '\n\nFUNCTION F 298.15 (1+2*T; 6000 N !\n', /^bad\.tdb:5: .*missing '\)'/],
    [
      'unknown function call',
      HEAD + 'FUNCTION F 298.15\n  1+FOO(T); 6000 N !\n',
      /^bad\.tdb:4: FUNCTION F: unknown function 'FOO\('/,
    ],
    [
      'unterminated command',
      HEAD + 'PHASE LIQUID:L % 1 1 !\nCONSTITUENT LIQUID:L :AL,ZN:',
      /^bad\.tdb:4: command not terminated by '!'/,
    ],
    ['unknown command', HEAD + 'FROBNICATE X !\n', /^bad\.tdb:3: unknown command 'FROBNICATE'/],
    ['ambiguous abbreviation', HEAD + 'DEF X !\n', /^bad\.tdb:3: ambiguous command abbreviation 'DEF'/],
    ['bad site ratio', HEAD + 'PHASE LIQUID:L % 1 ABC !\n', /^bad\.tdb:3: PHASE LIQUID: site ratio 'ABC'/],
    ['too few site ratios', HEAD + 'PHASE X % 3 1 2 !\n', /^bad\.tdb:3: PHASE X: 3 sublattices but only 2/],
    [
      'undeclared species',
      HEAD + 'PHASE LIQUID:L % 1 1 !\nCONSTITUENT LIQUID:L :AL,CU: !\n',
      /^bad\.tdb:4: .*species CU is not declared/,
    ],
    [
      'sublattice mismatch',
      HEAD + 'PHASE B2 % 2 1 1 !\nCONSTITUENT B2 :AL,ZN: !\n',
      /^bad\.tdb:4: CONSTITUENT B2 gives 1 sublattices but PHASE B2 has 2/,
    ],
    ['bad species formula', HEAD + 'SPECIES Q QQ2 !\n', /^bad\.tdb:3: SPECIES Q: unknown element/],
    [
      'bad magnetic type',
      HEAD + 'TYPE_DEFINITION & GES A_P_D FCC MAGNETIC X !\nPHASE FCC %& 1 1 !\nCONS FCC :AL: !\n',
      /^bad\.tdb:3: TYPE_DEFINITION MAGNETIC/,
    ],
    [
      'bad upper limit',
      HEAD + 'FUNCTION F 298.15 1;\n ABC N !\n',
      /^bad\.tdb:4: FUNCTION F: expected the upper temperature limit/,
    ],
  ];
  for (const [what, text, re] of cases) {
    it(what, () => {
      expect(errorOf(text)).toMatch(re);
    });
  }

  it('a missing file names the file', () => {
    expect(() => openDatabase('/nonexistent/dir/missing.tdb')).toThrow(/^missing\.tdb:0: cannot open the file/);
  });

  it('readTdbInfo passes the FILE:LINE message through', () => {
    expect(() => readTdbInfo('/nonexistent/none.tdb')).toThrow(/none\.tdb:0:/);
  });

  it('the Error carries file and line properties', () => {
    try {
      openDatabaseFromString(HEAD + 'FROB !', 'props.tdb');
      throw new Error('not rejected');
    } catch (e) {
      const err = e as Error & { file?: string; line?: number };
      expect(err.file).toBe('props.tdb');
      expect(err.line).toBe(3);
    }
  });

  it('wrong argument types are TypeErrors, not crashes', async () => {
    const { loadCore } = await import('../../../worker/core/native.js');
    const core = loadCore() as unknown as { Database: Record<string, (...a: unknown[]) => unknown> };
    expect(() => core.Database.fromFile(42)).toThrow(TypeError);
    expect(() => core.Database.fromString()).toThrow(TypeError);
    expect(() => new (core.Database as unknown as new (x: unknown) => unknown)({})).toThrow(/fromFile/);
  });
});

describe('every error from the core carries a machine-readable code', () => {
  const codeOf = (f: () => unknown): string | undefined => {
    try {
      f();
    } catch (e) {
      expect(isCoreError(e)).toBe(true);
      return (e as CoreError).code;
    }
    throw new Error('expected an error');
  };
  it('reader errors: PD_TDB_SYNTAX, PD_TDB_LIMIT, PD_FILE', () => {
    expect(codeOf(() => openDatabaseFromString(HEAD + 'FROB !', 'x.tdb'))).toBe('PD_TDB_SYNTAX');
    expect(
      codeOf(() => openDatabaseFromString(HEAD + 'FUNCTION F 1 ' + '('.repeat(1000) + '; 6000 N !', 'x.tdb')),
    ).toBe('PD_TDB_LIMIT');
    expect(codeOf(() => openDatabase('/nonexistent/x.tdb'))).toBe('PD_FILE');
  });
  it('argument and condition errors: PD_INVALID_ARGUMENT', async () => {
    const { loadCore } = await import('../../../worker/core/native.js');
    const core = loadCore() as unknown as { Database: Record<string, (...a: unknown[]) => unknown> };
    expect(codeOf(() => core.Database.fromFile(42))).toBe('PD_INVALID_ARGUMENT');
    const db = openDatabaseFromString(HEAD + 'PHASE LIQUID:L % 1 1 !\nCONSTITUENT LIQUID:L :AL,ZN: !\n', 'x.tdb');
    expect(
      codeOf(() => equilibrium({ database: db, components: ['AL', 'CU'], conditions: { T: 1000, X: { CU: 0.5 } } })),
    ).toBe('PD_INVALID_ARGUMENT');
    expect(
      codeOf(() => equilibrium({ database: db, components: ['AL', 'ZN'], conditions: { T: -1, X: { ZN: 0.5 } } })),
    ).toBe('PD_INVALID_ARGUMENT');
  });
  it('a defect of the core: PD_INTERNAL, never the C++ library text as the message', async () => {
    const { loadTestingCore } = await import('../../support/hooks/testing-core.js');
    try {
      loadTestingCore().internalErrorProbe();
      throw new Error('no error');
    } catch (e) {
      expect(isCoreError(e, 'PD_INTERNAL')).toBe(true);
      expect((e as Error).message).toMatch(
        /^internal error in the calculation core \(a defect, not a problem of your input\)/,
      );
      expect((e as Error).message).not.toMatch(/vector|_M_range_check|__n/);
      expect((e as CoreError).detail).toMatch(/_M_range_check/);
    }
  });
  it('a database the models cannot use: PD_MODEL', () => {
    const db = openDatabaseFromString(HEAD + 'PHASE AQ:A % 1 1 !\nCONSTITUENT AQ :AL,ZN: !\n', 'aq.tdb');
    try {
      PhaseModel.build(db, 'AQ', ['AL', 'ZN']);
      throw new Error('not refused');
    } catch (e) {
      expect(isCoreError(e, 'PD_MODEL')).toBe(true);
      expect((e as Error).message).toMatch(/aqueous solution model .* phase AQ in aq\.tdb is not supported/);
    }
  });
});

describe('addon loader', () => {
  it('a missing addon gives one actionable error', async () => {
    vi.resetModules();
    const saved = process.env.PHASEDESK_CORE_ADDON;
    process.env.PHASEDESK_CORE_ADDON = '/nonexistent/phasedesk_core.node';
    try {
      // a fresh instance of the loader module (the query makes it a new module for vitest)
      const fresh = '../../../worker/core/native.js?missing';
      const mod = (await import(fresh)) as typeof import('../../../worker/core/native.js');
      expect(() => mod.loadCore()).toThrow(
        /PhaseDesk calculation core not built: run `npm install` \(needs g\+\+ and make\)/,
      );
    } finally {
      if (saved === undefined) delete process.env.PHASEDESK_CORE_ADDON;
      else process.env.PHASEDESK_CORE_ADDON = saved;
    }
  });
});
