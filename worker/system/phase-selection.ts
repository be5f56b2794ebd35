// The phases a calculation may form: condition.activated_phases (names) narrowed by the suppressed entries, either
// the task's condition.inhibit_phases or, when the task gives none, the recommended selection of its database
// (names, patterns and @groups, read by contract/phase-selection.ts). Every task type resolves its phases here, and
// worker code without a task (sweeps, audits) calls selectPhases with a database and a selection of its own.
import { elementsOf } from '../../contract/phases.js';
import {
  groupMembers,
  knownGroupNames,
  recommendedEntries,
  removedBy,
  unknownEntries,
  unknownEntryText,
  nearestName,
  type DatabasePhaseSelection,
  type PhaseSelectionRecord,
} from '../../contract/phase-selection.js';
import { phaseFactsOf, type NativeDatabase } from '../core/database.js';

/** What a calculation asks for. */
export interface SelectionRequest {
  /** condition.activated_phases: only these may form (empty or absent: no restriction) */
  activated?: string[];
  /** condition.inhibit_phases; absent: the database's recommended selection */
  inhibit?: string[];
  /** the database's recommended selection and groups (the record's phase_selection), null when it has none */
  database?: DatabasePhaseSelection | null;
}

export interface SelectedPhases {
  /** the phases that may form, upper case; undefined = every phase the elements allow (nothing activated or removed) */
  phases: string[] | undefined;
  /** what result.json records */
  record: PhaseSelectionRecord;
  logs: string[];
}

/** The activated phases that can form from the elements (rejected-by-default phases count when named). */
function activatedPhases(db: NativeDatabase, elements: string[], activated: string[], file: string, logs: string[]) {
  const defined = db.info().phases.map((p) => p.name.toUpperCase());
  const unknown = activated.filter((p) => !defined.includes(p));
  if (unknown.length) {
    const near = nearestName(unknown[0]!, defined);
    throw new Error(
      `condition.activated_phases: ${unknown.join(', ')} not defined in ${file}${near ? ` (nearest: ${near})` : ''}`,
    );
  }
  const formable = db.phasesFor(elements, true);
  const phases = activated.filter((p) => formable.includes(p));
  const dropped = activated.filter((p) => !formable.includes(p));
  if (dropped.length)
    logs.push(`activated phases that cannot form from ${elements.join('-')} are ignored: ${dropped.join(', ')}`);
  if (phases.length === 0)
    throw new Error(`condition.activated_phases: none of ${activated.join(', ')} can form from ${elements.join(', ')}`);
  return phases;
}

/**
 * The entries that apply: the task's (a misspelled one is an error naming the nearest known name) or the database's
 * for this system (an entry naming what this file does not define, e.g. a phase the reader dropped, is skipped with
 * a log line).
 */
function appliedEntries(req: SelectionRequest, elements: string[], names: string[], file: string, logs: string[]) {
  const groups = knownGroupNames(req.database);
  if (req.inhibit !== undefined) {
    const unknown = unknownEntries(req.inhibit, names, groups);
    if (unknown.length)
      throw new Error(`condition.inhibit_phases: ${unknown.map((u) => unknownEntryText(u, file)).join('; ')}`);
    return { source: 'task' as const, entries: req.inhibit };
  }
  const entries = recommendedEntries(req.database, elements);
  const unknown = new Set(unknownEntries(entries, names, groups).map((u) => u.entry));
  if (unknown.size)
    logs.push(`the database's recommended selection names what ${file} does not define: ${[...unknown].join(', ')}`);
  return { source: req.database ? ('database' as const) : ('none' as const), entries };
}

/**
 * The phases a calculation on `elements` may form, and the record of the selection. Activated phases narrow the
 * phases first; the entries then remove phases from what remains (or from every phase the elements allow).
 */
export function selectPhases(
  db: NativeDatabase,
  components: string[],
  req: SelectionRequest,
  file: string,
): SelectedPhases {
  const elements = [...new Set(elementsOf(components))];
  const logs: string[] = [];
  const activated = (req.activated ?? []).map((p) => p.toUpperCase());
  const base = activated.length ? activatedPhases(db, elements, activated, file, logs) : undefined;
  const info = db.info();
  const facts = phaseFactsOf(info);
  const { source, entries } = appliedEntries(
    req,
    elements,
    facts.map((p) => p.name),
    file,
    logs,
  );
  const universe = base ?? db.phasesFor(elements);
  const removed = entries.length
    ? removedBy(entries, universe, groupMembers(facts, elements, req.database?.groups))
    : [];
  const record: PhaseSelectionRecord = { source, inhibit_phases: entries, removed };
  if (removed.length === 0) return { phases: base, record, logs };
  const phases = universe.filter((p) => !removed.includes(p));
  if (phases.length === 0)
    throw new Error(
      `condition.inhibit_phases: ${entries.join(', ')} remove every phase that can form from ${elements.join(', ')}`,
    );
  const by = source === 'task' ? 'condition.inhibit_phases' : "the database's recommended selection";
  logs.push(`phases suppressed by ${by} (${entries.join(', ')}): ${removed.join(', ')}`);
  return { phases, record, logs };
}
