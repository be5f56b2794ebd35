// The binary systems the diagram self-audit covers: every database file with exactly two elements
// (besides the vacancy VA and the electron), and the assessed binary subsystems of every multicomponent
// file, the large ones (COST507, mc_fecocrnbti) included: each pair of elements for which the file has at
// least one Gibbs-energy parameter mixing exactly those two (an assessed binary, so its diagram has fields
// of its own).
import { isCoreError } from '../core/errors.js';
import { elementsOf } from '../../contract/phases.js';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase, type NativeDatabase } from '../core/database.js';

export interface AuditSystem {
  /** "<folder>/<file>" or "<folder>/<file>:A-B" for a subsystem */
  name: string;
  file: string;
  db: NativeDatabase;
  elements: [string, string];
}

function elementsOfDatabase(db: NativeDatabase): string[] {
  return elementsOf(db.info().elements.map((e) => e.name));
}

/** Pairs of elements with at least one G/L parameter whose constituents hold exactly those two, sorted. */
export function assessedPairs(db: NativeDatabase): string[] {
  const info = db.info();
  const els = elementsOfDatabase(db);
  const speciesElements = new Map(
    info.species.map((s) => [s.name.toUpperCase(), Object.keys(s.composition).map((e) => e.toUpperCase())]),
  );
  const pairs = new Set<string>();
  for (const p of db.parameters()) {
    if (p.type !== 'G') continue;
    const e = new Set(
      p.constituents
        .flat()
        .flatMap((c) => speciesElements.get(c.toUpperCase()) ?? [c.toUpperCase()])
        .filter((x) => els.includes(x)),
    );
    if (e.size === 2) pairs.add([...e].sort().join('-'));
  }
  return [...pairs].sort();
}

/**
 * Databases whose assessed pairs the test suite leaves to the full audit (`npm run audit:diagrams`), with why. The
 * suite's audit and global-minimum checks cover every other system at hand.
 */
export const AUDITED_SEPARATELY: Record<string, string> = {
  'mf-steel.tdb':
    '265 assessed pairs with 362 phases: 1-6 min per pair on a 2-core machine, hours in all; its pairs are audited ' +
    'by npm run audit:diagrams',
};

/**
 * The files of the folders, sorted, a file byte-identical to one of a later folder left out: a bundled copy of a
 * shared database (databases/ beside ../shared/tdb) is audited once, under the shared name.
 */
function distinctFiles(folders: string[][]): string[] {
  const byContent = new Map<string, string>();
  for (const file of folders.flat()) byContent.set(createHash('sha256').update(readFileSync(file)).digest('hex'), file);
  return [...byContent.values()].sort();
}

export interface AuditScope {
  /** 'tests' leaves out the databases of AUDITED_SEPARATELY (listed in `separately`); 'full' covers everything */
  scope?: 'tests' | 'full';
}

export function auditSystems(
  dirs: string[],
  o: AuditScope = {},
): {
  systems: AuditSystem[];
  unreadable: { file: string; error: string }[];
  separately: { file: string; why: string }[];
} {
  const separately: { file: string; why: string }[] = [];
  const systems: AuditSystem[] = [];
  const unreadable: { file: string; error: string }[] = [];
  const files = distinctFiles(
    dirs.map((d) =>
      readdirSync(d)
        .filter((f) => f.toLowerCase().endsWith('.tdb'))
        .map((f) => path.join(d, f)),
    ),
  );
  for (const file of files) {
    const why = AUDITED_SEPARATELY[path.basename(file)];
    if (why && o.scope === 'tests') {
      separately.push({ file, why });
      continue;
    }
    let db: NativeDatabase;
    try {
      db = openDatabase(file);
    } catch (e) {
      // mobility data alone is read beside its thermodynamic database: no system of its own
      if (!isCoreError(e, 'PD_TDB_MOBILITY_ONLY')) unreadable.push({ file, error: (e as Error).message });
      continue;
    }
    const base = `${path.basename(path.dirname(file))}/${path.basename(file)}`;
    const els = elementsOfDatabase(db);
    if (els.length < 2) continue;
    if (els.length === 2) {
      systems.push({ name: base, file, db, elements: [els[0], els[1]] });
      continue;
    }
    for (const pair of assessedPairs(db)) {
      const [a, b] = pair.split('-') as [string, string];
      systems.push({ name: `${base}:${pair}`, file, db, elements: [a, b] });
    }
  }
  return { systems, unreadable, separately };
}
