// Continuation of a binary two-phase region in T. At fixed T and P a binary tie-line does not depend on
// the overall composition inside its field (Gibbs phase rule, F = C - P + 1 = 1 at fixed P), so one
// global equilibrium at any X inside the field gives both boundary compositions; the region is followed
// up and down in T with X = the midpoint of the predicted tie-line and an adaptive step, and its ends
// are located by bisection on T to MIN_STEP and classified (region-ends.ts).
import { baseName } from '../../contract/phases.js';
import type { TieLine } from '../../contract/results/binary_equilibrium.js';
import type { MapContext } from './binary-context.js';
import { solveRequest } from './binary-solver.js';
import {
  JUMP_X,
  MIN_STEP,
  SAME_X,
  SEARCH_LEN,
  SHORT_TIELINE,
  type BinaryState,
  type RegionEnd,
  type StateRequest,
  type TracedRegion,
} from './binary-types.js';
import { marchToField } from './field_search.js';

import { classifyRegionEnd } from './region-ends.js';

type Attempt = { ok: true; e: BinaryState; searched?: boolean } | { ok: false; e: BinaryState };

/** The shift in x aimed at per continuation step. */
const STEP_AIM_X = 0.015;

/** The largest shift of a boundary between two tie-lines. */
function shift(a: TieLine, b: TieLine): number {
  return Math.max(Math.abs(b.x[0] - a.x[0]), Math.abs(b.x[1] - a.x[1]));
}

export function tieOf(e: BinaryState): TieLine {
  return { T: e.T, x: [e.phases[0].x, e.phases[1].x] };
}

/** The boundary compositions of the tie-lines (sorted by T) at T, linear in T, held at the ends. */
export function interpolateTieLine(tl: readonly TieLine[], T: number): [number, number] {
  let k = 0;
  while (k < tl.length - 1 && tl[k + 1].T < T) k++;
  const a = tl[k],
    b = tl[Math.min(k + 1, tl.length - 1)];
  const w = b.T > a.T ? Math.min(1, Math.max(0, (T - a.T) / (b.T - a.T))) : 0;
  return [a.x[0] + w * (b.x[0] - a.x[0]), a.x[1] + w * (b.x[1] - a.x[1])];
}

/** The two-phase regions of one diagram, traced one seed at a time (several at once under the scheduler). */
export class RegionTracer {
  readonly regions: TracedRegion[] = [];
  /** the state each traced tie-line came from (a warm start for the next point of its trace) */
  private readonly stateOf = new WeakMap<TieLine, BinaryState>();

  constructor(private readonly ctx: MapContext) {}

  /**
   * A two-phase state lies on a region traced (or being traced) already: the same phase pair with both
   * boundaries within SAME_X of the region's, with a margin of 0.1 K beyond its ends (the phases met
   * just beyond a region end belong to it).
   */
  covered(s: BinaryState): boolean {
    for (const r of this.regions) {
      if (r.labels.join('+') !== s.key || !r.tl.length) continue;
      const tl = r.done ? r.tl : [...r.tl].sort((a, b) => a.T - b.T);
      if (s.T < tl[0].T - 0.1 || s.T > tl[tl.length - 1].T + 0.1) continue;
      const [xl, xr] = interpolateTieLine(tl, s.T);
      if (Math.abs(xl - s.phases[0].x) < SAME_X && Math.abs(xr - s.phases[1].x) < SAME_X) return true;
    }
    return false;
  }

  /** Equilibrium at T continuing tie-line `cur` (slope = dx/dT estimate), or the failing result. */
  *attempt(
    cur: TieLine,
    slope: [number, number],
    T: number,
    key: string,
    probes = 3,
    search = true,
  ): Generator<StateRequest, Attempt, BinaryState> {
    const Xr = this.ctx.Xr;
    const dT = T - cur.T;
    const pred: [number, number] = [cur.x[0] + slope[0] * dT, cur.x[1] + slope[1] * dT];
    const tol = (k: 0 | 1) => 0.03 + Math.abs(slope[k] * dT);
    // One boundary jumping off its prediction while the other follows its own is a discontinuity of the
    // field, not curvature: the same pair on the far side of an invariant where one phase splits (the
    // solvus meeting a magnetic miscibility gap of fcc in Al-Co near 1090 K jumps by 0.04 in x).
    // (Only once the slope is known: a seed's first step has none.)
    const jumped = (d: [number, number]) =>
      (slope[0] !== 0 || slope[1] !== 0) &&
      [0, 1].some((k) => d[k] > JUMP_X + 0.5 * Math.abs(slope[k] * dT) && d[1 - k] < 0.25 * d[k]);
    const matches = (e: BinaryState) => {
      if (!e.ok || e.key !== key) return false;
      const d: [number, number] = [Math.abs(e.phases[0].x - pred[0]), Math.abs(e.phases[1].x - pred[1])];
      return d[0] <= tol(0) && d[1] <= tol(1) && !jumped(d);
    };
    // the midpoint of the predicted tie-line first; then points across the old one (a region that
    // moves sideways fast can leave the plain midpoint)
    const fracs = [0.5, 0.2, 0.8].slice(0, probes);
    const near = this.stateOf.get(cur);
    let first: BinaryState | null = null;
    for (const f of fracs) {
      const lo = Math.max(0, Math.min(pred[0], pred[1])),
        hi = Math.min(1, Math.max(pred[0], pred[1]));
      const X = f === 0.5 ? (lo + hi) / 2 : cur.x[0] + f * (cur.x[1] - cur.x[0]);
      const e = yield* solveRequest(T, X, near);
      if (matches(e)) return { ok: true, e };
      first ??= e;
      if (e.ok && e.phases.length === 1 && cur.x[1] - cur.x[0] < SHORT_TIELINE) break; // collapsing: no use probing
    }
    // A narrow field can move off the predicted tie-line faster than the slope says (a boundary that runs
    // almost level in T, a lens next to a pure element): when the miss is one of the field's own phases
    // alone, the field lies on the side of its other phase; search there before calling this the end.
    const len = cur.x[1] - cur.x[0];
    const [left, right] = key.split('+');
    if (search && first!.ok && first!.phases.length === 1 && len < SEARCH_LEN && baseName(left) !== baseName(right)) {
      const at = first!.phases[0].label;
      const dir = at === left ? 1 : at === right ? -1 : 0;
      if (dir) {
        const reach = Math.max(SEARCH_LEN, 4 * len);
        const limit = Math.min(Xr[1], Math.max(Xr[0], first!.X + dir * reach));
        const found = yield* marchToField((X) => solveRequest(T, X), first!, {
          limit,
          firstStep: Math.max(len / 2, 1e-3),
          growth: 3,
          xTol: 1e-6,
        });
        if (found && found.key === key && found.phases.every((p) => Math.abs(p.x - first!.X) <= reach))
          return { ok: true, e: found, searched: true };
        if (found && (yield* this.beyondEnd(cur, found, at, at === left ? 0 : 1))) return { ok: false, e: found };
      }
    }
    return { ok: false, e: first! };
  }

  /**
   * Whether `found`, a field the composition search reached from the phase `at` (on side k of tie-line `cur`) beyond
   * the field traced, is the state beyond this field's end at an invariant: it holds `at` where this field's boundary
   * was (within SAME_X, as invariantPhases takes one phase record), with a third phase (Cu-V of mc_fe: the liquid +
   * fcc lens next to Cu, 3e-5 wide, ends at the peritectic of 1357.81 K, liquid + hcp above) or with the same phases
   * but wider than the search's reach, another field (Co-Cu of mc_fe at 694.66 K: the lens of hcp + fcc next to Co,
   * 1e-5 wide, ends at the monotectoid where hcp + the Cu-rich fcc, 0.0021 to 0.9978, begins), and it does not hold
   * at cur.T, inside the field traced: a field beyond an invariant begins there (Gibbs phase rule), while one found
   * across a single-phase range next to a congruent end was there all along (Al-Cu of COST 507: epsilon + zeta
   * closes at 861.34 K where zeta forms from epsilon; above it the search from epsilon reaches epsilon + delta,
   * 0.007 further, which holds at 861.33 K too).
   */
  private *beyondEnd(
    cur: TieLine,
    found: BinaryState,
    at: string,
    k: 0 | 1,
  ): Generator<StateRequest, boolean, BinaryState> {
    const own = found.phases.find((p) => p.label === at);
    if (!own || Math.abs(own.x - cur.x[k]) >= SAME_X) return false;
    const inside = yield* solveRequest(cur.T, (found.phases[0].x + found.phases[1].x) / 2);
    return !(inside.ok && inside.key === found.key);
  }

  private tieLine(e: BinaryState): TieLine {
    const t = tieOf(e);
    this.stateOf.set(t, e);
    return t;
  }

  /** Traces the region of a two-phase seed up and down in T to its two ends (one direction after the other). */
  *trace(seed: BinaryState): Generator<StateRequest, TracedRegion, BinaryState> {
    const region = this.begin(seed);
    for (const dir of [1, -1] as const) yield* this.half(region, seed, dir);
    return this.finish(region);
  }

  /**
   * The region of a seed, registered while it is traced so that seeds inside it are recognised (covered()); its
   * two halves (half(), up and down from the seed) are independent and may be traced side by side; finish() when
   * both have ended.
   */
  begin(seed: BinaryState): TracedRegion {
    const region: TracedRegion = {
      labels: [seed.phases[0].label, seed.phases[1].label],
      tl: [this.tieLine(seed)],
      ends: [],
      done: false,
    };
    this.regions.push(region);
    return region;
  }

  finish(region: TracedRegion): TracedRegion {
    region.tl.sort((a, b) => a.T - b.T);
    region.ends.sort((a, b) => b.dir - a.dir); // the upper end first, whichever half ended first
    region.done = true;
    return region;
  }

  /** Traces a region from its seed in one direction of T (1: up, -1: down) to its end. */
  *half(region: TracedRegion, seed: BinaryState, dir: 1 | -1): Generator<StateRequest, void, BinaryState> {
    const { maxStep, Tlo, Thi, log } = this.ctx;
    const { labels, ends } = region;
    const key = seed.key;
    // the tie-lines of this half, from the seed on: an end is classified on its own trace (the other half may be
    // under way, and a trace with no tie-line before its last one is told by the element itself: region-ends.ts)
    const path: TieLine[] = [this.tieLine(seed)];
    const keep = (t: TieLine) => {
      region.tl.push(t);
      path.push(t);
    };
    let cur = path[0];
    let slope: [number, number] = [0, 0];
    let dT = Math.min(5, maxStep);
    let end: RegionEnd | null = null;
    let hard = false;
    for (let guard = 0; !end; guard++) {
      if (guard > 4000) {
        log(
          `region ${key}: more than 4000 continuation steps from T=${seed.T.toFixed(2)} K; stopped at T=${cur.T.toFixed(2)} K`,
        );
        end = { kind: 'unresolved', T: cur.T, good: cur, bad: null, dir };
        break;
      }
      const edge = dir > 0 ? Thi : Tlo;
      if (Math.abs(edge - cur.T) < 1e-9) {
        end = { kind: 'range_edge', T: cur.T, good: cur, bad: null, dir };
        break;
      }
      const T = dir > 0 ? Math.min(edge, cur.T + dT) : Math.max(edge, cur.T - dT);
      const a = yield* this.attempt(cur, slope, T, key);
      if (a.ok) {
        const next = this.tieLine(a.e);
        const dx = shift(cur, next);
        // too coarse: redo with a smaller step (a tie-line the composition search found is off the linear
        // prediction, so only the step bounds how far the boundaries curve in between: it keeps to the aim)
        if ((dx > 0.05 || (a.searched && dx > STEP_AIM_X)) && dT > 4 * MIN_STEP) {
          dT /= 2;
          continue;
        }
        const h = next.T - cur.T;
        if (Math.abs(h) > 1e-12) slope = [(next.x[0] - cur.x[0]) / h, (next.x[1] - cur.x[1]) / h];
        keep(next);
        cur = next;
        // aim at ~0.015 in x per step: smaller where the boundaries move fast, bigger where smooth
        dT = Math.min(maxStep, Math.max(MIN_STEP, dT * Math.min(2, Math.max(0.3, STEP_AIM_X / Math.max(dx, 1e-9)))));
        continue;
      }
      // the region ends between cur.T and T: bisection on T
      let good = cur,
        badT = T;
      let gslope = slope;
      let searchFails = 0;
      const searchCap = hard ? Infinity : 2;
      let resume = false;
      while (Math.abs(badT - good.T) > MIN_STEP) {
        const Tm = (good.T + badT) / 2;
        // cheap inside the bracket: one probe, and the composition search only until it has failed
        // twice (beyond a true end it fails every time; the final re-check probes and searches again)
        const m = yield* this.attempt(good, gslope, Tm, key, 1, searchFails < searchCap);
        if (!m.ok) searchFails++;
        if (m.ok) {
          const n = this.tieLine(m.e);
          const h = n.T - good.T;
          if (m.searched && shift(good, n) > STEP_AIM_X && Math.abs(h) > 4 * MIN_STEP) {
            // the field goes on, found off its prediction further than a step's aim: back to steps from the last
            // good tie-line (Cu-Zn of mc_al: the hcp + liquid lens from the melting point of Zn to the peritectic
            // 2.6 K above moves 0.034 in x, along a curve that a chord over the bracket misses by 0.005)
            dT = Math.abs(h) / 2;
            resume = true;
            break;
          }
          if (Math.abs(h) > 1e-12 && Math.abs(h) > 0.5) gslope = [(n.x[0] - good.x[0]) / h, (n.x[1] - good.x[1]) / h];
          keep(n);
          good = n;
        } else badT = Tm;
      }
      if (resume) {
        cur = good;
        slope = gslope;
        continue;
      }
      // the first failure may come from a poor X guess (e.g. the seed's zero slope), not from the
      // end of the region: re-check the bad side from the last good tie-line and resume if it holds
      // (all three probes only when no tie-line was found inside the bracket, else the fresh
      // prediction's midpoint suffices)
      const again = yield* this.attempt(good, gslope, badT, key, good === cur ? 3 : 1);
      if (again.ok) {
        const n = this.tieLine(again.e);
        keep(n);
        cur = n;
        slope = gslope;
        dT = Math.max(10 * MIN_STEP, Math.min(maxStep, 0.5));
        // the search found the field going on past a point the bisection took for its end: the
        // prediction is poor here (a boundary running almost level in T, a congruent point ahead), so
        // from now on the bisection searches at every point instead of stopping short again and again
        if (again.searched) hard = true;
        continue;
      }
      if (good !== cur) cur = good;
      end = yield* classifyRegionEnd(good, again.e, dir, labels, path, log);
    }
    ends.push(end!);
  }
}

/**
 * Two seeds of one region traced at the same time give the region twice: traces of the same phase pair
 * that overlap in T and agree there (same tie-line within SAME_X) are merged, keeping the outermost ends.
 */
export function mergeOverlappingTraces(regions: TracedRegion[]): void {
  for (let i = 0; i < regions.length; i++) {
    for (let j = regions.length - 1; j > i; j--) {
      const A = regions[i],
        B = regions[j];
      if (A.labels.join('+') !== B.labels.join('+')) continue;
      const lo = Math.max(A.tl[0].T, B.tl[0].T),
        hi = Math.min(A.tl[A.tl.length - 1].T, B.tl[B.tl.length - 1].T);
      if (hi < lo - 0.1) continue;
      const Tm = (lo + hi) / 2,
        xa = interpolateTieLine(A.tl, Tm),
        xb = interpolateTieLine(B.tl, Tm);
      if (Math.abs(xa[0] - xb[0]) > SAME_X || Math.abs(xa[1] - xb[1]) > SAME_X) continue;
      const tl = [...A.tl, ...B.tl].sort((a, b) => a.T - b.T);
      A.tl = tl.filter((t, k) => k === 0 || t.T - tl[k - 1].T > 1e-6);
      const lowA = A.ends.find((e) => e.dir === -1)!,
        lowB = B.ends.find((e) => e.dir === -1)!;
      const highA = A.ends.find((e) => e.dir === 1)!,
        highB = B.ends.find((e) => e.dir === 1)!;
      A.ends = [lowA.T <= lowB.T ? lowA : lowB, highA.T >= highB.T ? highA : highB];
      regions.splice(j, 1);
    }
  }
}
