// Checks of a schema-valid task_config against its database: components that are not elements of it, activated
// phases it does not define, inhibit_phases entries that name nothing in it; each named with the name close to it.
// POST /task runs them on the database record (main/service/task-checks.ts), `phasedesk calc` on the TDB file it
// reads (main/console/calc.ts), so that both refuse the same input with the same text.
import { isMassless } from '../../contract/phases.js';
import { closeName } from '../../contract/nearest-name.js';
import {
  knownGroupNames,
  nearestName,
  unknownEntries,
  unknownEntryText,
  type DatabasePhaseSelection,
  type UnknownEntry,
} from '../../contract/phase-selection.js';

export interface DatabaseLists {
  code: string;
  elements: string[];
  phases: string[];
  /** the record's recommended phase selection: its groups are names an inhibit_phases entry may use */
  selection?: DatabasePhaseSelection | null;
}

type Condition = Record<string, unknown>;
const isElement = (c: string) => !isMassless(c);
const at = (field: string) => `task_config.condition.${field}`;

/** Components that are not elements of the database, with the element close to each. */
function elementRefusal(c: Condition, db: DatabaseLists): string | null {
  if (!Array.isArray(c.components)) return null;
  const wanted = [...new Set((c.components as unknown[]).map((e) => String(e).toUpperCase()).filter(isElement))];
  const known = new Set(db.elements.map((e) => e.toUpperCase()));
  const unknown = wanted.filter((e) => !known.has(e));
  if (unknown.length === 0) return null;
  const elements = db.elements.filter((e) => isElement(e.toUpperCase()));
  const close = unknown.flatMap((e) => {
    const near = closeName(e, elements);
    return near ? [unknown.length > 1 ? `${near} for ${e}` : near] : [];
  });
  const hint = close.length > 0 ? `; did you mean ${close.join(', ')}?` : '';
  const verb = unknown.length > 1 ? 'are not elements' : 'is not an element';
  return `${at('components')}: ${unknown.join(', ')} ${verb} of database '${db.code}' (elements: ${elements.join(', ')}${hint})`;
}

/**
 * Activated phases the database does not define, and inhibit_phases entries that name no phase, no group or (a
 * pattern) match nothing: each named with the nearest name the database knows.
 */
function phaseRefusal(c: Condition, db: DatabaseLists): string | null {
  if (Array.isArray(c.activated_phases)) {
    const defined = new Set(db.phases.map((p) => p.toUpperCase()));
    const unknown: UnknownEntry[] = (c.activated_phases as unknown[])
      .map(String)
      .filter((p) => !defined.has(p.toUpperCase()))
      .map((entry) => ({ entry, kind: 'name', nearest: nearestName(entry, db.phases) }));
    if (unknown.length > 0)
      return `${at('activated_phases')}: ${unknown.map((u) => unknownEntryText(u, db.code)).join('; ')}`;
  }
  if (c.fixed_phases && typeof c.fixed_phases === 'object') {
    const defined = new Set(db.phases.map((p) => p.toUpperCase()));
    const unknown = Object.keys(c.fixed_phases).filter((p) => !defined.has(p.toUpperCase()));
    if (unknown.length > 0)
      return `${at('fixed_phases')}: ${unknown.map((entry) => unknownEntryText({ entry, kind: 'name', nearest: nearestName(entry, db.phases) }, db.code)).join('; ')}`;
  }
  // the phases a type names one by one (spinodal_decomposition's phase, solution_treatment's matrix, precipitates and
  // dissolving phase, solidification's primary phase, aging's matrix and precipitates, each a {phase, ...}, the
  // reference phases of a potential diagram's axes)
  const dissolution = (c.dissolution ?? {}) as Condition;
  const named: [string, unknown][] = [
    ['phase', c.phase],
    ['matrix_phase', c.matrix_phase],
    ['primary_phase', c.primary_phase],
    ...(Array.isArray(c.precipitates)
      ? c.precipitates.map((p, i) =>
          p && typeof p === 'object'
            ? ([`precipitates.${i}.phase`, (p as Condition).phase] as [string, unknown])
            : ([`precipitates.${i}`, p] as [string, unknown]),
        )
      : []),
    ['dissolution.phase', dissolution.phase],
    // potential_diagram's axes: the reference state of an activity (SER is no phase)
    ...(['x_axis', 'y_axis'] as const).map((k): [string, unknown] => {
      const ref = ((c[k] ?? {}) as Condition).reference_state;
      return [`${k}.reference_state`, typeof ref === 'string' && ref.toUpperCase() === 'SER' ? undefined : ref];
    }),
  ];
  for (const [field, name] of named) {
    if (typeof name !== 'string' || db.phases.some((p) => p.toUpperCase() === name.toUpperCase())) continue;
    return `${at(field)}: ${unknownEntryText({ entry: name, kind: 'name', nearest: nearestName(name, db.phases) }, db.code)}`;
  }
  if (Array.isArray(c.inhibit_phases)) {
    const entries = (c.inhibit_phases as unknown[]).map(String);
    const unknown = unknownEntries(entries, db.phases, knownGroupNames(db.selection));
    if (unknown.length > 0)
      return `${at('inhibit_phases')}: ${unknown.map((u) => unknownEntryText(u, db.code)).join('; ')}`;
  }
  return null;
}

/** The first refusal of the condition against the database as "<field>: <message>", or null. */
export function databaseRefusal(c: Condition, db: DatabaseLists): string | null {
  return elementRefusal(c, db) ?? phaseRefusal(c, db);
}
