// Fuzzing the reader in-process through the addon: 10,000 random mutations (truncation, byte flips,
// deleted / duplicated lines, inserted special characters) of the shared TDB files, with a fixed
// seed, must each give a Database or a thrown Error naming file and line -- never a crash or a hang
// (a crash would kill the vitest worker and fail the run). Small files are mutated more often than
// big ones to keep the run short.
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openDatabaseFromString } from '../../../worker/core/database.js';
import { isCoreError } from '../../../worker/core/errors.js';
import { haveTdb, tdbFiles, tdbPath } from './helpers.js';
import { seededRandom } from '../../support/random.js';

const SPECIAL = [
  '!',
  ';',
  ':',
  ',',
  '(',
  ')',
  '$',
  '#',
  '*',
  '-',
  '+',
  '.',
  'E',
  'Y',
  'N',
  '\n',
  ' ',
  '0',
  '9',
  '%',
  '&',
  '/',
  '\u0000',
  '\u00ff',
  '\u2013',
  "'",
  '"',
  '@',
  'T',
  'P',
];

function mutate(text: string, rnd: () => number): string {
  const r = rnd();
  const pick = (n: number) => Math.floor(rnd() * n);
  if (r < 0.2) return text.slice(0, pick(text.length + 1)); // truncation
  if (r < 0.55) {
    // byte flips / replacements
    const chars = text.split('');
    const n = 1 + pick(8);
    for (let i = 0; i < n && chars.length; ++i) {
      const k = pick(chars.length);
      chars[k] = rnd() < 0.6 ? SPECIAL[pick(SPECIAL.length)] : String.fromCharCode(pick(256));
    }
    return chars.join('');
  }
  const lines = text.split('\n');
  if (r < 0.8) {
    const n = 1 + pick(5); // deleted lines
    for (let i = 0; i < n && lines.length; ++i) lines.splice(pick(lines.length), 1);
    return lines.join('\n');
  }
  if (r < 0.9) {
    const k = pick(lines.length); // duplicated line
    lines.splice(pick(lines.length + 1), 0, lines[k]);
    return lines.join('\n');
  }
  // swap two lines
  const a = pick(lines.length),
    b = pick(lines.length);
  [lines[a], lines[b]] = [lines[b], lines[a]];
  return lines.join('\n');
}

describe('fuzz', () => {
  it.skipIf(!haveTdb)('10,000 mutations give a Database or an Error with FILE:LINE', () => {
    const files = tdbFiles().map((f) => ({
      f,
      text: readFileSync(tdbPath(f), 'latin1'),
      size: statSync(tdbPath(f)).size,
    }));
    // Weight ~ 1/size so that the 300 kB COST507.tdb is mutated a handful of times, small files often.
    const weights = files.map((x) => 1 / Math.max(2000, x.size));
    const total = weights.reduce((a, b) => a + b, 0);
    const rnd = seededRandom(20240607);
    const t0 = Date.now();
    let loaded = 0,
      rejected = 0,
      evaluated = 0;
    const perFile = new Map<string, number>();
    for (let i = 0; i < 10_000; ++i) {
      let u = rnd() * total,
        k = 0;
      while (k < files.length - 1 && u > weights[k]) u -= weights[k++];
      const { f, text } = files[k];
      perFile.set(f, (perFile.get(f) ?? 0) + 1);
      const name = `m${i}_${f}`;
      const mutated = mutate(text, rnd);
      let db;
      try {
        db = openDatabaseFromString(mutated, name);
      } catch (e) {
        expect(e).toBeInstanceOf(Error);
        expect((e as Error).message.startsWith(name + ':')).toBe(true);
        expect((e as Error).message).toMatch(/^[^:]+:\d+: \S/);
        expect(isCoreError(e, 'PD_TDB_SYNTAX', 'PD_TDB_LIMIT', 'PD_TDB_MOBILITY_ONLY'), (e as Error).message).toBe(
          true,
        );
        ++rejected;
        continue;
      }
      ++loaded;
      // A loaded database must be usable: info, phasesFor and a few evaluations.
      const info = db.info();
      db.phasesFor(info.elements.map((e) => e.name));
      const fns = db.functionNames();
      for (let j = 0; j < Math.min(3, fns.length); ++j) {
        try {
          db.evaluateFunction(fns[(i + j) % fns.length], 200 + 50 * j, 101325);
          ++evaluated;
        } catch (e) {
          // a database problem met at evaluation, never a defect of the core
          expect(isCoreError(e, 'PD_MODEL', 'PD_INVALID_ARGUMENT'), (e as Error).message).toBe(true);
        }
      }
    }
    const seconds = (Date.now() - t0) / 1000;
    console.log(
      `fuzz: 10000 mutations, ${loaded} loaded, ${rejected} rejected with FILE:LINE errors, ${evaluated} evaluations, ` +
        `${seconds.toFixed(1)} s; COST507 mutated ${perFile.get('COST507.tdb') ?? 0} times`,
    );
    expect(loaded + rejected).toBe(10_000);
    expect(rejected).toBeGreaterThan(100); // the mutations do break files
    expect(loaded).toBeGreaterThan(100);
  });

  it('hostile shapes: deep nesting, huge sums, long FUNCTION chains, binary garbage', () => {
    const head = 'ELEMENT AL FCC_A1 26.98 0 0 !\n';
    expect(() =>
      openDatabaseFromString(head + 'FUNCTION F 1 ' + '('.repeat(100_000) + '; 6000 N !', 'deep.tdb'),
    ).toThrow(/deep\.tdb:2: FUNCTION F: expression nested too deeply/);
    expect(() =>
      openDatabaseFromString(head + 'FUNCTION F 1 ' + '-'.repeat(100_000) + 'T; 6000 N !', 'neg.tdb'),
    ).toThrow(/neg\.tdb:2: /);
    expect(() =>
      openDatabaseFromString(head + 'FUNCTION F 1 ' + '1+'.repeat(100_000) + '1; 6000 N !', 'sum.tdb'),
    ).toThrow(/sum\.tdb:2: FUNCTION F: expression too long/);
    // FUNCTION references nest at most 64 levels (README): a chain of 64 loads and evaluates through the
    // whole chain, one of 5000 is refused by the reader (evaluation recurses along the chain).
    let chain = head + 'FUNCTION F0 1 T; 6000 N !\n';
    for (let i = 1; i < 64; ++i) chain += `FUNCTION F${i} 1 F${i - 1}#+1; 6000 N !\n`;
    expect(openDatabaseFromString(chain, 'chain.tdb').evaluateFunction('F63', 300).v).toBe(300 + 63);
    let long = chain;
    for (let i = 64; i < 5000; ++i) long += `FUNCTION F${i} 1 F${i - 1}#+1; 6000 N !\n`;
    expect(() => openDatabaseFromString(long, 'long.tdb')).toThrow(
      /^long\.tdb:\d+: FUNCTION F\d+ nests FUNCTION references 65 levels deep \(.*at most 64 levels\)/,
    );
    // A 5000-long cycle is found without recursion.
    expect(() => openDatabaseFromString(long.replace('FUNCTION F0 1 T;', 'FUNCTION F0 1 F4999#;'), 'cyc.tdb')).toThrow(
      /cyc\.tdb:\d+: FUNCTION F\d+ refers to itself/,
    );
    let garbage = '';
    const rnd = seededRandom(7);
    for (let i = 0; i < 200_000; ++i) garbage += String.fromCharCode(Math.floor(rnd() * 256));
    expect(() => openDatabaseFromString(garbage, 'garbage.tdb')).toThrow(/garbage\.tdb:\d+: /);
    expect(() => openDatabaseFromString('', 'empty.tdb')).toThrow(/^empty\.tdb:1: no ELEMENT declared/);
  });
});
