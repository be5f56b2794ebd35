// `npm run bench:core`: energy + gradient + Hessian evaluations per second per phase for one binary
// (alzn_mey.tdb) and one multicomponent database (alcocrni.tdb), single-threaded and with OpenMP on
// all cores. Prints medians of several repetitions. Databases are looked for in $PHASEDESK_BENCH_TDB_DIR,
// else ../shared/tdb next to the repository (the shared test databases are not part of the repo).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadCore } from '../worker/core/native.js';
import { PhaseModel, coreMaxThreads } from '../worker/core/models.js';
import { equilibrium, equilibriumBatch, type EquilibriumConditions } from '../worker/core/equilibrium.js';
import { tdbDir, median } from './support.js';

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

function randomPoints(m: PhaseModel, n: number, seed: number): Float64Array {
  let s = seed >>> 0;
  const rand = () => ((s = (s * 1664525 + 1013904223) >>> 0) + 0.5) / 4294967296;
  const vars = m.variables;
  const Y = new Float64Array(n * vars.length);
  for (let p = 0; p < n; p++) {
    for (let sub = 0; sub < m.info.numSublattices; sub++) {
      let sum = 0;
      vars.forEach((v, k) => {
        if (v.sublattice === sub) sum += (Y[p * vars.length + k] = -Math.log(rand()));
      });
      vars.forEach((v, k) => {
        if (v.sublattice === sub) Y[p * vars.length + k] /= sum;
      });
    }
  }
  return Y;
}

function rate(m: PhaseModel, T: number, Y: Float64Array, n: number, threads: number): number {
  m.evaluateBatch(T, 101325, Y.subarray(0, Math.min(n, 100) * m.variables.length), 2, threads);  // warm-up
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
  console.log(`phase models: energy + gradient + Hessian evaluations per second (median of ${REPEATS}, ${POINTS} points)`);
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
    console.log(`${'phase'.padEnd(16)} ${'vars'.padStart(4)} ${'1 thread /s'.padStart(14)} ${`${threads} threads /s`.padStart(14)}`);
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
      console.log(`${name.padEnd(16)} ${String(m.variables.length).padStart(4)} ${r1.toExponential(3).padStart(14)} ${rN.toExponential(3).padStart(14)}`);
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
}

// The issue's reference points: OpenCalphad measured 1.1 ms for this Al-Zn point (two FCC sets) and
// 4.2 ms for an Al-Fe point at X(AL) = 0.3 on these machines.
const POINT_SETUPS: PointSetup[] = [
  { label: 'Al-Zn 600 K X(ZN)=0.3', file: 'alzn_mey.tdb', components: ['AL', 'ZN', 'VA'], phases: ['FCC_A1', 'HCP_A3', 'LIQUID'],
    conditions: { T: 600, P: 101325, X: { ZN: 0.3 } }, repeats: 200 },
  { label: 'Al-Fe 1000 K X(AL)=0.3 (every phase)', file: 'alfe.tdb', components: ['AL', 'FE', 'VA'],
    conditions: { T: 1000, P: 101325, X: { AL: 0.3 } }, repeats: 100 },
  { label: 'Cr-Ti-V 1000 K X(CR)=0.2 X(TI)=0.3 (every phase)', file: 'crtiv_ghosh.tdb', components: ['CR', 'TI', 'V', 'VA'],
    conditions: { T: 1000, P: 101325, X: { CR: 0.2, TI: 0.3 } }, repeats: 50 },
];

function benchEquilibria(dir: string, threads: number): void {
  const core = loadCore();
  console.log('\nequilibrium: one point, warm (database loaded, models built), median ms');
  for (const s of POINT_SETUPS) {
    const file = path.join(dir, s.file);
    if (!existsSync(file)) { console.log(`${s.label}: ${s.file} not found`); continue; }
    const database = core.Database.fromFile(file);
    const req = { database, components: s.components, phases: s.phases, conditions: s.conditions };
    let r = equilibrium(req);
    const times: number[] = [];
    for (let i = 0; i < s.repeats; i++) {
      const t0 = process.hrtime.bigint();
      r = equilibrium(req);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const t0 = process.hrtime.bigint();
    equilibriumBatch({ ...req, conditions: Array.from({ length: 100 }, () => s.conditions), threads: 1 });
    const batch = Number(process.hrtime.bigint() - t0) / 1e6;
    const phases = r.phases.map((p) => p.name).join('+');
    console.log(`${s.label}: ${median(times).toFixed(3)} ms (converged ${r.converged}, ${phases}); 100 in one call ${batch.toFixed(1)} ms`);
  }
  const file = path.join(dir, 'alzn_mey.tdb');
  if (!existsSync(file)) return;
  const database = core.Database.fromFile(file);
  const grid: EquilibriumConditions[] = [];
  for (let i = 0; i < 100; i++) for (let j = 0; j < 100; j++) grid.push({ T: 300 + 6 * i, P: 101325, X: { ZN: 0.005 + 0.0099 * j } });
  console.log('\nequilibrium: Al-Zn 100 x 100 temperature-composition grid (300-894 K, X(ZN) 0.005-0.985)');
  for (const th of [...new Set([1, threads])]) {
    const runs: number[] = [];
    let converged = 0;
    for (let rep = 0; rep < 3; rep++) {
      const t0 = process.hrtime.bigint();
      const rs = equilibriumBatch({ database, components: ['AL', 'ZN', 'VA'], phases: ['FCC_A1', 'HCP_A3', 'LIQUID'], conditions: grid, threads: th });
      runs.push(grid.length / (Number(process.hrtime.bigint() - t0) / 1e9));
      converged = rs.filter((x) => x.converged).length;
    }
    console.log(`${th} thread(s): ${median(runs).toFixed(0)} equilibria/s (median of 3; ${converged}/${grid.length} converged)`);
  }
}

main();
benchEquilibria(tdbDir(), coreMaxThreads());
