// Convergence on real steels: T scans of six alloys on mf-steel.tdb (LibreCalphad) with the phases its author
// recommends, and random points of its Fe-Cr-Ni-Mo-Mn-Si-C-N subsystem. Every point must converge to a certified
// state or say that no equilibrium exists (reason code PD_NO_EQUILIBRIUM, with the reason). The scans run as
// line_calculation runs them (each point warm-started from the one before) and, here only, each point cold as well.
// test/core/solver/steel-convergence.test.ts runs the warm scans and the random points; the cold scans take longer:
//
//   npm run audit:steels [-- --cold] [-- --points N]
//
// prints the counts per alloy and mode (converged, no equilibrium with the reason, failed) and each point that did not
// converge; it exits 1 when one failed.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase, type NativeDatabase } from '../worker/core/database.js';
import { equilibriumBatch, saysNoEquilibrium, type EquilibriumResult } from '../worker/core/equilibrium.js';
import { elementMasses, massToMoleFractions } from '../worker/system/units.js';

/** The database, in ../shared/tdb. */
export const STEEL_TDB = 'mf-steel.tdb';

/** The alloys, in mass per cent with iron the balance. */
export const STEELS: Record<string, Record<string, number>> = {
  'AISI 304': { CR: 18, NI: 8, C: 0.05, MN: 1.5, SI: 0.5 },
  '316L': { CR: 17, NI: 12, MO: 2.5, C: 0.02, MN: 1.5, SI: 0.5 },
  '2205': { CR: 22, NI: 5.5, MO: 3, N: 0.17, C: 0.02 },
  '4140': { C: 0.4, CR: 1, MO: 0.2, MN: 0.9, SI: 0.25 },
  'Fe-0.4C': { C: 0.4 },
  'Fe-0.8C': { C: 0.8 },
};

/** The subsystem of the random points. */
export const STEEL_ELEMENTS = ['FE', 'CR', 'NI', 'MO', 'MN', 'SI', 'C', 'N'];

/** The scans' temperatures: 600 to 1800 K every 10 K. */
export const SCAN_T = Array.from({ length: 121 }, (_, i) => 600 + 10 * i);

/**
 * The phases mf-steel's author recommends for these elements: every phase the elements allow but the ordered ones
 * (those with a DIS_PART, whose disordered part is then calculated alone), GAS and IONIC_LIQ, and for plain Fe-C also
 * MC_SHP and DIAMOND_A4.
 */
export function recommendedPhases(db: NativeDatabase, elements: readonly string[]): string[] {
  const info = new Map(db.info().phases.map((p) => [p.name, p]));
  const plainFeC = elements.length === 2 && elements.includes('FE') && elements.includes('C');
  const left = new Set(['GAS', 'IONIC_LIQ', ...(plainFeC ? ['MC_SHP', 'DIAMOND_A4'] : [])]);
  return db.phasesFor([...elements]).filter((name) => !left.has(name) && !info.get(name)?.disorderedPart);
}

export interface SteelSystem {
  elements: string[];
  components: string[];
  phases: string[];
  /** mole fractions of every element but FE */
  X: Record<string, number>;
}

/** An alloy of STEELS as a system: its elements, the recommended phases and its composition in mole fractions. */
export function steelSystem(db: NativeDatabase, alloy: string): SteelSystem {
  const wpct = STEELS[alloy];
  if (!wpct) throw new Error(`unknown alloy ${alloy}`);
  const w: Record<string, number> = {};
  for (const [el, v] of Object.entries(wpct)) w[el] = v / 100;
  w.FE = 1 - Object.values(w).reduce((a, b) => a + b, 0);
  const x = massToMoleFractions(w, elementMasses(db.info().elements));
  const elements = ['FE', ...Object.keys(wpct)];
  const X = Object.fromEntries(elements.slice(1).map((el) => [el, x[el]!]));
  return { elements, components: [...elements, 'VA'], phases: recommendedPhases(db, elements), X };
}

/** Uniform numbers in (0, 1) from a linear congruential generator: the same sequence on every machine. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) + 0.5) / 4294967296;
}

/** Random points of STEEL_ELEMENTS: mole fractions uniform on the simplex (at least 0.001 each), T in 600-1800 K. */
export function randomSteelPoints(count: number, seed = 8 * 97 + 13): { T: number; X: Record<string, number> }[] {
  const rand = rng(seed);
  return Array.from({ length: count }, () => {
    const w = STEEL_ELEMENTS.map(() => -Math.log(rand()));
    const sum = w.reduce((a, b) => a + b, 0);
    const T = 600 + 1200 * rand();
    return { T, X: Object.fromEntries(STEEL_ELEMENTS.slice(1).map((e, k) => [e, Math.max(1e-3, w[k + 1]! / sum)])) };
  });
}

export interface Tally {
  points: number;
  converged: number;
  /** points that say no equilibrium exists, by reason */
  noEquilibrium: Record<string, number>;
  /** the points that neither converged nor said that no equilibrium exists */
  failed: { T: number; X: Record<string, number>; reason: string }[];
}

export function tally(conditions: { T: number; X: Record<string, number> }[], results: EquilibriumResult[]): Tally {
  const t: Tally = { points: results.length, converged: 0, noEquilibrium: {}, failed: [] };
  results.forEach((r, i) => {
    if (r.converged) t.converged++;
    else if (saysNoEquilibrium(r)) t.noEquilibrium[r.reason] = (t.noEquilibrium[r.reason] ?? 0) + 1;
    else t.failed.push({ ...conditions[i]!, reason: r.reason });
  });
  return t;
}

/** The T scan of one alloy, warm-started from point to point (as line_calculation runs it) or every point cold. */
export function scanSteel(db: NativeDatabase, alloy: string, warm: boolean, threads = 2): Tally {
  const sys = steelSystem(db, alloy);
  const conditions = SCAN_T.map((T) => ({ T, X: sys.X }));
  const results = equilibriumBatch({
    database: db,
    components: sys.components,
    phases: sys.phases,
    conditions: conditions.map((c) => ({ ...c, P: 101325 })),
    options: { warmStart: warm },
    threads,
  });
  return tally(conditions, results);
}

/** The random points of the subsystem, each cold. */
export function randomSteelTally(db: NativeDatabase, count: number, threads = 2): Tally {
  const conditions = randomSteelPoints(count);
  const results = equilibriumBatch({
    database: db,
    components: [...STEEL_ELEMENTS, 'VA'],
    phases: recommendedPhases(db, STEEL_ELEMENTS),
    conditions: conditions.map((c) => ({ ...c, P: 101325 })),
    threads,
  });
  return tally(conditions, results);
}

function report(label: string, t: Tally): void {
  const noEq = Object.values(t.noEquilibrium).reduce((a, b) => a + b, 0);
  console.log(
    `${label}: ${t.points} points, ${t.converged} converged, ${noEq} no equilibrium, ${t.failed.length} failed`,
  );
  for (const [reason, n] of Object.entries(t.noEquilibrium)) console.log(`  no equilibrium (${n}): ${reason}`);
  for (const f of t.failed) console.log(`  FAILED ${f.T} K ${JSON.stringify(f.X)}: ${f.reason}`);
}

function main(): void {
  const { values } = parseArgs({
    options: { cold: { type: 'boolean', default: false }, points: { type: 'string', default: '300' } },
  });
  // dist/scripts/steel-sweep.js: the repository is two folders up, ../shared beside it
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const db = openDatabase(path.resolve(root, '..', 'shared', 'tdb', STEEL_TDB));
  let failed = 0;
  for (const warm of values.cold ? [true, false] : [true])
    for (const alloy of Object.keys(STEELS)) {
      const t = scanSteel(db, alloy, warm);
      report(`${alloy} ${warm ? 'warm' : 'cold'} scan 600-1800 K`, t);
      failed += t.failed.length;
    }
  const points = Number(values.points);
  const t = randomSteelTally(db, points);
  report(`${points} random points of ${STEEL_ELEMENTS.join('-')}`, t);
  failed += t.failed.length;
  process.exitCode = failed > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
