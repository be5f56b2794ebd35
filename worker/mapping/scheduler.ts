// Which regions of a binary diagram get traced, and how the traces share the solver.
//
// Seeds are taken in order of T, then x, and skipped when a finished or running trace covers them. The
// phases met beyond each region end are seeds as well (regions connect through invariants, so a field
// the grid rows step over is still reached), and every invariant is probed 0.05 K (then 0.01 and 0.002 K) above
// and below at the midpoints of its three phase pairs (a field too small for the grid, e.g. between a eutectic and a
// congruent point). When every seed is taken, the lenses next to the pure elements that no region
// reaches yet are searched for (pure_edges.ts, field_search.ts).
//
// Up to `concurrency` seeds are traced at once (one per thread by default); each round, the pending requests of
// the active traces go to the solver together, over the threads (BinarySolver.solveRound).
import { baseName } from '../../contract/phases.js';
import { solveRequest } from './binary-solver.js';
import type { MapContext } from './binary-context.js';
import { EDGE_TOL, LENS_DT, type BinaryState, type StateRequest } from './binary-types.js';
import { marchToField } from './field_search.js';
import { invariantPhases } from './invariants.js';

import { edgeBrackets, edgePhase, narrowEdgeBracket } from './pure_edges.js';
import type { RegionTracer } from './tracing.js';

/** A transition of a pure element located between two edge states of the seed grid (side 0: x = 0, 1: x = 1). */
export interface LensTask {
  side: 0 | 1;
  lo: BinaryState;
  hi: BinaryState;
}

/** The lens searches of the pure edges of the grid: one per change of the edge phase along a pure edge column. */
export function lensTasks(grid: readonly BinaryState[], nT: number, nX: number, Xr: [number, number]): LensTask[] {
  const edges = (
    [
      [0, Xr[0] === 0],
      [1, Xr[1] === 1],
    ] as const
  )
    .filter(([, pure]) => pure)
    .map(([side]) => side);
  const tasks: LensTask[] = [];
  for (const side of edges) {
    const column = side === 0 ? 0 : nX - 1;
    const states = Array.from({ length: nT }, (_, i) => grid[i * nX + column]);
    for (const [lo, hi] of edgeBrackets(states)) tasks.push({ side, lo, hi });
  }
  return tasks;
}

/** Distances in T from an invariant at which the field of each pair of its phases is looked for, nearest last. */
const INVARIANT_PROBES_DT = [0.05, 0.01, 0.002];

/** What the coroutines of the scheduler yield: the point they need next, or parts to run side by side (a fork). */
type Step = StateRequest | { together: Generator<StateRequest, void, BinaryState>[] };

/** A coroutine of the scheduler: its pending request, or the number of its parts still running (a fork). */
interface Running {
  gen: Generator<Step, void, BinaryState>;
  req: StateRequest | null;
  /** the phase pair of the seed it traces ('' for a lens search) */
  key: string;
  parent: Running | null;
  waiting: number;
}

export class TraceScheduler {
  private readonly seeds: BinaryState[];
  private readonly probedInvariants: number[] = [];
  private next = 0;

  constructor(
    private readonly ctx: MapContext,
    private readonly tracer: RegionTracer,
    seeds: BinaryState[],
    private readonly gridSeeds: WeakSet<BinaryState>,
    private readonly lenses: LensTask[],
    edgeSeeds: BinaryState[] = [],
  ) {
    // the seeds on the diagram's edges last: most lie on fields the grid's seeds trace (skipped as covered)
    const byTX = (a: BinaryState, b: BinaryState) => a.T - b.T || a.X - b.X;
    this.seeds = [...[...seeds].sort(byTX), ...[...edgeSeeds].sort(byTX)];
  }

  /** One seed: re-solve (grid seeds), trace its region (its two halves side by side), then queue the phases met beyond its ends. */
  private *seed(s0: BinaryState): Generator<Step, void, BinaryState> {
    const { Tlo, Thi } = this.ctx;
    let s = s0;
    if (this.gridSeeds.has(s)) {
      s = yield* solveRequest(s.T, s.X);
      if (!s.ok || s.phases.length !== 2 || this.tracer.covered(s)) return;
    }
    const region = this.tracer.begin(s);
    yield { together: [this.tracer.half(region, s, 1), this.tracer.half(region, s, -1)] };
    this.tracer.finish(region);
    for (const e of region.ends) {
      if (!e.bad || !e.bad.ok) continue;
      if (e.bad.phases.length === 2) this.seeds.push(e.bad);
      if (e.kind !== 'invariant') continue;
      if (this.probedInvariants.some((T) => Math.abs(T - e.T) < 0.1)) continue; // once per invariant
      this.probedInvariants.push(e.T);
      const ph = invariantPhases(region.labels, e.good.x, e.bad.phases);
      if (ph.length !== 3) continue;
      ph.sort((a, b) => a.x - b.x);
      // nearer the invariant where the pair's field is not met 0.05 K away: two invariants 0.04 K apart bound a
      // field that short (Mg-Zn of COST507: L + Mg7Zn3 between 614.14 and 614.18 K)
      for (const [a, b] of [
        [0, 1],
        [1, 2],
        [0, 2],
      ])
        for (const side of [1, -1])
          for (const dT of INVARIANT_PROBES_DT) {
            const T = e.T + side * dT;
            if (T < Tlo || T > Thi) continue;
            const q = yield* solveRequest(T, (ph[a].x + ph[b].x) / 2);
            if (q.ok && q.phases.length === 2 && !this.tracer.covered(q)) this.seeds.push(q);
            if (q.ok && q.phases.length === 2 && q.phases.every((p) => p.base === ph[a].base || p.base === ph[b].base))
              break;
          }
    }
  }

  /** A region (finished or running) already ends on this edge between T0 and T1 with these two phases. */
  private reachesEdge(side: 0 | 1, T0: number, T1: number, pair: (string | null)[]): boolean {
    return this.tracer.regions.some(
      (r) =>
        r.ends.some(
          (e) =>
            e.kind === 'pure_element' &&
            e.T >= T0 &&
            e.T <= T1 &&
            ((e.good.x[0] + e.good.x[1]) / 2 < 0.5 ? 0 : 1) === side,
        ) && r.labels.every((l) => pair.includes(baseName(l))),
    );
  }

  /**
   * The lens of a pure-element transition that no traced region reaches yet: the transition is
   * bracketed to EDGE_TOL, and LENS_DT on each side of it the field next to the element is searched for
   * by marching inwards from the edge; what is found is queued as a seed.
   */
  private *lens(task: LensTask): Generator<StateRequest, void, BinaryState> {
    const edgePhaseOf = (e: BinaryState) => {
      const p = edgePhase(e);
      return p === null ? null : baseName(p);
    };
    const { side } = task;
    if (this.reachesEdge(side, task.lo.T, task.hi.T, [edgePhaseOf(task.lo), edgePhaseOf(task.hi)])) return;
    const brackets = yield* narrowEdgeBracket((T) => solveRequest(T, side), task.lo, task.hi, EDGE_TOL);
    for (const [a, b] of brackets) {
      if (b.T - a.T > 10 * EDGE_TOL) continue; // the solver failed inside: nothing located
      if (this.reachesEdge(side, a.T - 0.1, b.T + 0.1, [edgePhaseOf(a), edgePhaseOf(b)])) continue;
      // a lens cut short by an invariant less than LENS_DT from the transition is met only closer to it (Fe-O:
      // alpha/gamma of Fe at 1184.81 K, FCC + BCC + HALITE 0.1 K above): looked for again at LENS_DT / 10, and
      // then LENS_DT / 100 from the transition bracketed 100 times narrower (Ni-V of COST507: the fcc liquidus
      // peaks 0.02 K above the melting point of Ni)
      const pair = [edgePhaseOf(a), edgePhaseOf(b)];
      if (
        (yield* this.lensAt(side, a.T, b.T, LENS_DT, pair)) ||
        (yield* this.lensAt(side, a.T, b.T, LENS_DT / 10, pair))
      )
        continue;
      for (const [a2, b2] of yield* narrowEdgeBracket((T) => solveRequest(T, side), a, b, EDGE_TOL / 100))
        if (yield* this.lensAt(side, a2.T, b2.T, LENS_DT / 100, pair)) break;
    }
  }

  /**
   * From the edge dT above and below a transition bracketed by [Ta, Tb], a march inwards for the field next to the
   * element; a field found is queued as a seed. True when it is the lens of the transition's two phases (the lens
   * of a transition opens on one side of it only: its limiting slopes, van 't Hoff).
   */
  private *lensAt(
    side: 0 | 1,
    Ta: number,
    Tb: number,
    dT: number,
    pair: (string | null)[],
  ): Generator<StateRequest, boolean, BinaryState> {
    const { Tlo, Thi, Xr } = this.ctx;
    const inward = side === 0 ? 1 : -1;
    const limit = side === 0 ? Math.min(Xr[1], 0.1) : Math.max(Xr[0], 0.9);
    for (const T of [Tb + dT, Ta - dT]) {
      if (T < Tlo || T > Thi) continue;
      const start = yield* solveRequest(T, side);
      if (!start.ok || start.phases.length !== 1) continue;
      const f = yield* marchToField((X) => solveRequest(T, X), start, { limit, firstStep: 1e-6, growth: 4 });
      if (!(f && f.phases.length === 2 && (f.X - side) * inward > 0)) continue;
      const known = this.tracer.covered(f);
      if (!known) this.seeds.push(f);
      // a field of the pair already traced that does not reach the element lies beyond a maximum of the
      // transition's own lens (Ni-V: the fcc liquidus peaks 0.02 K above the melting point of Ni): not the lens
      if (f.phases.every((p) => pair.includes(p.base)) && (!known || this.reachesEdge(side, T - 1, T + 1, pair)))
        return true;
    }
    return false;
  }

  /** Runs every trace to its end (or until the budget is used up; the log says what is left). */
  run(concurrency: number, progress: (p: number) => void): void {
    const { Xr, solver, log } = this.ctx;
    // the coroutines waiting for the state of a point, in a stable order (the solver gives the k-th request of a
    // round the same thread each time)
    let active: Running[] = [];
    // runs a coroutine to its next request (appended to `out`), into the parts of a fork, or to its end (then on
    // with its parent when that was the last of the parent's parts)
    const advance = (e: Running, value: BinaryState | undefined, out: Running[]): void => {
      for (;;) {
        const r = e.gen.next(value as BinaryState);
        if (r.done) {
          if (!e.parent || --e.parent.waiting > 0) return;
          e = e.parent;
          value = undefined;
        } else if ('together' in r.value) {
          e.waiting = r.value.together.length;
          if (!e.waiting) {
            value = undefined;
            continue;
          }
          for (const gen of r.value.together)
            advance({ gen, req: null, key: e.key, parent: e, waiting: 0 }, undefined, out);
          return;
        } else {
          e.req = r.value;
          out.push(e);
          return;
        }
      }
    };
    const start = (gen: Generator<Step, void, BinaryState>, key: string): boolean => {
      const n = active.length;
      advance({ gen, req: null, key, parent: null, waiting: 0 }, undefined, active);
      return active.length > n;
    };
    const startNext = (): boolean => {
      while (this.next < this.seeds.length) {
        // a seed of the phase pair of a running trace waits for it (it most likely lies on that trace's region,
        // which covered() can tell only once the trace has got there): the first other seed goes first
        const k = this.seeds.findIndex((s, i) => i >= this.next && !active.some((a) => a.key === s.key));
        if (k < 0) return false;
        const s = this.seeds[k];
        this.seeds.splice(k, 1);
        this.seeds.splice(this.next++, 0, s);
        if (s.X < Xr[0] - 1e-9 || s.X > Xr[1] + 1e-9 || this.tracer.covered(s)) continue;
        if (start(this.seed(s), s.key)) return true;
      }
      // the lens searches when every seed so far is taken (they queue seeds of their own)
      while (this.lenses.length && !active.length) if (start(this.lens(this.lenses.shift()!), '')) return true;
      return false;
    };
    for (;;) {
      while (active.length < concurrency && startNext()) {
        /* fill */
      }
      if (!active.length) break;
      solver.checkCancel();
      if (solver.exhausted) {
        log(
          `equilibrium budget of ${solver.budget} used up: tracing stopped with ${this.seeds.length - this.next + active.length} seeds and ${this.lenses.length} pure-element lens searches left; the diagram is incomplete`,
        );
        break;
      }
      // a round of one request per thread: the others wait for the next round, first in line
      const served = active.slice(0, solver.threads);
      const results = solver.solveRound(served.map((a) => a.req!));
      const waiting = active.slice(served.length);
      served.forEach((e, k) => advance(e, results[k], waiting));
      active = waiting;
      progress(0.3 + (0.65 * this.next) / Math.max(1, this.seeds.length));
    }
  }
}
