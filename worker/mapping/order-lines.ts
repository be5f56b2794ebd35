// The second-order (continuous) transition lines of a binary diagram (core/skeleton.ts, stage 7: lines inside the
// fields that bound none), followed from the points where the seed grid located them (seed-grid.ts) and where they
// meet two-phase fields (invariants.ts). The ordered states themselves are told apart by order-disorder.ts.
import { BudgetExceeded } from './core/ledger.js';
import type { BinaryState, SecondOrderLine, SecondOrderPoint } from './binary-types.js';

/** Orders the points of a second-order line T_c(x) by x (by T when they all share one x). */
export function orderPolyline(pts: { T: number; x: number }[]): { T: number; x: number }[] {
  return [...pts].sort((a, b) => a.x - b.x || a.T - b.T);
}

/** T on the polyline through the located points (sorted by x), linear in x, extrapolated at the ends. */
export function interpolateLine(located: readonly { T: number; x: number }[], x: number): number {
  let k = 0;
  while (k < located.length - 2 && located[k + 1].x < x) k++;
  const a = located[k],
    b = located[Math.min(k + 1, located.length - 1)];
  const w = b.x > a.x ? (x - a.x) / (b.x - a.x) : 0;
  return a.T + w * (b.T - a.T);
}

/**
 * T_c from two ordered states below the transition by the mean-field (Landau) law of the order
 * parameter, eta^2 ~ (T_c - T): the line through (T1, eta1^2) and (T1 - dT, eta2^2) meets eta^2 = 0 at
 * T_c. Null when the two states do not give a falling eta^2.
 */
export function landauTc(T1: number, eta1: number, eta2: number, dT: number): number | null {
  const slope = (eta1 ** 2 - eta2 ** 2) / dT;
  if (!(slope < 0)) return null;
  return T1 - eta1 ** 2 / slope;
}

/** A point equilibrium asked for by a line follower. */
export interface PointRequest {
  T: number;
  x: number;
}

/** Runs the generators round by round: each round's requests are solved together. */
export function lockstep<R>(
  gens: Generator<PointRequest, R, BinaryState>[],
  solveMany: (reqs: PointRequest[]) => BinaryState[],
): R[] {
  const rounds = together(gens);
  let r = rounds.next();
  while (!r.done) r = rounds.next(solveMany(r.value));
  return r.value;
}

/** The rounds of lockstep as a generator: each round's requests are yielded together and their states received. */
export function* together<R>(
  gens: Generator<PointRequest, R, BinaryState>[],
): Generator<PointRequest[], R[], BinaryState[]> {
  const out = new Array<R>(gens.length);
  let pending = gens.map((g, i) => ({ i, r: g.next() }));
  while (pending.length) {
    const active: { i: number; r: IteratorYieldResult<PointRequest> }[] = [];
    for (const p of pending)
      if (p.r.done) out[p.i] = p.r.value;
      else active.push({ i: p.i, r: p.r });
    if (!active.length) break;
    const states = yield active.map((p) => p.r.value);
    pending = active.map((p, k) => ({ i: p.i, r: gens[p.i].next(states[k]) }));
  }
  return out;
}

/**
 * Runs generators of rounds (together) side by side: the requests of a round of each go to the solver as one
 * batch. A used-up budget is thrown into each of them, so that each ends its own way.
 */
function driveRounds<R>(
  gens: Generator<PointRequest[], R, BinaryState[]>[],
  solveMany: (reqs: PointRequest[]) => BinaryState[],
): R[] {
  const out = new Array<R>(gens.length);
  let pending = gens.map((g, i) => ({ i, r: g.next() }));
  while (pending.length) {
    const active: { i: number; r: IteratorYieldResult<PointRequest[]> }[] = [];
    for (const p of pending)
      if (p.r.done) out[p.i] = p.r.value;
      else active.push({ i: p.i, r: p.r });
    if (!active.length) break;
    let states: BinaryState[];
    try {
      states = solveMany(active.flatMap((p) => p.r.value));
    } catch (e) {
      if (!(e instanceof BudgetExceeded)) throw e;
      pending = active.map((p) => ({ i: p.i, r: gens[p.i].throw(e) }));
      continue;
    }
    let at = 0;
    pending = active.map((p) => {
      const mine = states.slice(at, at + p.r.value.length);
      at += p.r.value.length;
      return { i: p.i, r: gens[p.i].next(mine) };
    });
  }
  return out;
}

/** K: a second-order transition temperature is bisected to this at fixed x. */
export const TC_TOL = 0.05;
/** Mole fraction: the transition is bisected to this (0.2 K on a line of slope 1000 K per unit x; the audit compares x to 0.004) at fixed T where the line is steep. */
const XC_TOL = 2e-4;
/** x step of the line's continuation. */
const X_STEP = 0.01;
/** K: a gap in T between neighbouring points of a line larger than this is filled by fixed-T bisections in x. */
const STEEP_DT = 80;
/**
 * A line followed in x is solved at every other x first; a point in between is solved only where the line is not
 * straight enough there to be drawn without it: where a neighbour failed, where the neighbours differ by more
 * than STEEP_DT (the line is followed in T there), or where the second differences of the points around it put
 * the point more than REFINE_ERR_T off the chord, or more than REFINE_ERR_X in x at the line's slope (a quarter of
 * what the audit allows). A point solved is the one the full step solves (its guess depends on x only), so the
 * line is the full-step line less points that lie that close to its chords.
 */
const REFINE_ERR_T = 2;
const REFINE_ERR_X = 1e-3;

/** The request sequence of BinarySolver.solve: the point, and once more 1e-4 further inside when it fails. */
function* solvePoint(T: number, x: number): Generator<PointRequest, BinaryState, BinaryState> {
  const e = yield { T, x };
  if (e.ok) return e;
  const e2 = yield { T, x: x + (x < 0.5 ? 1e-4 : -1e-4) };
  return e2.ok ? e2 : e;
}

/**
 * Follows the second-order lines through the located transition points (grouped by ordered/disordered
 * pair: the A2/B2 and the B2/D03 line of a four-sublattice BCC are two lines). A line T_c(x) is followed in
 * x (step 0.01 from the first to the last located point, every other x first: REFINE_ERR_T): at each x the transition is bracketed around the
 * value interpolated from the located points (or, one x at a time, predicted from the last two points;
 * ordered below, disordered above) and bisected in T to 1 K, then T_c is taken from the ordered side with
 * the mean-field law (landauTc) through two ordered states 1 and 6 K below the bracket: next to T_c the
 * less ordered state is a stationary point of G by symmetry and the solver may stop there although the
 * ordered state is lower, so the plain bisection can come out a few K low. Where that law gives no T_c in
 * the bracket, the bisection goes on to 0.05 K. Where the line is steep (more than 80 K between neighbouring points, or an x where no bracket was
 * found, as next to the field where it meets a two-phase region) it is followed in T instead: at fixed T
 * the transition is bisected in x between its neighbours. Where the line meets a two-phase field, the
 * located meeting points end it.
 */
export function followSecondOrderLines(
  points: readonly SecondOrderPoint[],
  solve: (T: number, x: number) => BinaryState,
  range: { Tlo: number; Thi: number },
  log: (s: string) => void,
  solveMany?: (reqs: PointRequest[]) => BinaryState[],
): SecondOrderLine[] {
  const byPair = new Map<string, SecondOrderPoint[]>();
  for (const p of points) {
    const k = `${p.ordered}|${p.disordered}`;
    if (!byPair.has(k)) byPair.set(k, []);
    byPair.get(k)!.push(p);
  }
  // the lines are followed side by side, and the point requests of their bisections go to the solver together
  // (over the threads); without solveMany one at a time
  return driveRounds(
    [...byPair.values()].map((list) => new LineFollower(list, range, log, solveMany !== undefined).follow()),
    solveMany ?? ((reqs) => reqs.map((q) => solve(q.T, q.x))),
  );
}

/** The side of the transition a state lies on ('o' ordered, 'd' disordered) and its order parameter. */
type Side = { s: 'o' | 'd'; eta: number } | null;

/** The follower of one line: its located points, and the points found so far (kept when the budget ends it). */
class LineFollower {
  private readonly ordered: string;
  private readonly disordered: string;
  private readonly located: { T: number; x: number }[];
  private pts: { T: number; x: number }[] = [];

  constructor(
    list: SecondOrderPoint[],
    private readonly range: { Tlo: number; Thi: number },
    private readonly log: (s: string) => void,
    /** every other x first, all x of a pass together (else one x at a time, each predicted from the last two) */
    private readonly passes: boolean,
  ) {
    this.ordered = list[0].ordered;
    this.disordered = list[0].disordered;
    this.located = orderPolyline(list.map((p) => ({ T: p.T, x: p.x })));
  }

  *follow(): Generator<PointRequest[], SecondOrderLine, BinaryState[]> {
    const { ordered, disordered, located } = this;
    try {
      const x0 = located[0].x,
        x1 = located[located.length - 1].x;
      const byT = [...located].sort((a, b) => a.T - b.T);
      const T0 = byT[0].T,
        T1 = byT[byT.length - 1].T;
      // a line located at one point only (where it meets a two-phase field, in a window of the diagram whose
      // grid misses a narrow band of the ordered state) is followed in T from there like a steep one
      const single = T1 - T0 < 1 && x1 - x0 < 1e-3;
      if (single || (T1 - T0 > STEEP_DT && (T1 - T0) / Math.max(x1 - x0, 1e-9) > STEEP_DT / X_STEP)) {
        yield* this.followSteep(byT, single);
        return { ordered, disordered, points: dedupeLine(this.pts) };
      }
      const skipped = yield* this.followInX(x0, x1);
      // located points outside the followed range are kept (the meeting points with two-phase fields); inside
      // it they are superseded: they carry the solver's early jump
      if (this.pts.length) {
        const a = this.pts[0].x,
          b = this.pts[this.pts.length - 1].x;
        this.pts = orderPolyline([...this.pts, ...located.filter((p) => p.x < a - 1e-9 || p.x > b + 1e-9)]);
      } else this.pts = [...located];
      yield* this.fillSteepParts(skipped);
    } catch (e) {
      if (!(e instanceof BudgetExceeded)) throw e;
      this.log('equilibrium budget used up while following a second-order line');
      if (!this.pts.length) this.pts = [...located];
    }
    return { ordered, disordered, points: dedupeLine(orderPolyline(this.pts)) };
  }

  /**
   * A two-phase state counts on the side of the one state of the pair it holds: along an isotherm the line lies
   * between the fields of its two states, and next to a two-phase field the single-phase range of one state can be
   * narrower than any bracket (the L10 band of Ni-rich fcc between L12 + L10 and A1, alnifcc4sl below 500 K,
   * 0.001-0.003 wide).
   */
  private classify(e: BinaryState): Side {
    const { ordered, disordered } = this;
    if (!e.ok) return null;
    if (e.phases.length === 2) {
      const labels = e.phases.map((p) => p.label);
      const o = labels.includes(ordered),
        d = labels.includes(disordered);
      return o === d ? null : { s: o ? 'o' : 'd', eta: 0 };
    }
    if (e.phases.length !== 1) return null;
    if (e.key === ordered) return { s: 'o', eta: e.phases[0].eta ?? 0 };
    return e.key === disordered ? { s: 'd', eta: 0 } : null;
  }

  /**
   * T_c at x: bracketed around the guess (half width w0, widened while both ends agree), bisected, then the Landau
   * estimate; a generator of its point requests so that many x can be solved together.
   */
  private *tcAt(x: number, guess: number, w0: number): Generator<PointRequest, number | null, BinaryState> {
    const { Tlo, Thi } = this.range;
    const g = Math.min(Thi, Math.max(Tlo, guess));
    const br = { lo: Math.max(Tlo, g - w0), hi: Math.min(Thi, g + w0) };
    let sl = this.classify(yield { T: br.lo, x }),
      sh = this.classify(yield { T: br.hi, x });
    for (let k = 0, w = 8; k < 5 && sl?.s === 'd'; k++, w *= 2) {
      br.hi = br.lo;
      sh = sl;
      br.lo = Math.max(Tlo, br.lo - w);
      sl = this.classify(yield { T: br.lo, x });
    }
    for (let k = 0, w = 8; k < 5 && sh?.s === 'o'; k++, w *= 2) {
      br.lo = br.hi;
      sl = sh;
      br.hi = Math.min(Thi, br.hi + w);
      sh = this.classify(yield { T: br.hi, x });
    }
    if (!sl || !sh || sl.s !== 'o' || sh.s !== 'd') return null;
    // to 1 K, then the Landau estimate from the ordered side; where it does not apply, on to 0.05 K (right
    // next to T_c the solver is slow and its answer is the one the estimate corrects, so it is not asked there
    // when the estimate holds)
    if (!(yield* this.bisectT(x, br, 1))) return null;
    const e1 = this.classify(yield { T: br.lo - 1, x }),
      e2 = this.classify(yield { T: br.lo - 6, x });
    if (e1?.s === 'o' && e2?.s === 'o') {
      const tc = landauTc(br.lo - 1, e1.eta, e2.eta, 5);
      if (tc !== null && tc >= br.lo && tc <= br.hi + 20) return tc;
    }
    if (!(yield* this.bisectT(x, br, TC_TOL))) return null;
    return (br.lo + br.hi) / 2;
  }

  /** Bisects the bracket [lo, hi] in T (ordered below, disordered above) to tol; false when a state fails. */
  private *bisectT(
    x: number,
    br: { lo: number; hi: number },
    tol: number,
  ): Generator<PointRequest, boolean, BinaryState> {
    while (br.hi - br.lo > tol) {
      const m = (br.lo + br.hi) / 2,
        sm = this.classify(yield { T: m, x });
      if (!sm) return false;
      if (sm.s === 'o') br.lo = m;
      else br.hi = m;
    }
    return true;
  }

  /** x of the transition at T near the guess: the first of the brackets [guess - l, guess + r] whose ends differ, bisected. */
  private *xcNear(T: number, guess: number, brackets: number[][]): Generator<PointRequest, number | null, BinaryState> {
    for (const [l, r] of brackets) {
      let a = Math.max(0, guess - l),
        b = Math.min(1, guess + r);
      let sa = this.classify(yield { T, x: a });
      if (!sa) continue;
      const sb = this.classify(yield { T, x: b });
      if (!sb || sa.s === sb.s) continue;
      let failed = false;
      while (Math.abs(b - a) > XC_TOL) {
        const m = (a + b) / 2,
          sm = this.classify(yield { T, x: m });
        if (!sm) {
          failed = true;
          break;
        }
        if (sm.s === sa.s) {
          a = m;
          sa = sm;
        } else b = m;
      }
      return failed ? null : (a + b) / 2;
    }
    return null;
  }

  /** x of the transition at T between xa and xb (states of the two kinds there), or null. */
  private *xcAt(T: number, xa: number, xb: number): Generator<PointRequest, number | null, BinaryState> {
    let sa = this.classify(yield* solvePoint(T, xa));
    if (!sa) return null; // (the other end cannot make a bracket of it)
    const sb = this.classify(yield* solvePoint(T, xb));
    if (!sb || sa.s === sb.s) return null;
    let a = xa,
      b = xb;
    while (Math.abs(b - a) > XC_TOL) {
      const m = (a + b) / 2,
        sm = this.classify(yield* solvePoint(T, m));
      if (!sm) return null;
      if (sm.s === sa.s) {
        a = m;
        sa = sm;
      } else b = m;
    }
    return (a + b) / 2;
  }

  /**
   * A steep line (an ordering at a nearly fixed composition): followed in T, bisected in x at each T; beyond the
   * located range the line goes on until it meets a field or the diagram's edge (the grid bisections locate a nearly
   * vertical line only at some of its rows). The points are ordered by T: along a nearly vertical line the bisected
   * x scatter by up to the tolerance.
   */
  private *followSteep(
    byT: { T: number; x: number }[],
    single: boolean,
  ): Generator<PointRequest[], void, BinaryState[]> {
    const T0 = byT[0].T,
      T1 = byT[byT.length - 1].T;
    const n = single ? 0 : Math.min(20, Math.ceil((T1 - T0) / (STEEP_DT * 1.25)));
    const Ts = single ? [] : Array.from({ length: n + 1 }, (_, k) => T0 + ((T1 - T0) * k) / n);
    const guesses = Ts.map((T) => {
      let j = 0;
      while (j < byT.length - 2 && byT[j + 1].T < T) j++;
      const a = byT[j],
        b = byT[Math.min(j + 1, byT.length - 1)];
      return b.T > a.T ? a.x + ((T - a.T) / (b.T - a.T)) * (b.x - a.x) : a.x;
    });
    const brackets = [
      [3e-3, 3e-3],
      [1e-2, 1e-2],
      [3e-2, 3e-2],
    ];
    const xs = yield* together(Ts.map((T, k) => this.xcNear(T, guesses[k], brackets)));
    Ts.forEach((T, k) => {
      const x = xs[k];
      if (x !== null) this.pts.push({ T, x });
    });
    const dT = single ? STEEP_DT / 4 : (T1 - T0) / n;
    const pts = this.pts;
    const ends = [pts[0] ?? byT[0], pts[pts.length - 1] ?? byT[byT.length - 1]];
    // the two directions side by side
    for (const found of yield* together([this.extend(-1, ends[0], dT), this.extend(1, ends[1], dT)]))
      this.pts.push(...found);
    this.pts = [...this.pts, ...this.located.filter((p) => p.T < T0 + 1e-9 || p.T > T1 - 1e-9)].sort(
      (a, b) => a.T - b.T,
    );
  }

  /** The steep line beyond its last point in one direction of T, step dT halved (down to 1/8) where it stops. */
  private *extend(
    dir: -1 | 1,
    from: { T: number; x: number },
    dT: number,
  ): Generator<PointRequest, { T: number; x: number }[], BinaryState> {
    const { Tlo, Thi } = this.range;
    const found: { T: number; x: number }[] = [];
    let last = from;
    // the step is halved (down to 1/8) where the line stops: it ends on a field between two steps
    for (let k = 0, step = dT; k < 40; k++) {
      // a step beyond the diagram's edge ends at the edge: a line that reaches it is drawn to it
      const edge = dir < 0 ? Tlo : Thi;
      if (Math.abs(last.T - edge) < 1e-9) break;
      const T = dir < 0 ? Math.max(Tlo, last.T - step) : Math.min(Thi, last.T + step);
      // a bracket on one side as well: next to a two-phase field (or a narrow pocket of the ordered
      // state) one end of the symmetric bracket falls outside the single-phase range
      let x: number | null = null;
      for (const [l, r] of [
        [3e-3, 3e-3],
        [1e-2, 1e-2],
        [0, 5e-3],
        [5e-3, 0],
      ])
        if ((x = yield* this.xcAt(T, Math.max(0, last.x - l), Math.min(1, last.x + r))) !== null) break;
      if (x === null) {
        if (step < dT / 6) break;
        step /= 2;
        continue;
      }
      last = { T, x };
      found.push(last);
    }
    return found;
  }

  /**
   * The line followed in x from x0 to x1 (step X_STEP): with passes every other x first, then the ones between where
   * needed, all x of a pass together (the batch runs over the threads), each bracketed around the located line;
   * else one x at a time, predicted from the last two points. Returns the x left out between two solved points (the
   * line is straight enough there: REFINE_ERR_T).
   */
  private *followInX(x0: number, x1: number): Generator<PointRequest[], number[], BinaryState[]> {
    const n = Math.max(1, Math.ceil((x1 - x0) / X_STEP));
    const xs = Array.from({ length: n + 1 }, (_, k) => x0 + ((x1 - x0) * k) / n);
    const skipped: number[] = [];
    if (!this.passes) {
      for (const x of xs) {
        const pts = this.pts;
        const [p1, p2] = [pts[pts.length - 1], pts[pts.length - 2]];
        const guess =
          p1 && p2 && Math.abs(p1.x - x) < 2.5 * X_STEP
            ? p1.T + ((p1.T - p2.T) / (p1.x - p2.x)) * (x - p1.x)
            : interpolateLine(this.located, x);
        const tc = (yield* together([this.tcAt(x, guess, 3)]))[0];
        if (tc !== null) pts.push({ T: tc, x });
      }
      return skipped;
    }
    const tcs = new Array<number | null>(n + 1).fill(null);
    yield* this.tcPass(
      xs,
      xs.map((_, k) => k).filter((k) => k % 2 === 0 || k === n),
      tcs,
    );
    const odd = xs.map((_, k) => k).filter((k) => k % 2 === 1 && k < n);
    const refine = odd.filter((k) => pointNeeded(tcs, xs, k));
    yield* this.tcPass(xs, refine, tcs);
    for (const k of odd) if (!refine.includes(k)) skipped.push(xs[k]);
    xs.forEach((x, k) => {
      const tc = tcs[k];
      if (tc !== null) this.pts.push({ T: tc, x });
    });
    return skipped;
  }

  /** T_c at the x of indices ks, all together, each bracketed around the located line (into tcs). */
  private *tcPass(xs: number[], ks: number[], tcs: (number | null)[]): Generator<PointRequest[], void, BinaryState[]> {
    const got = yield* together(ks.map((k) => this.tcAt(xs[k], interpolateLine(this.located, xs[k]), 10)));
    ks.forEach((k, i) => {
      tcs[k] = got[i];
    });
  }

  /**
   * Steep parts and gaps followed in T: between two points more than STEEP_DT apart in T, or a gap (more than one
   * step between two points, not counting the x left out as straight) with more than 2 K between them, the
   * transition is bisected in x at fixed T.
   */
  private *fillSteepParts(skipped: number[]): Generator<PointRequest[], void, BinaryState[]> {
    const pts = this.pts;
    const fills: { T: number; xl: number; xr: number }[] = [];
    for (let i = 0; i + 1 < pts.length; i++) {
      const a = pts[i],
        b = pts[i + 1];
      const between = skipped.filter((x) => x > a.x + 1e-12 && x < b.x - 1e-12).length;
      const gap = Math.abs(b.x - a.x) > (1.5 + between) * X_STEP;
      if (!(Math.abs(b.T - a.T) > STEEP_DT || (gap && Math.abs(b.T - a.T) > 2))) continue;
      const m = Math.min(40, Math.ceil(Math.abs(b.T - a.T) / (STEEP_DT / 4)));
      const xl = Math.min(a.x, b.x) - 2e-3,
        xr = Math.max(a.x, b.x) + 2e-3;
      for (let k = 1; k < m; k++) fills.push({ T: a.T + ((b.T - a.T) * k) / m, xl, xr });
    }
    const xf = yield* together(fills.map((f) => this.xcAt(f.T, f.xl, f.xr)));
    const filled = fills.flatMap((f, k) => (xf[k] === null ? [] : [{ T: f.T, x: xf[k]! }]));
    this.pts = orderPolyline([...this.pts, ...filled]);
  }
}

/**
 * Whether the point at xs[k] between two solved points is needed: where a neighbour failed, where the neighbours
 * differ by more than STEEP_DT, or where the second differences on either side (h = 2 steps) put the chord off the
 * line by more than REFINE_ERR_T, or more than REFINE_ERR_X in x at the line's slope.
 */
function pointNeeded(tcs: readonly (number | null)[], xs: readonly number[], k: number): boolean {
  const n = xs.length - 1;
  const tAt = (q: number) => (q >= 0 && q <= n ? tcs[q] : null);
  const a = tAt(k - 1),
    b = tAt(k + 1);
  if (a === null || b === null || Math.abs(b - a) > STEEP_DT) return true;
  // the second differences on either side (h = 2 steps): the chord is off the line by about |d| / 8
  const aa = tAt(k - 3),
    bb = tAt(k + 3);
  const d = [aa === null ? null : aa - 2 * a + b, bb === null ? null : a - 2 * b + bb].filter(
    (v): v is number => v !== null,
  );
  if (!d.length) return true;
  const err = Math.max(...d.map(Math.abs)) / 8;
  const slope = Math.abs(b - a) / Math.max(1e-12, xs[k + 1] - xs[k - 1]);
  return err > REFINE_ERR_T || err > REFINE_ERR_X * slope;
}

function dedupeLine(pts: { T: number; x: number }[]): { T: number; x: number }[] {
  return pts.filter((p, k) => k === 0 || Math.abs(p.x - pts[k - 1].x) > 1e-6 || Math.abs(p.T - pts[k - 1].T) > 1e-3);
}
