// TypeScript wrapper of the native TDB reader (native-core/src/io) used by the service (catalog
// import, POST /database/{db_id}/phases) and by the other layers of the core. There is one TDB
// parser in the project: this one.
import { loadCore, type NativeDatabase, type NativeDatabaseInfo, type NativeLoadWarning } from './native.js';
import { elementsOf } from '../../contract/phases.js';
import { groupMembers, removedBy, type PhaseFacts } from '../../contract/phase-selection.js';
import type { TemperatureRange } from './melting.js';
import { suggestedRanges, type CompositionRange } from './system-range.js';

export type { NativeDatabase, NativeDatabaseInfo, NativeLoadWarning, TPJet } from './native.js';

/** What the service needs to list a database. */
export interface TdbInfo {
  /** element names without the vacancy VA and the electron /- */
  elements: string[];
  /** every phase the file defines, in file order (refused ones included, see `refusals`) */
  phases: string[];
  /** "FILE:LINE: text" for everything ignored or questionable that did not stop the load */
  warnings: string[];
  /** the same as records: a command ignored, or dropped with what depends on it, at its file and line */
  loadWarnings: NativeLoadWarning[];
  /** phases that cannot be used, each with a reason naming the model, the phase and the file */
  refusals: { phase: string; reason: string }[];
  /** a file of mobility data alone: elements and phases are those its mobility parameters name */
  mobilityOnly?: boolean;
}

/**
 * Opens a TDB file. A command that cannot be read or used is dropped with what depends on it (info().loadWarnings);
 * throws Error "FILE:LINE: message" when nothing usable remains, with `code` PD_TDB_SYNTAX, PD_TDB_LIMIT (beyond a
 * bound of the reader) or PD_FILE (unreadable) and `file`, `line`, `reason` (errors.ts isDatabaseFileError).
 * `mobilityPath`: a file of mobility data for the database's phases, read beside it (NativeDatabaseClass.fromFile).
 */
export function openDatabase(path: string, mobilityPath?: string): NativeDatabase {
  return loadCore().Database.fromFile(path, mobilityPath);
}

/** Reads TDB text (e.g. an upload before it is stored); `name` is used in error messages. */
export function openDatabaseFromString(
  text: string,
  name: string,
  mobility?: { text: string; name: string },
): NativeDatabase {
  return loadCore().Database.fromString(text, name, mobility?.text, mobility?.name);
}

/** Summary of a TDB file for the catalog. Throws Error "FILE:LINE: message" for a bad file. */
export function readTdbInfo(path: string): TdbInfo {
  return summarize(openDatabase(path).info());
}

/**
 * The summary of a file of mobility data alone (MQ, MF, DQ, DF parameters, no ELEMENT or PHASE): the phases and
 * diffusing elements it names; it is read beside a thermodynamic database (openDatabase's mobilityPath).
 */
export function summarizeMobilityFile(text: string, name: string): TdbInfo & { parameterCount: number } {
  const s = loadCore().Database.mobilitySummary(text, name);
  return {
    elements: s.elements,
    phases: s.phases,
    warnings: s.warnings,
    loadWarnings: s.loadWarnings,
    refusals: [],
    mobilityOnly: true,
    parameterCount: s.parameterCount,
  };
}

export function summarize(info: NativeDatabaseInfo): TdbInfo {
  return {
    elements: info.elements.map((e) => e.name).filter((n) => n !== 'VA' && n !== '/-'),
    phases: info.phases.map((p) => p.name),
    warnings: info.warnings,
    loadWarnings: info.loadWarnings,
    refusals: info.phases.filter((p) => p.refusal !== '').map((p) => ({ phase: p.name, reason: p.refusal })),
  };
}

/**
 * Phases of the file at `path` that can exist with these elements (VA implied; case-insensitive),
 * in file order. Throws Error "FILE:LINE: message" for a bad file.
 */
export function phasesFor(path: string, elements: string[]): string[] {
  return openDatabase(path).phasesFor(elements.map((e) => e.toUpperCase()));
}

/** What the phase groups are computed from (contract/phase-selection.ts), for every phase of the database. */
export function phaseFactsOf(info: NativeDatabaseInfo): PhaseFacts[] {
  const speciesElements = new Map(info.species.map((s) => [s.name.toUpperCase(), Object.keys(s.composition)]));
  return info.phases.map((p) => ({
    name: p.name.toUpperCase(),
    options: p.options,
    disorderedPart: p.disorderedPart.toUpperCase(),
    elements: elementsOf([
      ...new Set(p.constituents.flat().flatMap((c) => speciesElements.get(c.toUpperCase()) ?? [c.toUpperCase()])),
    ]),
  }));
}

/**
 * phasesFor, with the members of every phase group among those phases (key without @): the groups every database
 * has and `databaseGroups`, the record's own. Throws Error "FILE:LINE: message" for a bad file.
 */
export function phasesWithGroups(
  path: string,
  elements: string[],
  databaseGroups: Record<string, string[]> = {},
  recommended: string[] = [],
): {
  phases: string[];
  groups: Record<string, string[]>;
  temperatureRange: TemperatureRange | null;
  compositionRange: CompositionRange | null;
} {
  const db = openDatabase(path);
  const phases = db.phasesFor(elements.map((e) => e.toUpperCase()));
  const listed = new Set(phases.map((p) => p.toUpperCase()));
  const facts = phaseFactsOf(db.info()).filter((f) => listed.has(f.name));
  const groups = groupMembers(facts, elements, databaseGroups);
  // the ranges of the system a task computes by default: without the phases the database recommends suppressing
  const removed = new Set(removedBy(recommended, phases, groups));
  const ranges = suggestedRanges(db, elements, removed.size ? phases.filter((p) => !removed.has(p)) : undefined);
  return { phases, groups, temperatureRange: ranges.temperature, compositionRange: ranges.composition };
}
