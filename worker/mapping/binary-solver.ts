// Point equilibria of a binary at (T, X) for the mapper: the global solver (worker/core/equilibrium.ts)
// at fixed T, P and X(xComponent), its result reduced to the labelled stable phases (BinaryState), the
// equilibrium count, the safety budget and cancel checks kept in the map's ledger (core/ledger.ts). Three ways to ask:
// solve() one point now; solveRequest() the generator form for the tracing coroutines (a request is
// yielded and its state received, so the scheduler can solve the requests of several traces together);
// solveGrid() many points over the threads with the coarser sampling of the seed grid.
import { equilibrium, equilibriumBatch, saysNoEquilibrium, type EquilibriumResult } from '../core/equilibrium.js';
import type { NativeDatabase } from '../core/native.js';
import { NP_MIN, XCLAMP, type BinaryState, type PhaseState, type StateRequest } from './binary-types.js';
import { BudgetExceeded, type MapLedger } from './core/ledger.js';
import type { OrderModel } from './order-disorder.js';
import { numberSets } from './phase-labels.js';

export interface BinarySolverSetup {
  database: NativeDatabase;
  /** solver components: the two elements, plus VA when the database has it */
  components: string[];
  phases: string[];
  /** the composition axis' component */
  xComponent: string;
  P: number;
  threads: number;
  /** sampling density of the global minimisation for single points (undefined: the solver's default) */
  pdens?: number;
  /** sampling density of the seed grid batch */
  gridPdens: number;
  /** largest number of equilibria solve() may run */
  budget: number;
  /** the ordered phases: a disordered state is labelled with the disordered name */
  order: OrderModel;
}

/** Shifts a failed point's composition by this for its one retry (the tie-line does not depend on X inside a field). */
const RETRY_DX = 1e-4;

/** Points of a batch from which it is solved over the threads (solveCold): two already pay (the core keeps its
 * per-thread solvers from one batch to the next, so a batch costs no more than its equilibria)... */
const MIN_THREADED_BATCH = 2;
/**
 * ... unless an equilibrium costs less than this (ms of one thread, measured on the seed grid): then a batch of a
 * few points (fewer than two per thread) runs on one thread. Each batch over the threads ends in a barrier that
 * waits for the slowest thread, and on a busy machine a thread the system has not scheduled holds it up for a
 * time slice: a few milliseconds, against a few tenths of one for the equilibria of a cheap system.
 */
const CHEAP_EQUILIBRIUM_MS = 0.3;

/**
 * Values by (T, X), a map of maps keyed by the numbers themselves: a key string made of the two costs two
 * number-to-text conversions per look-up, more than the look-up itself, and the mapper looks up every point it asks.
 */
class ColdResults<V = EquilibriumResult> {
  private readonly byT = new Map<number, Map<number, V>>();
  get(T: number, X: number): V | undefined {
    return this.byT.get(T)?.get(X);
  }
  set(T: number, X: number, v: V): void {
    let row = this.byT.get(T);
    if (!row) this.byT.set(T, (row = new Map()));
    row.set(X, v);
  }
}

/** The solver result behind each converged state, for warm starts (held weakly: states come and go). */
const rawResults = new WeakMap<BinaryState, EquilibriumResult>();

export class BinarySolver {
  /** ms of one thread per equilibrium, as measured on the seed grid (solveGrid) */
  private msPerEquilibrium = Infinity;

  constructor(
    private readonly s: BinarySolverSetup,
    private readonly ledger: MapLedger,
  ) {}

  /** equilibria run (every result read, including retries) and how many did not converge */
  get count(): number {
    return this.ledger.equilibria;
  }
  get notConverged(): number {
    return this.ledger.notConverged;
  }

  get budget(): number {
    return this.s.budget;
  }
  get threads(): number {
    return this.s.threads;
  }
  get exhausted(): boolean {
    return this.count >= this.s.budget;
  }

  checkCancel(): void {
    this.ledger.checkCancel();
  }

  /** Conditions of the point (the composition clamped inside the solver's range). */
  conditions(T: number, X: number) {
    return { T, P: this.s.P, X: { [this.s.xComponent]: Math.min(1 - XCLAMP, Math.max(XCLAMP, X)) } };
  }

  /** Reduces a solver result to its labelled stable phases (two sets of one phase at one composition are one). */
  toState(r: EquilibriumResult, T: number, X: number): BinaryState {
    this.ledger.count(r.converged);
    if (!r.converged) return { ok: false, T, X, phases: [], key: '', ...(saysNoEquilibrium(r) ? { none: true } : {}) };
    const order = this.s.order,
      xc = this.s.xComponent;
    const list: PhaseState[] = [];
    for (const p of r.phases) {
      if (!(p.NP > NP_MIN)) continue;
      const { name, eta } = order.stateName(p.name.toUpperCase(), p.y);
      list.push({ base: name, x: p.x[xc] ?? 0, NP: p.NP, eta, label: name });
    }
    list.sort((a, b) => a.x - b.x);
    const ps: PhaseState[] = [];
    for (const p of list) {
      const prev = ps[ps.length - 1];
      if (prev && prev.base === p.base && Math.abs(prev.x - p.x) < 1e-6) prev.NP += p.NP;
      else ps.push(p);
    }
    numberSets(ps);
    const state: BinaryState = { ok: true, T, X, phases: ps, key: ps.map((p) => p.label).join('+') };
    rawResults.set(state, r);
    return state;
  }

  /**
   * Cold-start results by (T, X): the mapper asks for some points more than once (a grid node re-solved for
   * each of its unlike neighbours, a bracket end met again by another bisection); a cold start is deterministic,
   * so the answer is the one solved before. Warm-started results are not kept.
   */
  private readonly cold = new ColdResults();

  private single(T: number, X: number, start?: BinaryState): EquilibriumResult {
    const s = this.s;
    const from = start && rawResults.get(start);
    if (!from) {
      const known = this.cold.get(T, X);
      if (known) return known;
    }
    const r = equilibrium({
      database: s.database,
      components: s.components,
      phases: s.phases,
      conditions: this.conditions(T, X),
      options: from ? { pdens: s.pdens, start: from } : { pdens: s.pdens },
    });
    if (!from) this.cold.set(T, X, r);
    return r;
  }

  /** The equilibrium at (T, X) now, with one retry at a slightly shifted composition when it fails. */
  solve(T: number, X: number): BinaryState {
    this.checkCancel();
    if (this.exhausted) throw new BudgetExceeded();
    const r = this.single(T, X);
    if (!r.converged) {
      const X2 = X + (X < 0.5 ? RETRY_DX : -RETRY_DX);
      const r2 = this.single(T, X2);
      if (r2.converged) {
        this.ledger.equilibria++; // the failed first try
        return this.toState(r2, T, X2);
      }
    }
    return this.toState(r, T, X);
  }

  /**
   * The requests of a scheduler round: the cold ones together over the threads, each one with a start on its own
   * from that start (the batch takes none), so that every request gets the answer it would get alone.
   */
  solveRound(reqs: StateRequest[]): BinaryState[] {
    if (!reqs.some((q) => q.start && rawResults.has(q.start))) return this.solveCold(reqs, this.s.threads); // the usual round
    const out = new Array<BinaryState>(reqs.length);
    const cold = reqs.flatMap((q, k) => (q.start && rawResults.get(q.start) ? [] : [k]));
    const solved = this.solveCold(
      cold.map((k) => reqs[k]),
      this.s.threads,
    );
    cold.forEach((k, i) => {
      out[k] = solved[i];
    });
    reqs.forEach((q, k) => {
      out[k] ??= this.toState(this.single(q.T, q.X, q.start), q.T, q.X);
    });
    return out;
  }

  /**
   * Coroutines of point requests run side by side until every one is done: each round, the pending request of
   * each is solved together with the others' (solveRound). Throws BudgetExceeded when the budget is used up (the
   * coroutines stay where they are) and CancelledError on a cancel.
   */
  runTogether(searches: Generator<StateRequest, void, BinaryState>[]): void {
    let active = searches.map((g) => ({ g, r: g.next(undefined as unknown as BinaryState) }));
    for (;;) {
      active = active.filter((a) => !a.r.done);
      if (!active.length) return;
      this.checkCancel();
      if (this.exhausted) throw new BudgetExceeded();
      const states = this.solveRound(active.map((a) => a.r.value as StateRequest));
      active.forEach((a, k) => {
        a.r = a.g.next(states[k]);
      });
    }
  }

  /**
   * Cold-start equilibria of many points, the ones not solved before together: over `threads` threads when
   * there are at least MIN_THREADED_BATCH of them, else on one.
   */
  solveCold(reqs: readonly { T: number; X: number }[], threads: number): BinaryState[] {
    const s = this.s;
    if (reqs.length === 1) return [this.toState(this.single(reqs[0].T, reqs[0].X), reqs[0].T, reqs[0].X)];
    // each point not solved before, once (several searches of a round can ask for the same grid node)
    const asked = new ColdResults<true>();
    const todo = reqs.filter((q) => {
      if (this.cold.get(q.T, q.X) || asked.get(q.T, q.X)) return false;
      asked.set(q.T, q.X, true);
      return true;
    });
    if (todo.length === 1) {
      this.single(todo[0].T, todo[0].X); // kept in this.cold
    } else if (todo.length) {
      const few = todo.length < 2 * threads && this.msPerEquilibrium < CHEAP_EQUILIBRIUM_MS;
      const rs = equilibriumBatch({
        database: s.database,
        components: s.components,
        phases: s.phases,
        conditions: todo.map((q) => this.conditions(q.T, q.X)),
        threads: todo.length >= MIN_THREADED_BATCH && !few ? threads : 1,
        options: { pdens: s.pdens },
      });
      todo.forEach((q, i) => {
        this.cold.set(q.T, q.X, rs[i]);
      });
    }
    return reqs.map((q) => this.toState(this.cold.get(q.T, q.X)!, q.T, q.X));
  }

  /**
   * Many points over the threads with the seed grid's sampling density, in chunks sized to ~0.3 s from
   * the measured cost per equilibrium, so that a cancel (checked between chunks) is honoured within a
   * second even for slow databases; chunks are not made smaller than 32 (the cancel check and the progress
   * between chunks need no more).
   */
  solveGrid(pts: StateRequest[]): BinaryState[] {
    const s = this.s;
    const out: BinaryState[] = [];
    let chunk = 64;
    for (let i = 0; i < pts.length;) {
      this.checkCancel();
      const part = pts.slice(i, i + chunk);
      i += part.length;
      const t = performance.now();
      const rs = equilibriumBatch({
        database: s.database,
        components: s.components,
        phases: s.phases,
        conditions: part.map((p) => this.conditions(p.T, p.X)),
        threads: s.threads,
        options: { pdens: s.gridPdens },
      });
      rs.forEach((r, k) => out.push(this.toState(r, part[k].T, part[k].X)));
      const perEq = (performance.now() - t) / part.length;
      this.msPerEquilibrium = perEq * Math.min(s.threads, part.length);
      chunk = Math.max(32, Math.min(1024, Math.floor(300 / Math.max(perEq, 1e-3))));
    }
    return out;
  }
}

/**
 * Generator form of BinarySolver.solve for the tracing coroutines: yields the request and receives its
 * state, with the same one retry at a shifted composition. The retry starts from `near` (a converged
 * state close by, e.g. the last tie-line of a trace) when one is given: inside a field where the cold start
 * does not converge (the A2 + B2 field of alcfe_b2 between 565 and 620 K) the previous answer is the better
 * start; the solver falls back to the cold start when it does not fit, and certifies the answer either way.
 */
export function* solveRequest(
  T: number,
  X: number,
  near?: BinaryState,
): Generator<StateRequest, BinaryState, BinaryState> {
  const e = yield { T, X };
  if (e.ok) return e;
  const X2 = X + (X < 0.5 ? RETRY_DX : -RETRY_DX);
  const e2 = yield near && near.ok ? { T, X: X2, start: near } : { T, X: X2 };
  return e2.ok ? e2 : e;
}
