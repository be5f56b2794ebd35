// The quantities researchers ask for beyond the equilibrium (docs/calculations.md "Further quantities"), each
// checked against a hand calculation from the test databases' parameters (test/validation/tdb): composition
// units (mass fractions in and out), reference states (activities and chemical potentials against a chosen phase),
// formation energies, TC/BMAGN, molar volume, degree of ordering, and the liquidus/solidus of the alloy.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobControl, type CalculationJob } from '../../worker/protocol.js';
import { run as runPoint } from '../../worker/calculations/point_calculation.js';
import { run as runLine } from '../../worker/calculations/line_calculation.js';
import { run as runProperties } from '../../worker/calculations/thermodynamic_properties_next.js';
import type { LineCalculationResult } from '../../contract/results/line_calculation.js';
import type { PropertiesDocument } from '../../contract/results/thermodynamic_properties_next.js';
import { run as runScheil } from '../../worker/calculations/scheil_solidification.js';
import type { ScheilDocument } from '../../contract/results/scheil_solidification.js';
import type { PointCalculationResult } from '../../contract/results/point_calculation.js';
import { GAS_CONSTANT } from '../../contract/results/common.js';
import { massToMoleFractions, moleToMassFractions, massMapToMoleFractions } from '../../worker/system/units.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { parsedJob } from '../support/jobs.js';
import { validateTaskConfig } from '../../main/requests/task-config.js';
import type { TaskType } from '../../contract/tasks/registry.js';

const LENS = path.join(__dirname, '../validation/tdb/lens_ideal.tdb');
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-further-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const R = GAS_CONSTANT;

/** A job of `taskType` (point_calculation by default) with its configuration parsed by the type's schema. */
function job<T extends TaskType = 'point_calculation'>(
  condition: Record<string, unknown>,
  tdb = LENS,
  taskType = 'point_calculation' as T,
) {
  return parsedJob(taskType, {
    taskUuid: 'f',
    ompThreads: 1,
    taskDir: path.join(tmp, `t${n++}`),
    control: new SharedArrayBuffer(16),
    database: { code: 'LENS', sha256: 'abc' },
    config: {
      tdb_file: tdb,
      condition: {
        components: ['A', 'B'],
        pressure: 101325,
        temperature: 1250,
        compositions: { B: 0.5 },
        activated_phases: ['LIQUID', 'SOLID'],
        ...condition,
      },
    },
  });
}
const ctl = () => new JobControl(new SharedArrayBuffer(16));
const read = <T = PointCalculationResult>(j: CalculationJob) =>
  JSON.parse(readFileSync(path.join(j.taskDir, 'result', 'result.json'), 'utf8')) as T;
/** RFC 4180 cells of one line (quoted cells may hold commas). */
const cells = (line: string) =>
  [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) =>
    m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!,
  );
const csvRow = (j: CalculationJob) => {
  const [head, row] = readFileSync(path.join(j.taskDir, 'result', 'result.csv'), 'utf8')
    .trim()
    .split('\r\n');
  const names = cells(head!).map((h) => h.replace(/ \[.*\]$/, ''));
  const vals = cells(row!);
  return Object.fromEntries(names.map((h, i) => [h, vals[i]]));
};

/** Ideal lens, G(SOLID,i) = 0, G(LIQUID,i) = dH_i - 10 T: equal MU gives x_i^S / x_i^L = exp(G(LIQUID,i)/RT). */
function lens(T: number) {
  const eA = Math.exp((10000 - 10 * T) / (R * T)),
    eB = Math.exp((15000 - 10 * T) / (R * T));
  const xBL = (1 - eA) / (eB - eA),
    xBS = eB * xBL;
  return { xBL, xBS, xAL: 1 - xBL, xAS: 1 - xBS, muA: R * T * Math.log(1 - xBS), muB: R * T * Math.log(xBS) };
}

describe('composition units (worker/system/units.ts)', () => {
  it('converts by hand-checked masses both ways and keeps the left-out element left out', () => {
    // masses A = 20, B = 30: w(B) = 0.6 is x(B) = (0.6/30) / (0.4/20 + 0.6/30) = 0.5
    expect(massToMoleFractions({ A: 0.4, B: 0.6 }, { A: 20, B: 30 }).B).toBeCloseTo(0.5, 15);
    expect(moleToMassFractions({ A: 0.5, B: 0.5 }, { A: 20, B: 30 }).B).toBeCloseTo(0.6, 15);
    expect(massMapToMoleFractions('c', { B: 0.6 }, ['A', 'B'], { A: 20, B: 30 })).toEqual({
      B: expect.closeTo(0.5, 14),
    });
    // Al-4.5 wt% Cu (M = 26.9815, 63.546): x(Cu) = (4.5/63.546) / (95.5/26.9815 + 4.5/63.546) = 0.0196123...
    const x = massToMoleFractions({ AL: 0.955, CU: 0.045 }, { AL: 26.9815, CU: 63.546 });
    expect(x.CU).toBeCloseTo(0.045 / 63.546 / (0.955 / 26.9815 + 0.045 / 63.546), 15);
  });

  it('refuses an element without molar mass with a message naming it', () => {
    expect(() => massToMoleFractions({ A: 0.5, X: 0.5 }, { A: 20, X: 0 })).toThrow(/X has molar mass 0/);
    expect(() => massMapToMoleFractions('condition.compositions', { B: 1.2 }, ['A', 'B'], { A: 20, B: 30 })).toThrow(
      /condition.compositions.B/,
    );
  });

  it('a point given in mass fractions is the same equilibrium, and gives x and w of the system and of each phase', () => {
    const jm = job({ compositions: { B: 0.6 }, composition_unit: 'mass_fraction' });
    runPoint(jm, ctl());
    const doc = read(jm);
    expect(doc.point.x.B).toBeCloseTo(0.5, 12);
    expect(doc.point.w!.B).toBeCloseTo(0.6, 12);
    const l = lens(1250);
    const liq = doc.point.phases.find((q) => q.name === 'LIQUID')!,
      sol = doc.point.phases.find((q) => q.name === 'SOLID')!;
    expect(liq.x.B).toBeCloseTo(l.xBL, 7);
    expect(sol.x.B).toBeCloseTo(l.xBS, 7);
    // w of a phase by hand: x_B 30 / (x_A 20 + x_B 30)
    expect(liq.w!.B).toBeCloseTo((l.xBL * 30) / (l.xAL * 20 + l.xBL * 30), 7);
    expect(sol.w!.B).toBeCloseTo((l.xBS * 30) / (l.xAS * 20 + l.xBS * 30), 7);
    const row = csvRow(jm);
    expect(Number(row['w(B)'])).toBeCloseTo(0.6, 10);
    expect(Number(row['w(SOLID,B)'])).toBeCloseTo(sol.w!.B, 10);
    expect(Number(row['x(B)'])).toBeCloseTo(0.5, 10);
  });
});

describe('reference states and formation energies', () => {
  it('activities against a chosen phase are the Raoultian ones of the ideal lens; GM_formation by hand', () => {
    const T = 1250;
    const j = job({
      reference_states: { A: 'LIQUID', B: 'SOLID' },
      thermo_outputs: ['acr(*)', 'mur(*)', 'GM_formation', 'GM_formation(*)'],
    });
    runPoint(j, ctl());
    const doc = read(j);
    const l = lens(T);
    expect(doc.reference_states).toEqual({ A: 'LIQUID', B: 'SOLID' });
    // A against pure liquid A: a = x_A^L (ideal liquid in equilibrium); B against pure solid B: a = x_B^S
    expect(doc.point.ACR!.A).toBeCloseTo(l.xAL, 7);
    expect(doc.point.ACR!.B).toBeCloseTo(l.xBS, 7);
    expect(doc.point.MUR!.A).toBeCloseTo(l.muA - (10000 - 10 * T), 4);
    expect(doc.point.MUR!.B).toBeCloseTo(l.muB, 4);
    // GM_formation = GM - x_A G(LIQUID,A) - x_B G(SOLID,B)
    expect(doc.point.GM_formation!).toBeCloseTo(doc.point.GM - 0.5 * (10000 - 10 * T), 6);
    const liq = doc.point.phases.find((q) => q.name === 'LIQUID')!;
    const gLiq =
      (10000 - 10 * T) * l.xAL + (15000 - 10 * T) * l.xBL + R * T * (l.xAL * Math.log(l.xAL) + l.xBL * Math.log(l.xBL));
    expect(liq.GM_formation!).toBeCloseTo(gLiq - l.xAL * (10000 - 10 * T), 4);
    const row = csvRow(j);
    expect(Number(row['acr(A)'])).toBeCloseTo(l.xAL, 7);
    expect(Number(row['GM_formation(LIQUID)'])).toBeCloseTo(liq.GM_formation!, 6);
  });

  it("defaults to the ELEMENT line's reference phase (SOLID here) and refuses a phase that does not exist", () => {
    const j = job({});
    runPoint(j, ctl());
    const doc = read(j);
    expect(doc.reference_states).toEqual({ A: 'SOLID', B: 'SOLID' });
    const l = lens(1250);
    // against pure solid (G = 0): acr = exp(mu/RT) = x^S
    expect(doc.point.ACR!.A).toBeCloseTo(l.xAS, 7);
    expect(doc.point.GM_formation!).toBeCloseTo(doc.point.GM, 8);
    expect(() => runPoint(job({ reference_states: { A: 'NOPE' } }), ctl())).toThrow(
      /condition.reference_states.A: NOPE is not a phase/,
    );
  });
});

describe('magnetic, volume and ordering properties of each phase', () => {
  it("TC and BMAGN of a magnetic phase from the TDB's Redlich-Kister terms", () => {
    const j = job({
      temperature: 1500,
      compositions: { B: 0.4 },
      activated_phases: ['BCC_A2'],
      thermo_outputs: ['TC(*)', 'BMAGN(*)', 'VM'],
    });
    runPoint(j, ctl());
    const doc = read(j);
    const bcc = doc.point.phases.find((q) => q.name === 'BCC_A2')!;
    // TC = 1000 x_A - 300 x_B + 200 x_A x_B, BMAGN = 2.2 x_A - 0.5 x_B
    expect(bcc.TC!).toBeCloseTo(1000 * 0.6 - 300 * 0.4 + 200 * 0.24, 8);
    expect(bcc.BMAGN!).toBeCloseTo(2.2 * 0.6 - 0.5 * 0.4, 10);
    // no volume data for BCC_A2: VM absent and said so
    expect(bcc.VM).toBeUndefined();
    expect(doc.point.VM).toBeUndefined();
    expect(doc.quantity_notes!.join(' ')).toMatch(/VM of BCC_A2: absent/);
    const row = csvRow(j);
    expect(Number(row['TC(BCC_A2)'])).toBeCloseTo(528, 8);
    expect(row.VM).toBe('');
  });

  it('VM of a phase with V0 parameters: sum x_i V0_i, and the system value; no TC for a non-magnetic phase', () => {
    const j = job({ temperature: 1500, compositions: { B: 0.4 }, activated_phases: ['REG'] });
    runPoint(j, ctl());
    const doc = read(j);
    const reg = doc.point.phases.find((q) => q.name === 'REG')!;
    expect(reg.VM!).toBeCloseTo(0.6 * 1e-5 + 0.4 * 2e-5, 15);
    expect(doc.point.VM!).toBeCloseTo(reg.VM!, 15);
    expect(reg.TC).toBeUndefined();
  });

  it("degree of ordering recomputed from the written site fractions (pycalphad's definition)", () => {
    const j = job({
      temperature: 300,
      compositions: { B: 0.5 },
      activated_phases: ['ORD'],
      thermo_outputs: ['DOO(*)'],
    });
    runPoint(j, ctl());
    const doc = read(j);
    const ord = doc.point.phases.find((q) => q.name === 'ORD')!;
    const [s0, s1] = ord.site_fractions as [Record<string, number>, Record<string, number>];
    // a'_s = 0.5 on both sublattices; x_i = mean of y; DOO = (1/2) sum_i sum_s 0.5 |y_si - x_i| / x_i
    let doo = 0;
    for (const el of ['A', 'B']) {
      const x = 0.5 * (s0[el]! + s1[el]!);
      doo += (0.5 * Math.abs(s0[el]! - x) + 0.5 * Math.abs(s1[el]! - x)) / x;
    }
    expect(ord.degree_of_ordering!).toBeCloseTo(doo / 2, 12);
    // -4000 J/mol of A:B pairs at 300 K: strongly ordered
    expect(ord.degree_of_ordering!).toBeGreaterThan(0.5);
    expect(Number(csvRow(j)['DOO(ORD)'])).toBeCloseTo(ord.degree_of_ordering!, 10);
  });
});

describe('ordered/disordered state in the outputs (alfe.tdb, B2_BCC)', () => {
  it('Fe-30Al at 800 K is ordered B2 with a positive degree of order; Fe-5Al at 1000 K is disordered A2 with none', () => {
    const ALFE = path.join(SHARED_TDB_DIR, 'alfe.tdb');
    const names = ['ordered(*)', 'structure(*)', 'DOO(*)', 'TC(*)'];
    const jo = job(
      {
        components: ['AL', 'FE'],
        temperature: 800,
        compositions: { AL: 0.3 },
        activated_phases: ['B2_BCC'],
        thermo_outputs: names,
      },
      ALFE,
    );
    runPoint(jo, ctl());
    const ro = csvRow(jo);
    expect(ro['ordered(B2_BCC)']).toBe('1');
    expect(ro['structure(B2_BCC)']).toBe('B2 (B2_BCC)');
    expect(Number(ro['DOO(B2_BCC)'])).toBeGreaterThan(0.05);
    expect(Number(ro['TC(B2_BCC)'])).toBeGreaterThan(0);
    const jd = job(
      {
        components: ['AL', 'FE'],
        temperature: 1000,
        compositions: { AL: 0.05 },
        activated_phases: ['B2_BCC'],
        thermo_outputs: names,
      },
      ALFE,
    );
    runPoint(jd, ctl());
    const rd = csvRow(jd);
    expect(rd['ordered(B2_BCC)']).toBe('0');
    expect(rd['structure(B2_BCC)']).toBe('A2 (B2_BCC)');
    // equal site fractions on both sublattices: every |y_si - x_i| vanishes
    expect(Number(rd['DOO(B2_BCC)'])).toBeLessThan(1e-4);
  });
});

describe('liquidus and solidus of the alloy at a point', () => {
  it('equal the closed forms of the ideal lens (own validation case own-lit-lens-alloy)', () => {
    const j = job({});
    const out = runPoint(j, ctl());
    const doc = read(j);
    expect(doc.alloy_temperatures!.liquidus!).toBeCloseTo(1279.1168242759718, 1);
    expect(doc.alloy_temperatures!.solidus!).toBeCloseTo(1219.487016590634, 1);
    expect(Math.abs(doc.alloy_temperatures!.liquidus! - 1279.1168242759718)).toBeLessThan(0.01);
    expect(Math.abs(doc.alloy_temperatures!.solidus! - 1219.487016590634)).toBeLessThan(0.01);
    const row = csvRow(j);
    expect(Number(row.T_liquidus)).toBeCloseTo(doc.alloy_temperatures!.liquidus!, 8);
    expect(out.logs.join('\n')).toMatch(/liquidus 1279\.1\d K, solidus 1219\.4\d K/);
  });

  it('is absent, with the reason, when the system has no liquid', () => {
    const j = job({ activated_phases: ['SOLID'] });
    runPoint(j, ctl());
    expect(read(j).alloy_temperatures).toMatchObject({
      liquidus: null,
      solidus: null,
      note: 'no liquid phase in the system',
    });
  });
});

describe('line and properties results', () => {
  const EUT = path.join(__dirname, '../validation/tdb/eutectic_ideal.tdb');
  /** Ideal liquid with pure solids: x_i^L on the liquidus of solid i is exp(-G(LIQUID,i)/RT). */
  const xL = (dH: number, T: number) => Math.exp(-(dH - 10 * T) / (R * T));
  const root = (f: (T: number) => number, a: number, b: number) => {
    for (let k = 0; k < 200; k++) {
      const m = 0.5 * (a + b);
      if (f(a) * f(m) <= 0) b = m;
      else a = m;
    }
    return 0.5 * (a + b);
  };
  const TE = root((T) => xL(10000, T) + xL(15000, T) - 1, 300, 1000);
  /** A T line 500 -> 1500 K at x(B) = 0.3 of the ideal eutectic, run. */
  const eutecticLine = (points: number) => {
    const j = job(
      {
        components: ['A', 'B'],
        temperature_start: 500,
        temperature_end: 1500,
        points,
        compositions_start: { B: 0.3 },
        compositions_end: { B: 0.3 },
        activated_phases: undefined,
        compositions: undefined,
        temperature: undefined,
      },
      EUT,
      'line_calculation' as const,
    );
    runLine(j, ctl());
    return j;
  };

  it('a T line through the eutectic: liquidus, solidus and the invariant with its phase compositions, by hand', () => {
    const j = eutecticLine(51);
    const doc = read<LineCalculationResult>(j);
    // liquidus: the higher of the two liquidus branches at x(B) = 0.3
    const tA = root((T) => xL(10000, T) - 0.7, 300, 1000),
      tB = root((T) => xL(15000, T) - 0.3, 300, 1500);
    expect(Math.abs(doc.alloy_temperatures!.liquidus! - Math.max(tA, tB))).toBeLessThan(0.01);
    expect(Math.abs(doc.alloy_temperatures!.solidus! - TE)).toBeLessThan(0.01);
    // and in result.csv: T_liquidus / T_solidus columns of the default outputs of a fixed-composition line
    const row = csvRow(j);
    expect(Math.abs(Number(row.T_liquidus) - Math.max(tA, tB))).toBeLessThan(0.01);
    expect(Math.abs(Number(row.T_solidus) - TE)).toBeLessThan(0.01);
    expect(doc.invariants).toHaveLength(1);
    const inv = doc.invariants![0]!;
    expect(inv.phases).toEqual(['ALPHA', 'BETA', 'LIQUID']);
    expect(Math.abs(inv.T - TE)).toBeLessThan(0.01);
    expect(inv.compositions.LIQUID!.x.B).toBeCloseTo(xL(15000, TE), 4);
    expect(inv.compositions.ALPHA!.x.A).toBeCloseTo(1, 6);
    // masses A = 20, B = 30
    expect(inv.compositions.LIQUID!.w!.B).toBeCloseTo(
      (30 * xL(15000, TE)) / (30 * xL(15000, TE) + 20 * xL(10000, TE)),
      4,
    );
  });

  it('a fixed phase as the condition: LIQUID at 1 is the liquidus, at 0 the solidus, by hand and as the line has them', () => {
    const at = (fixed: Record<string, number>, temperature: number) => {
      const j = job(
        {
          components: ['A', 'B'],
          compositions: { B: 0.3 },
          activated_phases: undefined,
          fixed_phases: fixed,
          temperature,
        },
        EUT,
      );
      runPoint(j, ctl());
      return read(j);
    };
    const tA = root((T) => xL(10000, T) - 0.7, 300, 1000),
      tB = root((T) => xL(15000, T) - 0.3, 300, 1500);
    const liquidus = at({ LIQUID: 1 }, 1400);
    expect(Math.abs(liquidus.fixed_phase!.temperature - Math.max(tA, tB))).toBeLessThan(0.01);
    expect(Math.abs(liquidus.fixed_phase!.temperature - liquidus.alloy_temperatures!.liquidus!)).toBeLessThan(0.01);
    expect(liquidus.fixed_phase!.bracket[1] - liquidus.fixed_phase!.bracket[0]).toBeLessThanOrEqual(0.01);
    expect(liquidus.point.phases.map((p) => p.name)).toEqual(['LIQUID']);
    // from below the solidus too: the boundary nearest the start
    const solidus = at({ LIQUID: 0 }, 600);
    expect(Math.abs(solidus.fixed_phase!.temperature - TE)).toBeLessThan(0.01);
    expect(solidus.point.phases.map((p) => p.name)).toContain('LIQUID');
    // the same as the line calculation's liquidus at this composition
    const lineLiquidus = read<LineCalculationResult>(eutecticLine(21)).alloy_temperatures!.liquidus!;
    expect(Math.abs(liquidus.fixed_phase!.temperature - lineLiquidus)).toBeLessThan(0.01);
    // a phase this calculation does not have, and an amount no temperature reaches, say so
    expect(() => at({ GAS: 0 }, 900)).toThrow(/condition.fixed_phases.GAS: GAS is not among the phases/);
    expect(() => at({ ALPHA: 1 }, 900)).toThrow(/condition.fixed_phases.ALPHA: ALPHA at amount 1: no such temperature/);
  });

  it('Scheil given in mass fractions: liquidus, Scheil end and equilibrium solidus side by side, by hand', () => {
    const j = job(
      {
        components: ['A', 'B'],
        compositions: { B: 9 / 23 },
        composition_unit: 'mass_fraction',
        start_temperature: 1300,
        temperature_step: 5,
        activated_phases: undefined,
        temperature: undefined,
      },
      EUT,
      'scheil_solidification',
    );
    runScheil(j, ctl());
    const doc = read<ScheilDocument>(j);
    // w(B) = 9/23 is x(B) = (9/23/30) / (14/23/20 + 9/23/30) = 0.3
    expect(doc.composition.B).toBeCloseTo(0.3, 12);
    expect(doc.composition_w!.B).toBeCloseTo(9 / 23, 12);
    const tA = root((T) => xL(10000, T) - 0.7, 300, 1000),
      tB = root((T) => xL(15000, T) - 0.3, 300, 1500);
    expect(Math.abs(doc.alloy_temperatures!.liquidus! - Math.max(tA, tB))).toBeLessThan(0.01);
    // pure solids: the liquid follows the liquidus down to the eutectic, where both the Scheil path and the
    // equilibrium solidification end
    expect(Math.abs(doc.alloy_temperatures!.scheil_end! - TE)).toBeLessThan(0.01);
    expect(Math.abs(doc.alloy_temperatures!.equilibrium_solidus! - TE)).toBeLessThan(0.01);
    const head = readFileSync(path.join(j.taskDir, 'result', 'result.csv'), 'utf8').split('\r\n')[0]!;
    expect(head).toContain('"w(LIQUID,B) [-]"');
    // result.csv carries the three temperatures on every row
    const row = csvRow(j);
    expect(Math.abs(Number(row.T_liquidus) - Math.max(tA, tB))).toBeLessThan(0.01);
    expect(Math.abs(Number(row.T_scheil_end) - TE)).toBeLessThan(0.01);
    expect(Math.abs(Number(row.T_equilibrium_solidus) - TE)).toBeLessThan(0.01);
  });

  it('a composition line given in mass fractions runs between the converted end points; properties carry mur/acr', () => {
    const j = job(
      {
        temperature_start: 1250,
        temperature_end: 1250,
        points: 5,
        compositions_start: { B: 0.3 },
        compositions_end: { B: 0.6 },
        composition_unit: 'mass_fraction',
        reference_states: { A: 'LIQUID', B: 'LIQUID' },
        compositions: undefined,
        temperature: undefined,
        thermo_outputs: ['x(B)', 'w(B)', 'acr(A)'],
      },
      LENS,
      'line_calculation',
    );
    runLine(j, ctl());
    const doc = read<LineCalculationResult>(j);
    const first = doc.points[0]!,
      last = doc.points[doc.points.length - 1]!;
    expect(first.w!.B).toBeCloseTo(0.3, 12);
    expect(last.w!.B).toBeCloseTo(0.6, 12);
    expect(last.x.B).toBeCloseTo(0.5, 12);
    // a line at fixed T has no alloy liquidus; acr(A) against pure liquid A
    expect(doc.alloy_temperatures).toBeUndefined();
    const l = lens(1250);
    expect(last.ACR!.A).toBeCloseTo(l.xAL, 6);
    const jp = job(
      {
        temperature_start: 1000,
        temperature_end: 1100,
        points: 3,
        compositions_start: { B: 0.4 },
        compositions_end: { B: 0.4 },
        reference_states: { A: 'REG' },
        activated_phases: ['REG'],
        compositions: undefined,
        temperature: undefined,
      },
      LENS,
      'thermodynamic_properties_next',
    );
    runProperties(jp, ctl());
    const pd = read<PropertiesDocument>(jp);
    // pure REG A: G = 1000; in REG alone, MU(A) - 1000 = RT ln x_A + L x_B^2 with L = -5000 + 2T
    const T = pd.points[0]!.T,
      L0 = -5000 + 2 * T;
    expect(pd.points[0]!.MUR!.A).toBeCloseTo(R * T * Math.log(0.6) + L0 * 0.16, 4);
    expect(pd.reference_states).toMatchObject({ A: 'REG' });
  });
});

describe('open-system conditions: chemical potentials and activities', () => {
  const CFE = path.join(SHARED_TDB_DIR, 'cfe_broshe.tdb');
  const steel = (condition: Record<string, unknown>) =>
    job(
      {
        components: ['FE', 'C'],
        temperature: 1300,
        activated_phases: undefined,
        reference_states: { C: 'GRAPHITE' },
        thermo_outputs: ['phase_name', 'x(*)', 'mu(*)', 'acr(*)'],
        ...condition,
      },
      CFE,
    );

  it('a carbon activity or chemical potential gives back the austenite it came from', () => {
    const closed = steel({ compositions: { C: 0.02 } });
    runPoint(closed, ctl());
    const c = read(closed).point;
    expect(c.phases.map((p) => p.name)).toEqual(['FCC_A1']);
    // against graphite: a_C = exp((MU_C - G_graphite) / RT), below 1 in austenite that holds 2 at.% C at 1300 K
    expect(c.ACR!.C).toBeGreaterThan(0.05);
    expect(c.ACR!.C).toBeLessThan(1);
    for (const condition of [{ activities: { C: c.ACR!.C } }, { chemical_potentials: { C: c.MU.C } }]) {
      const open = steel({ compositions: {}, ...condition });
      runPoint(open, ctl());
      const doc = read(open);
      expect(doc.point.converged).toBe(true);
      expect(doc.point.phases.map((p) => p.name)).toEqual(['FCC_A1']);
      expect(doc.point.x.C).toBeCloseTo(0.02, 8);
      expect(doc.point.MU.C).toBeCloseTo(c.MU.C, 4);
      expect(doc.point.MU.FE).toBeCloseTo(c.MU.FE, 4);
      expect(doc.alloy_temperatures!.liquidus).toBeNull();
      expect(doc.alloy_temperatures!.note).toMatch(/chemical potential or activity/);
    }
  });

  it('activity 1 against graphite is the graphite saturation of austenite (the Acm of the stable Fe-C system)', () => {
    const open = steel({ compositions: {}, activities: { C: 1 } });
    runPoint(open, ctl());
    const x = read(open).point.x.C;
    // the same point closed at that carbon content: austenite + graphite coexist there (a = 1 on the boundary)
    const saturated = steel({ compositions: { C: x + 0.002 } });
    runPoint(saturated, ctl());
    expect(
      read(saturated)
        .point.phases.map((p) => p.name)
        .sort(),
    ).toEqual(['FCC_A1', 'GRAPHITE']);
    const fcc = read(saturated).point.phases.find((p) => p.name === 'FCC_A1')!;
    expect(fcc.x.C).toBeCloseTo(x, 6);
  });

  it('refuses a potential on an unknown element, twice-given elements, mass fractions and a system with none free', () => {
    const bad = (condition: Record<string, unknown>) => {
      const r = validateTaskConfig('point_calculation', {
        task_type: 'point_calculation',
        tdb_code: 'CFE',
        condition: { components: ['FE', 'C'], temperature: 1300, pressure: 101325, compositions: {}, ...condition },
      });
      return r.ok ? null : r.error;
    };
    expect(bad({ activities: { C: 0.5 } })).toBeNull();
    expect(bad({ activities: { CR: 0.5 } })).toMatch(/condition\.activities\.CR: is not one of condition\.components/);
    expect(bad({ activities: { C: 0 } })).toMatch(/condition\.activities\.C: must be greater than 0/);
    expect(bad({ compositions: { C: 0.02 }, activities: { C: 0.5 } })).toMatch(
      /condition\.activities\.C: C is also given in compositions/,
    );
    expect(bad({ activities: { C: 0.5 }, composition_unit: 'mass_fraction' })).toMatch(
      /condition\.composition_unit: must be mole_fraction/,
    );
    expect(bad({ activities: { C: 0.5, FE: 1 } })).toMatch(/must leave at least one component/);
  });
});
