// The ternary half of the diagram self-audit: isothermal sections of the ternary systems at hand, each mapped and
// written as a ternary_isothermal_section task writes result.json (worker/calculations/ternary_isothermal_section.ts
// sectionDocument, with the database's recommended phase selection where the binary audit uses it), then checked
// with point equilibria at random compositions (audit/random-points.ts). An entry module beside audit-cli.ts: it
// builds the delivered document, which the mapping layer below the calculations cannot.
import path from 'node:path';
import type { TernaryIsothermalSectionResult } from '../../contract/results/ternary_isothermal_section.js';
import { sectionDocument } from '../calculations/ternary_isothermal_section.js';
import type { NativeDatabase } from '../core/native.js';
import { openDatabase } from '../core/database.js';
import { provenance } from '../results/common.js';
import { selectPhases } from '../system/phase-selection.js';
import { AUDITED_WITH_SELECTION, catalogSelections } from './audit-systems.js';
import { checkRandomPoints, type RandomPointReport } from './audit/random-points.js';
import { mapTernary } from './ternary.js';

export interface AuditSection {
  /** file in ../shared/tdb */
  file: string;
  components: [string, string, string];
  T: number;
  /** audited by the test suite too (the others by npm run audit:diagrams alone) */
  suite?: boolean;
}

/** The sections: the ternary systems the mapping and calculation tests map, at one temperature each. */
export const AUDIT_SECTIONS: AuditSection[] = [
  { file: 'crtiv_ghosh.tdb', components: ['CR', 'TI', 'V'], T: 1000, suite: true },
  { file: 'mf-steel.tdb', components: ['FE', 'CR', 'NI'], T: 1073, suite: true },
  { file: 'alcrni.tdb', components: ['AL', 'CR', 'NI'], T: 1273, suite: true },
  { file: 'COST507.tdb', components: ['AL', 'CU', 'MG'], T: 700 },
  { file: 'COST507.tdb', components: ['AL', 'MG', 'SI'], T: 700 },
  { file: 'alcocrni.tdb', components: ['CO', 'CR', 'NI'], T: 1273 },
  { file: 'CrFeNb_Jacob2016.tdb', components: ['CR', 'FE', 'NB'], T: 1273 },
  { file: 'alfeo.tdb', components: ['AL', 'FE', 'O'], T: 1173 },
  { file: 'alnipt.tdb', components: ['AL', 'NI', 'PT'], T: 1273 },
  { file: 'sl_chen.tdb', components: ['A', 'B', 'C'], T: 500 },
  { file: 'Cr-Fe-Ni_shallow_bcc.tdb', components: ['CR', 'FE', 'NI'], T: 600 },
];

export const sectionName = (s: AuditSection) => `tdb/${s.file}:${s.components.join('-')}@${s.T}`;

export interface SectionAuditReport extends RandomPointReport {
  name: string;
  regions: number;
  triangles: number;
  seconds: number;
}

/** The section as result.json gives it, with the phases and solver components it was mapped with. */
export function deliveredSection(
  db: NativeDatabase,
  tdbFile: string,
  s: AuditSection,
  o: { catalog: string; threads: number },
): { doc: TernaryIsothermalSectionResult; phases: string[] | undefined; components: string[] } {
  const file = path.basename(tdbFile);
  const database = AUDITED_WITH_SELECTION.has(file) ? (catalogSelections(o.catalog).get(file) ?? null) : null;
  const selection = selectPhases(db, s.components, { database }, file);
  const section = mapTernary({
    database: db,
    components: s.components,
    phases: selection.phases,
    T: s.T,
    threads: o.threads,
  });
  const doc = sectionDocument(
    section,
    'mole_fraction',
    null,
    {},
    {
      provenance: provenance(tdbFile, null),
      phase_selection: selection.record,
    },
  );
  const hasVa = db.info().elements.some((e) => e.name.toUpperCase() === 'VA');
  return { doc, phases: selection.phases, components: hasVa ? [...s.components, 'VA'] : [...s.components] };
}

/** Maps the section and checks 300 random points (seeded by the section's place in AUDIT_SECTIONS). */
export function auditSection(
  s: AuditSection,
  o: { tdbDir: string; catalog: string; threads: number; points?: number },
): SectionAuditReport {
  const t0 = performance.now();
  const tdbFile = path.join(o.tdbDir, s.file);
  const db = openDatabase(tdbFile);
  const { doc, phases, components } = deliveredSection(db, tdbFile, s, o);
  const r = checkRandomPoints(doc, {
    db,
    components,
    phases,
    points: o.points ?? 300,
    seed: 1 + AUDIT_SECTIONS.indexOf(s),
    threads: o.threads,
  });
  return {
    name: sectionName(s),
    regions: doc.two_phase_regions.length,
    triangles: doc.three_phase_triangles.length,
    ...r,
    seconds: (performance.now() - t0) / 1000,
  };
}
