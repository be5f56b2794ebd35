// gibbs_energy_curves (worker/calculations/gibbs_energy_curves.ts): every phase's GM against composition and the
// stable common tangents, checked against the closed forms of the test databases (test/validation/tdb): the
// ideal lens (two ideal solutions: GM and the tangent points in closed form), the ideal eutectic (pure solids as
// fixed-composition points), and an Al-Zn isotherm against independent single-phase equilibria.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobControl, type CalculationJob } from '../../worker/protocol.js';
import { run } from '../../worker/calculations/gibbs_energy_curves.js';
import type { GibbsEnergyCurvesDocument } from '../../contract/results/gibbs_energy_curves.js';
import { GAS_CONSTANT as R } from '../../contract/results/common.js';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { validateTaskConfig } from '../../main/requests/task-config.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { parsedJob } from '../support/jobs.js';

const LENS = path.join(__dirname, '../validation/tdb/lens_ideal.tdb');
const EUT = path.join(__dirname, '../validation/tdb/eutectic_ideal.tdb');
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-gcurves-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

function job(condition: Record<string, unknown>, tdb = LENS) {
  return parsedJob('gibbs_energy_curves', {
    taskUuid: 'g',
    ompThreads: 1,
    taskDir: path.join(tmp, `t${n++}`),
    control: new SharedArrayBuffer(16),
    database: { code: 'T', sha256: 'abc' },
    config: {
      tdb_file: tdb,
      condition: {
        components: ['A', 'B'],
        temperature: 1250,
        pressure: 101325,
        compositions_start: { B: 0 },
        compositions_end: { B: 1 },
        points: 51,
        activated_phases: ['LIQUID', 'SOLID'],
        ...condition,
      },
    },
  });
}
const ctl = () => new JobControl(new SharedArrayBuffer(16));
const read = (j: CalculationJob) =>
  JSON.parse(readFileSync(path.join(j.taskDir, 'result', 'result.json'), 'utf8')) as GibbsEnergyCurvesDocument;
const mix = (x: number) => (x <= 0 || x >= 1 ? 0 : x * Math.log(x) + (1 - x) * Math.log(1 - x));

describe('gibbs_energy_curves', () => {
  it('ideal lens: GM of each phase in closed form, one common tangent touching at the lens compositions', () => {
    const T = 1250;
    const j = job({});
    const out = run(j, ctl());
    for (const f of [
      'result/result.json',
      'result/result.csv',
      'preview/gibbs_energy_curves.svg',
      'preview/gibbs_energy_curves.png',
    ]) {
      expect(existsSync(path.join(j.taskDir, f)), f).toBe(true);
    }
    const doc = read(j);
    expect(doc.axis.variable).toBe('X(B)');
    const liq = doc.curves.find((c) => c.name === 'LIQUID')!,
      sol = doc.curves.find((c) => c.name === 'SOLID')!;
    doc.compositions.forEach((x, i) => {
      const xb = x.B!;
      if (xb < 1e-6 || xb > 1 - 1e-6) return; // the solver clamps the ends at 1e-10
      expect(sol.GM[i]!).toBeCloseTo(R * T * mix(xb), 5);
      expect(liq.GM[i]!).toBeCloseTo((1 - xb) * (10000 - 10 * T) + xb * (15000 - 10 * T) + R * T * mix(xb), 5);
    });
    // tangent points: x_i^S / x_i^L = exp(G(LIQUID,i)/RT)
    const eA = Math.exp((10000 - 10 * T) / (R * T)),
      eB = Math.exp((15000 - 10 * T) / (R * T));
    const xBL = (1 - eA) / (eB - eA),
      xBS = eB * xBL;
    expect(doc.tangents).toHaveLength(1);
    const t = doc.tangents[0]!;
    expect(t.phases).toEqual(['LIQUID', 'SOLID']);
    const pt = Object.fromEntries(t.points.map((p) => [p.phase, p]));
    expect(pt.LIQUID!.x.B).toBeCloseTo(xBL, 7);
    expect(pt.SOLID!.x.B).toBeCloseTo(xBS, 7);
    expect(pt.SOLID!.axis_value!).toBeCloseTo(xBS, 7);
    // the tangent line through both points: MU_A (1-x) + MU_B x = GM at each touching point
    for (const p of t.points) expect((1 - p.x.B!) * t.mu.A! + p.x.B! * t.mu.B!).toBeCloseTo(p.GM, 5);
    expect(t.mu.A!).toBeCloseTo(R * T * Math.log(1 - xBS), 5);
    // the equilibrium envelope is never above either curve
    doc.equilibrium.GM.forEach((g, i) => {
      for (const c of [liq, sol]) if (c.GM[i] !== null) expect(g!).toBeLessThanOrEqual(c.GM[i]! + 1e-6);
    });
    // reference states: the ELEMENT lines name SOLID, whose pure GM is 0
    expect(doc.reference_states).toEqual({ A: 'SOLID', B: 'SOLID' });
    expect(liq.GM_formation[25]).toBeCloseTo(liq.GM[25]!, 8);
    expect(out.summary).toContain('1 common tangent: LIQUID + SOLID');
    const csv = readFileSync(path.join(j.taskDir, 'result', 'result.csv'), 'utf8');
    expect(csv.split('\r\n')[0]).toContain('GM(LIQUID) [J/mol]');
  });

  it('ideal eutectic: pure solids are single points; the tangents touch them and the liquid', () => {
    const T = 700;
    const j = job({ temperature: T, activated_phases: undefined, components: ['A', 'B'] }, EUT);
    run(j, ctl());
    const doc = read(j);
    const alpha = doc.curves.find((c) => c.name === 'ALPHA')!;
    expect(alpha.compound).toMatchObject({ s: 0, GM: 0 });
    expect(alpha.GM.every((g) => g === null)).toBe(true);
    // below the eutectic (762.50 K: x_A^L + x_B^L = 1 with x_i^L = exp(-G(LIQUID,i)/RT)): the ALPHA + BETA tangent is GM = 0
    const phases = doc.tangents.map((t) => t.phases.join('+'));
    expect(phases).toContain('ALPHA+BETA');
    const ab = doc.tangents.find((t) => t.phases.join('+') === 'ALPHA+BETA')!;
    expect(ab.mu.A!).toBeCloseTo(0, 4);
    expect(ab.mu.B!).toBeCloseTo(0, 4);
    // liquid curve: ideal with G(LIQUID,A) = 10000 - 10T, G(LIQUID,B) = 15000 - 10T
    const liq = doc.curves.find((c) => c.name === 'LIQUID')!;
    expect(liq.GM[25]!).toBeCloseTo(0.5 * (10000 - 10 * T) + 0.5 * (15000 - 10 * T) + R * T * Math.log(0.5), 5);
  });

  it('Al-Zn at 550 K: each curve equals an independent single-phase equilibrium; the FCC gap tangent is found', () => {
    const tdb = path.join(SHARED_TDB_DIR, 'alzn_mey.tdb');
    const j = job(
      {
        components: ['AL', 'ZN'],
        temperature: 550,
        compositions_start: { ZN: 0 },
        compositions_end: { ZN: 1 },
        points: 41,
        activated_phases: ['FCC_A1', 'HCP_A3', 'LIQUID'],
      },
      tdb,
    );
    run(j, ctl());
    const doc = read(j);
    const db = openDatabase(tdb);
    const fcc = doc.curves.find((c) => c.name === 'FCC_A1')!;
    for (const i of [5, 20, 30]) {
      const r = equilibrium({
        database: db,
        components: ['AL', 'ZN', 'VA'],
        phases: ['FCC_A1'],
        conditions: { T: 550, P: 101325, X: { ZN: doc.compositions[i]!.ZN! } },
        options: { singleSet: true },
      });
      expect(fcc.GM[i]!).toBeCloseTo(r.GM, 6);
    }
    expect(doc.tangents.some((t) => t.phases.join('+') === 'FCC_A1+FCC_A1#2' || t.phases.includes('HCP_A3'))).toBe(
      true,
    );
  });

  it('the API schema accepts the type and refuses a line of zero length, naming the field', () => {
    const base = {
      task_type: 'gibbs_energy_curves',
      tdb_code: 'X',
      condition: {
        components: ['A', 'B'],
        temperature: 1000,
        pressure: 101325,
        compositions_start: { B: 0 },
        compositions_end: { B: 1 },
      },
    };
    expect(validateTaskConfig('gibbs_energy_curves', base).ok).toBe(true);
    const bad = validateTaskConfig('gibbs_energy_curves', {
      ...base,
      condition: { ...base.condition, compositions_end: { B: 0 } },
    });
    expect(bad).toMatchObject({
      ok: false,
      error: expect.stringContaining('task_config.condition.compositions_end: must differ'),
    });
    const unit = validateTaskConfig('gibbs_energy_curves', {
      ...base,
      condition: { ...base.condition, composition_unit: 'wt%' },
    });
    expect(unit).toMatchObject({
      ok: false,
      error: expect.stringContaining(
        'task_config.condition.composition_unit: must be one of: mole_fraction, mass_fraction',
      ),
    });
  });
});
