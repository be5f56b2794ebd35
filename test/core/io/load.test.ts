// Every shared database loads (refusals are listed by name), with sane element/phase counts and
// the type definitions, options and parameter conventions of formula sheet §0, §2.1, §5.5, §10.
import { describe, expect, it } from 'vitest';
import { openDatabase, openDatabaseFromString, phasesFor, readTdbInfo } from '../../../worker/core/database.js';
import { haveTdb, tdbFiles, tdbPath } from './helpers.js';

// Mobility parameters only, no ELEMENT and no PHASE: the file is meant to be read with a thermodynamic database, and
// alone nothing in it is usable (published.test.ts).
const MOBILITY_ONLY = new Set(['mf-mobility.tdb']);

describe.skipIf(!haveTdb)('every shared TDB file', () => {
  const files = tdbFiles();
  it('finds the shared files', () => {
    expect(files.length).toBeGreaterThanOrEqual(50);
  });
  for (const f of files.filter((x) => !MOBILITY_ONLY.has(x))) {
    it(`loads ${f}`, () => {
      const db = openDatabase(tdbPath(f));
      const info = db.info();
      expect(info.phases.length).toBeGreaterThan(0);
      // Every phase the file defines is there; a refused phase carries a reason naming itself and the file.
      for (const p of info.phases) {
        if (p.refusal) {
          expect(p.refusal).toContain(p.name);
          expect(p.refusal).toContain(f);
        } else {
          expect(p.constituents.length).toBe(p.siteRatios.length);
        }
      }
      // every warning names the file and its line ("FILE:LINE: text" and the same as a record)
      expect(
        info.loadWarnings.map((w) => (w.line > 0 ? `${w.file}:${w.line}: ${w.message}` : `${w.file}: ${w.message}`)),
      ).toEqual(info.warnings);
      for (const w of info.loadWarnings) expect(w.file).toBe(f);
    });
  }
});

describe.skipIf(!haveTdb)('counts and contents (shared files)', () => {
  it('alzn_mey: LIQUID FCC_A1 HCP_A3, elements AL ZN', () => {
    const info = readTdbInfo(tdbPath('alzn_mey.tdb'));
    expect(info.phases.sort()).toEqual(['FCC_A1', 'HCP_A3', 'LIQUID']);
    expect(info.elements.sort()).toEqual(['AL', 'ZN']);
    expect(info.refusals).toEqual([]);
  });

  it('phase counts match the SOURCES.md descriptions', () => {
    expect(readTdbInfo(tdbPath('COST507.tdb')).phases.length).toBe(243);
    expect(readTdbInfo(tdbPath('Al-Fe_sundman2009.tdb')).phases.length).toBe(15);
    expect(readTdbInfo(tdbPath('alcocrni.tdb')).phases.length).toBe(23);
    expect(readTdbInfo(tdbPath('alcrni.tdb')).phases.length).toBe(5);
    expect(readTdbInfo(tdbPath('alnipt.tdb')).phases.length).toBe(14);
    expect(readTdbInfo(tdbPath('mc_fecocrnbti.tdb')).phases.length).toBe(122);
  });

  it('COST507: 27 real elements, undefined type code R and RTLNP are warnings', () => {
    const info = readTdbInfo(tdbPath('COST507.tdb'));
    expect(info.elements).not.toContain('VA');
    expect(info.elements.length).toBe(27);
    expect(info.warnings.some((w) => /COST507\.tdb:\d+: type code 'R' of phase LIQUID/.test(w))).toBe(true);
    expect(info.warnings.some((w) => w.includes('RTLNP'))).toBe(true);
  });

  it('rose.tdb has its 360 interaction parameters', () => {
    expect(openDatabase(tdbPath('rose.tdb')).info().parameterCount).toBe(360);
  });

  it('applies TYPE_DEFINITIONs given after the phases (COST507) and DIS_PART/options (Sundman 2009)', () => {
    const cost = openDatabase(tdbPath('COST507.tdb')).info();
    const bcc = cost.phases.find((p) => p.name === 'BCC_A2')!;
    expect(bcc.magnetic).toEqual({ afm: -1, p: 0.4 });
    const fcc = cost.phases.find((p) => p.name === 'FCC_A1')!;
    expect(fcc.magnetic).toEqual({ afm: -3, p: 0.28 });
    const alfe = openDatabase(tdbPath('Al-Fe_sundman2009.tdb')).info();
    const b4 = alfe.phases.find((p) => p.name === 'BCC_4SL')!;
    expect(b4.options).toBe('B');
    expect(b4.disorderedPart).toBe('BCC_A2');
    expect(alfe.phases.find((p) => p.name === 'FCC_4SL')!.options).toBe('F');
  });

  it('Xiong model: femn has AFM factor 0', () => {
    const info = openDatabase(tdbPath('femn.tdb')).info();
    const mags = info.phases.filter((p) => p.magnetic).map((p) => p.magnetic!.afm);
    expect(mags).toContain(0);
  });

  it('species: stoichiometry and charges', () => {
    const info = openDatabase(tdbPath('al2o3_nd2o3_zro2.tdb')).info();
    const sp = Object.fromEntries(info.species.map((s) => [s.name, s]));
    expect(sp['ZR+4'].composition).toEqual({ ZR: 1 });
    expect(sp['ZR+4'].charge).toBe(4);
    expect(sp['O-2'].charge).toBe(-2);
    expect(sp['VA'].composition).toEqual({});
    const assoc = openDatabase(tdbPath('pycalphad_inline_associate.tdb')).info();
    const a = Object.fromEntries(assoc.species.map((s) => [s.name, s]));
    expect(a['COMPA'].composition).toEqual({ A: 1, Q: 1 });
    expect(a['COMPD'].composition).toEqual({ A: 1.5 });
  });

  it('phase options and site ratios', () => {
    const info = openDatabase(tdbPath('femns.tdb')).info();
    const il = info.phases.find((p) => p.name === 'IONIC_LIQ')!;
    expect(il.options).toBe('Y');
    expect(il.constituents[0].sort()).toEqual(['FE+2', 'MN+2']);
    const cuo = openDatabase(tdbPath('cuo.tdb')).info();
    expect(cuo.phases.find((p) => p.name === 'GAS')!.options).toBe('G');
  });

  it('parameters: constituents sorted per sublattice, L stored as G, BM as BMAGN, MQ with qualifier', () => {
    const db = openDatabase(tdbPath('alzn_mey.tdb'));
    for (const p of db.parameters()) for (const sub of p.constituents) expect([...sub].sort()).toEqual(sub);
    const crfe = openDatabase(tdbPath('crfe_bcc_magnetic.tdb')).parameters();
    expect(crfe.some((p) => p.type === 'BMAGN')).toBe(true);
    expect(crfe.some((p) => p.type === 'BM')).toBe(false);
    const mq = openDatabase(tdbPath('diffusion.tdb'))
      .parameters()
      .filter((p) => p.type === 'MQ');
    expect(mq.length).toBeGreaterThan(0);
    expect(mq[0].phase).toBe('HCP_A3');
    expect(mq[0].qualifier).not.toBe('');
    const l = openDatabase(tdbPath('alzn_mey.tdb'))
      .parameters('LIQUID')
      .filter((p) => p.writtenAsL);
    for (const p of l) expect(p.type).toBe('G');
  });

  it('an L parameter written ZN,AL is stored AL,ZN (§2.1 canonical order)', () => {
    const text = `ELEMENT AL FCC_A1 26.98 0 0 ! ELEMENT ZN HCP_A3 65.38 0 0 !
PHASE LIQUID:L % 1 1 !
CONSTITUENT LIQUID:L :ZN,AL: !
PARAMETER L(LIQUID,ZN,AL;1) 298.15 -100; 6000 N !`;
    const db = openDatabaseFromString(text, 'sorted.tdb');
    const [p] = db.parameters('LIQUID');
    expect(p.constituents).toEqual([['AL', 'ZN']]);
    expect(p.order).toBe(1);
    expect(p.writtenAsL).toBe(true);
    expect(db.info().phases[0].constituents).toEqual([['ZN', 'AL']]); // declaration order kept
  });

  it('parameter_filter_test: parameters outside the sublattice model are dropped with a warning', () => {
    const info = readTdbInfo(tdbPath('parameter_filter_test.tdb'));
    expect(info.warnings.length).toBe(3);
    for (const w of info.warnings) expect(w).toMatch(/^parameter_filter_test\.tdb:\d+: PARAMETER /);
  });

  it('phasesFor selects phases whose every sublattice has an active constituent', () => {
    const p = tdbPath('alzn_mey.tdb');
    expect(phasesFor(p, ['AL', 'ZN']).sort()).toEqual(['FCC_A1', 'HCP_A3', 'LIQUID']);
    expect(phasesFor(p, ['al']).sort()).toEqual(['FCC_A1', 'HCP_A3', 'LIQUID']);
    const cuo = tdbPath('cuo.tdb');
    const cuOnly = phasesFor(cuo, ['CU']);
    expect(cuOnly).not.toContain('GAS'); // GAS is (O2) only
    expect(phasesFor(cuo, ['CU', 'O'])).toContain('GAS');
    // Cr-Fe-Ni_shallow_bcc.tdb defines no VA element; VA is still implied.
    expect(phasesFor(tdbPath('Cr-Fe-Ni_shallow_bcc.tdb'), ['CR', 'FE', 'NI'])).toEqual(['BCC_A2']);
  });

  it('DEFAULT_COMMAND REJECT_PHASE keeps phases out of the default system, not out of the database', () => {
    // Al-Fe_sundman2009: three alternative BCC descriptions (its header: "automatically rejected")
    const db = openDatabase(tdbPath('Al-Fe_sundman2009.tdb'));
    const rejected = db
      .info()
      .phases.filter((p) => p.rejectedByDefault)
      .map((p) => p.name)
      .sort();
    expect(rejected).toEqual(['A2_B2', 'A2_NOB', 'A2_VA', 'B2_BCC', 'BCC_NOB', 'BCC_VA']);
    const defaults = db.phasesFor(['AL', 'FE']);
    expect(defaults).toContain('BCC_4SL');
    for (const r of rejected) expect(defaults).not.toContain(r);
    expect(db.phasesFor(['AL', 'FE'], true).sort()).toEqual([...defaults, ...rejected].sort());
    // comma-separated names (COST507: REJECT-PHASE GAS,AL5FE4)
    const cost = openDatabase(tdbPath('COST507.tdb'))
      .info()
      .phases.filter((p) => p.rejectedByDefault)
      .map((p) => p.name);
    expect(cost.sort()).toEqual(['AL5FE4', 'GAS']);
  });

  it('DEFAULT_COMMAND REJECT_PHASE before the PHASE lines, abbreviated, and naming an undefined phase', () => {
    const text = [
      'ELEMENT VA VACUUM 0 0 0 !',
      'ELEMENT A BLANK 1 0 0 !',
      'DEFAULT_COMMAND REJ_PH GAS NOPE !',
      'DEFAULT_COMMAND DEF_SYS_ELEMENT VA !',
      'PHASE GAS:G % 1 1 !',
      'CONSTITUENT GAS:G :A: !',
      'PHASE SOLID % 1 1 !',
      'CONSTITUENT SOLID :A: !',
      'PARAMETER G(GAS,A;0) 1 1000; 3000 N !',
      'PARAMETER G(SOLID,A;0) 1 -1000; 3000 N !',
    ].join('\n');
    const db = openDatabaseFromString(text, 'rej.tdb');
    expect(db.phasesFor(['A'])).toEqual(['SOLID']);
    expect(db.phasesFor(['A'], true)).toEqual(['GAS', 'SOLID']);
    expect(
      db.info().warnings.some((w) => /^rej\.tdb:3: DEFAULT_COMMAND REJECT_PHASE: phase NOPE is not defined/.test(w)),
    ).toBe(true);
  });
});
