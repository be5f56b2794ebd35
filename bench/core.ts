// `npm run bench:core`: energy + gradient + Hessian evaluations per second per phase for one binary
// (alzn_mey.tdb) and one multicomponent database (alcocrni.tdb), single-threaded and with OpenMP on
// all cores; then warm point equilibria with the goal of each next to it, the first equilibrium of a
// 7-component alloy (models and grids built) and an Al-Zn grid of equilibria. Prints medians of several
// repetitions. Databases are looked for in $PHASEDESK_BENCH_TDB_DIR, else ../shared/tdb next to the
// repository (the shared test databases are not part of the repo). BENCH_SECTIONS=models,equilibrium,grid,compare
// (default all) runs only the named sections. PHASEDESK_BENCH_BEFORE=path/to/phasedesk_core.node (an addon
// built from an earlier revision) times the warm points with that addon too, interleaved with this one in the
// same run, and prints both with the difference of their Gibbs energies; the section `compare` (with it) solves
// random points of each of those systems with both addons and prints the largest difference.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadCore } from '../worker/core/native.js';
import { PhaseModel, coreMaxThreads } from '../worker/core/models.js';
import { equilibrium, equilibriumBatch, type EquilibriumConditions } from '../worker/core/equilibrium.js';
import { beforeCore, tdbDir, median } from './support.js';

interface Setup {
  file: string;
  components: string[];
  T: number;
}

const SETUPS: Setup[] = [
  { file: 'alzn_mey.tdb', components: ['AL', 'ZN', 'VA'], T: 700 },
  { file: 'alcocrni.tdb', components: ['AL', 'CO', 'CR', 'NI', 'VA'], T: 1273 },
];
const POINTS = Number(process.env.BENCH_POINTS ?? 20000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const SECTIONS = new Set(
  (process.env.BENCH_SECTIONS ?? 'models,equilibrium,grid,compare').split(',').map((s) => s.trim()),
);

function randomPoints(m: PhaseModel, n: number, seed: number): Float64Array {
  let s = seed >>> 0;
  const rand = () => ((s = (s * 1664525 + 1013904223) >>> 0) + 0.5) / 4294967296;
  const vars = m.variables;
  const Y = new Float64Array(n * vars.length);
  for (let p = 0; p < n; p++) {
    for (let sub = 0; sub < m.info.numSublattices; sub++) {
      let sum = 0;
      vars.forEach((v, k) => {
        if (v.sublattice === sub) sum += Y[p * vars.length + k] = -Math.log(rand());
      });
      vars.forEach((v, k) => {
        if (v.sublattice === sub) Y[p * vars.length + k] /= sum;
      });
    }
  }
  return Y;
}

function rate(m: PhaseModel, T: number, Y: Float64Array, n: number, threads: number): number {
  m.evaluateBatch(T, 101325, Y.subarray(0, Math.min(n, 100) * m.variables.length), 2, threads); // warm-up
  const rates: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const t0 = process.hrtime.bigint();
    m.evaluateBatch(T, 101325, Y, 2, threads);
    const dt = Number(process.hrtime.bigint() - t0) / 1e9;
    rates.push(n / dt);
  }
  return median(rates);
}

function main(): void {
  const core = loadCore();
  const threads = coreMaxThreads();
  const dir = tdbDir();
  console.log(
    `phase models: energy + gradient + Hessian evaluations per second (median of ${REPEATS}, ${POINTS} points)`,
  );
  console.log(`threads: 1 and ${threads} (OpenMP)`);
  for (const s of SETUPS) {
    const file = path.join(dir, s.file);
    if (!existsSync(file)) {
      console.log(`${s.file}: not found in ${dir} (set PHASEDESK_BENCH_TDB_DIR)`);
      continue;
    }
    const db = core.Database.fromFile(file);
    const phases = db.phasesFor(s.components.filter((c) => c !== 'VA'));
    console.log(`\n${s.file} (${s.components.join(',')}, T = ${s.T} K)`);
    console.log(
      `${'phase'.padEnd(16)} ${'vars'.padStart(4)} ${'1 thread /s'.padStart(14)} ${`${threads} threads /s`.padStart(14)}`,
    );
    for (const name of phases) {
      let m: PhaseModel | null;
      try {
        m = PhaseModel.build(db, name, s.components);
      } catch (err) {
        console.log(`${name.padEnd(16)} refused: ${err instanceof Error ? err.message : String(err)}`);
        continue;
      }
      if (!m) continue;
      const Y = randomPoints(m, POINTS, 42);
      const r1 = rate(m, s.T, Y, POINTS, 1);
      const rN = rate(m, s.T, Y, POINTS, threads);
      console.log(
        `${name.padEnd(16)} ${String(m.variables.length).padStart(4)} ${r1.toExponential(3).padStart(14)} ${rN.toExponential(3).padStart(14)}`,
      );
    }
  }
}

interface PointSetup {
  label: string;
  file: string;
  components: string[];
  phases?: string[];
  conditions: EquilibriumConditions;
  repeats: number;
  /** the speed goal for one warm point, ms (10x faster than OpenCalphad's CPU time per point on these machines) */
  goal: number;
}

// The reference points of the speed goals: OpenCalphad measured 0.22 ms (Al-Zn, two FCC sets), 3.3 ms
// (Al-Fe), 4.6 ms (Cr-Ti-V) and 14-17 ms (Al-Co-Cr-Ni) per point on these machines; the goal is a tenth.
const ALCOCRNI = ['AL', 'CO', 'CR', 'NI', 'VA'];
const POINT_SETUPS: PointSetup[] = [
  {
    label: 'Al-Zn 600 K X(ZN)=0.3',
    file: 'alzn_mey.tdb',
    components: ['AL', 'ZN', 'VA'],
    phases: ['FCC_A1', 'HCP_A3', 'LIQUID'],
    conditions: { T: 600, P: 101325, X: { ZN: 0.3 } },
    repeats: 200,
    goal: 0.022,
  },
  {
    label: 'Al-Fe 1000 K X(AL)=0.3 (every phase)',
    file: 'alfe.tdb',
    components: ['AL', 'FE', 'VA'],
    conditions: { T: 1000, P: 101325, X: { AL: 0.3 } },
    repeats: 100,
    goal: 0.33,
  },
  {
    label: 'Cr-Ti-V 1000 K X(CR)=0.2 X(TI)=0.3 (every phase)',
    file: 'crtiv_ghosh.tdb',
    components: ['CR', 'TI', 'V', 'VA'],
    conditions: { T: 1000, P: 101325, X: { CR: 0.2, TI: 0.3 } },
    repeats: 50,
    goal: 0.46,
  },
  {
    label: 'Al-Co-Cr-Ni 1523 K equal fractions (every phase)',
    file: 'alcocrni.tdb',
    components: ALCOCRNI,
    conditions: { T: 1523, P: 101325, X: { AL: 0.25, CO: 0.25, CR: 0.25 } },
    repeats: 20,
    goal: 1.5,
  },
  {
    label: 'Ni-10Al-10Co-15Cr 1523 K (every phase)',
    file: 'alcocrni.tdb',
    components: ALCOCRNI,
    conditions: { T: 1523, P: 101325, X: { AL: 0.1, CO: 0.1, CR: 0.15 } },
    repeats: 20,
    goal: 1.5,
  },
];

// The 7-component Al alloy of the speed goals (COST507, every phase): first equilibrium after the database is
// loaded (phase models and sampling grids built in the call), then warm points.
const AL_ALLOY = {
  label: 'Al-Zn-Mg-Cu-Si-Fe-Mn 900 K (COST507, every phase)',
  file: 'COST507.tdb',
  components: ['AL', 'ZN', 'MG', 'CU', 'SI', 'FE', 'MN', 'VA'],
  conditions: {
    T: 900,
    P: 101325,
    X: { ZN: 0.025, MG: 0.029, CU: 0.007, SI: 0.002, FE: 0.002, MN: 0.001 },
  } as EquilibriumConditions,
  firstGoal: 200,
};

function timeMs(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

function verdict(value: number, goal: number): string {
  return `goal < ${goal} ms: ${value < goal ? 'met' : 'not met'}`;
}

function benchEquilibria(dir: string): void {
  const core = loadCore();
  const before = beforeCore();
  console.log(
    '\nequilibrium: one point, warm (database loaded, models built), median ms' +
      (before ? `; before = ${process.env.PHASEDESK_BENCH_BEFORE}, timed alternately in this run` : ''),
  );
  for (const s of POINT_SETUPS) {
    const file = path.join(dir, s.file);
    if (!existsSync(file)) {
      console.log(`${s.label}: ${s.file} not found`);
      continue;
    }
    const database = core.Database.fromFile(file);
    const req = { database, components: s.components, phases: s.phases, conditions: s.conditions };
    let r = equilibrium(req);
    const beforeDb = before?.Database.fromFile(file);
    const phaseList = s.phases && s.phases.length ? s.phases : null;
    let rb = before && beforeDb ? before.equilibrium(beforeDb, s.components, phaseList, s.conditions) : null;
    const times: number[] = [];
    const beforeTimes: number[] = [];
    for (let i = 0; i < s.repeats; i++) {
      times.push(
        timeMs(() => {
          r = equilibrium(req);
        }),
      );
      if (before && beforeDb)
        beforeTimes.push(
          timeMs(() => {
            rb = before.equilibrium(beforeDb, s.components, phaseList, s.conditions);
          }),
        );
    }
    const batch = timeMs(() =>
      equilibriumBatch({ ...req, conditions: Array.from({ length: 100 }, () => s.conditions), threads: 1 }),
    );
    const phases = r.phases.map((p) => p.name).join('+');
    const t = median(times);
    const was = rb
      ? `; before ${median(beforeTimes).toFixed(3)} ms (${rb.phases.map((p) => p.name).join('+')}, ` +
        `G now - before ${(r.GM - rb.GM).toExponential(1)} J/mol)`
      : '';
    console.log(
      `${s.label}: ${t.toFixed(3)} ms (converged ${r.converged}, ${phases}; ${verdict(t, s.goal)})${was}; 100 in one call ${batch.toFixed(1)} ms`,
    );
  }
  const file = path.join(dir, AL_ALLOY.file);
  if (!existsSync(file)) {
    console.log(`${AL_ALLOY.label}: ${AL_ALLOY.file} not found`);
    return;
  }
  const alloy = { components: AL_ALLOY.components, conditions: AL_ALLOY.conditions };
  const firsts: number[] = [];
  let database = core.Database.fromFile(file);
  let r = equilibrium({ database, ...alloy });
  for (let k = 0; k < 3; k++) {
    database = core.Database.fromFile(file); // a new database: models and grids are built again
    firsts.push(
      timeMs(() => {
        r = equilibrium({ database, ...alloy });
      }),
    );
  }
  const warm: number[] = [];
  for (let i = 0; i < 10; i++)
    warm.push(
      timeMs(() => {
        r = equilibrium({ database, ...alloy });
      }),
    );
  const first = median(firsts);
  console.log(
    `${AL_ALLOY.label}: first ${first.toFixed(1)} ms (${verdict(first, AL_ALLOY.firstGoal)}), warm ` +
      `${median(warm).toFixed(3)} ms (converged ${r.converged}, ${r.phases.map((p) => p.name).join('+')})`,
  );
}

function benchGrid(dir: string, threads: number): void {
  const core = loadCore();
  const file = path.join(dir, 'alzn_mey.tdb');
  if (!existsSync(file)) return;
  const database = core.Database.fromFile(file);
  const grid: EquilibriumConditions[] = [];
  for (let i = 0; i < 100; i++)
    for (let j = 0; j < 100; j++) grid.push({ T: 300 + 6 * i, P: 101325, X: { ZN: 0.005 + 0.0099 * j } });
  console.log('\nequilibrium: Al-Zn 100 x 100 temperature-composition grid (300-894 K, X(ZN) 0.005-0.985)');
  for (const th of [...new Set([1, threads])]) {
    const runs: number[] = [];
    let converged = 0;
    for (let rep = 0; rep < 3; rep++) {
      const t0 = process.hrtime.bigint();
      const rs = equilibriumBatch({
        database,
        components: ['AL', 'ZN', 'VA'],
        phases: ['FCC_A1', 'HCP_A3', 'LIQUID'],
        conditions: grid,
        threads: th,
      });
      runs.push(grid.length / (Number(process.hrtime.bigint() - t0) / 1e9));
      converged = rs.filter((x) => x.converged).length;
    }
    console.log(
      `${th} thread(s): ${median(runs).toFixed(0)} equilibria/s (median of 3; ${converged}/${grid.length} converged)`,
    );
  }
}

// With PHASEDESK_BENCH_BEFORE: both addons at the same random points of each system of the warm points (random
// T and composition; a fixed seed), and the largest difference of the Gibbs energies and of the phase sets.
function compareWithBefore(dir: string): void {
  const before = beforeCore();
  if (!before) return;
  const core = loadCore();
  const points = Number(process.env.BENCH_COMPARE_POINTS ?? 200);
  console.log(`\nthis addon against ${process.env.PHASEDESK_BENCH_BEFORE}: ${points} random points per system`);
  const seen = new Set<string>();
  for (const s of POINT_SETUPS) {
    const key = `${s.file}:${s.components.join(',')}:${(s.phases ?? []).join(',')}`;
    const file = path.join(dir, s.file);
    if (seen.has(key) || !existsSync(file)) continue;
    seen.add(key);
    const db = core.Database.fromFile(file);
    const dbBefore = before.Database.fromFile(file);
    const phases = s.phases && s.phases.length ? s.phases : null;
    const free = Object.keys(s.conditions.X ?? {});
    let seed = 7;
    const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) + 0.5) / 4294967296;
    let maxDG = 0,
      differ = 0,
      convergence = 0,
      compared = 0;
    let worst = '';
    for (let i = 0; i < points; i++) {
      const w = s.components.filter((c) => c !== 'VA').map(() => -Math.log(rand()));
      const sum = w.reduce((a, b) => a + b, 0);
      const X: Record<string, number> = {};
      free.forEach((el, k) => {
        X[el] = Math.max(1e-3, w[k]! / sum);
      });
      const conditions = { T: 500 + 1400 * rand(), P: 101325, X };
      const now = core.equilibrium(db, s.components, phases, conditions);
      const was = before.equilibrium(dbBefore, s.components, phases, conditions);
      if (now.converged !== was.converged) convergence++;
      if (!now.converged || !was.converged) continue;
      compared++;
      const dG = Math.abs(now.GM - was.GM);
      if (dG > maxDG) {
        maxDG = dG;
        worst = JSON.stringify(conditions);
      }
      const names = (r: typeof now) =>
        r.phases
          .map((p) => p.name)
          .sort()
          .join('+');
      if (names(now) !== names(was)) differ++;
    }
    console.log(
      `${s.file} (${s.components.filter((c) => c !== 'VA').join('-')}): ${compared} compared, largest |dG| ` +
        `${maxDG.toExponential(1)} J/mol${worst ? ` at ${worst}` : ''}, phase sets differ at ${differ}, convergence differs at ${convergence}`,
    );
  }
}

if (SECTIONS.has('models')) main();
if (SECTIONS.has('equilibrium')) benchEquilibria(tdbDir());
if (SECTIONS.has('grid')) benchGrid(tdbDir(), coreMaxThreads());
if (SECTIONS.has('compare')) compareWithBefore(tdbDir());
