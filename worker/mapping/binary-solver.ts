// Point equilibria of a binary at (T, X) for the mapper: the global solver (worker/core/equilibrium.ts)
// at fixed T, P and X(xComponent), its result reduced to the labelled stable phases (BinaryState), with
// the equilibrium count, the safety budget and cancel checks in one place. Three ways to ask:
// solve() one point now; solveRequest() the generator form for the tracing coroutines (a request is
// yielded and its state received, so the scheduler can solve the requests of several traces together);
// solveGrid() many points over the threads with the coarser sampling of the seed grid.
import { equilibrium, equilibriumBatch, type EquilibriumResult } from '../core/equilibrium.js';
import type { NativeDatabase } from '../core/native.js';
import { CancelledError } from '../protocol.js';
import { NP_MIN, XCLAMP, type BinaryState, type StateRequest } from './binary-types.js';
import type { OrderModel } from './order-disorder.js';
import { labelPhases } from './phase-labels.js';

/** Thrown when the equilibrium budget of a diagram is used up (the caller logs what is left undone). */
export class BudgetExceeded extends Error {}

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
  cancelled?: () => boolean;
}

/** Shifts a failed point's composition by this for its one retry (the tie-line does not depend on X inside a field). */
const RETRY_DX = 1e-4;

export class BinarySolver {
  /** equilibria run (every result read, including retries) and how many did not converge */
  count = 0;
  notConverged = 0;

  constructor(private readonly s: BinarySolverSetup) {}

  get budget(): number { return this.s.budget; }
  get exhausted(): boolean { return this.count >= this.s.budget; }

  checkCancel(): void { if (this.s.cancelled?.()) throw new CancelledError(); }

  /** Conditions of the point (the composition clamped inside the solver's range). */
  conditions(T: number, X: number) {
    return { T, P: this.s.P, X: { [this.s.xComponent]: Math.min(1 - XCLAMP, Math.max(XCLAMP, X)) } };
  }

  /** Reduces a solver result to its labelled stable phases (two sets of one phase at one composition are one). */
  toState(r: EquilibriumResult, T: number, X: number): BinaryState {
    this.count++;
    if (!r.converged) {
      this.notConverged++;
      return { ok: false, T, X, phases: [], key: '' };
    }
    const order = this.s.order;
    const list = r.phases.filter((p) => p.NP > NP_MIN).map((p) => {
      const { name, eta } = order.stateName(p.name.toUpperCase(), p.y);
      return { base: name, x: p.x[this.s.xComponent] ?? 0, NP: p.NP, eta };
    });
    const merged: typeof list = [];
    for (const p of list.sort((a, b) => a.x - b.x)) {
      const prev = merged[merged.length - 1];
      if (prev && prev.base === p.base && Math.abs(prev.x - p.x) < 1e-6) prev.NP += p.NP;
      else merged.push({ ...p });
    }
    const ps = labelPhases(merged);
    return { ok: true, T, X, phases: ps, key: ps.map((p) => p.label).join('+') };
  }

  private single(T: number, X: number): EquilibriumResult {
    const s = this.s;
    return equilibrium({ database: s.database, components: s.components, phases: s.phases, conditions: this.conditions(T, X), options: { pdens: s.pdens } });
  }

  /** The equilibrium at (T, X) now, with one retry at a slightly shifted composition when it fails. */
  solve(T: number, X: number): BinaryState {
    this.checkCancel();
    if (this.exhausted) throw new BudgetExceeded();
    const r = this.single(T, X);
    if (!r.converged) {
      const X2 = X + (X < 0.5 ? RETRY_DX : -RETRY_DX);
      const r2 = this.single(T, X2);
      if (r2.converged) { this.count++; return this.toState(r2, T, X2); }
    }
    return this.toState(r, T, X);
  }

  /** The requests of a scheduler round, solved together (one thread: a batch call's thread start costs more). */
  solveRound(reqs: StateRequest[]): BinaryState[] {
    const s = this.s;
    if (reqs.length === 1) return [this.toState(this.single(reqs[0].T, reqs[0].X), reqs[0].T, reqs[0].X)];
    return equilibriumBatch({ database: s.database, components: s.components, phases: s.phases,
      conditions: reqs.map((q) => this.conditions(q.T, q.X)), threads: 1, options: { pdens: s.pdens } })
      .map((r, k) => this.toState(r, reqs[k].T, reqs[k].X));
  }

  /**
   * Many points over the threads with the seed grid's sampling density, in chunks sized to ~0.3 s from
   * the measured cost per equilibrium, so that a cancel (checked between chunks) is honoured within a
   * second even for slow databases; a batch call has a fixed cost of 10-20 ms for starting the threads,
   * so chunks are not made smaller than 32.
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
      const rs = equilibriumBatch({ database: s.database, components: s.components, phases: s.phases,
        conditions: part.map((p) => this.conditions(p.T, p.X)), threads: s.threads, options: { pdens: s.gridPdens } });
      rs.forEach((r, k) => out.push(this.toState(r, part[k].T, part[k].X)));
      const perEq = (performance.now() - t) / part.length;
      chunk = Math.max(32, Math.min(1024, Math.floor(300 / Math.max(perEq, 1e-3))));
    }
    return out;
  }
}

/**
 * Generator form of BinarySolver.solve for the tracing coroutines: yields the request and receives its
 * state, with the same one retry at a shifted composition.
 */
export function* solveRequest(T: number, X: number): Generator<StateRequest, BinaryState, BinaryState> {
  const e = yield { T, X };
  if (e.ok) return e;
  const X2 = X + (X < 0.5 ? RETRY_DX : -RETRY_DX);
  const e2 = yield { T, X: X2 };
  return e2.ok ? e2 : e;
}
