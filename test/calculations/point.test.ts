// point_calculation (worker/calculations/point_calculation.ts): files and result.json contract,
// independent checks of the written point (mass balance, lever rule against the table, same answer
// as a direct solver call), activated phases, composition input forms and clear input errors.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveCompositions } from '../../worker/system/system.js';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { JobControl, type CalculationJob } from '../../worker/protocol.js';
import { PREVIEW_METASTABLE_ROWS, pointPreview, run } from '../../worker/calculations/point_calculation.js';
import type { PointCalculationResult } from '../../contract/results/point_calculation.js';
import { GAS_CONSTANT } from '../../contract/results/common.js';
import { parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const ALZN = path.join(SHARED_TDB_DIR, 'alzn_mey.tdb');
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-point-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

function job(condition: Record<string, unknown>, tdb = ALZN) {
  return parsedJob('point_calculation', {
    taskUuid: 'p',
    ompThreads: 1,
    taskDir: path.join(tmp, `t${n++}`),
    control: new SharedArrayBuffer(16),
    database: { code: 'ALZN', sha256: 'abc' },
    config: {
      task_type: 'point_calculation',
      tdb_code: 'ALZN',
      tdb_file: tdb,
      condition: {
        components: ['AL', 'ZN'],
        pressure: 101325,
        temperature: 600,
        compositions: { ZN: 0.4 },
        ...condition,
      },
    },
  });
}
const ctl = () => new JobControl(new SharedArrayBuffer(16));
const read = (j: CalculationJob) =>
  JSON.parse(readFileSync(path.join(j.taskDir, 'result', 'result.json'), 'utf8')) as PointCalculationResult;

describe('point_calculation', () => {
  it('writes result.json, result.csv and the phase-table preview; the point is self-consistent', () => {
    const j = job({});
    const out = run(j, ctl());
    expect(out.summary).toBe('FCC_A1 + FCC_A1#2 at 600 K (converged)');
    for (const f of ['result/result.json', 'result/result.csv', 'preview/point.svg', 'preview/point.png']) {
      expect(existsSync(path.join(j.taskDir, f)), f).toBe(true);
    }
    const doc = read(j);
    expect(doc).toMatchObject({
      version: 1,
      task_type: 'point_calculation',
      provenance: { database: { code: 'ALZN', sha256: 'abc', file_name: 'alzn_mey.tdb' } },
    });
    expect((doc.config as { tdb_file: string }).tdb_file).toBe('alzn_mey.tdb');
    const p = doc.point;
    expect(p.converged).toBe(true);
    expect(p.phases.map((q) => [q.name, q.composition_set])).toEqual([
      ['FCC_A1', 1],
      ['FCC_A1', 2],
    ]);
    // mass balance: sum NP * x(phase) = x overall; amounts sum to 1
    for (const el of ['AL', 'ZN']) {
      expect(p.phases.reduce((a, q) => a + q.amount * q.x[el], 0)).toBeCloseTo(p.x[el], 10);
    }
    expect(p.phases.reduce((a, q) => a + q.amount, 0)).toBeCloseTo(1, 10);
    // stable sets lie on the tangent plane: GM(phase) = sum mu x(phase)
    for (const q of p.phases) expect(q.GM).toBeCloseTo(p.MU.AL * q.x.AL + p.MU.ZN * q.x.ZN, 4);
    // the same answer as a direct solver call
    const r = equilibrium({
      database: openDatabase(ALZN),
      components: ['AL', 'ZN', 'VA'],
      conditions: { T: 600, P: 101325, X: { ZN: 0.4 } },
    });
    expect(p.GM).toBeCloseTo(r.GM, 8);
    // default table: one row; columns in the documented order, values equal to the point
    const row = Object.fromEntries(doc.table.columns.map((c, i) => [c.name, doc.table.rows[0][i]]));
    expect(doc.table.rows).toHaveLength(1);
    expect(row).toMatchObject({
      T: 600,
      P: 101325,
      phase_name: 'FCC_A1+FCC_A1#2',
      converged: 1,
      'NP(FCC_A1#2)': p.phases[1].amount,
    });
    expect(row['ac(ZN)']).toBeCloseTo(Math.exp(p.MU.ZN / (GAS_CONSTANT * 600)), 12);
    expect(row.Cp).toBe(p.Cp_equilibrium);
    // in a two-phase field the equilibrium Cp exceeds the frozen one (phase amounts shift with T)
    expect(p.Cp_equilibrium!).toBeGreaterThan(p.CPM);
    const csv = readFileSync(path.join(j.taskDir, 'result', 'result.csv'), 'utf8').split('\r\n');
    expect(csv[0]).toMatch(
      /^T \[K\],P \[Pa\],x\(AL\) \[-\],x\(ZN\) \[-\],phase_name,converged,NP\(FCC_A1\) \[mol\/mol\]/,
    );
    expect(readFileSync(path.join(j.taskDir, 'preview', 'point.svg'), 'utf8')).toContain('FCC_A1#2');
  });

  it('honours activated_phases, the output selection and the all-components composition form', () => {
    const j = job({
      temperature: 900,
      compositions: { AL: 0.6, ZN: 0.4 },
      activated_phases: ['LIQUID', 'HCP_A3'],
      outputs_list_template: ['phase_name', 'T'],
      thermo_outputs: ['T', 'x(LIQUID,ZN)', 'DF(HCP_A3)'],
    });
    const out = run(j, ctl());
    expect(out.summary).toBe('LIQUID at 900 K (converged)');
    const doc = read(j);
    // T, P and the composition lead; the outputs asked for follow in their order
    expect(doc.table.columns.map((c) => c.name)).toEqual([
      'T',
      'P',
      'x(AL)',
      'x(ZN)',
      'phase_name',
      'x(LIQUID,ZN)',
      'DF(HCP_A3)',
    ]);
    expect(doc.table.rows[0][5]).toBeCloseTo(0.4, 10);
    expect(doc.table.rows[0][6] as number).toBeLessThan(0);
    expect(doc.point.metastable.map((m) => m.name)).toEqual(['HCP_A3']);
  });

  it('refuses bad input with a message naming the field', () => {
    // refused by the task type's schema before the calculation sees it (as POST /task refuses it)
    expect(() => job({ compositions: { AL: 0.5, ZN: 0.4 } })).toThrow(/must sum to 1 \(they sum to 0.9\)/);
    expect(() => job({ compositions: { CU: 0.1 } })).toThrow(/is not one of condition.components \(AL, ZN\)/);
    expect(() => run(job({ components: ['AL', 'FE'], compositions: { FE: 0.4 } }), ctl())).toThrow(
      /condition.components: FE is not an element of alzn_mey.tdb/,
    );
    expect(() => run(job({ activated_phases: ['NOPE'] }), ctl())).toThrow(/activated_phases: NOPE not defined/);
    expect(() => run(job({ thermo_outputs: ['NP(BCC_A2)'] }), ctl())).toThrow(/NP\(BCC_A2\).*BCC_A2 is not a phase/);
    const c = ctl();
    c.cancel();
    expect(() => run(job({}), c)).toThrow(/cancelled/);
  });

  it('compositions: all-but-one or all summing to 1, one dependent element for several maps', () => {
    expect(resolveCompositions(['AL', 'CR', 'NI'], [{ field: 'c', value: { AL: 0.1, CR: 0.2 } }])).toEqual({
      dependent: 'NI',
      X: [{ AL: 0.1, CR: 0.2 }],
      full: [{ AL: 0.1, CR: 0.2, NI: 0.7 }],
    });
    const all = resolveCompositions(
      ['AL', 'CR', 'NI'],
      [
        { field: 'a', value: { al: 0.1, cr: 0.2, ni: 0.7 } },
        { field: 'b', value: { AL: 0.3, CR: 0.2 } },
      ],
    );
    expect(all.dependent).toBe('NI');
    expect(all.X).toEqual([
      { AL: 0.1, CR: 0.2 },
      { AL: 0.3, CR: 0.2 },
    ]);
    expect(() => resolveCompositions(['AL', 'CR', 'NI'], [{ field: 'c', value: { AL: 0.1 } }])).toThrow(
      /all components or of all but one/,
    );
    expect(() =>
      resolveCompositions(
        ['AL', 'CR', 'NI'],
        [
          { field: 'a', value: { AL: 0.1, CR: 0.1 } },
          { field: 'b', value: { AL: 0.1, NI: 0.1 } },
        ],
      ),
    ).toThrow(/leave out the same one/);
  });
});

describe('the phase-table preview', () => {
  it('lists the metastable phases nearest to stability and counts the rest (result.json holds them all)', () => {
    const metastable = Array.from({ length: PREVIEW_METASTABLE_ROWS + 7 }, (_, i) => ({
      name: `PHASE_${String(i).padStart(2, '0')}`,
      driving_force: -100 * (i + 1),
      x: { AL: 0.5, ZN: 0.5 },
      GM: -20000,
    })).reverse();
    const point = {
      T: 600,
      P: 101325,
      x: { AL: 0.6, ZN: 0.4 },
      converged: true,
      reason: '',
      GM: -21000,
      HM: 0,
      SM: 0,
      CPM: 0,
      MU: { AL: -20000, ZN: -23000 },
      phases: [{ name: 'FCC_A1', amount: 1, x: { AL: 0.6, ZN: 0.4 }, GM: -21000 }],
      metastable,
    } as unknown as Parameters<typeof pointPreview>[0];
    const svg = pointPreview(point, ['AL', 'ZN'], 'many phases');
    const listed = metastable.filter((m) => new RegExp(`>${m.name}<`).test(svg)).map((m) => m.name);
    expect(listed).toHaveLength(PREVIEW_METASTABLE_ROWS);
    // the nearest to stability are the ones listed
    expect(listed).toContain('PHASE_00');
    expect(listed).not.toContain(`PHASE_${PREVIEW_METASTABLE_ROWS}`);
    expect(svg).toContain('7 more');
    expect(svg).toContain('FCC_A1');
  });
});
