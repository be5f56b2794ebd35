// Precipitation kinetics (KWN, worker/calculations/aging) against theory: Al-0.4Zr at 723.15 K (Al3Zr in fcc, kawin's
// Al-Sc-Zr database, D(Zr) from its DQ/DF) and Ni-9.8Al-8.3Cr at 1073 K (gamma-prime in gamma, kawin's Ni-Cr-Al with
// its mobilities). At long times the volume fraction reaches the engine's equilibrium amount, the mean radius
// coarsens as LSW's r^3 - r0^3 = k t (Lifshitz and Slyozov, J. Phys. Chem. Solids 19 (1961) 35; Wagner,
// Z. Elektrochem. 65 (1961) 581) with k from the database's D, the tie line, gamma and V_m, the number density falls
// as 1/t, the alloy's atoms are accounted for at every step, and halving the time-step control changes little.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { PhaseModel } from '../../worker/core/models.js';
import { lswRate, lswRateDilute } from '../../worker/calculations/aging/coarsening.js';
import { growthResistance, interfaceComposition } from '../../worker/calculations/aging/growth.js';
import { AVOGADRO, GAS_CONSTANT, nucleation } from '../../worker/calculations/aging/nucleation.js';
import { parallelTangent } from '../../worker/calculations/aging/parallel-tangent.js';
import { SizeGrid } from '../../worker/calculations/aging/psd.js';
import { scheduleOf } from '../../worker/calculations/aging/schedule.js';
import { interfaceTableOf } from '../../worker/calculations/aging/setup.js';
import { simulateAging } from '../../worker/calculations/aging/simulate.js';
import { AgingThermo } from '../../worker/calculations/aging/thermo.js';
import type { AgingConfig, AgingResult, AgingSystem } from '../../worker/calculations/aging/types.js';
import { ROOT } from '../service/helpers.js';

const TDB = path.join(ROOT, '..', 'shared', 'tdb');

const alZr = (): AgingSystem => ({
  db: openDatabase(path.join(TDB, 'kawin_AlScZr.tdb')),
  components: ['AL', 'ZR', 'VA'],
  elements: ['AL', 'ZR'],
});
const niAlCr = (): AgingSystem => ({
  db: openDatabase(path.join(TDB, 'kawin_NiCrAl.tdb')),
  components: ['AL', 'CR', 'NI', 'VA'],
  elements: ['NI', 'AL', 'CR'],
});

const AL_ZR: AgingConfig = {
  composition: { AL: 0.996, ZR: 0.004 },
  temperature: 723.15,
  end_time: 1e10,
  matrix: { phase: 'FCC_A1', lattice_parameter: 4.05e-10, atoms_per_cell: 4, dislocation_density: 1e15 },
  precipitates: [
    {
      phase: 'AL3ZR',
      interfacial_energy: 0.1,
      lattice_parameter: 4.05e-10,
      atoms_per_cell: 4,
      nucleation_site: 'dislocations',
    },
  ],
  outputs: 21,
};
const NI_AL_CR: AgingConfig = {
  composition: { NI: 0.819, AL: 0.098, CR: 0.083 },
  temperature: 1073,
  end_time: 1e6,
  matrix: { phase: 'FCC_A1', lattice_parameter: 3.52e-10, atoms_per_cell: 4 },
  precipitates: [{ phase: 'FCC_L12', interfacial_energy: 0.023, lattice_parameter: 3.52e-10, atoms_per_cell: 4 }],
  outputs: 15,
};

function run(sys: AgingSystem, config: AgingConfig): AgingResult {
  const r = simulateAging(sys, config);
  if (r instanceof Error) throw r;
  return r;
}

/** The mean radius's cube against time over the last `span` outputs: (r2^3 - r1^3) / (t2 - t1). */
function coarseningRate(r: AgingResult, phase: string, span: number): number {
  const p = r.phases[phase]!;
  const i2 = r.time.length - 1,
    i1 = i2 - span;
  return (p[i2]!.mean_radius ** 3 - p[i1]!.mean_radius ** 3) / (r.time[i2]! - r.time[i1]!);
}

/** d ln N / d ln t over the last `span` outputs. */
function densityExponent(r: AgingResult, phase: string, span: number): number {
  const p = r.phases[phase]!;
  const i2 = r.time.length - 1,
    i1 = i2 - span;
  return Math.log(p[i2]!.number_density / p[i1]!.number_density) / Math.log(r.time[i2]! / r.time[i1]!);
}

/**
 * The largest |x_alloy - (1 - f) x_matrix - f x_p| over the outputs and elements, recomputed from the recorded
 * volume fractions (atoms: volume over molar volume) and matrix compositions.
 */
function massBalance(r: AgingResult, alloy: Record<string, number>, phase: string, Vp: number, Vm: number): number {
  let worst = 0;
  r.time.forEach((_, i) => {
    const phi = r.phases[phase]![i]!.volume_fraction;
    const f = phi / Vp / (phi / Vp + (1 - phi) / Vm);
    for (const e of Object.keys(alloy)) {
      const xp = r.precipitate_composition[phase]?.[e] ?? 0;
      worst = Math.max(worst, Math.abs(alloy[e]! - (1 - f) * r.matrix_composition[i]![e]! - f * xp));
    }
  });
  return worst;
}

/** Relative differences of the end states (number density, mean radius, volume fraction). */
function endStateChange(a: AgingResult, b: AgingResult, phase: string): number {
  const pa = a.phases[phase]!.at(-1)!,
    pb = b.phases[phase]!.at(-1)!;
  const rel = (x: number, y: number) => Math.abs(x - y) / Math.abs(y);
  return Math.max(
    rel(pa.number_density, pb.number_density),
    rel(pa.mean_radius, pb.mean_radius),
    rel(pa.volume_fraction, pb.volume_fraction),
  );
}

const cubicVolume = (a: number) => (a ** 3 * AVOGADRO) / 4;

describe('KWN pieces', () => {
  it('classical nucleation: r*, the barrier and the Zeldovich factor as their closed forms', () => {
    const input = { drivingForce: 2000, molarVolume: 1e-5, gamma: 0.1, T: 700, spacing: 4e-10 };
    const n = nucleation({ ...input, diffusionResistance: 1e20, sites: 1e28, t: 1e3 })!;
    const dGv = 2000 / 1e-5;
    expect(n.criticalRadius).toBeCloseTo((2 * 0.1) / dGv, 20);
    expect(n.barrier / ((16 * Math.PI * 0.1 ** 3) / (3 * dGv * dGv))).toBeCloseTo(1, 12);
    expect(n.incubation * 2 * n.attachment * n.zeldovich ** 2).toBeCloseTo(1, 12);
    expect(n.rate).toBeGreaterThan(0);
    expect(nucleation({ ...input, drivingForce: -5, diffusionResistance: 1e20, sites: 1e28, t: 1e3 })).toBeNull();
  });

  it('the size grid remaps onto coarser bins keeping the number and the volume of the particles', () => {
    const g = new SizeGrid(1e-8, 100);
    for (let i = 20; i < 60; i++) g.number[i] = Math.exp(-((i - 40) ** 2) / 50) * 1e20;
    const [N, V] = [g.total(), g.volume()];
    g.remap(2e-8);
    expect(g.total() / N).toBeCloseTo(1, 12);
    expect(g.volume() / V).toBeCloseTo(1, 12);
  });

  it('a schedule interpolates ramps and holds; a constant temperature is a hold', () => {
    const s = scheduleOf([
      { t: 0, T: 300 },
      { t: 100, T: 500 },
      { t: 200, T: 500 },
    ]);
    if (s instanceof Error) throw s;
    expect(s.at(50)).toBeCloseTo(400, 12);
    expect(s.at(150)).toBe(500);
    expect(s.rate(0, 10)).toBeCloseTo(2, 12);
    expect(scheduleOf([{ t: 0, T: -1 }])).toBeInstanceOf(Error);
  });

  it('Al3Zr: the parallel-tangent driving force of a compound is sum mu x - G_m; the interface composition at a tiny curvature is the tie line', () => {
    const sys = alZr();
    const thermo = new AgingThermo(sys, 'FCC_A1', 101325);
    const state = thermo.matrixAt(723.15, { AL: 0.996, ZR: 0.004 }, false);
    const model = PhaseModel.build(sys.db, 'AL3ZR', sys.components)!;
    const y = Float64Array.from([1, 1]);
    const t = parallelTangent(model, 723.15, 101325, [state.mu.AL!, state.mu.ZR!], y);
    const G = model.properties(723.15, 101325, y).GM;
    expect(t.drivingForce).toBeCloseTo(0.75 * state.mu.AL! + 0.25 * state.mu.ZR! - G, 6);
    const line = thermo.tieLine('AL3ZR', 723.15, { AL: 0.996, ZR: 0.004 })!;
    const table = interfaceTableOf(thermo, 'AL3ZR', 723.15, 'ZR', 'AL', line);
    expect(interfaceComposition(table, 1e-6) / line.matrix.ZR!).toBeCloseTo(1, 4);
    // at r = 5 nm, against the dilute ideal Gibbs-Thomson x_eq exp(2 gamma V_m / (x_p R T r))
    const pressure = (2 * 0.1 * cubicVolume(4.05e-10)) / 5e-9;
    const dilute = line.matrix.ZR! * Math.exp(pressure / (0.25 * GAS_CONSTANT * 723.15));
    expect(Math.abs(interfaceComposition(table, pressure) / dilute - 1)).toBeLessThan(0.01);
  });
});

describe('KWN: Al-0.4Zr at 723.15 K, Al3Zr on dislocations', () => {
  const sys = alZr();
  const thermo = new AgingThermo(sys, 'FCC_A1', 101325);
  const line = thermo.tieLine('AL3ZR', 723.15, AL_ZR.composition)!;
  const Vm = cubicVolume(4.05e-10);

  it('reaches the equilibrium amount, coarsens at LSW rate with N ~ 1/t, keeps every atom', () => {
    const r = run(sys, AL_ZR);
    const end = r.phases.AL3ZR!.at(-1)!;
    // equal molar volumes: the volume fraction is the atom fraction
    expect(Math.abs(end.volume_fraction - line.amount) / line.amount).toBeLessThan(2e-3);
    const D = thermo.matrixAt(723.15, line.matrix).tracer.ZR!;
    const k = lswRateDilute(0.1, Vm, D, line.matrix.ZR!, line.precipitate.ZR!, 723.15);
    const measured = coarseningRate(r, 'AL3ZR', 5);
    const slope = densityExponent(r, 'AL3ZR', 5);
    console.log(
      `Al-Zr: f ${end.volume_fraction} against ${line.amount}; k ${measured} against LSW ${k}; N ~ t^${slope}`,
    );
    console.log(`Al-Zr: steps ${r.steps}, mass balance ${r.mass_balance_error}`);
    expect(Math.abs(measured / k - 1)).toBeLessThan(0.1);
    expect(densityExponent(r, 'AL3ZR', 5)).toBeGreaterThan(-1.05);
    expect(densityExponent(r, 'AL3ZR', 5)).toBeLessThan(-0.95);
    expect(r.mass_balance_error).toBeLessThan(1e-6);
    expect(massBalance(r, AL_ZR.composition, 'AL3ZR', Vm, Vm)).toBeLessThan(1e-6);
  }, 120_000);

  it('halving the time-step control changes the state after 500 h by under 1 %', () => {
    const config = { ...AL_ZR, end_time: 1.8e6 };
    const a = run(sys, config);
    const b = run(sys, { ...config, step_control: { courant: 0.2, supersaturation: 0.01 } });
    console.log(`Al-Zr 500 h: steps ${a.steps} and ${b.steps}, change ${endStateChange(b, a, 'AL3ZR')}`);
    expect(endStateChange(b, a, 'AL3ZR')).toBeLessThan(0.01);
  }, 120_000);
});

describe('KWN: Ni-9.8Al-8.3Cr at 1073 K, gamma-prime in gamma', () => {
  const sys = niAlCr();
  const thermo = new AgingThermo(sys, 'FCC_A1', 101325);
  const line = thermo.tieLine('FCC_L12', 1073, NI_AL_CR.composition)!;
  const Vm = cubicVolume(3.52e-10);

  it('reaches the equilibrium amount, coarsens at the multicomponent LSW rate with N ~ 1/t, keeps every atom', () => {
    const a = run(sys, NI_AL_CR);
    const end = a.phases.FCC_L12!.at(-1)!;
    expect(Math.abs(end.volume_fraction - line.amount) / line.amount).toBeLessThan(0.02);
    const state = thermo.matrixAt(1073, line.matrix);
    const resistance = growthResistance(state, thermo.matrixModel.info.elements, line.precipitate)!;
    const k = lswRate(0.023, Vm, resistance);
    const measured = coarseningRate(a, 'FCC_L12', 4);
    const slope = densityExponent(a, 'FCC_L12', 4);
    console.log(
      `Ni-Al-Cr: f ${end.volume_fraction} against ${line.amount}; k ${measured} against LSW ${k}; N ~ t^${slope}`,
    );
    expect(Math.abs(measured / k - 1)).toBeLessThan(0.1);
    expect(densityExponent(a, 'FCC_L12', 4)).toBeGreaterThan(-1.05);
    expect(densityExponent(a, 'FCC_L12', 4)).toBeLessThan(-0.95);
    expect(massBalance(a, NI_AL_CR.composition, 'FCC_L12', Vm, Vm)).toBeLessThan(1e-6);
    const b = run(sys, { ...NI_AL_CR, step_control: { courant: 0.2, supersaturation: 0.01 } });
    console.log(`Ni-Al-Cr: steps ${a.steps} and ${b.steps}, change ${endStateChange(b, a, 'FCC_L12')}`);
    expect(endStateChange(b, a, 'FCC_L12')).toBeLessThan(0.01);
  }, 180_000);

  it('the parallel tangent keeps gamma-prime ordered: its composition near the tie line, its driving force positive', () => {
    const state = thermo.matrixAt(1073, NI_AL_CR.composition, false);
    const t = thermo.drivingForce('FCC_L12', state, line.y);
    expect(t.drivingForce).toBeGreaterThan(100);
    expect(Math.abs(t.x.AL! - line.precipitate.AL!)).toBeLessThan(0.03);
  });
});

describe('KWN: gamma-prime dissolving above its solvus', () => {
  it('precipitates at 1073 K, dissolves completely after a ramp to 1250 K (above the solvus), the matrix back at the alloy', () => {
    const r = run(niAlCr(), {
      ...NI_AL_CR,
      temperature: [
        { t: 0, T: 1073 },
        { t: 1000, T: 1073 },
        { t: 1100, T: 1250 },
        { t: 1e4, T: 1250 },
      ],
      end_time: 3000,
      outputs: 30,
    });
    const before = r.time.filter((t) => t <= 1000).length - 1;
    expect(r.phases.FCC_L12![before]!.volume_fraction).toBeGreaterThan(0.05);
    const end = r.phases.FCC_L12!.at(-1)!;
    expect(end.volume_fraction).toBe(0);
    expect(end.driving_force).toBeLessThan(0);
    for (const e of ['NI', 'AL', 'CR'])
      expect(r.matrix_composition.at(-1)![e]).toBeCloseTo(NI_AL_CR.composition[e]!, 9);
    console.log(`reversion: steps ${r.steps}, f ${r.phases.FCC_L12![before]!.volume_fraction} at ${r.time[before]} s`);
  }, 120_000);
});

describe('KWN: a ramp and a hold, two phases competing for zirconium', () => {
  const sys = alZr();
  const config: AgingConfig = {
    ...AL_ZR,
    temperature: [
      { t: 0, T: 573 },
      { t: 3600, T: 723.15 },
      { t: 4e5, T: 723.15 },
    ],
    end_time: 3.6e5,
    precipitates: [
      AL_ZR.precipitates[0]!,
      { phase: 'AL3SC', interfacial_energy: 0.05, lattice_parameter: 4.05e-10, atoms_per_cell: 4 },
    ],
    outputs: 12,
  };

  it('follows the schedule, accounts for the atoms of both phases and approaches the equilibrium amount', () => {
    const r = run(sys, config);
    const Vm = cubicVolume(4.05e-10);
    r.time.forEach((t, i) => {
      const expected = t < 3600 ? 573 + ((723.15 - 573) * t) / 3600 : 723.15;
      expect(Math.abs(r.temperature[i]! - expected)).toBeLessThanOrEqual(0.5);
    });
    let worst = 0;
    r.time.forEach((_, i) => {
      const atoms = ['AL3ZR', 'AL3SC'].map((p) => r.phases[p]![i]!.volume_fraction / Vm);
      const total =
        atoms[0]! + atoms[1]! + (1 - r.phases.AL3ZR![i]!.volume_fraction - r.phases.AL3SC![i]!.volume_fraction) / Vm;
      const f = atoms.map((a) => a / total);
      for (const e of ['AL', 'ZR']) {
        const inPhases = ['AL3ZR', 'AL3SC'].reduce(
          (a, p, j) => a + f[j]! * (r.precipitate_composition[p]?.[e] ?? 0),
          0,
        );
        const back = (1 - f[0]! - f[1]!) * r.matrix_composition[i]![e]! + inPhases;
        worst = Math.max(worst, Math.abs(back - config.composition[e]!));
      }
    });
    expect(worst).toBeLessThan(1e-6);
    const line = new AgingThermo(sys, 'FCC_A1', 101325).tieLine('AL3ZR', 723.15, config.composition)!;
    const total = r.phases.AL3ZR!.at(-1)!.volume_fraction + r.phases.AL3SC!.at(-1)!.volume_fraction;
    console.log(`ramp: steps ${r.steps}, f ${total} against ${line.amount}`);
    expect(Math.abs(total - line.amount) / line.amount).toBeLessThan(0.03);
  }, 120_000);

  it('notes a phase the alloy is undersaturated for (the metastable L1_2 at 723.15 K)', () => {
    const r = run(sys, { ...AL_ZR, end_time: 1e3, precipitates: [config.precipitates[1]!] });
    expect(r.notes.join()).toMatch(/AL3SC: the alloy is undersaturated/);
    expect(r.phases.AL3SC!.at(-1)!.volume_fraction).toBe(0);
  });

  it('a matrix given by its molar volume nucleates as the same matrix given by its cubic cell (a = (4 V_m / N_A)^1/3)', () => {
    const short = { ...AL_ZR, end_time: 3e4, outputs: 11 };
    const byCell = run(sys, short);
    const byVolume = run(sys, {
      ...short,
      matrix: { ...short.matrix, lattice_parameter: undefined, molar_volume: cubicVolume(4.05e-10) },
    });
    const [a, b] = [byCell.phases.AL3ZR!.at(-1)!, byVolume.phases.AL3ZR!.at(-1)!];
    expect(a.number_density).toBeGreaterThan(1e20);
    expect(b.number_density / a.number_density).toBeCloseTo(1, 9);
    expect(b.mean_radius / a.mean_radius).toBeCloseTo(1, 9);
  });

  it('names the missing input: dislocation nucleation without a dislocation density', () => {
    const r = simulateAging(sys, { ...AL_ZR, matrix: { ...AL_ZR.matrix, dislocation_density: undefined } });
    expect(r).toBeInstanceOf(Error);
    expect((r as Error).message).toMatch(/matrix\.dislocation_density/);
  });
});
