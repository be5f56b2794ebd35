// The system of a calculation job: its database (opened once per worker and kept warm), the components and
// phases the condition names, checked against the database, and the compositions as mole fractions for the
// solver. Every calculation starts here.
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { elementsOf } from '../../contract/phases.js';
import { openDatabase, type NativeDatabase } from '../core/database.js';

import { elementMasses, moleFractionCondition, type CompositionUnit } from './units.js';
import { selectPhases, type SelectionRequest } from './phase-selection.js';
import type { PhaseSelectionRecord } from '../../contract/phase-selection.js';
import { type CalculationJob } from '../protocol.js';

/** What openSystem reads of a condition (every type's schema in contract/tasks/ guarantees these shapes). */
export interface SystemCondition {
  components: string[];
  activated_phases?: string[];
  inhibit_phases?: string[];
}

/** The phase selection a task asks for: its condition's, over its database's recommended selection. */
export function selectionRequest(
  job: Pick<CalculationJob, 'database'>,
  cond: Omit<SystemCondition, 'components'>,
): SelectionRequest {
  return {
    activated: cond.activated_phases,
    inhibit: cond.inhibit_phases,
    database: job.database?.phase_selection ?? null,
  };
}

/**
 * The condition with its composition maps in mole fractions: composition_unit "mass_fraction" converted with the
 * molar masses of the database's ELEMENT lines (worker/system/units.ts); unchanged otherwise.
 */
export function inMoleFractions<
  C extends SystemCondition & { composition_unit?: CompositionUnit } & Record<string, unknown>,
>(job: CalculationJob, cond: C): C {
  if ((cond.composition_unit ?? 'mole_fraction') === 'mole_fraction') return cond;
  const elements = [...new Set(elementsOf(cond.components.map((c) => c.toUpperCase())))];
  return moleFractionCondition(cond, elements, () =>
    elementMasses(cachedDatabase(tdbFileOf(job), mobilityFileOf(job)).info().elements),
  );
}

export function tdbFileOf(job: CalculationJob): string {
  const f = job.config.tdb_file;
  if (typeof f !== 'string' || f.length === 0)
    throw new Error('task_config.tdb_file is missing (the database file of the task)');
  return f;
}

/** The file of mobility data read beside the task's database (task_config.mobility_tdb_file), if any. */
export function mobilityFileOf(job: CalculationJob): string | undefined {
  const f = job.config.mobility_tdb_file;
  return typeof f === 'string' && f.length > 0 ? f : undefined;
}

export interface CalcSystem {
  db: NativeDatabase;
  tdbFile: string;
  /** solver components: the elements plus VA when the database defines it */
  components: string[];
  /** mass-carrying elements, upper case, in the order of condition.components */
  elements: string[];
  /** activated phases (upper case) that can form, or undefined = every phase the components allow */
  phases: string[] | undefined;
  /** phases of the database that can form with the elements (for output names) */
  formable: string[];
  /** the phase selection applied (result.json phase_selection) */
  selection: PhaseSelectionRecord;
  logs: string[];
}

/**
 * Databases opened by this worker, by path + size + mtime: the native solver keeps its prepared phase
 * models and sampling grid per database handle, so the next task on the same file starts warm.
 */
const databases = new Map<string, NativeDatabase>();
const MAX_CACHED_DATABASES = 8;

export function cachedDatabase(tdbFile: string, mobilityFile?: string): NativeDatabase {
  const stamp = (f: string) => {
    const st = statSync(f);
    return `${f}|${st.size}|${st.mtimeMs}`;
  };
  const key = mobilityFile ? `${stamp(tdbFile)}|${stamp(mobilityFile)}` : stamp(tdbFile);
  let db = databases.get(key);
  if (!db) {
    db = openDatabase(tdbFile, mobilityFile);
    if (databases.size >= MAX_CACHED_DATABASES) databases.delete(databases.keys().next().value as string);
    databases.set(key, db);
  }
  return db;
}

/** Forgets the opened databases (benchmarks of a cold start). */
export function clearDatabaseCache(): void {
  databases.clear();
}

/** Opens the database and resolves the components and the phases of a task (activated, then the phase selection). */
export function openSystem(job: CalculationJob, cond: SystemCondition): CalcSystem {
  const tdbFile = tdbFileOf(job);
  const db = cachedDatabase(tdbFile, mobilityFileOf(job));
  const info = db.info();
  const dbElements = new Set(info.elements.map((e) => e.name.toUpperCase()));
  const raw = cond.components.map((c) => c.toUpperCase());
  const elements = [...new Set(elementsOf(raw))];
  if (elements.length === 0) throw new Error('condition.components: no element given');
  for (const e of elements) {
    if (!dbElements.has(e))
      throw new Error(
        `condition.components: ${e} is not an element of ${basename(tdbFile)} (${elementsOf([...dbElements]).join(', ')})`,
      );
  }
  // VA is a component of sublattice models whenever the database defines it (README of the validation set).
  const components = dbElements.has('VA') ? [...elements, 'VA'] : [...elements];
  // phases the file rejects by default (DEFAULT_COMMAND REJECT_PHASE) are used when activated by name
  const formable = db.phasesFor(elements, true);
  const {
    phases,
    record: selection,
    logs,
  } = selectPhases(db, elements, selectionRequest(job, cond), basename(tdbFile));
  return { db, tdbFile, components, elements, phases, formable, selection, logs };
}

const SUM_TOL = 1e-6;

/**
 * Mole-fraction conditions for the solver from one or more composition maps (start/end of a line
 * share one dependent element). Each map gives either every element (summing to 1 within 1e-6) or
 * every element but one (the dependent one, 1 - sum). `field` names the map in error messages.
 */
export function resolveCompositions(
  elements: string[],
  maps: { field: string; value: Record<string, number> }[],
): {
  dependent: string;
  X: Record<string, number>[];
  full: Record<string, number>[];
} {
  // The fractions are numbers in [0, 1] (the task schema's `fraction`); keys are matched to the elements here.
  const norm = maps.map(({ field, value }) => {
    const out: Record<string, number> = {};
    for (const [k, v] of Object.entries(value)) {
      const el = k.toUpperCase();
      if (el === 'VA') continue;
      if (!elements.includes(el))
        throw new Error(`${field}.${k}: ${el} is not one of the components ${elements.join(', ')}`);
      out[el] = v;
    }
    return { field, x: out };
  });
  if (elements.length === 1)
    return { dependent: elements[0], X: norm.map(() => ({})), full: norm.map(() => ({ [elements[0]]: 1 })) };
  // dependent element: the one missing from every map, else (all given) the largest on average
  const missing = new Set<string>();
  for (const { field, x } of norm) {
    const miss = elements.filter((e) => !(e in x));
    if (miss.length > 1)
      throw new Error(
        `${field}: give the mole fractions of all components or of all but one (missing ${miss.join(', ')})`,
      );
    const sum = Object.values(x).reduce((a, b) => a + b, 0);
    if (miss.length === 0 && Math.abs(sum - 1) > SUM_TOL)
      throw new Error(`${field}: the mole fractions of all components sum to ${sum}, not 1`);
    if (miss.length === 1 && sum > 1 + SUM_TOL) throw new Error(`${field}: the mole fractions sum to ${sum} > 1`);
    for (const m of miss) missing.add(m);
  }
  if (missing.size > 1)
    throw new Error(
      `${norm.map((n) => n.field).join(' and ')} leave out different components (${[...missing].join(', ')}): leave out the same one`,
    );
  let dependent: string;
  if (missing.size === 1) dependent = [...missing][0];
  else {
    const avg = (e: string) => norm.reduce((a, n) => a + n.x[e], 0);
    dependent = elements.reduce((best, e) => (avg(e) > avg(best) ? e : best), elements[0]);
  }
  const X = norm.map(({ x }) => Object.fromEntries(elements.filter((e) => e !== dependent).map((e) => [e, x[e]])));
  const full = X.map((x) => {
    const sum = Object.values(x).reduce((a, b) => a + b, 0);
    return Object.fromEntries(elements.map((e) => [e, e === dependent ? Math.max(0, 1 - sum) : x[e]]));
  });
  return { dependent, X, full };
}
