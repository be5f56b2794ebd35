// Liquidus and solidus of many alloys at once (equilibrium_batch's T_liquidus and T_solidus). Each alloy's search from
// a guess (worker/scans/liquidus-newton.ts) yields its equilibria one at a time; the searches of all the alloys run
// together, in rounds that solve the next equilibrium of each across the job's threads, each from its own search's
// last state (equilibriumBatch's options.starts). A round takes the searches in the earliest of the search's stages
// (liquidus, its certification, solidus, its certification) ordered by temperature: an equilibrium whose temperature
// lies within a few K of the one its thread solved before keeps most of the grid energies (the solver's stale-grid
// bound, native-core/src/solver/sampling.cpp) and costs about half of one 50 K away, which every stage change of one
// alloy's search alone would be. Each alloy starts from the guess of the alloy already found whose first-order
// prediction changes least (GuessPool). An alloy without a guess (the batch's first) or whose search is not certified
// gets the scan (worker/scans/alloy-temperatures.ts), alone.
import { equilibriumBatch, type EquilibriumResult } from '../core/equilibrium.js';
import { isCoreError } from '../core/errors.js';
import { CancelledError, CONTROL_BYTES } from '../protocol.js';
import type { AlloySystem, AlloyTemperatures } from './alloy-temperatures.js';
import {
  alloySearch,
  guessFromScan,
  searchDerivatives,
  type AlloyGuess,
  type GuessedChange,
  type Search,
  type SearchAnswer,
  type SolveRequest,
  SEARCH_STAGES,
} from './liquidus-newton.js';

/** One alloy of the batch: its key, mole fractions and pressure, and its scan (when no search is certified). */
export interface AlloyJob {
  key: string;
  X: Record<string, number>;
  P: number;
  scan: () => AlloyTemperatures;
}

/**
 * What the searches of this thread cost since the last reset: equilibria, their Newton iterations and the CPU time of
 * the process while they were solved (all threads, ms; a round counted in its earliest stage) per stage of
 * SEARCH_STAGES, the local equilibria among them, alloys searched, alloys that got the scan instead (bench:batch
 * prints them per alloy).
 */
export const searchCounts = {
  equilibria: SEARCH_STAGES.map(() => 0),
  local: 0,
  iterations: SEARCH_STAGES.map(() => 0),
  cpuMs: SEARCH_STAGES.map(() => 0),
  alloys: 0,
  scans: 0,
};

/** Zeroes searchCounts. */
export function resetSearchCounts(): void {
  searchCounts.equilibria.fill(0);
  searchCounts.iterations.fill(0);
  searchCounts.cpuMs.fill(0);
  searchCounts.local = 0;
  searchCounts.alloys = 0;
  searchCounts.scans = 0;
}

/** alloys whose guesses the pool keeps (the most recent ones) */
const POOL_SIZE = 64;

/**
 * The guesses of the alloys found last, and the one nearest an alloy: the least first-order change of the liquidus and
 * solidus predicted from it, sum_el |dL/dX(el) dX(el)| / |dL/dT| at both its states (liquidus-newton.ts `predicted`).
 * A guess without states (from a scan) counts only when the pool holds no other.
 */
export class GuessPool {
  private entries: { X: Record<string, number>; guess: AlloyGuess }[] = [];

  /** `liquids`: the system's liquid phases (liquidus-newton.ts liquidPhases) */
  constructor(private readonly liquids: string[]) {}

  get size(): number {
    return this.entries.length;
  }

  add(X: Record<string, number>, guess: AlloyGuess): void {
    this.entries.push({ X, guess });
    if (this.entries.length > POOL_SIZE) this.entries.shift();
  }

  nearest(X: Record<string, number>): AlloyGuess | undefined {
    let best: AlloyGuess | undefined;
    let bestDistance = Infinity;
    for (const e of this.entries) {
      const d = this.shift(e.guess.liquidus, X) + this.shift(e.guess.solidus, X);
      if (best !== undefined && !(d < bestDistance)) continue;
      best = e.guess;
      bestDistance = d;
    }
    return best;
  }

  /** the first-order change of a guessed temperature to the alloy X, K (Infinity without a state) */
  private shift(g: GuessedChange, X: Record<string, number>): number {
    const r = g.start;
    if (!r?.converged) return Infinity;
    const sum = (v: string) => this.liquids.reduce((t, l) => t + (r.derivatives[`NP(${l}).${v}`] ?? NaN), 0);
    const dT = Math.abs(sum('T'));
    let dL = 0;
    for (const [el, x] of Object.entries(X)) dL += Math.abs(sum(`X(${el})`) * (x - (r.x[el] ?? NaN)));
    return dT > 0 && Number.isFinite(dL) ? dL / dT : Infinity;
  }
}

/** A search in progress: its alloy, the generator and the equilibrium it waits for. */
interface Running {
  alloy: AlloyJob;
  search: Search<SearchAnswer | undefined>;
  request: SolveRequest;
}

/**
 * The liquidus and solidus of every alloy (an Error for an alloy whose search and scan threw), by alloy key: the
 * searches of all the alloys run together, in rounds of one equilibrium each across `threads` OpenMP threads (roundOf);
 * `cancelled` is polled before every round.
 */
export function batchAlloyTemperatures(
  sys: AlloySystem,
  alloys: AlloyJob[],
  pool: GuessPool,
  threads: number,
  cancelled: () => boolean,
): Map<string, AlloyTemperatures | Error> {
  const out = new Map<string, AlloyTemperatures | Error>();
  searchCounts.alloys += alloys.length;
  const alone = (a: AlloyJob) =>
    settle(out, pool, a, () => {
      searchCounts.scans++;
      const value = a.scan();
      return { value, next: guessFromScan(value) };
    });
  const finish = (a: AlloyJob, answer: SearchAnswer | undefined) => {
    if (answer) settle(out, pool, a, () => answer);
    else alone(a);
  };
  const queue = [...alloys];
  while (queue.length > 0) {
    // the batch's first alloy has no guess: the scan, whose answer guesses the next ones
    if (pool.size === 0) {
      alone(queue.shift()!);
      continue;
    }
    // a wave at most as large as the pool, so that while the pool is young its guesses are not all one alloy's
    const wave = queue.splice(0, Math.max(threads, pool.size));
    searchTogether(sys, wave, pool, threads, cancelled, finish);
  }
  return out;
}

/** The searches of the alloys from the pool's nearest guesses, run together in rounds (roundOf), each finished. */
function searchTogether(
  sys: AlloySystem,
  alloys: AlloyJob[],
  pool: GuessPool,
  threads: number,
  cancelled: () => boolean,
  finish: (a: AlloyJob, answer: SearchAnswer | undefined) => void,
): void {
  let running: Running[] = [];
  for (const a of alloys) {
    const guess = pool.nearest(a.X);
    if (!guess) {
      finish(a, undefined);
      continue;
    }
    const search = alloySearch(sys, a.X, guess);
    const step = search.next();
    if (step.done) finish(a, step.value);
    else running.push({ alloy: a, search, request: step.value });
  }
  for (let round = 0; running.length > 0; round++) {
    if (cancelled()) throw new CancelledError();
    const batch = roundOf(running, threads, round);
    const cpu = process.cpuUsage();
    const results = solveSideBySide(sys, batch, threads);
    const used = process.cpuUsage(cpu);
    searchCounts.cpuMs[Math.min(...batch.map((r) => r.request.stage))]! += (used.user + used.system) / 1000;
    for (const [i, run] of batch.entries()) {
      searchCounts.equilibria[run.request.stage]!++;
      searchCounts.iterations[run.request.stage]! += results?.[i]?.iterations ?? 0;
      if (results?.[i]?.local) searchCounts.local++;
    }
    const finished = new Set<Running>();
    for (const [i, run] of batch.entries()) {
      const r = results?.[i];
      const step = r ? run.search.next(r) : { done: true as const, value: undefined };
      if (step.done) {
        finished.add(run);
        finish(run.alloy, step.value);
      } else run.request = step.value;
    }
    running = running.filter((run) => !finished.has(run));
  }
}

/**
 * The searches whose equilibria one round solves, in the order of its conditions: those in the earliest stage among
 * the running ones (all of them when they are fewer than the threads), by temperature, so that each thread's
 * contiguous block of conditions (equilibriumBatch with starts: thread t of n solves [size t / n, size (t + 1) / n))
 * holds neighbouring temperatures; every other round runs each block backwards, so a thread's next round begins near
 * the temperature its last one ended at.
 */
function roundOf(running: Running[], threads: number, round: number): Running[] {
  const first = Math.min(...running.map((r) => r.request.stage));
  const early = running.filter((r) => r.request.stage === first);
  const chosen = (early.length >= threads ? early : [...running]).sort((a, b) => a.request.T - b.request.T);
  if (round % 2 === 0) return chosen;
  const n = Math.min(threads, chosen.length);
  const blocks: Running[] = [];
  for (let t = 0; t < n; t++) {
    blocks.push(
      ...chosen.slice(Math.floor((chosen.length * t) / n), Math.floor((chosen.length * (t + 1)) / n)).reverse(),
    );
  }
  return blocks;
}

/** The equilibria the searches wait for, across the threads; undefined when the core refuses the batch. */
function solveSideBySide(sys: AlloySystem, batch: Running[], threads: number): EquilibriumResult[] | undefined {
  try {
    return equilibriumBatch({
      database: sys.db,
      components: sys.components,
      phases: sys.phases,
      conditions: batch.map((r) => ({ T: r.request.T, P: r.alloy.P, X: r.alloy.X })),
      // the alloys of one batch share their components, so one list of sensitivities serves them all
      options: {
        derivatives: searchDerivatives(sys, batch[0]!.alloy.X),
        starts: batch.map((r) => r.request.start),
        ...(batch.some((r) => r.request.local) ? { local: batch.map((r) => r.request.local === true) } : {}),
      },
      threads,
      control: new SharedArrayBuffer(CONTROL_BYTES),
    });
  } catch (e) {
    if (isCoreError(e, 'PD_CANCELLED')) throw e;
    return undefined;
  }
}

/** The alloy's temperatures (or the Error it threw) into `out`, and its guess into the pool. */
function settle(
  out: Map<string, AlloyTemperatures | Error>,
  pool: GuessPool,
  a: AlloyJob,
  find: () => { value: AlloyTemperatures; next?: AlloyGuess },
): void {
  try {
    const { value, next } = find();
    out.set(a.key, value);
    if (next) pool.add(a.X, next);
  } catch (e) {
    if (e instanceof CancelledError || isCoreError(e, 'PD_CANCELLED')) throw e;
    out.set(a.key, e as Error);
  }
}
