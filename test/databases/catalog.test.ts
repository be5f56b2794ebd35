// The bundled catalog (databases/catalog.json) must describe files that our own TDB reader loads with every phase
// usable; the project's binaries with no warning, the copied databases unchanged from their source (the copies in
// ../shared/tdb), each with its source, licence and attribution, and a recommended selection that names only what
// its file defines.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTdbInfo } from '../../worker/core/database.js';
import { databaseCodeProblem } from '../../contract/database-code.js';
import { TASK_TYPES } from '../../contract/tasks/registry.js';
import {
  databasePhaseSelectionSchema,
  knownGroupNames,
  unknownEntries,
  type DatabasePhaseSelection,
} from '../../contract/phase-selection.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const root = path.resolve(__dirname, '../..');
interface CatalogEntry {
  file: string;
  code: string;
  name: string;
  level: string;
  support_task_list: string[];
  source?: string;
  license?: string;
  attribution?: string;
  phase_selection?: DatabasePhaseSelection;
}
const catalog: CatalogEntry[] = JSON.parse(readFileSync(path.join(root, 'databases/catalog.json'), 'utf8'));
/** The databases written by the project (README.md "The project's binaries"); the others are copies. */
const WRITTEN = ['CUNI_MEY1992', 'ALZN_MEY1993', 'AGCU_HAYES1986'];
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('bundled databases', () => {
  it('has the three binaries, a steel, an aluminium and a light-alloy database, with unique usable codes', () => {
    expect(catalog.map((e) => e.code)).toEqual(expect.arrayContaining([...WRITTEN, 'MC_FE_V2.059', 'MC_AL_V2.032', 'COST507']));
    expect(new Set(catalog.map((e) => e.code.toUpperCase())).size).toBe(catalog.length);
    for (const e of catalog) expect(databaseCodeProblem(e.code), e.code).toBeNull();
  });

  it('every bundled database offers every open task type its elements allow (the New task form lists it)', () => {
    // sections, isopleths and liquidus projections need three elements; every other type runs on a binary
    const multicomponent = ['isopleth', 'ternary_isothermal_section', 'liquidus_projection'];
    for (const e of catalog) {
      const binary = readTdbInfo(path.join(root, e.file)).elements.filter((el) => !['VA', '/-'].includes(el)).length < 3;
      const want = TASK_TYPES.filter((t) => !(binary && multicomponent.includes(t)));
      expect([...e.support_task_list].sort(), e.code).toEqual([...want].sort());
    }
  });

  for (const entry of catalog) {
    it(`${entry.code} loads every phase with no refusal`, () => {
      const info = readTdbInfo(path.join(root, entry.file));
      expect(info.refusals).toEqual([]);
      expect(info.phases).toContain('LIQUID');
      const header = readFileSync(path.join(root, entry.file), 'utf8').slice(0, 3000);
      // Each file names the publication its numbers come from (an author and a year at least).
      expect(header).toMatch(/\$.*(19|20)\d\d/);
      if (WRITTEN.includes(entry.code)) {
        expect(info.elements.length).toBe(2);
        expect(info.loadWarnings).toEqual([]);
      }
    });

    it(`${entry.code}: its recommended selection names only what the file defines`, () => {
      const sel = entry.phase_selection;
      if (!sel) return;
      expect(databasePhaseSelectionSchema.parse(sel)).toEqual(sel);
      const info = readTdbInfo(path.join(root, entry.file));
      const entries = [
        ...sel.inhibit_phases,
        ...(sel.for_systems ?? []).flatMap((r) => r.inhibit_phases),
        ...Object.values(sel.groups ?? {}).flat(),
      ];
      expect(unknownEntries(entries, info.phases, knownGroupNames(sel))).toEqual([]);
      for (const rule of sel.for_systems ?? []) for (const e of rule.elements) expect(info.elements).toContain(e);
    });
  }

  for (const entry of catalog.filter((e) => !WRITTEN.includes(e.code))) {
    it(`${entry.code} is an unchanged copy, with its source, licence and attribution`, () => {
      expect(entry.source).toMatch(/github\.com\/.+commit [0-9a-f]{40}/);
      expect(entry.license).toBeTruthy();
      expect(entry.attribution).toBeTruthy();
      if (/ODbL/.test(entry.license!)) expect(entry.attribution).toMatch(/opendatacommons\.org\/licenses\/odbl\/1\.0/);
      const licences = readFileSync(path.join(root, 'databases/LICENSES.md'), 'utf8');
      expect(licences).toContain(`\`${path.basename(entry.file)}\``);
      const shared = path.join(SHARED_TDB_DIR, path.basename(entry.file));
      if (existsSync(shared)) expect(sha256(path.join(root, entry.file))).toBe(sha256(shared));
    });
  }
});
