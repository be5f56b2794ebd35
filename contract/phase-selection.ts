// Which phases a calculation suppresses: the entries of condition.inhibit_phases (or of a database's recommended
// selection) and the groups they may name. One module for the service's 400 checks, the worker's selection
// (worker/system/phase-selection.ts) and the renderer's phase picker, so that all three read an entry alike.
//
// An entry is one of
//   - a phase name (FCC_L12), case-insensitive;
//   - a pattern with * (any run of characters) or ? (one character): *_L12, FCC*;
//   - a group, @name: a group every database has (BUILTIN_GROUPS) or one of the database's own groups.
// Pure TypeScript (no node: imports).
import { z } from 'zod';
import { nearestName } from './nearest-name.js';

export { nearestName };

/** The groups every database has, with what each contains (docs/calculations.md "Phase selection" says the same). */
export const BUILTIN_GROUPS = {
  ordered:
    'ordered phases of an order-disorder pair: the phases whose TDB description names a disordered part (DIS_PART); ' +
    'the disordered phase itself stays',
  gas: 'gas phases: the phases with the TDB option G',
  ionic_liquid: 'ionic liquids: the phases with the TDB option Y (the two-sublattice ionic liquid model)',
  foreign: 'phases none of whose constituents holds an element of the system (they cannot form in it)',
} as const;
export type BuiltinGroup = keyof typeof BUILTIN_GROUPS;
export const BUILTIN_GROUP_NAMES = Object.keys(BUILTIN_GROUPS) as BuiltinGroup[];

/** What the groups are computed from: one phase of the database (worker/system/phase-selection.ts phaseFactsOf). */
export interface PhaseFacts {
  name: string;
  /** option letters of the PHASE line (G gas, Y ionic liquid, L liquid, ...) */
  options: string;
  /** the DIS_PART phase of an ordered phase, '' otherwise */
  disorderedPart: string;
  /** the elements of its constituents, upper case (vacancies and the electron left out) */
  elements: string[];
}

const GROUP_NAME = /^[a-z][a-z0-9_]{0,39}$/;
const ENTRY_MAX = 80;

/** The recommended selection a database record carries (an extension of the record; docs/api.md). */
export const databasePhaseSelectionSchema = z
  .strictObject({
    /** entries suppressed in every system */
    inhibit_phases: z.array(
      z.string().min(1, 'must not be empty').max(ENTRY_MAX, `must be at most ${ENTRY_MAX} characters`),
    ),
    /** entries suppressed only in systems holding all of `elements` (e.g. DIAMOND_A4 for Fe-C but not for Al-Si) */
    for_systems: z
      .array(
        z.strictObject({
          elements: z
            .array(z.string().regex(/^[A-Za-z]{1,2}$/, 'must be element symbols'))
            .min(1, 'must name an element'),
          inhibit_phases: z.array(z.string().min(1, 'must not be empty').max(ENTRY_MAX)),
        }),
      )
      .max(50, 'must have at most 50 rules')
      .optional(),
    /** the database's own groups: @name -> phase names and patterns */
    groups: z
      .record(
        z.string(),
        z.array(
          z
            .string()
            .min(1, 'must not be empty')
            .max(ENTRY_MAX)
            .refine((e) => !e.startsWith('@'), 'must name phases or patterns, not groups'),
        ),
      )
      .optional(),
    /** why: the author's advice, what goes wrong without it */
    note: z.string().max(2000, 'must be at most 2000 characters').optional(),
  })
  .superRefine((s, ctx) => {
    for (const g of Object.keys(s.groups ?? {})) {
      if (!GROUP_NAME.test(g))
        ctx.addIssue({
          code: 'custom',
          path: ['groups', g],
          message: 'must be a lower-case name of letters, digits and _ (at most 40)',
        });
      else if ((BUILTIN_GROUP_NAMES as string[]).includes(g))
        ctx.addIssue({ code: 'custom', path: ['groups', g], message: `@${g} is a group every database has` });
    }
  });
export type DatabasePhaseSelection = z.output<typeof databasePhaseSelectionSchema>;

/** The selection a calculation used, as result.json records it (ResultDocument.phase_selection). */
export interface PhaseSelectionRecord {
  /** task: condition.inhibit_phases; database: the database's recommended selection; none: neither */
  source: 'task' | 'database' | 'none';
  /** the entries applied (for the database's selection: those for this system) */
  inhibit_phases: string[];
  /** the phases that could form and were suppressed, in database order */
  removed: string[];
}

export type EntryKind = 'group' | 'pattern' | 'name';
export function entryKind(entry: string): EntryKind {
  if (entry.startsWith('@')) return 'group';
  return /[*?]/.test(entry) ? 'pattern' : 'name';
}

/** A pattern as a regular expression over whole names, case-insensitive. */
export function patternRegExp(pattern: string): RegExp {
  const body = [...pattern]
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'i');
}

/** The entries of a database's selection that apply to a system of these elements. */
export function recommendedEntries(sel: DatabasePhaseSelection | null | undefined, elements: string[]): string[] {
  if (!sel) return [];
  const have = new Set(elements.map((e) => e.toUpperCase()));
  const out = [...sel.inhibit_phases];
  for (const rule of sel.for_systems ?? [])
    if (rule.elements.every((e) => have.has(e.toUpperCase()))) out.push(...rule.inhibit_phases);
  return [...new Set(out)];
}

/** The phases of `names` an entry list of names and patterns matches, in the order of `names`. */
function matchNames(entries: string[], names: string[]): string[] {
  const exact = new Set(entries.filter((e) => entryKind(e) === 'name').map((e) => e.toUpperCase()));
  const patterns = entries.filter((e) => entryKind(e) === 'pattern').map(patternRegExp);
  return names.filter((n) => exact.has(n.toUpperCase()) || patterns.some((p) => p.test(n)));
}

/** Whether a phase of the database belongs to a group every database has, in a system of these elements. */
function inBuiltinGroup(group: BuiltinGroup, p: PhaseFacts, system: Set<string>): boolean {
  switch (group) {
    case 'ordered':
      return p.disorderedPart !== '';
    case 'gas':
      return /G/i.test(p.options);
    case 'ionic_liquid':
      return /Y/i.test(p.options);
    case 'foreign':
      return !p.elements.some((e) => system.has(e.toUpperCase()));
  }
}

/**
 * The members of every group (key without @, lower case) among `phases`: the groups every database has, then the
 * database's own (their names and patterns matched against the phases).
 */
export function groupMembers(
  phases: PhaseFacts[],
  systemElements: string[],
  databaseGroups: Record<string, string[]> = {},
): Record<string, string[]> {
  const system = new Set(systemElements.map((e) => e.toUpperCase()));
  const names = phases.map((p) => p.name);
  const out: Record<string, string[]> = {};
  for (const g of BUILTIN_GROUP_NAMES) out[g] = phases.filter((p) => inBuiltinGroup(g, p, system)).map((p) => p.name);
  for (const [g, entries] of Object.entries(databaseGroups)) out[g.toLowerCase()] = matchNames(entries, names);
  return out;
}

/** The phases of `names` (in their order) the entries remove, with the groups' members from groupMembers. */
export function removedBy(entries: string[], names: string[], members: Record<string, string[]>): string[] {
  const byGroup = new Set(
    entries
      .filter((e) => entryKind(e) === 'group')
      .flatMap((e) => members[e.slice(1).toLowerCase()] ?? [])
      .map((n) => n.toUpperCase()),
  );
  const matched = new Set(matchNames(entries, names).map((n) => n.toUpperCase()));
  return names.filter((n) => byGroup.has(n.toUpperCase()) || matched.has(n.toUpperCase()));
}

/** An entry that names nothing the database knows, and the nearest name it does know. */
export interface UnknownEntry {
  entry: string;
  kind: EntryKind;
  nearest: string | undefined;
}

/**
 * The entries that name no phase of the database (`phaseNames`), no group (`groupNames`, without @) or, for a
 * pattern, match none of its phases: the misspellings a 400 names, each with the nearest known name.
 */
export function unknownEntries(entries: string[], phaseNames: string[], groupNames: string[]): UnknownEntry[] {
  const phases = new Set(phaseNames.map((p) => p.toUpperCase()));
  const groups = new Set(groupNames.map((g) => g.toLowerCase()));
  const out: UnknownEntry[] = [];
  for (const entry of entries) {
    const kind = entryKind(entry);
    if (kind === 'group' && !groups.has(entry.slice(1).toLowerCase()))
      out.push({
        entry,
        kind,
        nearest: nearestName(
          entry,
          groupNames.map((g) => `@${g}`),
        ),
      });
    if (kind === 'name' && !phases.has(entry.toUpperCase()))
      out.push({ entry, kind, nearest: nearestName(entry, phaseNames) });
    if (kind === 'pattern' && !phaseNames.some((n) => patternRegExp(entry).test(n)))
      out.push({ entry, kind, nearest: nearestName(entry.replace(/[*?]/g, ''), phaseNames) });
  }
  return out;
}

/** "FCC_L21 is not a phase of database 'X' (nearest: FCC_L12)" and the like, for one unknown entry. */
export function unknownEntryText(u: UnknownEntry, database: string): string {
  const what =
    u.kind === 'group'
      ? `is not a group of database '${database}'`
      : u.kind === 'pattern'
        ? `matches no phase of database '${database}'`
        : `is not a phase of database '${database}'`;
  return `${u.entry} ${what}${u.nearest ? ` (nearest: ${u.nearest})` : ''}`;
}

/** The group names a database knows: the built-in ones and its own. */
export function knownGroupNames(sel: DatabasePhaseSelection | null | undefined): string[] {
  return [...BUILTIN_GROUP_NAMES, ...Object.keys(sel?.groups ?? {}).map((g) => g.toLowerCase())];
}
