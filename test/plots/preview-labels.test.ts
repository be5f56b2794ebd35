// Labels on the previews of every diagram kind besides the binary (test/plots/labels.test.ts): one small real case of
// each is computed by its calculation's run(), as the service runs it, and the preview SVG it writes is read back
// (test/plots/preview-svg.ts). On the ternary section, the isopleths (one between two alloys, one pseudo-binary
// between end members), the potential diagram and the liquidus projection: no two label boxes intersect, none
// leaves the plot area, none is crossed by a boundary, an invariant line, a tie-triangle edge, the Gibbs triangle
// or a valley, none covers another text; every leader line ends at its own label; no field label carries a set
// number on a name it holds once. On those and on the Scheil and Gibbs-energy previews: no text leaves the picture.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TaskType } from '../../contract/tasks/registry.js';
import { run as runSection } from '../../worker/calculations/ternary_isothermal_section.js';
import { run as runIsopleth } from '../../worker/calculations/isopleth.js';
import { run as runPotential } from '../../worker/calculations/potential_diagram.js';
import { run as runLiquidus } from '../../worker/calculations/liquidus_projection.js';
import { run as runScheil } from '../../worker/calculations/scheil_solidification.js';
import { run as runCurves } from '../../worker/calculations/gibbs_energy_curves.js';
import { JobControl, type CalculationOutput, type TaskJob } from '../../worker/protocol.js';
import { parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { checkBoxes, checkLeaders, checkTextsFit, readPreview, setNumberProblems } from './preview-svg.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-preview-labels-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const COST507 = path.join(SHARED_TDB_DIR, 'COST507.tdb');
const P = 101325;
let n = 0;

type Run = (job: never, control: JobControl) => CalculationOutput;

/** Runs the calculation on a fresh task directory and returns its preview SVGs. */
function previews(type: TaskType, run: Run, tdb: string, condition: Record<string, unknown>): string[] {
  const job = parsedJob(type, {
    taskUuid: 'l',
    ompThreads: 1,
    taskDir: path.join(tmp, `t${n++}`),
    control: new SharedArrayBuffer(128),
    config: { tdb_file: tdb, condition: { pressure: P, ...condition } },
  }) as TaskJob<typeof type>;
  run(job as never, new JobControl(new SharedArrayBuffer(16)));
  const dir = path.join(job.taskDir, 'preview');
  const svgs = readdirSync(dir)
    .filter((f) => f.endsWith('.svg'))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'));
  expect(svgs.length).toBeGreaterThan(0);
  return svgs;
}

interface Case {
  name: string;
  type: TaskType;
  run: Run;
  tdb: string;
  condition: Record<string, unknown>;
}

const DIAGRAMS: Case[] = [
  {
    name: 'COST507 Al-Cu-Mg section at 700 K',
    type: 'ternary_isothermal_section',
    run: runSection as Run,
    tdb: COST507,
    condition: { components: ['AL', 'CU', 'MG'], temperature: 700, map_options: { grid_divisions: 10 } },
  },
  {
    name: 'alcrni Al-Cr-Ni section at 1273 K',
    type: 'ternary_isothermal_section',
    run: runSection as Run,
    tdb: path.join(SHARED_TDB_DIR, 'alcrni.tdb'),
    condition: { components: ['AL', 'CR', 'NI'], temperature: 1273, map_options: { grid_divisions: 10 } },
  },
  {
    name: 'COST507 Al-Cu-Mg isopleth at 5 % Mg',
    type: 'isopleth',
    run: runIsopleth as Run,
    tdb: COST507,
    condition: {
      components: ['AL', 'CU', 'MG'],
      composition_start: { CU: 0, MG: 0.05 },
      composition_end: { CU: 0.2, MG: 0.05 },
      temperature_start: 500,
      temperature_end: 1000,
      resolution: 7,
    },
  },
  {
    name: 'COST507 Al-CuMg2 pseudo-binary section',
    type: 'isopleth',
    run: runIsopleth as Run,
    tdb: COST507,
    condition: {
      components: ['AL', 'CU', 'MG'],
      end_members: { start: 'Al', end: 'CuMg2' },
      temperature_start: 600,
      temperature_end: 1000,
      resolution: 5,
    },
  },
  {
    name: 'Cu-O potential diagram',
    type: 'potential_diagram',
    run: runPotential as Run,
    tdb: path.join(SHARED_TDB_DIR, 'cuo.tdb'),
    condition: {
      components: ['CU', 'O'],
      x_axis: { quantity: 'temperature', start: 600, end: 1400 },
      y_axis: { quantity: 'chemical_potential', element: 'O', start: -400000, end: -50000 },
      grid_points: 21,
    },
  },
  {
    name: 'COST507 Al-Cu-Mg liquidus projection',
    type: 'liquidus_projection',
    run: runLiquidus as Run,
    tdb: COST507,
    condition: { components: ['AL', 'CU', 'MG'], grid_divisions: 10 },
  },
];

describe.each(DIAGRAMS.map((c) => [c.name, c] as const))('labels of the %s preview', (_name, c) => {
  it('labels apart, inside the plot, off the lines and the other texts; leaders to their own label', () => {
    for (const svg of previews(c.type, c.run, c.tdb, c.condition)) {
      const drawn = readPreview(svg);
      expect(drawn.boxes.length).toBeGreaterThan(0);
      expect(drawn.boundaries.length).toBeGreaterThan(0);
      checkBoxes(drawn);
      checkLeaders(drawn);
      checkTextsFit(drawn);
      for (const b of drawn.boxes) expect(setNumberProblems(b.text), b.text).toEqual([]);
    }
  }, 120_000);
});

describe('the reading of a preview', () => {
  // a 400 x 300 plot with one boundary across it and a title, DejaVu Sans 16 px: "LIQUID" is 55.5 px wide
  const svg = (labelX: number, title: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="500" height="400"><clipPath id="c"><rect x="50" y="50" width="400" height="300"/></clipPath>` +
    `<text x="250" y="30" font-size="17" text-anchor="middle">${title}</text>` +
    `<polyline points="250,50 250,350" stroke="#000000"/>` +
    `<g class="labels"><text x="${labelX}" y="200" font-size="16" text-anchor="middle">LIQUID</text></g></svg>`;

  it('finds a label crossed by a boundary, and a title wider than the picture', () => {
    expect(() => checkBoxes(readPreview(svg(150, 'T')))).not.toThrow();
    expect(() => checkBoxes(readPreview(svg(240, 'T')))).toThrow(/crossed/);
    expect(() => checkBoxes(readPreview(svg(70, 'T')))).toThrow(/inside the plot/);
    expect(() => checkTextsFit(readPreview(svg(150, 'Phase diagram '.repeat(2))))).not.toThrow();
    expect(() => checkTextsFit(readPreview(svg(150, 'Phase diagram '.repeat(6))))).toThrow(/within the 500 px/);
  });
});

const CHARTS: Case[] = [
  {
    name: 'Scheil solidification of Al-30Zn',
    type: 'scheil_solidification',
    run: runScheil as Run,
    tdb: path.join(SHARED_TDB_DIR, 'alzn_mey.tdb'),
    condition: {
      components: ['AL', 'ZN'],
      compositions: { AL: 0.7, ZN: 0.3 },
      start_temperature: 1000,
      temperature_step: 5,
    },
  },
  {
    name: 'Gibbs energy curves of Al-Zn at 600 K',
    type: 'gibbs_energy_curves',
    run: runCurves as Run,
    tdb: path.join(SHARED_TDB_DIR, 'alzn_mey.tdb'),
    condition: {
      components: ['AL', 'ZN'],
      temperature: 600,
      compositions_start: { ZN: 0 },
      compositions_end: { ZN: 1 },
      points: 41,
    },
  },
];

describe.each(CHARTS.map((c) => [c.name, c] as const))('texts of the %s preview', (_name, c) => {
  it('no text leaves the picture', () => {
    for (const svg of previews(c.type, c.run, c.tdb, c.condition)) {
      checkTextsFit(readPreview(svg));
    }
  }, 120_000);
});
