// Warm start of the equilibrium solver (options.warmStart of equilibriumBatch, options.start of
// equilibrium; native-core/src/solver/warm_start.cpp, warm_sets): along a line of neighbouring conditions
// each solve starts Newton from the previous converged state instead of the convex hull (§8.7); the grid
// re-scan with the final μ (§8.5 outer loop) still certifies every answer. The warm results must be the
// cold results: the same stable phase sets and the same amounts, compositions, μ and energies within the
// solver's tolerance, across phase boundaries crossed in both directions.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { openDatabase } from '../../../worker/core/database.js';
import {
  equilibrium,
  equilibriumBatch,
  type EquilibriumConditions,
  type EquilibriumResult,
} from '../../../worker/core/equilibrium.js';
import type { NativeDatabase } from '../../../worker/core/native.js';

const TDB = path.resolve(__dirname, '../../../../shared/tdb');

// Tolerances: Newton stops at |Δy| < 1e-10 and mass balance 2e-11 (§8.5), so two converged answers of
// the same equilibrium agree far better than these.
const TOL_X = 1e-7; // phase compositions and amounts
const TOL_MU = 1e-4; // J/mol
const TOL_G = 1e-5; // J/mol of atoms (GM, HM), J/(mol K) for SM
const TOL_DF = 1e-3; // J/mol of atoms, driving forces of metastable phases

// Stable sets in a canonical order (phase name, then composition) so that miscibility-gap sets pair up.
function canonical(r: EquilibriumResult): EquilibriumResult['phases'] {
  const el = r.elements;
  return [...r.phases].sort(
    (a, b) =>
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      el.map((e) => a.x[e] - b.x[e]).find((d) => Math.abs(d) > 1e-6) ||
      0,
  );
}

function phaseSet(r: EquilibriumResult): string {
  return canonical(r)
    .map((p) => p.name)
    .join('+');
}

/**
 * Asserts that a warm-started result is the cold one; returns the number of metastable phases for which
 * the warm start found a higher local maximum of the driving force than the cold start.
 */
function expectSame(warm: EquilibriumResult, cold: EquilibriumResult, tag: string): number {
  expect(cold.converged, `${tag} cold: ${cold.reason}`).toBe(true);
  expect(warm.converged, `${tag} warm: ${warm.reason}`).toBe(true);
  expect(phaseSet(warm), tag).toBe(phaseSet(cold));
  const el = cold.elements;
  expect(warm.elements).toEqual(el);
  const ws = canonical(warm),
    cs = canonical(cold);
  for (let i = 0; i < cs.length; i++) {
    expect(Math.abs(ws[i].NP - cs[i].NP), `${tag} NP(${cs[i].name})`).toBeLessThanOrEqual(TOL_X);
    for (const e of el)
      expect(Math.abs(ws[i].x[e] - cs[i].x[e]), `${tag} X(${cs[i].name},${e})`).toBeLessThanOrEqual(TOL_X);
    expect(ws[i].y.length).toBe(cs[i].y.length);
    expect(Math.abs(ws[i].GM - cs[i].GM), `${tag} GM(${cs[i].name})`).toBeLessThanOrEqual(TOL_G);
  }
  for (const e of el) {
    expect(Math.abs(warm.mu[e] - cold.mu[e]), `${tag} MU(${e})`).toBeLessThanOrEqual(TOL_MU);
    expect(Math.abs(warm.x[e] - cold.x[e]), `${tag} X(${e})`).toBeLessThanOrEqual(1e-10);
  }
  expect(Math.abs(warm.GM - cold.GM), `${tag} GM`).toBeLessThanOrEqual(TOL_G);
  expect(Math.abs(warm.HM - cold.HM), `${tag} HM`).toBeLessThanOrEqual(TOL_G);
  expect(Math.abs(warm.SM - cold.SM), `${tag} SM`).toBeLessThanOrEqual(TOL_G);
  // The same metastable phases with the same driving forces. A metastable phase's DF is the maximum of
  // the relaxed driving force (§9.2), reached from a grid seed chosen at the starting μ: the cold start
  // seeds at the hull's μ, the warm start at the converged μ of the new conditions, so on a phase with two
  // local maxima the warm start can land on the higher one. It must never report a lower one.
  expect(warm.metastable.map((m) => m.name).sort(), tag).toEqual(cold.metastable.map((m) => m.name).sort());
  let higher = 0;
  for (const m of cold.metastable) {
    const w = warm.metastable.find((k) => k.name === m.name)!;
    expect(w.DF, `${tag} DF(${m.name})`).toBeGreaterThanOrEqual(m.DF - TOL_DF);
    if (w.DF > m.DF + TOL_DF) higher++;
  }
  return higher;
}

interface Line {
  db: NativeDatabase;
  components: string[];
  phases?: string[];
  conditions: EquilibriumConditions[];
}

/** Runs a line cold and warm (1 and 2 threads) and compares point by point; returns the phase sets met. */
function compareLine(line: Line, label: string): string[] {
  const base = { database: line.db, components: line.components, phases: line.phases, conditions: line.conditions };
  const cold = equilibriumBatch({ ...base, threads: 1 });
  const warm = equilibriumBatch({ ...base, threads: 1, options: { warmStart: true } });
  const warm2 = equilibriumBatch({ ...base, threads: 2, options: { warmStart: true } });
  expect(warm.length).toBe(cold.length);
  expect(warm2.length).toBe(cold.length);
  let higher = 0;
  for (let i = 0; i < cold.length; i++) {
    const tag = `${label} #${i} ${JSON.stringify(line.conditions[i])}`;
    higher += expectSame(warm[i], cold[i], tag);
    higher += expectSame(warm2[i], cold[i], `${tag} (2 threads)`);
  }
  // such branch changes are rare exceptions, not the rule
  expect(higher, label).toBeLessThanOrEqual(Math.ceil(0.05 * cold.length));
  const sets: string[] = [];
  for (const r of cold) if (sets[sets.length - 1] !== phaseSet(r)) sets.push(phaseSet(r));
  return sets;
}

function range(a: number, b: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => a + ((b - a) * i) / (n - 1));
}

describe('warm start along lines (equilibriumBatch options.warmStart)', () => {
  const alzn = openDatabase(path.join(TDB, 'alzn_mey.tdb'));
  const AZ = ['AL', 'ZN', 'VA'];

  it('Al-Zn T scan at X(ZN)=0.4 through the FCC miscibility gap, the monotectoid and the liquidus, up and down', () => {
    const up = range(400, 900, 200).map((T) => ({ T, X: { ZN: 0.4 } }));
    const setsUp = compareLine({ db: alzn, components: AZ, conditions: up }, 'T up');
    // the line really crosses phase boundaries: FCC+HCP, FCC#1+FCC#2, FCC, FCC+LIQUID, LIQUID
    expect(setsUp.length).toBeGreaterThanOrEqual(4);
    expect(setsUp).toContain('FCC_A1+FCC_A1');
    expect(setsUp).toContain('LIQUID');
    const setsDown = compareLine({ db: alzn, components: AZ, conditions: [...up].reverse() }, 'T down');
    expect(setsDown).toEqual([...setsUp].reverse());
  });

  it('Al-Zn composition scans across the two-phase fields and the eutectic, both directions', () => {
    for (const T of [500, 660]) {
      const xs = range(0.01, 0.99, 80);
      const up = xs.map((x) => ({ T, X: { ZN: x } }));
      const setsUp = compareLine({ db: alzn, components: AZ, conditions: up }, `X up ${T} K`);
      // 500 K: FCC, FCC+HCP; 660 K (above the eutectic): FCC, FCC+LIQUID, LIQUID, LIQUID+HCP, ...
      expect(setsUp.length).toBeGreaterThanOrEqual(T === 500 ? 2 : 4);
      const setsDown = compareLine({ db: alzn, components: AZ, conditions: [...up].reverse() }, `X down ${T} K`);
      expect(setsDown).toEqual([...setsUp].reverse());
    }
  });

  it('Cr-Ti-V (ternary): T scan and composition scan across phase boundaries', () => {
    const db = openDatabase(path.join(TDB, 'crtiv_ghosh.tdb'));
    const comps = ['CR', 'TI', 'V', 'VA'];
    const phases = db.phasesFor(['CR', 'TI', 'V']);
    const tScan = range(700, 2300, 40).map((T) => ({ T, X: { CR: 0.5, TI: 0.3 } }));
    const setsT = compareLine({ db, components: comps, phases, conditions: tScan }, 'CrTiV T');
    expect(setsT.length).toBeGreaterThanOrEqual(2);
    const xScan = range(0.02, 0.9, 40).map((x) => ({ T: 1000, X: { CR: x, TI: (1 - x) * 0.5 } }));
    const setsX = compareLine({ db, components: comps, phases, conditions: xScan }, 'CrTiV X');
    expect(setsX.length).toBeGreaterThanOrEqual(2);
    compareLine({ db, components: comps, phases, conditions: [...xScan].reverse() }, 'CrTiV X down');
  });

  it('gives the same dot derivatives (§9.4) as cold starts', () => {
    const conditions = range(500, 900, 41).map((T) => ({ T, X: { ZN: 0.4 } }));
    const options = { derivatives: ['HM.T', 'MU(AL).X(ZN)', 'NP(FCC_A1).T'] };
    const cold = equilibriumBatch({ database: alzn, components: AZ, conditions, options });
    const warm = equilibriumBatch({
      database: alzn,
      components: AZ,
      conditions,
      options: { ...options, warmStart: true },
    });
    for (let i = 0; i < cold.length; i++) {
      expectSame(warm[i], cold[i], `T=${conditions[i].T}`);
      for (const k of options.derivatives) {
        const a = cold[i].derivatives[k],
          b = warm[i].derivatives[k];
        if (Number.isNaN(a)) expect(b, k).toBeNaN();
        else
          expect(Math.abs(a - b), `${k} at T=${conditions[i].T}`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(a)));
      }
    }
  });

  it('leaves non-converging and invalid conditions to the cold path (errors stay per point)', () => {
    const conds: EquilibriumConditions[] = [
      { T: 600, X: { ZN: 0.4 } },
      { T: 600, X: { ZN: 1.5 } },
      { T: 610, X: { ZN: 0.4 } },
      { T: -1, X: { ZN: 0.4 } },
      { T: 620, X: { ZN: 0.4 } },
    ];
    const cold = equilibriumBatch({ database: alzn, components: AZ, conditions: conds });
    const warm = equilibriumBatch({ database: alzn, components: AZ, conditions: conds, options: { warmStart: true } });
    for (const i of [1, 3]) {
      expect(warm[i].converged).toBe(false);
      expect(warm[i].reason).toBe(cold[i].reason);
      expect(warm[i].reason).toMatch(/^error: /);
    }
    for (const i of [0, 2, 4]) expectSame(warm[i], cold[i], `point ${i}`);
  });
});

describe('warm start of a single equilibrium (options.start)', () => {
  const alzn = openDatabase(path.join(TDB, 'alzn_mey.tdb'));
  const AZ = ['AL', 'ZN', 'VA'];

  it('starting from the previous step gives the cold answer, across the gap and the liquidus', () => {
    let prev: EquilibriumResult | undefined;
    for (const T of range(560, 760, 41)) {
      const conditions = { T, X: { ZN: 0.4 } };
      const cold = equilibrium({ database: alzn, components: AZ, conditions });
      const warm = equilibrium({ database: alzn, components: AZ, conditions, options: { start: prev } });
      expectSame(warm, cold, `T=${T}`);
      prev = warm;
    }
  });

  it('a start that does not fit (other system, not converged, far away) still gives the cold answer', () => {
    const conditions = { T: 600, X: { ZN: 0.3 } };
    const cold = equilibrium({ database: alzn, components: AZ, conditions });
    const liquidOnly = equilibrium({
      database: alzn,
      components: AZ,
      phases: ['LIQUID'],
      conditions: { T: 900, X: { ZN: 0.9 } },
    });
    const far = equilibrium({ database: alzn, components: AZ, conditions: { T: 1000, X: { ZN: 0.95 } } });
    const notConverged = { ...far, converged: false };
    const crtiv = openDatabase(path.join(TDB, 'crtiv_ghosh.tdb'));
    const other = equilibrium({
      database: crtiv,
      components: ['CR', 'TI', 'V', 'VA'],
      phases: ['BCC_A2'],
      conditions: { T: 1500, X: { CR: 0.3, TI: 0.3 } },
    });
    for (const start of [liquidOnly, far, notConverged, other]) {
      const warm = equilibrium({ database: alzn, components: AZ, conditions, options: { start } });
      expectSame(warm, cold, `start ${start.phases.map((p) => p.name).join('+')}`);
    }
    // a miscibility-gap start (two FCC_A1 sets) does not fit a single-set solve
    const gap = equilibrium({ database: alzn, components: AZ, conditions: { T: 600, X: { ZN: 0.3 } } });
    expect(gap.phases.map((p) => p.name)).toEqual(['FCC_A1', 'FCC_A1']);
    const coldSingle = equilibrium({ database: alzn, components: AZ, conditions, options: { singleSet: true } });
    const warmSingle = equilibrium({
      database: alzn,
      components: AZ,
      conditions,
      options: { singleSet: true, start: gap },
    });
    expect(warmSingle.phases.map((p) => p.name)).toEqual(['FCC_A1']);
    expectSame(warmSingle, coldSingle, 'singleSet from a gap');
    // a wrong type is a usage error, reported as such
    expect(() =>
      equilibrium({
        database: alzn,
        components: AZ,
        conditions,
        options: { start: 42 as unknown as EquilibriumResult },
      }),
    ).toThrow(/options.start/);
  });

  it('a start from a two-phase field leaves no second set of an ordered compound at a negligible amount', () => {
    // mc_al Al-Ti at 335.42 K: from AL3TI_L + AL2TI at x(Ti) = 0.25, Newton arrives at x(Ti) = 0.5 (one ulp
    // below, as a scan's step lands there) with the other ordering variant of L1_0 AlTi at x(Ti) = 0.49995
    // holding 1.6e-8 of the atoms, certified 3e-4 J/mol above the single set (certify.cpp, drop_negligible_twin)
    const mcal = openDatabase(path.join(TDB, 'mc_al_v2.032.pycalphad.tdb'));
    const base = { database: mcal, components: ['AL', 'TI', 'VA'], phases: mcal.phasesFor(['AL', 'TI']) };
    const xlo = 1e-6,
      xhi = 1 - 1e-6;
    const at = (s: number) => ({ T: 335.42, P: 101325, X: { TI: xlo + (xhi - xlo) * s } });
    const cold = equilibrium({ ...base, conditions: at(0.5) });
    expect(phaseSet(cold)).toBe('ALTI');
    for (const from of [0.25, 0.275, 0.3]) {
      const start = equilibrium({ ...base, conditions: at(from) });
      expect(start.phases.length).toBe(2);
      const [warm] = equilibriumBatch({
        ...base,
        conditions: [at(0.5)],
        threads: 1,
        options: { warmStart: true, start },
      });
      expectSame(warm, cold, `from x(Ti) = ${from}`);
    }
  });
});
