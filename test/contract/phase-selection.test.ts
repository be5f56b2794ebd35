// The reading of phase-selection entries shared by the service, the worker and the renderer
// (contract/phase-selection.ts): names, patterns and groups, the groups every database has, a database's own
// groups and conditional entries, and the nearest known name of a misspelling.
import { describe, expect, it } from 'vitest';
import {
  databasePhaseSelectionSchema,
  entryKind,
  groupMembers,
  nearestName,
  recommendedEntries,
  removedBy,
  unknownEntries,
  unknownEntryText,
  type PhaseFacts,
} from '../../contract/phase-selection.js';

const facts: PhaseFacts[] = [
  { name: 'LIQUID', options: 'L', disorderedPart: '', elements: ['AL', 'NI'] },
  { name: 'FCC_A1', options: '', disorderedPart: '', elements: ['AL', 'NI', 'C'] },
  { name: 'FCC_L12', options: 'F', disorderedPart: 'FCC_A1', elements: ['AL', 'NI'] },
  { name: 'BCC_A2', options: '', disorderedPart: '', elements: ['AL', 'NI'] },
  { name: 'BCC_B2', options: 'B', disorderedPart: 'BCC_A2', elements: ['AL', 'NI'] },
  // an L12 in its name but no order-disorder description: not @ordered
  { name: 'NI3TI_L12', options: '', disorderedPart: '', elements: ['NI', 'TI'] },
  { name: 'GAS', options: 'G', disorderedPart: '', elements: ['AL', 'NI', 'O'] },
  { name: 'IONIC_LIQ', options: 'Y', disorderedPart: '', elements: ['AL', 'O'] },
  { name: 'CORUNDUM', options: '', disorderedPart: '', elements: ['AL', 'O'] },
  { name: 'TIO2', options: '', disorderedPart: '', elements: ['TI', 'O'] },
];
const names = facts.map((p) => p.name);

describe('entries', () => {
  it('are names, patterns or groups', () => {
    expect(entryKind('FCC_L12')).toBe('name');
    expect(entryKind('*_L12')).toBe('pattern');
    expect(entryKind('FCC?A1')).toBe('pattern');
    expect(entryKind('@ordered')).toBe('group');
  });

  it('patterns match whole names, case-insensitive; other characters are literal', () => {
    const members = groupMembers(facts, ['AL', 'NI']);
    expect(removedBy(['*_l12'], names, members)).toEqual(['FCC_L12', 'NI3TI_L12']);
    expect(removedBy(['FCC*'], names, members)).toEqual(['FCC_A1', 'FCC_L12']);
    expect(removedBy(['BCC?B2'], names, members)).toEqual(['BCC_B2']);
    expect(removedBy(['BCC.B2'], names, members)).toEqual([]);
    expect(removedBy(['gas', 'Liquid'], names, members)).toEqual(['LIQUID', 'GAS']);
  });
});

describe('the groups every database has', () => {
  it('ordered: the phases with a disordered part, not every L12 in a name', () => {
    expect(groupMembers(facts, ['AL', 'NI']).ordered).toEqual(['FCC_L12', 'BCC_B2']);
  });
  it('gas: option G; ionic_liquid: option Y', () => {
    const m = groupMembers(facts, ['AL', 'NI']);
    expect(m.gas).toEqual(['GAS']);
    expect(m.ionic_liquid).toEqual(['IONIC_LIQ']);
  });
  it('foreign: no constituent holds an element of the system', () => {
    expect(groupMembers(facts, ['AL', 'NI']).foreign).toEqual(['TIO2']);
    expect(groupMembers(facts, ['TI', 'O']).foreign).toEqual(['LIQUID', 'FCC_A1', 'FCC_L12', 'BCC_A2', 'BCC_B2']);
    expect(groupMembers(facts, ['C']).foreign).toEqual(names.filter((n) => n !== 'FCC_A1'));
  });
  it('a database group names phases and patterns', () => {
    const m = groupMembers(facts, ['AL', 'NI'], { oxides: ['CORUNDUM', '*O2'] });
    expect(m.oxides).toEqual(['CORUNDUM', 'TIO2']);
    expect(removedBy(['@oxides', '@GAS'], names, m)).toEqual(['GAS', 'CORUNDUM', 'TIO2']);
  });
});

describe("a database's recommended selection", () => {
  const sel = databasePhaseSelectionSchema.parse({
    inhibit_phases: ['@ordered', '@gas'],
    for_systems: [{ elements: ['C', 'fe'], inhibit_phases: ['MC_SHP', 'DIAMOND_A4'] }],
    groups: { carbides: ['M23C6', 'CEMENTITE*'] },
  });
  it('applies the conditional entries to systems that hold all their elements', () => {
    expect(recommendedEntries(sel, ['FE', 'C'])).toEqual(['@ordered', '@gas', 'MC_SHP', 'DIAMOND_A4']);
    expect(recommendedEntries(sel, ['FE', 'CR', 'C'])).toEqual(['@ordered', '@gas', 'MC_SHP', 'DIAMOND_A4']);
    expect(recommendedEntries(sel, ['AL', 'SI'])).toEqual(['@ordered', '@gas']);
    expect(recommendedEntries(null, ['AL'])).toEqual([]);
  });
  it('is refused when a group takes a built-in name, names a group or has a bad name', () => {
    const bad = (v: unknown) => databasePhaseSelectionSchema.safeParse(v).error?.issues[0];
    expect(bad({ inhibit_phases: [], groups: { ordered: ['X'] } })).toMatchObject({
      path: ['groups', 'ordered'],
      message: '@ordered is a group every database has',
    });
    expect(bad({ inhibit_phases: [], groups: { mine: ['@gas'] } })?.message).toBe(
      'must name phases or patterns, not groups',
    );
    expect(bad({ inhibit_phases: [], groups: { 'Two Words': ['X'] } })?.message).toMatch(/lower-case name/);
    expect(bad({ inhibit_phases: [], for_systems: [{ elements: [], inhibit_phases: [] }] })?.message).toBe(
      'must name an element',
    );
  });
});

describe('misspellings', () => {
  it('name the entry and the nearest known name of its kind', () => {
    const u = unknownEntries(['FCC_L21', '@ordred', 'XYZ*', 'LIQUID', '@ordered'], names, ['ordered', 'gas']);
    expect(u.map((x) => unknownEntryText(x, 'DB'))).toEqual([
      "FCC_L21 is not a phase of database 'DB' (nearest: FCC_L12)",
      "@ordred is not a group of database 'DB' (nearest: @ordered)",
      "XYZ* matches no phase of database 'DB' (nearest: GAS)",
    ]);
  });
  it('nearestName is the smallest edit distance, the first of equals', () => {
    expect(nearestName('BCC_A3', ['BCC_A2', 'HCP_A3'])).toBe('BCC_A2');
    expect(nearestName('x', [])).toBeUndefined();
  });
});
