// The copied databases of the catalog with their recommended selections (databases/catalog.json), on the points a
// researcher computes first (databases/README.md "The copied databases"): 316L austenitic at 1300 K on the MatCalc
// steel database, an Al-Mg-Si alloy on the MatCalc aluminium database, Fe-0.4C on MF Steel, and what each selection
// changes. The files are read from ../shared/tdb, of which the bundled ones are unchanged copies (catalog.test.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DatabasePhaseSelection } from '../../contract/phase-selection.js';
import type { PointCalculationResult } from '../../contract/results/point_calculation.js';
import { run } from '../../worker/calculations/point_calculation.js';
import { JobControl } from '../../worker/protocol.js';
import { parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const catalog = JSON.parse(readFileSync(path.resolve(__dirname, '../../databases/catalog.json'), 'utf8')) as {
  code: string;
  file: string;
  phase_selection?: DatabasePhaseSelection;
}[];
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-bundled-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

/** A point on a catalog database, with its recommended selection (or none), compositions in mass fractions. */
function point(code: string, T: number, w: Record<string, number>, recommended = true): PointCalculationResult {
  const entry = catalog.find((e) => e.code === code)!;
  const dir = path.join(tmp, `p${n++}`);
  const job = parsedJob('point_calculation', {
    taskUuid: 'b',
    ompThreads: 2,
    taskDir: dir,
    control: new SharedArrayBuffer(128),
    database: { code, sha256: 'abc', phase_selection: recommended ? (entry.phase_selection ?? null) : null },
    config: {
      tdb_file: path.join(SHARED_TDB_DIR, path.basename(entry.file)),
      condition: {
        components: Object.keys(w),
        temperature: T,
        pressure: 101325,
        compositions: w,
        composition_unit: 'mass_fraction',
      },
    },
  });
  run(job, new JobControl(job.control));
  return JSON.parse(readFileSync(path.join(dir, 'result', 'result.json'), 'utf8')) as PointCalculationResult;
}
const phasesOf = (r: PointCalculationResult) => r.point.phases.map((p) => p.name).sort();

describe('a researcher on day one', () => {
  it('316L (Fe-17Cr-12Ni-2.5Mo-2Mn-0.5Si-0.03C) at 1300 K is austenite alone on MC_FE_V2.059', () => {
    const r = point('MC_FE_V2.059', 1300, {
      FE: 0.6597,
      CR: 0.17,
      NI: 0.12,
      MO: 0.025,
      MN: 0.02,
      SI: 0.005,
      C: 0.0003,
    });
    expect(r.point.converged).toBe(true);
    expect(phasesOf(r)).toEqual(['FCC_A1']);
    expect(r.phase_selection.source).toBe('database');
    expect(r.phase_selection.removed).toEqual(expect.arrayContaining(['BCC_DISL', 'H_BCC', 'EPS_CARB']));
  }, 120_000);

  it('Al-1Mg-0.6Si at 800 K is (Al) + Mg2Si on MC_AL_V2.032; without the selection the matrix is named GP_MAT', () => {
    const w = { AL: 0.984, MG: 0.01, SI: 0.006 };
    const r = point('MC_AL_V2.032', 800, w);
    expect(phasesOf(r)).toEqual(['FCC_A1', 'MG2SI_B']);
    expect(r.phase_selection.removed).toEqual(expect.arrayContaining(['GP_MAT', 'FCCAL', 'BETA_DP']));
    const bare = point('MC_AL_V2.032', 800, w, false);
    expect(phasesOf(bare)).toEqual(['GP_MAT', 'MG2SI_B']);
    // nearly the same equilibrium: the GP-zone phase in its disordered state is the FCC matrix
    const mg2si = (x: PointCalculationResult) => x.point.phases.find((p) => p.name === 'MG2SI_B')!.amount;
    expect(mg2si(r)).toBeCloseTo(mg2si(bare), 5);
  }, 300_000);

  it('Fe-0.4C at 1000 K is ferrite + graphite on MF_STEEL; without the selection the disordered ferrite takes the name of its ordered family’s simplest member, BCC_B2', () => {
    expect(phasesOf(point('MF_STEEL', 1000, { FE: 0.996, C: 0.004 }))).toEqual(['BCC_A2', 'GRAPHITE_A9']);
    expect(phasesOf(point('MF_STEEL', 1000, { FE: 0.996, C: 0.004 }, false))).toEqual(['BCC_B2', 'GRAPHITE_A9']);
  }, 120_000);

  it('an Al-Mg-Si alloy on COST507 (no phase suppressed beyond the file defaults)', () => {
    const r = point('COST507', 800, { AL: 0.984, MG: 0.01, SI: 0.006 });
    expect(r.point.converged).toBe(true);
    expect(phasesOf(r)).toContain('FCC_A1');
    expect(r.phase_selection).toEqual({ source: 'database', inhibit_phases: [], removed: [] });
  }, 120_000);
});
