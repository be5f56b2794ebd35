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
import type { DatabasePhaseSelection } from '../../contract/phase-selection.js';
import { selectPhases } from '../system/phase-selection.js';

export interface AuditSystem {
  /** "<folder>/<file>" or "<folder>/<file>:A-B" for a subsystem */
  name: string;
  file: string;
  db: NativeDatabase;
  elements: [string, string];
  /** the phases the diagram may hold (the recommended selection, AUDITED_WITH_SELECTION); undefined: every phase */
  phases?: string[];
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
 * Databases whose diagrams are audited with the recommended phase selection of their catalog record
 * (databases/catalog.json), as a task on them computes them. MF Steel's author computes with the ordered phases
 * of its order-disorder pairs, the gas and the ionic liquid left out (their disordered parts stand for them), and
 * this is the selection the service applies to every MF Steel task. The other catalog databases (mc_fe, mc_al) are
 * audited with every phase: their selections only leave out metastable precipitates, and the diagram with them is
 * the stricter check of the mapper.
 */
export const AUDITED_WITH_SELECTION = new Set(['mf-steel.tdb']);

/**
 * Databases of which the test suite audits a few pairs only (`npm run audit:diagrams` audits them all), with the
 * pairs and why. The suite's audit covers every other system at hand.
 */
export const SUITE_PAIRS: Record<string, { pairs: string[]; why: string }> = {
  'mf-steel.tdb': {
    pairs: ['CR-NI', 'FE-SI'],
    why:
      '265 assessed pairs, 1-155 s each with the recommended selection, about an hour in all; the suite audits ' +
      'the pairs of the defects fixed before (Cr-Ni, Fe-Si), npm run audit:diagrams all of them',
  },
};

/** The recommended selection of each catalog record, by the base name of its file. */
export function catalogSelections(catalogFile: string | undefined): Map<string, DatabasePhaseSelection> {
  if (!catalogFile) return new Map();
  const records = JSON.parse(readFileSync(catalogFile, 'utf8')) as {
    file: string;
    phase_selection?: DatabasePhaseSelection;
  }[];
  return new Map(records.filter((r) => r.phase_selection).map((r) => [path.basename(r.file), r.phase_selection!]));
}

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
  /** 'tests' audits only the listed pairs of the databases of SUITE_PAIRS (listed in `separately`); 'full' everything */
  scope?: 'tests' | 'full';
  /** databases/catalog.json: the recommended selections of AUDITED_WITH_SELECTION */
  catalog?: string;
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
  const selections = catalogSelections(o.catalog);
  for (const file of files) {
    const suite = o.scope === 'tests' ? SUITE_PAIRS[path.basename(file)] : undefined;
    if (suite) separately.push({ file, why: suite.why });
    let db: NativeDatabase;
    try {
      db = openDatabase(file);
    } catch (e) {
      // mobility data alone is read beside its thermodynamic database: no system of its own
      if (!isCoreError(e, 'PD_TDB_MOBILITY_ONLY')) unreadable.push({ file, error: (e as Error).message });
      continue;
    }
    const base = `${path.basename(path.dirname(file))}/${path.basename(file)}`;
    const selection = AUDITED_WITH_SELECTION.has(path.basename(file)) ? selections.get(path.basename(file)) : undefined;
    if (AUDITED_WITH_SELECTION.has(path.basename(file)) && !selection)
      unreadable.push({ file, error: 'no recommended phase selection in the catalog' });
    const phasesOf = (els: string[]) =>
      selection ? selectPhases(db, els, { database: selection }, path.basename(file)).phases : undefined;
    const els = elementsOfDatabase(db);
    if (els.length < 2) continue;
    if (els.length === 2) {
      systems.push({ name: base, file, db, elements: [els[0], els[1]], phases: phasesOf(els) });
      continue;
    }
    for (const pair of assessedPairs(db)) {
      if (suite && !suite.pairs.includes(pair)) continue;
      const [a, b] = pair.split('-') as [string, string];
      systems.push({ name: `${base}:${pair}`, file, db, elements: [a, b], phases: phasesOf([a, b]) });
    }
  }
  return { systems, unreadable, separately };
}
