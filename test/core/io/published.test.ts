// Load what is sound, on databases as published: mf-steel.tdb (a PHASE line without its sublattice count, an ordered
// phase whose site ratios do not map onto its DIS_PART, a GAS with a constituent named twice, a self-interaction),
// the kawin files (one ends inside its LIST_OF_REFERENCES), mc_al (GP_MAT orders a subset of FCC_A1's constituents)
// and mc_fe load with every dropped command named with its line; two files broken by hand (a '!' removed, eight
// lines deleted) give warnings naming file and line, and calculations with them never fail as a defect of the core.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, openDatabaseFromString, type NativeLoadWarning } from '../../../worker/core/database.js';
import { equilibrium } from '../../../worker/core/equilibrium.js';
import { isCoreError } from '../../../worker/core/errors.js';
import { haveTdb, tdbPath } from './helpers.js';

/** 1-based number of the first line of `text` matching `re`. */
function lineOf(text: string, re: RegExp): number {
  const k = text.split(/\r?\n/).findIndex((l) => re.test(l));
  if (k < 0) throw new Error(`no line matches ${re}`);
  return k + 1;
}

function warningsAt(warnings: NativeLoadWarning[], line: number): string[] {
  return warnings.filter((w) => w.line === line).map((w) => w.message);
}

describe.skipIf(!haveTdb)('mf-steel.tdb as published', () => {
  const text = readFileSync(tdbPath('mf-steel.tdb'), 'latin1');
  const db = openDatabase(tdbPath('mf-steel.tdb'));
  const info = db.info();

  it('loads its 358 usable phases with its warnings listed, each at its file and line', () => {
    expect(info.phases).toHaveLength(358);
    expect(info.loadWarnings.length).toBeGreaterThan(100);
    expect(info.loadWarnings.map((w) => `${w.file}:${w.line}: ${w.message}`)).toEqual(info.warnings);
    for (const w of info.loadWarnings) {
      expect(w.file).toBe('mf-steel.tdb');
      expect(w.line).toBeGreaterThan(0);
    }
  });

  it('names each dropped command with its line, and offers none of the dropped phases', () => {
    const w = info.loadWarnings;
    const tau = lineOf(text, /^PHASE TAU1_ALFESI /);
    expect(warningsAt(w, tau)).toEqual([
      `PHASE TAU1_ALFESI: expected 'PHASE NAME TYPECODES NUMBER_OF_SUBLATTICES RATIOS...'; phase TAU1_ALFESI is dropped, with its CONSTITUENT (line ${tau + 1}) and 1 PARAMETER`,
    ]);
    const l10 = lineOf(text, /^TYPE_DEFINITION I GES AMEND_PHASE_DESCRIPTION FCC2_L10 DIS_PART FCC_A1/);
    expect(warningsAt(w, l10)).toEqual([
      `order-disorder model (DIS_PART FCC_A1) does not map: FCC2_L10 and its DIS_PART FCC_A1: sublattices 1-2 of FCC2_L10 hold 1 + 1 sites, sublattice 1 of FCC_A1 1; phase FCC2_L10 is dropped, with its CONSTITUENT (line ${lineOf(text, /^CONSTITUENT FCC2_L10 /)}) and 19 PARAMETERs`,
    ]);
    const gas = lineOf(text, /^CONSTITUENT GAS:G /);
    expect(warningsAt(w, gas)).toEqual([
      'CONSTITUENT GAS: species C2 named twice in one sublattice; phase GAS is dropped, with its 50 PARAMETERs',
    ]);
    expect(warningsAt(w, lineOf(text, /^PARAMETER BMAGN\(FCC_A1,MN,MN:VA;1\)/))).toEqual([
      'PARAMETER BMAGN(FCC_A1,MN,MN:VA;1): MN interacts with itself on sublattice 1; ignored',
    ]);
    // these three phases and nothing else are dropped; the calculations are never offered them
    const dropped = w.filter((x) => / is dropped/.test(x.message) && x.phase !== '').map((x) => x.phase);
    expect(dropped.sort()).toEqual(['FCC2_L10', 'GAS', 'TAU1_ALFESI']);
    const names = new Set(info.phases.map((p) => p.name));
    const offered = db.phasesFor(info.elements.map((e) => e.name));
    for (const p of dropped) {
      expect(names.has(p)).toBe(false);
      expect(offered).not.toContain(p);
    }
    // FCC_A1 stays the DIS_PART of the ordered fcc phases that map onto it
    expect(info.phases.find((p) => p.name === 'FCC_L12')!.disorderedPart).toBe('FCC_A1');
  });

  it('a calculation with the ordered fcc phases converges (Fe-Ni, FCC_L12 and FCC_L10 with DIS_PART FCC_A1)', () => {
    const r = equilibrium({
      database: db,
      components: ['FE', 'NI', 'VA'],
      phases: ['FCC_A1', 'FCC_L12', 'FCC_L10', 'BCC_A2', 'LIQUID'],
      conditions: { T: 900, X: { NI: 0.5 } },
    });
    expect(r.converged, r.reason).toBe(true);
  });
});

describe.skipIf(!haveTdb)('the other databases that did not load', () => {
  it('kawin_AlMgSi.tdb: the LIST_OF_REFERENCES the end of the file cuts off is dropped', () => {
    const text = readFileSync(tdbPath('kawin_AlMgSi.tdb'), 'latin1');
    const info = openDatabase(tdbPath('kawin_AlMgSi.tdb')).info();
    expect(info.phases.length).toBe(12);
    expect(warningsAt(info.loadWarnings, lineOf(text, /^LIST_OF_REFERENCES/))).toEqual([
      "command not terminated by '!' (file truncated?): LIST_OF_REFERENCES A00201-0 UNARY A.T. D; dropped",
    ]);
  });

  it('every kawin file, mc_al and mc_fe load, dropping no phase', () => {
    for (const f of [
      'kawin_AlMgSi.tdb',
      'kawin_AlScZr.tdb',
      'kawin_CuTi.tdb',
      'kawin_FeCrNi.tdb',
      'kawin_NiCrAl.tdb',
      'mc_al_v2.032.pycalphad.tdb',
      'mc_fe_v2.059.pycalphad.tdb',
    ]) {
      const info = openDatabase(tdbPath(f)).info();
      expect(info.phases.length, f).toBeGreaterThan(0);
      expect(
        info.loadWarnings.filter((w) => / is dropped/.test(w.message)),
        f,
      ).toEqual([]);
    }
  });

  it('mf-mobility.tdb holds mobility parameters only: alone, nothing in it is usable', () => {
    // no ELEMENT and no PHASE (its header: it "depends on the phase definitions and reference states from another
    // database file"); its ZEROVOLUME_SPECIES, an unknown command, is no longer what refuses it. Its own code tells
    // it from a broken file: the diagram discovery leaves it out, an import can say what it is.
    expect(() => openDatabase(tdbPath('mf-mobility.tdb'))).toThrow(
      expect.objectContaining({
        code: 'PD_TDB_MOBILITY_ONLY',
        message: expect.stringMatching(
          /^mf-mobility\.tdb:1: mobility data only \(\d+ mobility parameters, no ELEMENT or PHASE\)/,
        ),
      }),
    );
    // without mobility parameters, a file with no ELEMENT stays a broken file
    expect(() => openDatabaseFromString('PARAMETER G(LIQUID,AL;0) 298.15 0; 6000 N !\n', 'g.tdb')).toThrow(
      expect.objectContaining({
        code: 'PD_TDB_SYNTAX',
        message: expect.stringMatching(/^g\.tdb:1: no ELEMENT declared/),
      }),
    );
  });
});

describe.skipIf(!haveTdb)('files broken by hand give warnings naming file and line, never a defect of the core', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pd-mutated-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes the lines under the shared file's own name, so that messages name it. */
  function write(name: string, lines: string[]): string {
    const sub = mkdtempSync(path.join(dir, 'f-'));
    writeFileSync(path.join(sub, name), lines.join('\n'), 'latin1');
    return path.join(sub, name);
  }

  /** An equilibrium with every phase the original file defines (a catalog's phase list): no internal error. */
  function calculateWithPhases(file: string, phases: string[], components: string[], X: Record<string, number>) {
    try {
      const r = equilibrium({ database: openDatabase(file), components, phases, conditions: { T: 1000, X } });
      expect(r.converged, r.reason).toBe(true);
    } catch (e) {
      expect(isCoreError(e, 'PD_INTERNAL'), (e as Error).message).toBe(false);
      throw e;
    }
  }

  it("alfe.tdb with the '!' removed at the end of line 70 (PHASE BCC_A2)", () => {
    const lines = readFileSync(tdbPath('alfe.tdb'), 'latin1').split(/\r?\n/);
    expect(lines[69]).toMatch(/^PHASE BCC_A2 +%&- +2 1 +3 !$/);
    lines[69] = lines[69].replace(/ !$/, '');
    const file = write('alfe.tdb', lines);
    const info = openDatabase(file).info();
    expect(warningsAt(info.loadWarnings, 70)).toEqual([
      "PHASE BCC_A2: text after the site ratios ignored: 'CONSTITUENT BCC_A2 :AL,FE: VA :' (a '!' missing before it?)",
      'phase BCC_A2 has no CONSTITUENT command; phase BCC_A2 is dropped, with its 7 PARAMETERs',
    ]);
    const b2 = lineOf(lines.join('\n'), /^TYPE_DEFINITION & GES A_P_D B2_BCC DIS_PART BCC_A2/);
    expect(warningsAt(info.loadWarnings, b2)).toEqual([
      expect.stringMatching(/^the DIS_PART phase BCC_A2 of ordered phase B2_BCC is dropped; phase B2_BCC is dropped/),
    ]);
    const original = openDatabase(tdbPath('alfe.tdb'))
      .info()
      .phases.map((p) => p.name);
    calculateWithPhases(file, original, ['AL', 'FE', 'VA'], { AL: 0.3 });
  });

  it('Al-Fe_sundman2009.tdb with the 8 lines after PHASE BCC_A2 deleted (its CONSTITUENT and parameters)', () => {
    const lines = readFileSync(tdbPath('Al-Fe_sundman2009.tdb'), 'latin1').split(/\r?\n/);
    const phase = lineOf(lines.join('\n'), /^ PHASE BCC_A2 /);
    expect(lines[phase]).toMatch(/^ +CONSTITUENT BCC_A2 /);
    const cut = [...lines.slice(0, phase), ...lines.slice(phase + 8)];
    const file = write('Al-Fe_sundman2009.tdb', cut);
    const info = openDatabase(file).info();
    expect(warningsAt(info.loadWarnings, phase)).toEqual([
      expect.stringMatching(/^phase BCC_A2 has no CONSTITUENT command; phase BCC_A2 is dropped/),
    ]);
    const ordered = lineOf(cut.join('\n'), /TYPE_DEFINITION X GES AMEND_PHASE_DESCRIPTION BCC_4SL DIS_PART BCC_A2/);
    expect(warningsAt(info.loadWarnings, ordered)).toEqual([
      expect.stringMatching(/^the DIS_PART phase BCC_A2 of ordered phase BCC_4SL is dropped; phase BCC_4SL is dropped/),
    ]);
    const original = openDatabase(tdbPath('Al-Fe_sundman2009.tdb'))
      .info()
      .phases.map((p) => p.name);
    calculateWithPhases(file, original, ['AL', 'FE', 'VA'], { AL: 0.3 });
  });
});
