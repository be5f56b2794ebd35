// equilibrium_batch: each row is the point calculation of that row (same phases, amounts, compositions and energies
// within the solver's tolerance), a row that does not converge or cannot be computed is a row of the result with its
// status and reason, a cancel keeps the rows done, and the merged CSV holds the columns of every row.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { validateTaskConfig } from '../../main/requests/task-config.js';
import { loadCalculation } from '../../worker/index.js';
import { CancelledError, CONTROL_BYTES, JobControl } from '../../worker/protocol.js';
import type { BatchRowRecord, EquilibriumBatchResult } from '../../contract/results/equilibrium_batch.js';
import type { LineCalculationResult } from '../../contract/results/line_calculation.js';
import type { PointCalculationResult } from '../../contract/results/point_calculation.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import type { ResultTable } from '../../contract/results/common.js';
import { buildTable } from '../../contract/results/outputs/columns.js';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { PointConverter, pointWithCp, POINT_DERIVATIVES } from '../../worker/system/point-converter.js';

const ALZN = path.join(SHARED_TDB_DIR, 'alzn_mey.tdb');
const CUMG = path.join(SHARED_TDB_DIR, 'cumg.tdb');
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-batch-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let runs = 0;
/** Runs a task_config of the type as the worker does (validated first); returns the task folder. */
async function calculate(
  taskType: string,
  tdb: string,
  config: Record<string, unknown>,
  control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES)),
  threads = 1,
): Promise<string> {
  const v = validateTaskConfig(taskType, { task_type: taskType, tdb_code: 'TEST', ...config });
  if (!v.ok) throw new Error(v.error);
  const dir = path.join(tmp, `run-${++runs}`);
  const job = { taskUuid: dir, taskType, config: { ...v.value, tdb_file: tdb }, ompThreads: threads, taskDir: dir };
  await (await loadCalculation(taskType))!({ ...job, control: control.buffer }, control);
  return dir;
}

const readJson = <T>(dir: string) => JSON.parse(readFileSync(path.join(dir, 'result', 'result.json'), 'utf8')) as T;
const readRows = (dir: string) =>
  readFileSync(path.join(dir, 'result', 'rows.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as BatchRowRecord);

/** The row's values are the table's (one row): text equal, fractions to 1e-6, energies to 1e-3 J/mol. */
/** The state columns a point table begins with (T, P, overall x): a batch row carries them as its input. */
const STATE_COLUMNS = new Set(['T', 'P', 'x(AL)', 'x(ZN)']);

function expectSameRow(r: BatchRowRecord, table: ResultTable) {
  const at = (name: string) => table.rows[0]![table.columns.findIndex((c) => c.name === name)];
  if (table.columns.some((c) => c.name === 'T')) {
    expect(at('T')).toBeCloseTo(r.input.T, 9);
    expect(at('x(ZN)')).toBeCloseTo(r.input.x.ZN!, 9);
  }
  const compared = table.columns.filter((c) => !STATE_COLUMNS.has(c.name));
  expect(Object.keys(r.values!).sort()).toEqual(compared.map((c) => c.name).sort());
  compared.forEach((c) => {
    const want = at(c.name);
    const got = r.values![c.name];
    if (typeof want === 'number') expect(got, `row ${r.row} ${c.name}`).toBeCloseTo(want, Math.abs(want) > 100 ? 3 : 6);
    else expect(got, `row ${r.row} ${c.name}`).toEqual(want);
  });
}

/** The point calculation of an Al-Zn row's input (and further conditions). */
async function alznPointOf(r: BatchRowRecord, extra: Record<string, unknown> = {}): Promise<PointCalculationResult> {
  const condition = {
    components: ['AL', 'ZN'],
    pressure: 101325,
    temperature: r.input.T,
    compositions: { ZN: r.input.x.ZN },
    ...extra,
  };
  return readJson<PointCalculationResult>(await calculate('point_calculation', ALZN, { condition }));
}

const OUTPUTS = ['phase_name', 'NP(*)', 'x(*,*)', 'G', 'H', 'S', 'Cp', 'mu(*)'];

describe('equilibrium_batch', () => {
  it('1,000 rows (40 Al-Zn alloys x 25 temperatures) agree row for row with point calculations', async () => {
    const compositions = Array.from({ length: 40 }, (_, i) => ({ ZN: Number((0.02 + 0.0235 * i).toFixed(4)) }));
    const temperatures = Array.from({ length: 25 }, (_, i) => 450 + 19 * i);
    const dir = await calculate(
      'equilibrium_batch',
      ALZN,
      {
        condition: {
          components: ['AL', 'ZN'],
          pressure: 101325,
          product: { compositions, temperatures },
          thermo_outputs: OUTPUTS,
        },
      },
      undefined,
      2,
    );
    const doc = readJson<EquilibriumBatchResult>(dir);
    expect(doc.complete).toBe(true);
    expect(doc.counts).toEqual({ rows: 1000, done: 1000, ok: 1000, not_converged: 0, failed: 0 });
    const rows = readRows(dir);
    expect(rows.map((r) => r.row)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    // result.xlsx: the same table as a worksheet, the header then one row per batch row, numbers as numbers
    expect(doc.files.xlsx).toBe('result/result.xlsx');
    const xlsx = unzipSync(readFileSync(path.join(dir, 'result', 'result.xlsx')));
    const sheet = strFromU8(xlsx['xl/worksheets/sheet1.xml']!);
    expect(sheet.match(/<row /g)).toHaveLength(1001);
    expect(strFromU8(xlsx['xl/sharedStrings.xml']!)).toContain('input_x(ZN) [mol/mol]');
    expect(sheet).toContain(`<v>${rows[999]!.input.T}</v>`);
    // every row against one cold equilibrium made into a point and outputs as the point calculation does
    const sys = { db: openDatabase(ALZN), components: ['AL', 'ZN', 'VA'] };
    const conv = new PointConverter(sys.db, sys.components);
    for (const r of rows) {
      const cold = equilibrium({
        database: sys.db,
        components: sys.components,
        conditions: { T: r.input.T, P: 101325, X: { ZN: r.input.x.ZN! } },
        options: { derivatives: POINT_DERIVATIVES },
      });
      const table = buildTable([pointWithCp(conv, cold)], OUTPUTS, { components: ['AL', 'ZN'] });
      expectSameRow(r, table);
    }
    // every 23rd row against the point calculation task itself (each also runs its liquidus search)
    for (const r of rows.filter((_, i) => i % 23 === 0)) {
      const point = await calculate('point_calculation', ALZN, {
        condition: {
          components: ['AL', 'ZN'],
          pressure: 101325,
          temperature: r.input.T,
          compositions: { ZN: r.input.x.ZN },
          thermo_outputs: OUTPUTS,
        },
      });
      expectSameRow(r, readJson<PointCalculationResult>(point).table);
    }
  }, 120_000);
});

describe('equilibrium_batch rows that are not ok', () => {
  it('a row the allowed phases cannot reach is not_converged with the reason; the others are ok', async () => {
    const dir = await calculate('equilibrium_batch', CUMG, {
      condition: {
        components: ['CU', 'MG'],
        pressure: 101325,
        activated_phases: ['CUMG2'],
        rows: [
          { compositions: { MG: 2 / 3 }, temperature: 600 },
          { compositions: { MG: 0.3 }, temperature: 600, label: 'outside' },
          { compositions: { CU: 1 / 3, MG: 2 / 3 }, temperature: 700 },
        ],
        thermo_outputs: ['phase_name', 'NP(*)'],
      },
    });
    const doc = readJson<EquilibriumBatchResult>(dir);
    expect(doc.counts).toEqual({ rows: 3, done: 3, ok: 2, not_converged: 1, failed: 0 });
    const rows = readRows(dir);
    expect(rows.map((r) => r.status)).toEqual(['ok', 'not_converged', 'ok']);
    expect(rows[1]!.label).toBe('outside');
    expect(rows[1]!.reason).toMatch(/cannot be reached with the allowed phases/);
    expect(rows[0]!.values!['NP(CUMG2)']).toBeCloseTo(1, 9);
    const csv = readFileSync(path.join(dir, 'result', 'result.csv'), 'utf8').split('\r\n');
    expect(csv[0]).toBe(
      'row,label,status,reason,input_T [K],input_P [Pa],input_x(CU) [mol/mol],input_x(MG) [mol/mol],phase_name,NP(CUMG2) [mol/mol]',
    );
    expect(csv[2]).toMatch(/^2,outside,not_converged,"the conditions cannot be reached/);
  });

  it('rows that cannot be computed are failed with the reason, and the task still completes', async () => {
    // a copy of the database where ZN has no molar mass: mass fractions cannot be converted
    const tdb = path.join(tmp, 'alzn-no-zn-mass.tdb');
    writeFileSync(tdb, readFileSync(ALZN, 'utf8').replace(/^(\s*ELEMENT\s+ZN\s+\S+\s+)[0-9.E+]+/im, '$10.0'));
    const dir = await calculate('equilibrium_batch', tdb, {
      condition: {
        components: ['AL', 'ZN'],
        pressure: 101325,
        composition_unit: 'mass_fraction',
        product: { compositions: [{ ZN: 0.1 }, { ZN: 0.2 }], temperatures: [600, 700] },
      },
    });
    const doc = readJson<EquilibriumBatchResult>(dir);
    expect(doc.complete).toBe(true);
    expect(doc.counts).toMatchObject({ rows: 4, done: 4, ok: 0, failed: 4 });
    const rows = readRows(dir);
    expect(rows[0]!.status).toBe('failed');
    expect(rows[0]!.reason).toMatch(/ZN/);
    expect(rows[0]!.values).toBeUndefined();
  });
});

describe('equilibrium_batch cancel', () => {
  it('a cancel keeps the rows done: the files hold them and result.json says complete: false', async () => {
    // the cancel is raised when the first chunk's progress is reported
    class CancelAfterFirstChunk extends JobControl {
      override setProgress(p: number) {
        super.setProgress(p);
        if (p > 0) this.cancel();
      }
    }
    const control = new CancelAfterFirstChunk(new SharedArrayBuffer(CONTROL_BYTES));
    const compositions = Array.from({ length: 50 }, (_, i) => ({ ZN: 0.01 + 0.018 * i }));
    const config = {
      condition: {
        components: ['AL', 'ZN'],
        pressure: 101325,
        product: { compositions, temperatures: [500, 600, 700, 800] },
      },
    };
    const stopped = calculate('equilibrium_batch', ALZN, config, control);
    await expect(stopped).rejects.toBeInstanceOf(CancelledError);
    // the error carries what the task keeps: the service records the files on the aborted task
    expect(((await stopped.catch((e: unknown) => e)) as CancelledError).kept?.summary).toMatch(
      /^stopped after \d+ of 200 row\(s\): \d+ ok, 0 not converged, 0 failed$/,
    );
    const dir = path.join(tmp, `run-${runs}`);
    const doc = readJson<EquilibriumBatchResult>(dir);
    expect(doc.complete).toBe(false);
    expect(doc.counts.rows).toBe(200);
    expect(doc.counts.done).toBeGreaterThan(0);
    expect(doc.counts.done).toBeLessThan(200);
    expect(readRows(dir)).toHaveLength(doc.counts.done);
    const csv = readFileSync(path.join(dir, 'result', 'result.csv'), 'utf8')
      .trim()
      .split('\r\n');
    expect(csv).toHaveLength(doc.counts.done + 1);
  });
});

describe('equilibrium_batch sources and alloy temperatures', () => {
  it('a CSV table in mass percent gives the rows the same alloys give as a list in mass fractions', async () => {
    const outputs = ['phase_name', 'NP(*)', 'w(*)', 'G'];
    const csv = 'label,ZN,T\r\nlow,5,600\r\n"high, hot",40.5,800\r\n';
    const table = await calculate('equilibrium_batch', ALZN, {
      condition: {
        components: ['AL', 'ZN'],
        pressure: 101325,
        table: { csv, unit: 'mass_percent' },
        thermo_outputs: outputs,
      },
    });
    const list = await calculate('equilibrium_batch', ALZN, {
      condition: {
        components: ['AL', 'ZN'],
        pressure: 101325,
        composition_unit: 'mass_fraction',
        rows: [
          { compositions: { ZN: 0.05 }, temperature: 600, label: 'low' },
          { compositions: { ZN: 0.405 }, temperature: 800, label: 'high, hot' },
        ],
        thermo_outputs: outputs,
      },
    });
    const a = readRows(table),
      b = readRows(list);
    expect(a).toHaveLength(2);
    expect(a.map((r) => r.label)).toEqual(['low', 'high, hot']);
    a.forEach((r, i) => {
      expect(r.values!['w(ZN)']).toBeCloseTo(i === 0 ? 0.05 : 0.405, 9);
      expect(r.values).toEqual(b[i]!.values);
    });
    // no T column: every record at every temperature of table.temperatures
    const product = await calculate('equilibrium_batch', ALZN, {
      condition: {
        components: ['AL', 'ZN'],
        pressure: 101325,
        table: { csv: 'ZN\n0.1\n0.2\n', temperatures: [500, 900] },
      },
    });
    expect(readRows(product).map((r) => [r.input.T, r.input.x.ZN])).toEqual([
      [500, 0.1],
      [900, 0.1],
      [500, 0.2],
      [900, 0.2],
    ]);
  });

  it("T_liquidus and T_solidus are the point calculation's, searched once per alloy", async () => {
    const dir = await calculate('equilibrium_batch', ALZN, {
      condition: {
        components: ['AL', 'ZN'],
        pressure: 101325,
        product: { compositions: [{ ZN: 0.1 }, { ZN: 0.6 }], temperatures: [500, 700] },
        thermo_outputs: ['phase_name', 'T_liquidus', 'T_solidus'],
      },
    });
    const rows = readRows(dir);
    for (const r of rows) {
      const point = await alznPointOf(r);
      expect(r.values!.T_liquidus as number).toBeCloseTo(point.alloy_temperatures!.liquidus!, 2);
      expect(r.values!.T_solidus as number).toBeCloseTo(point.alloy_temperatures!.solidus!, 2);
    }
    expect(rows[0]!.values!.T_liquidus).toBe(rows[1]!.values!.T_liquidus);
  });

  it("a phase fixed at an amount: each row's T is the point calculation's, LIQUID at 0 the solidus, at 1 the liquidus", async () => {
    const batch = async (fixed: Record<string, number>) =>
      readRows(
        await calculate('equilibrium_batch', ALZN, {
          condition: {
            components: ['AL', 'ZN'],
            pressure: 101325,
            product: { compositions: [{ ZN: 0.1 }, { ZN: 0.6 }], temperatures: [500, 900] },
            fixed_phases: fixed,
            thermo_outputs: ['T', 'phase_name', 'NP(*)', 'T_liquidus', 'T_solidus'],
          },
        }),
      );
    const solidus = await batch({ LIQUID: 0 });
    expect(solidus.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    for (const r of solidus) {
      const point = await alznPointOf(r, { fixed_phases: { LIQUID: 0 } });
      expect(r.values!.T as number).toBeCloseTo(point.point.T, 6);
      expect(Math.abs((r.values!.T as number) - (r.values!.T_solidus as number))).toBeLessThan(0.01);
      expect(r.values!.phase_name as string).toContain('LIQUID');
    }
    const liquidus = await batch({ LIQUID: 1 });
    for (const r of liquidus)
      expect(Math.abs((r.values!.T as number) - (r.values!.T_liquidus as number))).toBeLessThan(0.01);
    // an amount no temperature reaches fails its rows with the reason; the task completes
    const none = await batch({ HCP_A3: 1 });
    expect(none.map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect(none[0]!.reason).toMatch(/^condition\.fixed_phases\.HCP_A3: HCP_A3 at amount 1: no such temperature/);
  });

  it("T_solvus(PHASE): the temperature nearest the row's at which the phase appears or disappears, as the line has it", async () => {
    const dir = await calculate('equilibrium_batch', ALZN, {
      condition: {
        components: ['AL', 'ZN'],
        pressure: 101325,
        rows: [
          { compositions: { ZN: 0.3 }, temperature: 450 },
          { compositions: { ZN: 0.05 }, temperature: 450 },
        ],
        thermo_outputs: ['T', 'phase_name', 'T_solvus(HCP_A3)'],
      },
    });
    const [alloy, dilute] = readRows(dir);
    const line = readJson<LineCalculationResult>(
      await calculate('line_calculation', ALZN, {
        condition: {
          components: ['AL', 'ZN'],
          pressure: 101325,
          temperature_start: 400,
          temperature_end: 700,
          points: 31,
          compositions_start: { ZN: 0.3 },
          compositions_end: { ZN: 0.3 },
        },
      }),
    );
    const hcp = line.transitions.filter((t) => [...t.appearing, ...t.disappearing].includes('HCP_A3'));
    expect(hcp.length).toBeGreaterThan(0);
    const nearest = hcp.map((t) => t.T).sort((a, b) => Math.abs(a - 450) - Math.abs(b - 450))[0]!;
    expect(Math.abs((alloy!.values!['T_solvus(HCP_A3)'] as number) - nearest)).toBeLessThan(0.02);
    // the point calculation gives the same column; a dilute alloy's solvus lies lower
    const point = await alznPointOf(alloy!, { thermo_outputs: ['T_solvus(HCP_A3)'] });
    const column = point.table.columns.findIndex((c) => c.name === 'T_solvus(HCP_A3)');
    expect(point.table.columns[column]!.unit).toBe('K');
    expect(point.table.rows[0]![column]).toBeCloseTo(alloy!.values!['T_solvus(HCP_A3)'] as number, 6);
    expect(dilute!.values!['T_solvus(HCP_A3)'] as number).toBeLessThan(nearest);
  });

  it('T0(PHASE1,PHASE2) where the two ideal solutions of one composition have equal G: 1000 + 500 x(B) K by hand', async () => {
    const LENS = path.join(__dirname, '../validation/tdb/lens_ideal.tdb');
    const condition = {
      components: ['A', 'B'],
      pressure: 101325,
      thermo_outputs: ['T0(LIQUID,SOLID)', 'T0(SOLID,REG)'],
    };
    const dir = await calculate('equilibrium_batch', LENS, {
      condition: { ...condition, product: { compositions: [{ B: 0.3 }, { B: 0.8 }], temperatures: [700, 1600] } },
    });
    const rows = readRows(dir);
    for (const r of rows) {
      // G(LIQUID) - G(SOLID) = (1 - x) (10000 - 10 T) + x (15000 - 10 T): ideal mixing is the same in both
      expect(Math.abs((r.values!['T0(LIQUID,SOLID)'] as number) - (1000 + 500 * r.input.x.B!))).toBeLessThan(0.01);
      // REG lies above SOLID at every positive T at these compositions: no T0
      expect(r.values!['T0(SOLID,REG)']).toBeNull();
    }
    const point = readJson<PointCalculationResult>(
      await calculate('point_calculation', LENS, {
        condition: { ...condition, temperature: 900, compositions: { B: 0.3 } },
      }),
    );
    const column = point.table.columns.findIndex((c) => c.name === 'T0(LIQUID,SOLID)');
    expect(Math.abs((point.table.rows[0]![column] as number) - 1150)).toBeLessThan(0.01);
  });

  it('T_scheil_end: the end of the Scheil path from the liquidus; an ideal eutectic ends at its eutectic', async () => {
    const EUT = path.join(__dirname, '../validation/tdb/eutectic_ideal.tdb');
    const R = 8.314462618;
    // ideal liquid, pure solids: x_i on the liquidus of solid i is exp(-(dH_i - 10 T) / RT); the eutectic where both sum to 1
    const xL = (dH: number, T: number) => Math.exp(-(dH - 10 * T) / (R * T));
    let lo = 300,
      hi = 1000;
    for (let k = 0; k < 100; k++) {
      const m = 0.5 * (lo + hi);
      if (xL(10000, m) + xL(15000, m) > 1) hi = m;
      else lo = m;
    }
    const TE = 0.5 * (lo + hi);
    const condition = {
      components: ['A', 'B'],
      pressure: 101325,
      activated_phases: ['LIQUID', 'ALPHA', 'BETA'],
      thermo_outputs: ['T_liquidus', 'T_scheil_end'],
    };
    const rows = readRows(
      await calculate('equilibrium_batch', EUT, {
        condition: { ...condition, product: { compositions: [{ B: 0.2 }, { B: 0.7 }], temperatures: [900, 1000] } },
      }),
    );
    for (const r of rows) expect(Math.abs((r.values!.T_scheil_end as number) - TE)).toBeLessThan(0.05);
    expect(rows[0]!.values!.T_scheil_end).toBe(rows[1]!.values!.T_scheil_end);
    // the same as a Scheil task of that alloy from 1 K above its liquidus in 1 K steps
    const liquidus = rows[0]!.values!.T_liquidus as number;
    const scheil = readJson<{ solidus_temperature: number }>(
      await calculate('scheil_solidification', EUT, {
        condition: {
          components: ['A', 'B'],
          pressure: 101325,
          activated_phases: ['LIQUID', 'ALPHA', 'BETA'],
          compositions: { B: 0.2 },
          start_temperature: Math.ceil(liquidus) + 1,
          temperature_step: 1,
        },
      }),
    );
    expect(rows[0]!.values!.T_scheil_end).toBeCloseTo(scheil.solidus_temperature, 9);
  });
});

describe('equilibrium_batch in an open system', () => {
  const CFE = path.join(SHARED_TDB_DIR, 'cfe_broshe.tdb');
  it('rows at a carbon activity against graphite are the point calculations at that activity', async () => {
    const common = { components: ['FE', 'C'], pressure: 101325, reference_states: { C: 'GRAPHITE' } };
    const outputs = ['phase_name', 'x(*)', 'acr(*)'];
    const dir = await calculate('equilibrium_batch', CFE, {
      condition: {
        ...common,
        activities: { C: 0.3 },
        product: { compositions: [{}], temperatures: [1100, 1250, 1400] },
        thermo_outputs: outputs,
      },
    });
    const rows = readRows(dir);
    expect(rows.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    for (const r of rows) {
      const point = await calculate('point_calculation', CFE, {
        condition: {
          ...common,
          temperature: r.input.T,
          compositions: {},
          activities: { C: 0.3 },
          thermo_outputs: outputs,
        },
      });
      const doc = readJson<PointCalculationResult>(point);
      expect(r.values!['x(C)']).toBeCloseTo(doc.point.x.C!, 9);
      expect(r.values!['acr(C)']).toBeCloseTo(0.3, 7);
      expect(r.values!.phase_name).toBe(
        doc.table.rows[0]![doc.table.columns.findIndex((c) => c.name === 'phase_name')],
      );
    }
    // more carbon dissolves in austenite at the same activity the hotter it is (Fe-C: the Acm line rises with T)
    expect(rows[2]!.values!['x(C)']).toBeGreaterThan(rows[0]!.values!['x(C)'] as number);
    // a row may not give the held element's fraction: a 400 naming it
    await expect(
      calculate('equilibrium_batch', CFE, {
        condition: { ...common, activities: { C: 0.3 }, rows: [{ compositions: { C: 0.01 }, temperature: 1200 }] },
      }),
    ).rejects.toThrow(/condition\.rows\.0\.compositions\.C: is not one of condition\.components \(FE\)/);
  });
});
