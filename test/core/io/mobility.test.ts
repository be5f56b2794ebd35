// A mobility file read beside a thermodynamic one (openDatabase(path, mobilityPath)): it adds its FUNCTIONs and
// mobility PARAMETERs (MQ, MF, DQ, DF) only; anything else in it is ignored with one warning per kind of command; a
// mobility parameter that does not fit the thermodynamic database is dropped with a warning naming the mobility file
// and its line; a mobility file of which nothing is usable is refused, naming it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  openDatabase,
  openDatabaseFromString,
  type NativeDatabase,
  type NativeLoadWarning,
} from '../../../worker/core/database.js';
import type { NativeParameterInfo } from '../../../worker/core/native.js';
import { haveTdb, tdbPath } from './helpers.js';

const MOBILITY_TYPES = new Set(['MQ', 'MF', 'DQ', 'DF']);

// Al-Zn: LIQUID and FCC_A1 (AL,ZN)(VA); lines 1-9.
const THERMO = [
  'ELEMENT VA VACUUM 0 0 0 !',
  'ELEMENT AL FCC_A1 26.98 0 0 !',
  'ELEMENT ZN HCP_A3 65.38 0 0 !',
  'FUNCTION GHSERAL 298.15 -8000+T; 6000 N !',
  'PHASE LIQUID:L % 1 1 !',
  'CONSTITUENT LIQUID:L :AL,ZN: !',
  'PHASE FCC_A1 % 2 1 1 !',
  'CONSTITUENT FCC_A1 :AL,ZN:VA: !',
  'PARAMETER G(FCC_A1,AL:VA;0) 298.15 GHSERAL; 6000 N !',
].join('\n');

function withMobility(lines: string[]): NativeDatabase {
  return openDatabaseFromString(THERMO + '\n', 'thermo.tdb', { text: lines.join('\n') + '\n', name: 'mob.tdb' });
}

/** The one warning of mob.tdb at `line`, which must say `message`. */
function mobilityWarningAt(warnings: NativeLoadWarning[], line: number, message: RegExp): void {
  const at = warnings.filter((w) => w.file === 'mob.tdb' && w.line === line);
  expect(at, JSON.stringify(warnings)).toHaveLength(1);
  expect(at[0].message).toMatch(message);
}

/** 1-based number of the first line of `text` matching `re`. */
function lineOf(text: string, re: RegExp): number {
  const k = text.split(/\r?\n/).findIndex((l) => re.test(l));
  if (k < 0) throw new Error(`no line matches ${re}`);
  return k + 1;
}

const fromFile = (ps: NativeParameterInfo[], file: string) => ps.filter((p) => p.file === file);

describe('inline mobility files: what is added, and warnings naming the mobility file and line', () => {
  it('adds the mobility parameters that fit; the others and every non-mobility command are ignored at their line', () => {
    const db = withMobility([
      '$ mobility data for thermo.tdb',
      'ELEMENT AL FCC_A1 26.98 0 0 !',
      'ELEMENT CU FCC_A1 63.55 0 0 !',
      'FUNCTION QAL 298.15 -140000; 6000 N !',
      'PARAMETER MQ(FCC_A1&AL,AL:VA;0) 298.15 QAL+R*T*LN(1E-4); 6000 N !',
      'PARAMETER MQ(BCC_A2&AL,AL:VA;0) 298.15 -1; 6000 N !',
      'PARAMETER MQ(FCC_A1&CU,AL:VA;0) 298.15 -1; 6000 N !',
      'PARAMETER G(FCC_A1,ZN:VA;0) 298.15 -1; 6000 N !',
      'PARAMETER MQ(FCC_A1&ZN,ZN:VA;0) 298.15 -1+*T; 6000 N !',
      'PARAMETER MF(FCC_A1&ZN,CU:VA;0) 298.15 -1; 6000 N !',
      'PARAMETER MQ(FCC_A1,ZN:VA;0) 298.15 -1; 6000 N !',
    ]);
    const w = db.info().loadWarnings;
    mobilityWarningAt(
      w,
      2,
      /^2 ELEMENT commands ignored, the first here \(ELEMENT AL\): a mobility file read beside thermo\.tdb adds FUNCTIONs and mobility PARAMETERs \(MQ, MF, DQ, DF\) only/,
    );
    mobilityWarningAt(w, 6, /^PARAMETER MQ\(BCC_A2&AL,AL:VA;0\): phase BCC_A2 is not a phase of thermo\.tdb; ignored$/);
    mobilityWarningAt(
      w,
      7,
      /^PARAMETER MQ\(FCC_A1&CU,AL:VA;0\): diffusing element CU is not an element of thermo\.tdb; ignored$/,
    );
    mobilityWarningAt(w, 8, /^PARAMETER G\(FCC_A1,ZN:VA;0\) ignored: a mobility file read beside thermo\.tdb/);
    mobilityWarningAt(w, 9, /^PARAMETER MQ\(FCC_A1&ZN,ZN:VA;0\): .*; dropped$/);
    mobilityWarningAt(
      w,
      10,
      /^PARAMETER MF\(FCC_A1&ZN,CU:VA;0\): CU is not a constituent of sublattice 1 of FCC_A1; ignored$/,
    );
    mobilityWarningAt(w, 11, /^PARAMETER MQ\(FCC_A1,ZN:VA;0\): no diffusing element/);
    expect(w.filter((x) => x.file === 'mob.tdb').map((x) => x.line)).toEqual([2, 6, 7, 8, 9, 10, 11]);
    expect(w.filter((x) => x.file !== 'mob.tdb')).toEqual([]);
    const ps = db.parameters();
    expect(fromFile(ps, 'mob.tdb')).toEqual([
      expect.objectContaining({
        type: 'MQ',
        phase: 'FCC_A1',
        qualifier: 'AL',
        constituents: [['AL'], ['VA']],
        line: 5,
      }),
    ]);
    expect(fromFile(ps, 'thermo.tdb').map((p) => `${p.type}(${p.phase})`)).toEqual(['G(FCC_A1)']);
    expect(db.info().elements.map((e) => e.name)).toEqual(['AL', 'VA', 'ZN']);
    expect(db.evaluateFunction('QAL', 1000).v).toBe(-140000);
  });

  it('a FUNCTION both files define: the mobility parameters use the mobility file’s, the thermodynamics its own', () => {
    const db = withMobility([
      'FUNCTION GHSERAL 298.15 -123; 6000 N !',
      'FUNCTION UNUSED 298.15 1; 6000 N !',
      'PARAMETER MQ(FCC_A1&AL,AL:VA;0) 298.15 GHSERAL; 6000 N !',
    ]);
    mobilityWarningAt(
      db.info().loadWarnings,
      1,
      /^FUNCTION GHSERAL is also defined in thermo\.tdb \(line 4\): the mobility parameters of mob\.tdb use the definition here \(named GHSERAL@MOB\.TDB\), the thermodynamic description keeps thermo\.tdb's$/,
    );
    expect(db.functionNames()).toEqual(['GHSERAL', 'GHSERAL@MOB.TDB']);
    expect(db.evaluateFunction('GHSERAL', 1000).v).toBe(-7000);
    expect(db.evaluateFunction('GHSERAL@MOB.TDB', 1000).v).toBe(-123);
  });

  it('a mobility file with nothing usable is refused, naming it', () => {
    expect(() => withMobility(['PARAMETER MQ(BCC_A2&AL,AL:VA;0) 298.15 -1; 6000 N !'])).toThrow(
      expect.objectContaining({
        code: 'PD_TDB_SYNTAX',
        message:
          'mob.tdb:1: no mobility parameter of mob.tdb describes a phase of thermo.tdb (all 1 are ignored; this one: PARAMETER MQ(BCC_A2&AL,AL:VA;0): phase BCC_A2 is not a phase of thermo.tdb; ignored)',
      }),
    );
    expect(() => withMobility(['PARAMETER G(FCC_A1,AL:VA;0) 298.15 -1; 6000 N !'])).toThrow(
      expect.objectContaining({
        code: 'PD_TDB_SYNTAX',
        message: expect.stringMatching(/^mob\.tdb:0: no mobility PARAMETER \(MQ, MF, DQ, DF\) in mob\.tdb/),
      }),
    );
  });
});

describe.skipIf(!haveTdb)('published mobility files beside their thermodynamic databases', () => {
  const steel = openDatabase(tdbPath('mf-steel.tdb'));

  it('mf-steel.tdb + mf-mobility.tdb: the mobility parameters join, the thermodynamics is that of mf-steel alone', () => {
    const db = openDatabase(tdbPath('mf-steel.tdb'), tdbPath('mf-mobility.tdb'));
    const text = readFileSync(tdbPath('mf-mobility.tdb'), 'latin1');
    const ps = db.parameters();
    const mobility = fromFile(ps, 'mf-mobility.tdb');
    expect(mobility.length).toBeGreaterThan(300);
    for (const p of mobility) {
      expect(MOBILITY_TYPES.has(p.type), p.type).toBe(true);
      expect(p.qualifier).not.toBe('');
    }
    expect(mobility[0]).toEqual(
      expect.objectContaining({ type: 'MQ', phase: 'BCC_A2', qualifier: 'AG', constituents: [['FE'], ['VA']] }),
    );
    expect(mobility[0].line).toBe(lineOf(text, /^PARAMETER MQ\(BCC_A2&AG,FE:VA;0\)/));
    expect(fromFile(ps, 'mf-steel.tdb')).toEqual(steel.parameters());
    expect(ps).toHaveLength(steel.parameters().length + mobility.length);
    expect(db.info().phases).toEqual(steel.info().phases);
    expect(db.functionNames()).toEqual(steel.functionNames());
    const w = db.info().loadWarnings;
    expect(w.filter((x) => x.file === 'mf-steel.tdb')).toEqual(steel.info().loadWarnings);
    const fe4n = lineOf(text, /^PARAMETER MQ\(FE4N&N,FE:C;0\)/);
    expect(w.filter((x) => x.file === 'mf-mobility.tdb' && x.line === fe4n).map((x) => x.message)).toEqual([
      'PARAMETER MQ(FE4N&N,FE:C;0): phase FE4N is not a phase of mf-steel.tdb; ignored',
    ]);
    const noAmp = lineOf(text, /^PARAMETER MQ\(BCC_A2,FE,CO:VA;0\)/);
    expect(w.filter((x) => x.file === 'mf-mobility.tdb' && x.line === noAmp).map((x) => x.message)).toEqual([
      'PARAMETER MQ(BCC_A2,FE,CO:VA;0): no diffusing element (MQ(BCC_A2&ELEMENT,...)); ignored',
    ]);
  });

  it('mf-mobility.tdb beside a database without its phases and elements is refused, naming it', () => {
    const mg =
      'ELEMENT VA VACUUM 0 0 0 !\nELEMENT MG HCP_A3 24.3 0 0 !\nPHASE LIQUID:L % 1 1 !\nCONSTITUENT LIQUID:L :MG: !\n';
    expect(() =>
      openDatabaseFromString(mg, 'mg.tdb', {
        text: readFileSync(tdbPath('mf-mobility.tdb'), 'latin1'),
        name: 'mf-mobility.tdb',
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'PD_TDB_SYNTAX',
        message: expect.stringMatching(
          /^mf-mobility\.tdb:\d+: no mobility parameter of mf-mobility\.tdb describes a phase of mg\.tdb \(all 338 are ignored; this one: PARAMETER MQ\(BCC_A2&AG,FE:VA;0\): phase BCC_A2 is not a phase of mg\.tdb; ignored\)$/,
        ),
      }),
    );
    // read as the thermodynamic file, it stays a mobility-only file
    expect(() => openDatabase(tdbPath('mf-mobility.tdb'), tdbPath('mf-mobility.tdb'))).toThrow(
      expect.objectContaining({
        code: 'PD_TDB_MOBILITY_ONLY',
        message: expect.stringMatching(/^mf-mobility\.tdb:1: /),
      }),
    );
  });

  it('diffusion.tdb beside a small Mg database: the mobilities of its elements join, its own phases are ignored', () => {
    const mg = [
      'ELEMENT VA VACUUM 0 0 0 !',
      'ELEMENT AL FCC_A1 26.98 0 0 !',
      'ELEMENT MG HCP_A3 24.305 0 0 !',
      'ELEMENT ZN HCP_A3 65.38 0 0 !',
      'PHASE HCP_A3 % 2 1 0.5 !',
      'CONSTITUENT HCP_A3 :AL,MG,ZN:VA: !',
      'PARAMETER G(HCP_A3,MG:VA;0) 298.15 -8000; 6000 N !',
    ].join('\n');
    const text = readFileSync(tdbPath('diffusion.tdb'), 'latin1');
    const db = openDatabaseFromString(mg, 'mg.tdb', { text, name: 'diffusion.tdb' });
    const mobility = fromFile(db.parameters(), 'diffusion.tdb');
    expect(new Set(mobility.map((p) => p.qualifier))).toEqual(new Set(['AL', 'MG', 'ZN']));
    expect(mobility).toHaveLength(13);
    expect(mobility.every((p) => p.type === 'MQ' && p.phase === 'HCP_A3')).toBe(true);
    expect(db.info().phases.map((p) => p.name)).toEqual(['HCP_A3']);
    expect(db.info().phases[0].magnetic).toBeNull();
    const w = db.info().loadWarnings.filter((x) => x.file === 'diffusion.tdb');
    const ignored = (re: RegExp) => w.filter((x) => re.test(x.message)).map((x) => x.line);
    expect(ignored(/^\d+ ELEMENT commands ignored/)).toEqual([lineOf(text, /^ ELEMENT \/-/)]);
    expect(ignored(/^PHASE HCP_A3 ignored/)).toEqual([lineOf(text, /^ PHASE HCP_A3/)]);
    expect(ignored(/^2 TYPE_DEFINITION commands ignored/)).toEqual([lineOf(text, /^ TYPE_DEFINITION X/)]);
    expect(ignored(/diffusing element AG is not an element of mg\.tdb/)).toEqual([lineOf(text, /MQ\(HCP_A3&AG,/)]);
  });

  it('kawin_FeCrNi.tdb named as the mobility file of mf-steel.tdb adds its MQ and MF parameters only', () => {
    const kawin = openDatabase(tdbPath('kawin_FeCrNi.tdb'))
      .parameters()
      .filter((p) => MOBILITY_TYPES.has(p.type));
    expect(kawin.length).toBeGreaterThan(0);
    const db = openDatabase(tdbPath('mf-steel.tdb'), tdbPath('kawin_FeCrNi.tdb'));
    const ps = db.parameters();
    expect(fromFile(ps, 'mf-steel.tdb')).toEqual(steel.parameters());
    expect(fromFile(ps, 'kawin_FeCrNi.tdb')).toEqual(kawin);
    expect(ps).toHaveLength(steel.parameters().length + kawin.length);
    expect(db.info().phases).toEqual(steel.info().phases);
    expect(db.info().elements).toEqual(steel.info().elements);
    expect(db.functionNames()).toEqual(steel.functionNames());
    const w = db.info().loadWarnings.filter((x) => x.file === 'kawin_FeCrNi.tdb');
    expect(w.map((x) => x.message.replace(/ commands ignored.*/, ''))).toEqual([
      '4 ELEMENT',
      '3 TYPE_DEFINITION',
      '3 PHASE',
      '3 CONSTITUENT',
      '12 PARAMETER G',
      '21 PARAMETER L',
      '13 PARAMETER TC',
      '13 PARAMETER BMAGN',
    ]);
  });
});
