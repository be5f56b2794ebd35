// Load what is sound: a command that cannot be read or used is dropped with what depends on it, with a warning naming
// file, line and what was dropped (info().loadWarnings); what Thermo-Calc's rules give a meaning to is read with it;
// a file is refused only when nothing usable remains, with the first dropped command's FILE:LINE. One small file
// per rule.
import { describe, expect, it } from 'vitest';
import { openDatabaseFromString, type NativeDatabase, type NativeLoadWarning } from '../../../worker/core/database.js';
import { isCoreError, type CoreError } from '../../../worker/core/errors.js';
import { PhaseModel } from '../../../worker/core/models.js';

// Lines 1-5; LIQUID (lines 4-7) is sound in every file below.
const HEAD = [
  'ELEMENT VA VACUUM 0 0 0 !',
  'ELEMENT AL FCC_A1 26.98 0 0 !',
  'ELEMENT ZN HCP_A3 65.38 0 0 !',
  'PHASE LIQUID:L % 1 1 !',
  'CONSTITUENT LIQUID:L :AL,ZN: !',
  'PARAMETER G(LIQUID,AL;0) 298.15 -1000; 6000 N !',
  'PARAMETER G(LIQUID,ZN;0) 298.15 -2000; 6000 N !',
];

function load(lines: string[], name = 'drop.tdb'): { db: NativeDatabase; warnings: NativeLoadWarning[] } {
  const db = openDatabaseFromString([...HEAD, ...lines].join('\n') + '\n', name);
  return { db, warnings: db.info().loadWarnings };
}

/** The one warning at `line`, which must name what it says. */
function warningAt(warnings: NativeLoadWarning[], line: number, message: RegExp): NativeLoadWarning {
  const at = warnings.filter((w) => w.line === line);
  expect(at, JSON.stringify(warnings)).toHaveLength(1);
  expect(at[0].file).toBe('drop.tdb');
  expect(at[0].message).toMatch(message);
  return at[0];
}

const phases = (db: NativeDatabase) => db.info().phases.map((p) => p.name);

describe('a dropped PHASE takes its CONSTITUENT and PARAMETERs with it', () => {
  it('a PHASE line without its number of sublattices (mf-steel TAU1_ALFESI)', () => {
    const { db, warnings } = load([
      'PHASE TAU % 0.35 0.37 0.28 !',
      'CONSTITUENT TAU :AL:ZN:AL: !',
      'PARAMETER G(TAU,AL:ZN:AL;0) 298.15 -3000; 6000 N !',
    ]);
    const w = warningAt(
      warnings,
      8,
      /^PHASE TAU: expected 'PHASE NAME TYPECODES NUMBER_OF_SUBLATTICES RATIOS\.\.\.'; phase TAU is dropped, with its CONSTITUENT \(line 9\) and 1 PARAMETER$/,
    );
    expect(w.phase).toBe('TAU');
    expect(phases(db)).toEqual(['LIQUID']);
    expect(db.parameters().map((p) => p.phase)).toEqual(['LIQUID', 'LIQUID']);
    expect(db.phasesFor(['AL', 'ZN'])).toEqual(['LIQUID']);
  });

  it('a duplicate constituent', () => {
    const { db, warnings } = load([
      'PHASE GAS:G % 1 1 !',
      'CONSTITUENT GAS:G :AL,ZN,AL: !',
      'PARAMETER G(GAS,AL;0) 298.15 1000; 6000 N !',
    ]);
    warningAt(
      warnings,
      9,
      /^CONSTITUENT GAS: species AL named twice in one sublattice; phase GAS is dropped, with its 1 PARAMETER$/,
    );
    expect(phases(db)).toEqual(['LIQUID']);
  });

  it('a constituent that is not declared, a sublattice count that does not match, no CONSTITUENT at all', () => {
    const { db, warnings } = load([
      'PHASE A % 1 1 !',
      'CONSTITUENT A :AL,CU: !',
      'PHASE B % 2 1 1 !',
      'CONSTITUENT B :AL,ZN: !',
      'PHASE C % 1 1 !',
    ]);
    warningAt(warnings, 9, /^CONSTITUENT A: species CU is not declared .*; phase A is dropped$/);
    warningAt(warnings, 11, /^CONSTITUENT B gives 1 sublattices but PHASE B has 2; phase B is dropped$/);
    warningAt(warnings, 12, /^phase C has no CONSTITUENT command; phase C is dropped$/);
    expect(phases(db)).toEqual(['LIQUID']);
  });

  it('a SPECIES that cannot be read takes the phases made of it', () => {
    const { db, warnings } = load(['SPECIES Q AL1QQ2 !', 'PHASE S % 1 1 !', 'CONSTITUENT S :Q: !']);
    warningAt(warnings, 8, /^SPECIES Q: unknown element at 'QQ2'.*; species Q is dropped$/);
    warningAt(warnings, 10, /^CONSTITUENT S: species Q is not declared .*; phase S is dropped$/);
    expect(phases(db)).toEqual(['LIQUID']);
  });
});

describe('FUNCTIONs and PARAMETERs', () => {
  it('a FUNCTION that cannot be parsed is dropped with the FUNCTIONs and PARAMETERs that use it', () => {
    const { db, warnings } = load([
      'FUNCTION BAD 298.15 1+*T; 6000 N !',
      'FUNCTION USER 298.15 2*BAD#; 6000 N !',
      'FUNCTION GOOD 298.15 3*T; 6000 N !',
      'PARAMETER L(LIQUID,AL,ZN;0) 298.15 USER#; 6000 N !',
      'PARAMETER L(LIQUID,AL,ZN;1) 298.15 GOOD#; 6000 N !',
    ]);
    warningAt(warnings, 8, /^FUNCTION BAD: unexpected '\*' in expression; dropped, with every PARAMETER and FUNCTION/);
    warningAt(warnings, 9, /^FUNCTION USER uses FUNCTION BAD, which could not be read \(line 8\); dropped$/);
    warningAt(warnings, 11, /^PARAMETER L\(LIQUID,AL,ZN;0\) uses FUNCTION USER, which is dropped; ignored$/);
    expect(db.functionNames()).toEqual(['GOOD']);
    expect(db.parameters('LIQUID').map((p) => p.order)).toEqual([0, 0, 1]);
    expect(db.evaluateFunction('GOOD', 300).v).toBe(900);
  });

  it('FUNCTIONs that refer to each other are dropped, with what uses them', () => {
    const { db, warnings } = load([
      'FUNCTION A 298.15 B#+1; 6000 N !',
      'FUNCTION B 298.15 A#+1; 6000 N !',
      'PARAMETER L(LIQUID,AL,ZN;0) 298.15 A#; 6000 N !',
    ]);
    warningAt(warnings, 8, /^FUNCTION A refers to itself \(through FUNCTION B\); dropped$/);
    warningAt(warnings, 9, /^FUNCTION B refers to itself \(through FUNCTION A\); dropped$/);
    warningAt(warnings, 10, /^PARAMETER L\(LIQUID,AL,ZN;0\) uses FUNCTION A, which is dropped; ignored$/);
    expect(db.functionNames()).toEqual([]);
  });

  it('a PARAMETER that cannot be parsed, for a constituent its phase lacks, or a self-interaction', () => {
    const { db, warnings } = load([
      'PARAMETER G(LIQUID,AL;X) 298.15 1; 6000 N !',
      'PARAMETER G(LIQUID,CU;0) 298.15 1; 6000 N !',
      'PARAMETER L(LIQUID,ZN,ZN;0) 298.15 1; 6000 N !',
      'PARAMETER L(LIQUID,AL,ZN;0) 298.15 -500; 6000 N !',
    ]);
    warningAt(warnings, 8, /^PARAMETER G\(LIQUID,AL;X\): order 'X' is not a non-negative integer; dropped$/);
    warningAt(warnings, 9, /^PARAMETER G\(LIQUID,CU;0\): CU is not a constituent of sublattice 1 of LIQUID; ignored$/);
    warningAt(warnings, 10, /^PARAMETER L\(LIQUID,ZN,ZN;0\): ZN interacts with itself on sublattice 1; ignored$/);
    expect(db.parameters('LIQUID').map((p) => p.line)).toEqual([6, 7, 11]);
  });
});

describe('commands', () => {
  it('an unknown command or an ambiguous abbreviation is skipped', () => {
    const { db, warnings } = load(['ZEROVOLUME_SPECIES VA C !', 'DEF X !']);
    warningAt(warnings, 8, /^unknown command 'ZEROVOLUME_SPECIES'; skipped$/);
    warningAt(warnings, 9, /^ambiguous command abbreviation 'DEF' \(.*\); skipped$/);
    expect(phases(db)).toEqual(['LIQUID']);
  });

  it('a command the end of the file cuts off is dropped', () => {
    const db = openDatabaseFromString(
      [...HEAD, 'LIST_OF_REFERENCES', 'REF1 A. Author, a journal'].join('\n'),
      'drop.tdb',
    );
    warningAt(
      db.info().loadWarnings,
      8,
      /^command not terminated by '!' \(file truncated\?\): LIST_OF_REFERENCES .*; dropped$/,
    );
    expect(phases(db)).toEqual(['LIQUID']);
  });

  it("text after the site ratios: a phase description ('>') is read, anything else named", () => {
    const { db, warnings } = load([
      'PHASE D % 1 1 > a description of the phase >> 2 !',
      'CONSTITUENT D :AL: !',
      'PHASE E % 1 1',
      'CONSTITUENT E :AL: !',
    ]);
    expect(warnings.filter((w) => w.line === 8)).toEqual([]);
    // the '!' missing at the end of line 10 makes E's CONSTITUENT part of its PHASE command
    expect(warnings.filter((w) => w.line === 10).map((w) => w.message)).toEqual([
      "PHASE E: text after the site ratios ignored: 'CONSTITUENT E :AL:' (a '!' missing before it?)",
      'phase E has no CONSTITUENT command; phase E is dropped',
    ]);
    expect(phases(db)).toEqual(['LIQUID', 'D']);
  });
});

describe('order-disorder pairs', () => {
  const DIS = ['PHASE DIS % 2 1 1 !', 'CONSTITUENT DIS :AL,ZN:VA: !'];
  it('an ordered phase whose site ratios do not match its DIS_PART is dropped, never offered (mf-steel FCC2_L10)', () => {
    const { db, warnings } = load([
      ...DIS,
      'TYPE_DEFINITION I GES AMEND_PHASE_DESCRIPTION ORD DIS_PART DIS !',
      'PHASE ORD %I 3 1 1 1 !',
      'CONSTITUENT ORD :AL,ZN:AL,ZN:VA: !',
      'PARAMETER G(ORD,AL:ZN:VA;0) 298.15 -100; 6000 N !',
    ]);
    const w = warningAt(
      warnings,
      10,
      /^order-disorder model \(DIS_PART DIS\) does not map: ORD and its DIS_PART DIS: sublattices 1-2 of ORD hold 1 \+ 1 sites, sublattice 1 of DIS 1; phase ORD is dropped, with its CONSTITUENT \(line 12\) and 1 PARAMETER$/,
    );
    expect(w.phase).toBe('ORD');
    expect(phases(db)).toEqual(['LIQUID', 'DIS']);
    expect(db.phasesFor(['AL', 'ZN'])).toEqual(['LIQUID', 'DIS']);
  });

  it('an ordered phase with a constituent its DIS_PART lacks, or whose DIS_PART is undefined or dropped', () => {
    const { db, warnings } = load([
      ...DIS,
      'TYPE_DEFINITION J GES A_P_D ORD1 DIS_PART DIS !',
      'PHASE ORD1 %J 3 0.5 0.5 1 !',
      'CONSTITUENT ORD1 :AL,ZN:AL,ZN,VA:VA: !',
      'TYPE_DEFINITION K GES A_P_D ORD2 DIS_PART NONE !',
      'PHASE ORD2 %K 3 0.5 0.5 1 !',
      'CONSTITUENT ORD2 :AL,ZN:AL,ZN:VA: !',
      'PHASE BAD % 2 1 !',
      'TYPE_DEFINITION L GES A_P_D ORD3 DIS_PART BAD !',
      'PHASE ORD3 %L 3 0.5 0.5 1 !',
      'CONSTITUENT ORD3 :AL,ZN:AL,ZN:VA: !',
    ]);
    warningAt(
      warnings,
      10,
      /does not map: .*VA on sublattice 2 of ORD1 is not a constituent of sublattice 1 of DIS; phase ORD1 is dropped/,
    );
    warningAt(
      warnings,
      13,
      /^TYPE_DEFINITION DISORDERED_PART for ORD2: phase NONE is not defined; phase ORD2 is dropped/,
    );
    warningAt(warnings, 16, /^PHASE BAD: 2 sublattices but only 1 site ratios; phase BAD is dropped$/);
    warningAt(warnings, 17, /^the DIS_PART phase BAD of ordered phase ORD3 is dropped; phase ORD3 is dropped/);
    expect(phases(db)).toEqual(['LIQUID', 'DIS']);
  });

  it('a type code that amends another phase amends it (Thermo-Calc runs the GES command of the code)', () => {
    const { db, warnings } = load([
      ...DIS,
      'TYPE_DEFINITION M GES A_P_D DIS MAGNETIC -3.0 0.28 !',
      'TYPE_DEFINITION N GES A_P_D ORD DIS_PART DIS !',
      // M and N are carried by OTHER: entering OTHER amends DIS and ORD
      'PHASE OTHER %MN 1 1 !',
      'CONSTITUENT OTHER :AL: !',
      'PHASE ORD % 3 0.5 0.5 1 !',
      'CONSTITUENT ORD :AL,ZN:AL,ZN:VA: !',
    ]);
    const info = db.info();
    expect(info.phases.find((p) => p.name === 'DIS')!.magnetic).toEqual({ afm: -3, p: 0.28 });
    expect(info.phases.find((p) => p.name === 'ORD')!.disorderedPart).toBe('DIS');
    expect(info.phases.find((p) => p.name === 'OTHER')!.magnetic).toBeNull();
    expect(info.phases.find((p) => p.name === 'OTHER')!.disorderedPart).toBe('');
    expect(warnings).toEqual([]);
  });
});

describe('a file is refused only when nothing usable remains', () => {
  it('with the first dropped command, FILE:LINE; the same file with one sound phase more loads', () => {
    const broken = ['ELEMENT AL FCC_A1 26.98 0 0 !', 'FROB X !', 'PHASE A % 0.5 0.5 !', 'CONSTITUENT A :AL:AL: !'];
    try {
      openDatabaseFromString(broken.join('\n'), 'none.tdb');
      throw new Error('not refused');
    } catch (e) {
      expect(isCoreError(e, 'PD_TDB_SYNTAX')).toBe(true);
      expect((e as CoreError).message).toBe("none.tdb:2: unknown command 'FROB'");
      expect((e as CoreError).line).toBe(2);
    }
    const db = openDatabaseFromString([...broken, 'PHASE B % 1 1 !', 'CONSTITUENT B :AL: !'].join('\n'), 'none.tdb');
    expect(phases(db)).toEqual(['B']);
    expect(db.info().warnings).toEqual([
      "none.tdb:2: unknown command 'FROB'; skipped",
      "none.tdb:3: PHASE A: expected 'PHASE NAME TYPECODES NUMBER_OF_SUBLATTICES RATIOS...'; phase A is dropped, with its CONSTITUENT (line 4)",
    ]);
  });

  it('a model is never built from a dropped phase: the error names the phase, it is no defect of the core', () => {
    const { db } = load(['PHASE TAU % 0.35 0.37 0.28 !', 'CONSTITUENT TAU :AL:ZN:AL: !']);
    expect(() => PhaseModel.build(db, 'TAU', ['AL', 'ZN'])).toThrow(/^unknown phase TAU in drop\.tdb$/);
  });
});
