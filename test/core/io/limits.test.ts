// Databases that parse but would break calculations are refused by the reader with FILE:LINE and a code:
// bounded names and FUNCTION nesting (README "What the reader does with the shared databases"), a file
// without ELEMENT; CR-only line ends are read like LF and CRLF. The hostile files are generated in a
// temporary folder and read from disk, as an import does.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, openDatabaseFromString } from '../../../worker/core/database.js';
import { isCoreError, type CoreError } from '../../../worker/core/errors.js';
import { coreAddonPath } from '../../../worker/core/native.js';
import { haveTdb, tdbFiles, tdbPath } from './helpers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'pd-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEAD = 'ELEMENT VA VACUUM 0 0 0 !\nELEMENT AL FCC_A1 26.98 0 0 !\nELEMENT ZN HCP_A3 65.38 0 0 !\n';
const LIQUID =
  'PHASE LIQUID:L % 1 1 !\nCONSTITUENT LIQUID:L :AL,ZN: !\n' +
  'PARAMETER G(LIQUID,AL;0) 298.15 -1000; 6000 N !\nPARAMETER G(LIQUID,ZN;0) 298.15 -2000; 6000 N !\n';

function refusal(file: string, text: string): CoreError {
  const p = path.join(dir, file);
  writeFileSync(p, text, 'latin1');
  try {
    openDatabase(p);
  } catch (e) {
    expect(isCoreError(e)).toBe(true);
    return e as CoreError;
  }
  throw new Error(`${file} was not refused`);
}

/** F1 = F2 + 1, F2 = F3 + 1, ..., Fn = T, in that order: the first calculation used to overflow the stack. */
function functionChain(n: number): string {
  let s = HEAD;
  for (let i = 1; i < n; ++i) s += `FUNCTION F${i} 298.15 F${i + 1}#+1; 6000 N !\n`;
  s += `FUNCTION F${n} 298.15 T; 6000 N !\n`;
  return s + LIQUID.replace('-1000;', 'F1#;');
}

describe('FUNCTION nesting is bounded (64 levels)', () => {
  it('a chain of 10,000 FUNCTIONs is refused naming file, line and the bound', () => {
    const e = refusal('chain.tdb', functionChain(10_000));
    expect(e.code).toBe('PD_TDB_LIMIT');
    expect(e.file).toBe('chain.tdb');
    expect(e.message).toMatch(
      /^chain\.tdb:\d+: FUNCTION F\d+ nests FUNCTION references 65 levels deep \(F\d+ -> F\d+ -> .*at most 64 levels\)$/,
    );
    expect(e.message).toBe(`chain.tdb:${e.line}: ${e.reason}`);
    // the line is that of the FUNCTION named first in the message
    const name = /FUNCTION (F\d+)/.exec(e.reason!)![1];
    expect(functionChain(10_000).split('\n')[e.line! - 1]).toMatch(new RegExp(`^FUNCTION ${name} `));
  });

  it('64 levels load and evaluate, 65 do not', () => {
    const ok = openDatabaseFromString(functionChain(64), 'ok.tdb');
    expect(ok.evaluateFunction('F1', 500).v).toBe(500 + 63);
    expect(() => openDatabaseFromString(functionChain(65), 'deep.tdb')).toThrow(
      /^deep\.tdb:\d+: FUNCTION F1 nests FUNCTION references 65 levels/,
    );
  });

  it('the deepest chain allowed evaluates inside a worker thread (smaller stack) without harm', async () => {
    const file = path.join(dir, 'chain64.tdb');
    writeFileSync(file, functionChain(64), 'latin1');
    const w = new Worker(
      `
      const { workerData, parentPort } = require('node:worker_threads');
      const core = require(workerData.addon);
      const db = core.Database.fromFile(workerData.file);
      const r = core.equilibrium(db, ['AL', 'ZN'], null, { T: 700, X: { ZN: 0.4 } });
      parentPort.postMessage({ f: db.evaluateFunction('F1', 700).v, converged: r.converged });
    `,
      { eval: true, workerData: { addon: coreAddonPath(), file }, resourceLimits: { stackSizeMb: 1 } },
    );
    const [msg, code] = await Promise.all([
      new Promise((r) => w.once('message', r)),
      new Promise((r) => w.once('exit', r)),
    ]);
    expect(msg).toEqual({ f: 700 + 63, converged: true });
    expect(code).toBe(0);
  });

  it.skipIf(!haveTdb)('every shared database stays within the bounds', () => {
    for (const f of tdbFiles()) {
      try {
        openDatabase(tdbPath(f));
      } catch (e) {
        // only mf-mobility.tdb (mobility parameters, no ELEMENT) is refused, and not for a bound
        expect(isCoreError(e, 'PD_TDB_LIMIT'), `${f}: ${(e as Error).message}`).toBe(false);
        expect(f).toBe('mf-mobility.tdb');
      }
    }
  });
});

describe('names are bounded (64 characters)', () => {
  const big = 'Q'.repeat(1_000_000);
  const cases: [string, string, number, RegExp][] = [
    [
      'element',
      HEAD + `ELEMENT ${big} FCC_A1 1 0 0 !\n` + LIQUID,
      4,
      /ELEMENT name 'Q{24}\.\.\.' is 1000000 characters long \(at most 64\)/,
    ],
    [
      'phase',
      HEAD + `PHASE ${big}:L % 1 1 !\nCONSTITUENT ${big}:L :AL,ZN: !\n`,
      4,
      /PHASE name 'Q{24}\.\.\.' is 1000000 characters long \(at most 64\)/,
    ],
    [
      'species',
      HEAD + `SPECIES ${big} AL1ZN1 !\n` + LIQUID,
      4,
      /SPECIES name 'Q{24}\.\.\.' is 1000000 characters long/,
    ],
    [
      'function',
      HEAD + `FUNCTION ${big} 298.15 T; 6000 N !\n` + LIQUID,
      4,
      /FUNCTION name 'Q{24}\.\.\.' is 1000000 characters long/,
    ],
    [
      'reference in an expression',
      HEAD + `FUNCTION G 298.15 ${big}#+T; 6000 N !\n` + LIQUID,
      4,
      /FUNCTION G: name 'Q{24}\.\.\.' in expression is 1000000 characters long/,
    ],
    [
      'constituent',
      HEAD + LIQUID + `PHASE B % 1 1 !\nCONSTITUENT B :AL,${big}: !\n`,
      9,
      /CONSTITUENT B: species name 'Q{24}\.\.\.' is 1000000 characters long/,
    ],
    [
      'parameter phase',
      HEAD + LIQUID + `PARAMETER G(${big},AL;0) 298.15 1; 6000 N !\n`,
      8,
      /PARAMETER .* longer than the reader accepts/,
    ],
  ];
  for (const [what, text, line, re] of cases) {
    it(`a 1,000,000-character ${what} name is refused at its line`, () => {
      const e = refusal(`long-${what.replace(/ /g, '-')}.tdb`, text);
      expect(e.code).toBe('PD_TDB_LIMIT');
      expect(e.line).toBe(line);
      expect(e.message.startsWith(`long-${what.replace(/ /g, '-')}.tdb:${line}: `)).toBe(true);
      expect(e.message).toMatch(re);
      expect(e.message.length).toBeLessThan(300);
    });
  }

  it('64 characters are accepted, 65 are not', () => {
    const n64 = 'P'.repeat(64),
      n65 = 'P'.repeat(65);
    const phase = (n: string) => HEAD + `PHASE ${n}:L % 1 1 !\nCONSTITUENT ${n}:L :AL,ZN: !\n`;
    expect(
      openDatabaseFromString(phase(n64), 'p64.tdb')
        .info()
        .phases.map((p) => p.name),
    ).toEqual([n64]);
    expect(() => openDatabaseFromString(phase(n65), 'p65.tdb')).toThrow(
      /^p65\.tdb:4: PHASE name '.*' is 65 characters long \(at most 64\)/,
    );
  });

  it('a line of a million "!" is read in one pass (no quadratic scan)', () => {
    const p = path.join(dir, 'bangs.tdb');
    writeFileSync(p, HEAD + '!'.repeat(1_000_000) + '\n' + LIQUID, 'latin1');
    expect(
      openDatabase(p)
        .info()
        .phases.map((ph) => ph.name),
    ).toEqual(['LIQUID']);
  });
});

describe('counts', () => {
  it('30,000 phases, each with its CONSTITUENT and PARAMETER, load (names are looked up through an index)', () => {
    let s = HEAD;
    for (let i = 0; i < 30_000; ++i)
      s += `PHASE P${i} % 1 1 !\nCONSTITUENT P${i} :AL,ZN: !\nPARAMETER G(P${i},AL;0) 1 -${i}; 6000 N !\n`;
    s += 'PHASE P7 % 1 1 !\nDEFAULT_COMMAND REJECT_PHASE P29999 !\n';
    const db = openDatabaseFromString(s, 'many.tdb');
    const info = db.info();
    expect(info.phases.length).toBe(30_000);
    expect(info.parameterCount).toBe(30_000);
    expect(info.phases[29_999].rejectedByDefault).toBe(true);
    expect(info.phases[7].constituents).toEqual([['AL', 'ZN']]); // redefined by the later PHASE, constituents kept
    expect(db.parameters('P12345')[0].line).toBe(3 + 3 * 12345 + 3);
  });
  it('more than 256 ELEMENTs are refused', () => {
    let s = '';
    for (let i = 0; i < 300; ++i) s += `ELEMENT E${i} X 1 0 0 !\n`;
    const e = refusal('elements.tdb', s);
    expect(e.code).toBe('PD_TDB_LIMIT');
    expect(e.message).toBe('elements.tdb:257: more than 256 ELEMENTs (the periodic table has 118)');
  });
});

describe('files that are no database', () => {
  it('a file with no ELEMENT is refused', () => {
    const e = refusal('noelement.tdb', 'PHASE LIQUID:L % 1 1 !\nFUNCTION F 298.15 T; 6000 N !\n');
    expect(e.code).toBe('PD_TDB_SYNTAX');
    expect(e.message).toBe(
      'noelement.tdb:1: no ELEMENT declared (a TDB database declares its elements with ELEMENT commands)',
    );
    expect(refusal('empty.tdb', '').message).toMatch(/^empty\.tdb:1: no ELEMENT declared/);
    expect(refusal('vaonly.tdb', 'ELEMENT VA VACUUM 0 0 0 !\nELEMENT /- ELECTRON_GAS 0 0 0 !\n').message).toMatch(
      /^vaonly\.tdb:1: no ELEMENT/,
    );
  });
});

describe('line ends', () => {
  const text = HEAD + '$ a comment line\n' + LIQUID + 'FUNCTION F 298.15 2*T; 6000 N !\n';
  const summary = (name: string, t: string) => {
    const db = openDatabaseFromString(t, name);
    const info = db.info();
    return {
      elements: info.elements.map((e) => e.name),
      phases: info.phases.map((p) => p.name),
      parameters: db.parameters().map((p) => [p.phase, p.constituents, p.line]),
      f: db.evaluateFunction('F', 400).v,
    };
  };
  it('CR-only, CRLF and LF files read the same, with the same line numbers', () => {
    const lf = summary('lf.tdb', text);
    expect(lf.parameters).toEqual([
      ['LIQUID', [['AL']], 7],
      ['LIQUID', [['ZN']], 8],
    ]);
    expect(summary('crlf.tdb', text.replace(/\n/g, '\r\n'))).toEqual(lf);
    expect(summary('cr.tdb', text.replace(/\n/g, '\r'))).toEqual(lf);
  });
  it('an error in a CR-only file names the right line', () => {
    const bad = (HEAD + 'PHASE LIQUID:L % 1 1 !\nFROB !\n').replace(/\n/g, '\r');
    expect(() => openDatabaseFromString(bad, 'cr.tdb')).toThrow(/^cr\.tdb:5: unknown command 'FROB'/);
  });
  it.skipIf(!haveTdb)('a shared database converted to CR-only line ends loads identically', () => {
    const lf = readFileSync(tdbPath('alzn_mey.tdb'), 'latin1').replace(/\r\n/g, '\n');
    const a = openDatabaseFromString(lf, 'x.tdb'),
      b = openDatabaseFromString(lf.replace(/\n/g, '\r'), 'x.tdb');
    expect(b.info()).toEqual(a.info());
    expect(b.parameters()).toEqual(a.parameters());
  });
});
