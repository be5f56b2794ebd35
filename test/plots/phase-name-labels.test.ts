// Display names on real diagrams (contract/plots/phase-names.ts, worker/results/display-names.ts): binary diagrams,
// a ternary section and an isopleth are computed by their calculation modules as the service runs them, and their
// result.json and preview SVG are read back. No one-phase field label carries a composition-set number (MF Steel's
// bcc field of Cr-Fe is mapped as the second bcc set and must read α); a number appears only where two sets with one
// display name share the field; ordered and disordered states get distinct names; result.json keeps the database's
// names beside the display texts.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run as runBinary } from '../../worker/calculations/binary_equilibrium.js';
import { run as runSection } from '../../worker/calculations/ternary_isothermal_section.js';
import { run as runIsopleth } from '../../worker/calculations/isopleth.js';
import { JobControl } from '../../worker/protocol.js';
import type { BinaryEquilibriumResult } from '../../contract/results/binary_equilibrium.js';
import type { TernaryIsothermalSectionResult } from '../../contract/results/ternary_isothermal_section.js';
import type { IsoplethResult } from '../../contract/results/isopleth.js';
import type { DatabasePhaseSelection } from '../../contract/phase-selection.js';
import { parsedJob } from '../support/jobs.js';
import { setNumberProblems } from './preview-svg.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { findAll, parseXml } from './xml.js';

const BUNDLED = path.resolve(__dirname, '../../databases');
const catalog = JSON.parse(readFileSync(path.join(BUNDLED, 'catalog.json'), 'utf8')) as {
  code: string;
  phase_selection?: DatabasePhaseSelection;
}[];
const tmp = mkdtempSync(path.join(tmpdir(), 'phase-names-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let count = 0;

/** Runs one calculation module on a job of the given database code; its result.json and the label texts of its preview. */
function compute<D>(
  type: 'binary_equilibrium' | 'ternary_isothermal_section' | 'isopleth',
  tdb: string,
  code: string,
  condition: Record<string, unknown>,
): { doc: D; labels: string[] } {
  const dir = path.join(tmp, `t${count++}`);
  const job = parsedJob(type, {
    taskUuid: 'n',
    ompThreads: 2,
    taskDir: dir,
    control: new SharedArrayBuffer(128),
    database: { code, sha256: 'x', phase_selection: catalog.find((e) => e.code === code)?.phase_selection ?? null },
    config: { tdb_file: tdb, condition: { pressure: 101325, ...condition } },
  });
  const run = { binary_equilibrium: runBinary, ternary_isothermal_section: runSection, isopleth: runIsopleth }[type];
  (run as (j: typeof job, c: JobControl) => unknown)(job, new JobControl(job.control));
  const doc = JSON.parse(readFileSync(path.join(dir, 'result', 'result.json'), 'utf8')) as D;
  const preview = {
    binary_equilibrium: 'phase_diagram',
    ternary_isothermal_section: 'isothermal_section',
    isopleth: 'isopleth',
  }[type];
  const svg = parseXml(readFileSync(path.join(dir, 'preview', `${preview}.svg`), 'utf8'));
  const labels = findAll(svg, 'text').map((t) => t.text);
  return { doc, labels };
}

/** The texts of the previews' field labels: the names of one or more phases (not axis texts, ticks or titles). */
function fieldLabels(labels: string[], known: readonly string[]): string[] {
  return labels.filter((l) => known.includes(l));
}

describe('display names on computed diagrams', () => {
  it('binary diagrams: one-phase fields without set numbers, two sets numbered only where they share a field', () => {
    const cases = [
      { tdb: path.join(BUNDLED, 'alzn_mey1993.tdb'), code: 'ALZN_MEY1993', els: ['AL', 'ZN'], T: [400, 1000] },
      { tdb: path.join(BUNDLED, 'agcu_hayes1986.tdb'), code: 'AGCU_HAYES1986', els: ['AG', 'CU'], T: [500, 1400] },
      { tdb: path.join(SHARED_TDB_DIR, 'mf-steel.tdb'), code: 'MF_STEEL', els: ['CR', 'FE'], T: [600, 2200] },
    ];
    for (const c of cases) {
      const { doc, labels } = compute<BinaryEquilibriumResult>('binary_equilibrium', c.tdb, c.code, {
        components: c.els,
        compositions_start: { [c.els[1]!]: 0 },
        compositions_end: { [c.els[1]!]: 1 },
        temperature_start: c.T[0],
        temperature_end: c.T[1],
      });
      const singles = doc.single_phase_regions.map((s) => s.display!);
      const twos = doc.two_phase_regions.map((r) => r.display!);
      expect(singles.length, c.code).toBeGreaterThan(0);
      for (const s of singles) expect(s, `${c.code}: one-phase field ${s}`).not.toMatch(/#\d/);
      for (const t of twos) expect(setNumberProblems(t), `${c.code}: ${t}`).toEqual([]);
      // the database's names stay beside them
      for (const r of doc.two_phase_regions) expect(r.phases.join(' ')).toMatch(/^[A-Z0-9_#]+ [A-Z0-9_#]+$/);
      // the preview prints the same texts
      const drawn = fieldLabels(labels, [...singles, ...twos]);
      expect(drawn.length, c.code).toBeGreaterThan(0);
      for (const l of labels) expect(l, `${c.code} preview`).not.toMatch(/FCC_A1|BCC_A2|LIQUID/);
      if (c.code === 'MF_STEEL') {
        // Fe-Cr: the bcc field (whichever set the mapping calls it) is α, the liquid L
        expect(singles).toEqual(expect.arrayContaining(['α', 'L']));
        expect(doc.single_phase_regions.map((s) => s.label).join(' ')).toMatch(/BCC_A2/);
      }
      if (c.code === 'ALZN_MEY1993') expect(twos).toContain('fcc (A1) + fcc (A1)#2');
    }
  }, 300_000);

  it('a ternary section with ordered phases: ordered and disordered states distinct, no set number on a one-phase field', () => {
    const { doc, labels } = compute<TernaryIsothermalSectionResult>(
      'ternary_isothermal_section',
      path.join(SHARED_TDB_DIR, 'alcrni.tdb'),
      'ALCRNI',
      { components: ['AL', 'CR', 'NI'], temperature: 1273, map_options: { grid_divisions: 10 } },
    );
    const singles = doc.single_phase_regions.map((s) => s.display!);
    for (const s of singles) expect(s).not.toMatch(/#\d/);
    for (const t of [...doc.two_phase_regions, ...doc.three_phase_triangles].map((r) => r.display!))
      expect(setNumberProblems(t), t).toEqual([]);
    // the L12 and A1 states of one model, the B2 and A2 states of the other, by their own short names
    expect(singles).toEqual(expect.arrayContaining(['fcc (A1)', 'bcc (A2)', 'B2']));
    const twos = doc.two_phase_regions.map((r) => r.display!);
    expect(twos).toEqual(expect.arrayContaining(['L1₂ + fcc (A1)', 'bcc (A2) + B2']));
    expect(doc.two_phase_regions.map((r) => r.labels.join(' + '))).toContain('L12 (L12_FCC) + A1 (L12_FCC)');
    expect(fieldLabels(labels, singles).length).toBeGreaterThan(0);
  }, 300_000);

  it('an isopleth (COST507 Al-4.4Cu-xMg): region labels in display names, none with a stray set number', () => {
    const { doc, labels } = compute<IsoplethResult>('isopleth', path.join(SHARED_TDB_DIR, 'COST507.tdb'), 'COST507', {
      components: ['AL', 'CU', 'MG'],
      temperature_start: 650,
      temperature_end: 950,
      composition_unit: 'mass_fraction',
      composition_start: { CU: 0.044, MG: 0 },
      composition_end: { CU: 0.044, MG: 0.02 },
      resolution: 7,
    });
    const shown = doc.regions.map((r) => r.display!);
    for (const r of doc.regions) {
      if (r.phases.length === 1) expect(r.display).not.toMatch(/#\d/);
      expect(setNumberProblems(r.display!), r.display).toEqual([]);
    }
    expect(shown).toEqual(expect.arrayContaining(['α-Al', 'L']));
    expect(doc.regions.map((r) => r.phases.join('+'))).toEqual(expect.arrayContaining(['FCC_A1', 'LIQUID']));
    expect(fieldLabels(labels, shown).length).toBeGreaterThan(0);
  }, 300_000);
});
