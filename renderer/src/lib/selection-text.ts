// A database's recommended phase selection as the text fields of Manage databases edit it, and back: entries
// comma separated; one rule per line "C, FE: MC_SHP, DIAMOND_A4" (suppressed in systems with all those elements);
// one group per line "carbides: M23C6*, CEMENTITE". The service checks what it gets (contract/phase-selection.ts).
import type { DatabasePhaseSelection } from '../../../contract/phase-selection.js';

export interface SelectionText {
  inhibit: string;
  forSystems: string;
  groups: string;
  note: string;
}

const list = (s: string) =>
  s
    .split(/[,\s]+/)
    .map((x) => x.trim())
    .filter(Boolean);

export function selectionToText(s: DatabasePhaseSelection | null): SelectionText {
  return {
    inhibit: (s?.inhibit_phases ?? []).join(', '),
    forSystems: (s?.for_systems ?? [])
      .map((r) => `${r.elements.join(', ')}: ${r.inhibit_phases.join(', ')}`)
      .join('\n'),
    groups: Object.entries(s?.groups ?? {})
      .map(([g, e]) => `${g}: ${e.join(', ')}`)
      .join('\n'),
    note: s?.note ?? '',
  };
}

/** The lines "LEFT: a, b" of a text field; a line without ':' is named in the error. */
function pairs(text: string, what: string): [string, string[]][] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const i = l.indexOf(':');
      if (i < 0)
        throw new Error(
          `${what}: "${l}" needs a ':' between the ${what === 'groups' ? 'name' : 'elements'} and the phases`,
        );
      return [l.slice(0, i).trim(), list(l.slice(i + 1))];
    });
}

/** The selection of the text fields; null when every field is empty (the record then has none). */
export function selectionFromText(t: SelectionText): DatabasePhaseSelection | null {
  const forSystems = pairs(t.forSystems, 'for systems').map(([els, inhibit]) => ({
    elements: list(els).map((e) => e.toUpperCase()),
    inhibit_phases: inhibit,
  }));
  const groups = Object.fromEntries(pairs(t.groups, 'groups').map(([g, e]) => [g.replace(/^@/, ''), e]));
  const inhibit = list(t.inhibit);
  const note = t.note.trim();
  if (!inhibit.length && !forSystems.length && !Object.keys(groups).length && !note) return null;
  return {
    inhibit_phases: inhibit,
    ...(forSystems.length ? { for_systems: forSystems } : {}),
    ...(Object.keys(groups).length ? { groups } : {}),
    ...(note ? { note } : {}),
  };
}
