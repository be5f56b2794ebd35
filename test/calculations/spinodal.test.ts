// spinodal_decomposition against closed forms and real gaps: for a regular solution the critical temperature is
// Omega / 2R at x = 1/2 and the spinodal is x(1 - x) = RT / 2 Omega (the coherent one with 2 Omega - 2 eta^2 Y V_m);
// on the fcc gap of Al-Zn, the bcc gap of Cr-Fe and the fcc gap of Cu-Ni the spinodal lies inside the binodal and
// meets it at the critical point; a phase with sublattices gives the spinodal of its relaxed state.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobControl, type CalculationJob } from '../../worker/protocol.js';
import { run } from '../../worker/calculations/spinodal_decomposition.js';
import { run as runBinary } from '../../worker/calculations/binary_equilibrium.js';
import { run as runSection } from '../../worker/calculations/ternary_isothermal_section.js';
import type { TernaryIsothermalSectionResult } from '../../contract/results/ternary_isothermal_section.js';
import type { BinaryEquilibriumResult } from '../../contract/results/binary_equilibrium.js';
import type { SpinodalDecompositionDocument } from '../../contract/results/spinodal_decomposition.js';
import { GAS_CONSTANT as R } from '../../contract/results/common.js';
import { openDatabase } from '../../worker/core/database.js';
import { PhaseModel } from '../../worker/core/models.js';
import { coherencyStrain, StabilityDeterminant } from '../../worker/mapping/spinodal/determinant.js';
import { validateTaskConfig } from '../../main/requests/task-config.js';
import { ROOT } from '../service/helpers.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { parsedJob } from '../support/jobs.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-spinodal-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

const OMEGA = 20000;
// the same regular solution twice: one sublattice with a vacancy sublattice, and two equal sublattices (whose site
// fractions the calculation relaxes by minimisation at each composition)
const REGULAR = path.join(tmp, 'regular.tdb');
// A-B-C fcc, Omega only between A and B: the A-B gap reaches into the section
const TERNARY = path.join(tmp, 'ternary.tdb');
writeFileSync(
  TERNARY,
  `ELEMENT VA VACUUM 0 0 0 !
ELEMENT A FCC_A1 10 0 0 !
ELEMENT B FCC_A1 20 0 0 !
ELEMENT C FCC_A1 30 0 0 !
PHASE FCC_A1 % 2 1 1 !
CONSTITUENT FCC_A1 :A,B,C:VA: !
PARAMETER G(FCC_A1,A:VA;0) 1 0; 6000 N !
PARAMETER G(FCC_A1,B:VA;0) 1 0; 6000 N !
PARAMETER G(FCC_A1,C:VA;0) 1 0; 6000 N !
PARAMETER G(FCC_A1,A,B:VA;0) 1 ${OMEGA}; 6000 N !
`,
);
writeFileSync(
  REGULAR,
  `ELEMENT VA VACUUM 0 0 0 !
ELEMENT A FCC_A1 10 0 0 !
ELEMENT B FCC_A1 20 0 0 !
PHASE FCC_A1 % 2 1 1 !
CONSTITUENT FCC_A1 :A,B:VA: !
PARAMETER G(FCC_A1,A:VA;0) 1 0; 6000 N !
PARAMETER G(FCC_A1,B:VA;0) 1 0; 6000 N !
PARAMETER G(FCC_A1,A,B:VA;0) 1 ${OMEGA}; 6000 N !
PHASE TWIN % 2 1 1 !
CONSTITUENT TWIN :A,B:A,B: !
PARAMETER G(TWIN,A:A;0) 1 0; 6000 N !
PARAMETER G(TWIN,B:B;0) 1 0; 6000 N !
PARAMETER G(TWIN,A:B;0) 1 ${OMEGA}; 6000 N !
PARAMETER G(TWIN,B:A;0) 1 ${OMEGA}; 6000 N !
PARAMETER G(TWIN,A,B:*;0) 1 ${-OMEGA / 2}; 6000 N !
PARAMETER G(TWIN,*:A,B;0) 1 ${-OMEGA / 2}; 6000 N !
`,
);

function job(tdb: string, condition: Record<string, unknown>) {
  return parsedJob('spinodal_decomposition', {
    taskUuid: 's',
    ompThreads: 1,
    taskDir: path.join(tmp, `t${n++}`),
    control: new SharedArrayBuffer(16),
    config: { tdb_file: tdb, condition: { pressure: 101325, ...condition } },
  });
}
const ctl = () => new JobControl(new SharedArrayBuffer(16));
const read = (j: CalculationJob) =>
  JSON.parse(readFileSync(path.join(j.taskDir, 'result', 'result.json'), 'utf8')) as SpinodalDecompositionDocument;

/** The document of a run, with its files checked. */
function calc(tdb: string, condition: Record<string, unknown>) {
  const j = job(tdb, condition);
  run(j, ctl());
  for (const f of ['result/result.csv', 'preview/spinodal.svg', 'preview/spinodal.png'])
    expect(readFileSync(path.join(j.taskDir, f)).length).toBeGreaterThan(0);
  return read(j);
}

/** The ternary A-B-C section at T with spinodal: true (and `extra` task_config keys), its preview and result. */
function section(T: number, extra: Record<string, unknown> = {}) {
  const j = parsedJob('ternary_isothermal_section', {
    taskUuid: 't',
    ompThreads: 1,
    taskDir: path.join(tmp, `t${n++}`),
    control: new SharedArrayBuffer(16),
    config: {
      tdb_file: TERNARY,
      spinodal: true,
      ...extra,
      condition: { components: ['A', 'B', 'C'], temperature: T, pressure: 101325 },
    },
  });
  runSection(j, ctl());
  const doc = JSON.parse(
    readFileSync(path.join(j.taskDir, 'result', 'result.json'), 'utf8'),
  ) as TernaryIsothermalSectionResult;
  return { doc, svg: readFileSync(path.join(j.taskDir, 'preview', 'isothermal_section.svg'), 'utf8') };
}

/**
 * The closed-form Hessian determinant of G_m = RT sum x ln x + Omega x_A x_B in (x_B, x_C) at T, with `strain` on its
 * B-B term (a coherent fluctuation along B), and the size of its terms.
 */
function abcDeterminant(T: number, x: Record<string, number>, strain = 0) {
  const { A: a, B: b, C: c } = x as { A: number; B: number; C: number };
  const bb = R * T * (1 / a + 1 / b) - 2 * OMEGA + strain,
    cc = R * T * (1 / a + 1 / c),
    bc = (R * T) / a - OMEGA;
  return { det: bb * cc - bc * bc, scale: Math.abs(bb * cc) + bc * bc };
}

describe('spinodal_decomposition', () => {
  it('regular solution: T_c = Omega/2R at x = 1/2, x(1-x) = RT/2 Omega, the coherent spinodal with 2 eta^2 Y V_m', () => {
    const coherent = { c11: 100e9, c12: 50e9, lattice_mismatch: 0.05, molar_volume: 1e-5 };
    const d = calc(REGULAR, {
      components: ['A', 'B'],
      phase: 'FCC_A1',
      temperature_start: 600,
      temperature_end: 1500,
      temperature_points: 10,
      coherent,
    });
    const Y = ((coherent.c11 + 2 * coherent.c12) * (coherent.c11 - coherent.c12)) / coherent.c11;
    const E = 2 * coherent.lattice_mismatch ** 2 * Y * coherent.molar_volume;
    expect(d.elastic!.strain_energy).toBeCloseTo(E, 6);
    const chem = d.critical_points.find((c) => c.kind === 'chemical')!;
    expect(chem.T).toBeCloseTo(OMEGA / (2 * R), 2);
    expect(chem.x).toBeCloseTo(0.5, 4);
    const coh = d.critical_points.find((c) => c.kind === 'coherent')!;
    expect(coh.T).toBeCloseTo((OMEGA - E / 2) / (2 * R), 2);
    for (const p of d.chemical_spinodal) {
      const half = Math.sqrt(0.25 - (R * p.T) / (2 * OMEGA));
      expect(p.x[0]).toBeCloseTo(0.5 - half, 7);
      expect(p.x[1]).toBeCloseTo(0.5 + half, 7);
    }
    for (const p of d.coherent_spinodal!) {
      const half = Math.sqrt(0.25 - (R * p.T) / (2 * OMEGA - E));
      expect(p.x[0]).toBeCloseTo(0.5 - half, 7);
    }
    // the binodal of a symmetric gap: ln(x/(1-x)) = Omega (2x - 1) / RT at each of its compositions
    expect(d.binodal.length).toBeGreaterThan(3);
    for (const b of d.binodal)
      for (const x of b.x) expect(Math.log(x / (1 - x))).toBeCloseTo((OMEGA * (2 * x - 1)) / (R * b.T), 4);
  });

  it('a phase with internal degrees of freedom: its curvature with the site fractions relaxed', () => {
    // TWIN (A,B)1(A,B)1: G_ex = Omega x(1-x) + 3 Omega d^2 per formula unit with d = y'_A - x, so its relaxed state is
    // disordered (d = 0) and per mole of atoms it is the regular solution of Omega/2: T_c = Omega/4R, and the
    // spinodal x(1-x) = RT/Omega
    const d = calc(REGULAR, {
      components: ['A', 'B'],
      phase: 'TWIN',
      temperature_start: 300,
      temperature_end: 900,
      temperature_points: 7,
    });
    const chem = d.critical_points.find((c) => c.kind === 'chemical')!;
    expect(chem.T).toBeCloseTo(OMEGA / (4 * R), 1);
    for (const p of d.chemical_spinodal) {
      const half = Math.sqrt(0.25 - (R * p.T) / OMEGA);
      expect(p.x[0]).toBeCloseTo(0.5 - half, 5);
    }
  });

  it.each([
    ['Al-Zn fcc', path.join(ROOT, 'databases', 'alzn_mey1993.tdb'), ['AL', 'ZN'], 'FCC_A1', 300, 800],
    ['Cr-Fe bcc', path.join(SHARED_TDB_DIR, 'crfe_bcc_magnetic.tdb'), ['CR', 'FE'], 'BCC_A2', 500, 1100],
    ['Cu-Ni fcc', path.join(ROOT, 'databases', 'cuni_mey1992.tdb'), ['CU', 'NI'], 'FCC_A1', 300, 800],
  ])('%s: the spinodal lies inside the binodal and meets it at the critical point', (_, tdb, comps, phase, t0, t1) => {
    const d = calc(tdb, {
      components: comps,
      phase,
      temperature_start: t0,
      temperature_end: t1,
      temperature_points: 26,
    });
    // the highest critical point is the gap's; Cu-Ni has a second, small one on the Ni-rich side (532.7 K), where the
    // magnetic ordering of nickel-rich fcc bends G (an Mey's magnetic parameters)
    const crit = d.critical_points.filter((c) => c.kind === 'chemical').sort((a, b) => b.T - a.T);
    expect(crit.length).toBeGreaterThanOrEqual(1);
    expect(d.binodal.length).toBeGreaterThan(5);
    for (const b of d.binodal) {
      const s = d.chemical_spinodal.find((p) => p.T === b.T && p.x[0] < b.x[1] && p.x[1] > b.x[0])!;
      expect(s).toBeDefined();
      expect(b.x[0]).toBeLessThan(s.x[0]);
      expect(b.x[1]).toBeGreaterThan(s.x[1]);
    }
    // near the critical point both close on it: the widths shrink to zero and the middles approach x_c
    const top = [...d.chemical_spinodal].sort((a, b) => b.T - a.T)[0]!;
    expect(crit[0]!.T - top.T).toBeLessThan(0.05 * (t1 - t0));
    expect(top.x[1] - top.x[0]).toBeLessThan(0.1);
    expect(Math.abs(0.5 * (top.x[0] + top.x[1]) - crit[0]!.x)).toBeLessThan(0.02);
    const topGap = [...d.binodal].sort((a, b) => b.T - a.T)[0]!;
    expect(Math.abs(0.5 * (topGap.x[0] + topGap.x[1]) - crit[0]!.x)).toBeLessThan(0.05);
  });

  it('binary_equilibrium with spinodal: true draws the regular solution spinodal inside its gap, at its tie-lines', () => {
    const j = parsedJob('binary_equilibrium', {
      taskUuid: 'b',
      ompThreads: 1,
      taskDir: path.join(tmp, `t${n++}`),
      control: new SharedArrayBuffer(16),
      config: {
        tdb_file: REGULAR,
        spinodal: true,
        condition: {
          components: ['A', 'B'],
          compositions_start: { B: 0 },
          compositions_end: { B: 1 },
          temperature_start: 600,
          temperature_end: 1400,
          pressure: 101325,
          activated_phases: ['FCC_A1'],
        },
      },
    });
    runBinary(j, ctl());
    const d = JSON.parse(
      readFileSync(path.join(j.taskDir, 'result', 'result.json'), 'utf8'),
    ) as BinaryEquilibriumResult;
    const gap = d.two_phase_regions.find((r) => r.phases[1] === 'FCC_A1#2')!;
    expect(d.spinodals).toHaveLength(1);
    const s = d.spinodals![0]!;
    expect(s.phase).toBe('FCC_A1');
    expect(s.points.length).toBeGreaterThan(0.8 * gap.tielines.length - 2);
    for (const p of s.points) {
      const half = Math.sqrt(0.25 - (R * p.T) / (2 * OMEGA));
      expect(p.x[0]).toBeCloseTo(0.5 - half, 5);
      expect(p.x[1]).toBeCloseTo(0.5 + half, 5);
      const tie = gap.tielines.find((t) => t.T === p.T)!;
      expect(tie.x[0]).toBeLessThan(p.x[0]);
      expect(tie.x[1]).toBeGreaterThan(p.x[1]);
    }
  });

  it('ternary_isothermal_section with spinodal: true: on each tie-line of the gap the Hessian determinant vanishes', () => {
    const T = 900;
    const d = section(T).doc;
    expect(d.spinodals).toHaveLength(1);
    const points = d.spinodals![0]!.points;
    expect(points.length).toBeGreaterThan(5);
    for (const pair of points)
      for (const x of pair) {
        const h = abcDeterminant(T, x);
        expect(Math.abs(h.det) / h.scale).toBeLessThan(1e-6);
      }
  });

  it('ternary section with coherent: mismatch along B alone gives the binary coherent spinodal on the A-B edge, inside the chemical one', () => {
    const T = 900;
    const coherent = { c11: 100e9, c12: 50e9, molar_volume: 1e-5, lattice_mismatch: { b: 0.05 } };
    const { doc: d, svg } = section(T, { coherent });
    expect(svg).toContain('stroke-dasharray="2 3"');
    // E = 2 eta^2 Y V_m with Y = (c11 + 2 c12)(c11 - c12)/c11 = 100 GPa: 5000 J/mol
    const E = 2 * 0.05 ** 2 * 100e9 * 1e-5;
    expect(d.coherent_spinodals).toHaveLength(1);
    const points = d.coherent_spinodals![0]!.points;
    expect(points.length).toBeGreaterThan(5);
    for (const pair of points)
      for (const x of pair) {
        const coh = abcDeterminant(T, x, E);
        expect(Math.abs(coh.det) / coh.scale).toBeLessThan(1e-6);
        // inside the chemical spinodal: the chemical determinant is negative there
        expect(abcDeterminant(T, x).det).toBeLessThan(0);
      }
    // on the A-B edge (x_C -> 0, where the C-C term dominates) the determinant changes sign where the B-B term
    // does: x(1-x) = RT / (2 Omega - E), the binary coherent spinodal, and the chemical one at RT / 2 Omega
    const db = openDatabase(TERNARY);
    const model = PhaseModel.build(db, 'FCC_A1', ['A', 'B', 'C', 'VA'])!;
    const sys = { db, components: ['A', 'B', 'C', 'VA'], model, P: 101325 };
    const coh = new StabilityDeterminant({ ...sys, coherency: coherencyStrain(coherent) });
    const chem = new StabilityDeterminant(sys);
    const onEdge = (xB: number) => ({ A: 1 - xB - 1e-6, B: xB, C: 1e-6 });
    const half = Math.sqrt(0.25 - (R * T) / (2 * OMEGA - E));
    const halfChemical = Math.sqrt(0.25 - (R * T) / (2 * OMEGA));
    for (const x of [0.5 - half, 0.5 + half]) {
      expect(coh.at(T, onEdge(x - 1e-4)) * coh.at(T, onEdge(x + 1e-4))).toBeLessThan(0);
      expect(chem.at(T, onEdge(x))).toBeLessThan(0);
    }
    for (const x of [0.5 - halfChemical, 0.5 + halfChemical])
      expect(chem.at(T, onEdge(x - 1e-4)) * chem.at(T, onEdge(x + 1e-4))).toBeLessThan(0);
    expect(coh.at(T, onEdge(0.5))).toBeLessThan(0);
  });

  it.each([
    [{ spinodal: false }, /^task_config\.coherent: needs spinodal: true/],
    [
      { coherent: { ...SECTION_COHERENT, lattice_mismatch: { D: 0.1 } } },
      /^task_config\.coherent\.lattice_mismatch\.D: D is not one of condition\.components/,
    ],
    [{ coherent: { ...SECTION_COHERENT, c12: 120e9 } }, /^task_config\.coherent\.c12: must be less than c11/],
    [
      { coherent: { ...SECTION_COHERENT, molar_volume: -1 } },
      /^task_config\.coherent\.molar_volume: must be greater than 0/,
    ],
  ])('ternary section: coherent %j is refused naming the field', (change, message) => {
    const r = validateTaskConfig('ternary_isothermal_section', {
      task_type: 'ternary_isothermal_section',
      tdb_code: 'ABC',
      spinodal: true,
      coherent: SECTION_COHERENT,
      condition: { components: ['A', 'B', 'C'], temperature: 900, pressure: 101325 },
      ...change,
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(message);
  });
});

const SECTION_COHERENT = { c11: 100e9, c12: 50e9, molar_volume: 1e-5, lattice_mismatch: { B: 0.05 } };
