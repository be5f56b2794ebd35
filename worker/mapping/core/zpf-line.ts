// A zero-phase-fraction (ZPF) line followed in a plane of two axes (core/skeleton.ts, stage 3): the border of the
// part of the plane where one phase is stable (J.E. Morral, H. Gupta, Scripta Metall. Mater. 25 (1991) 1393),
// judged by one predicate, "the phase is among the stable phases" (a composition-set label: NAME#2 means "at least
// two sets of NAME"). Any two axes whose condition set the solver takes will do (an isopleth's path parameter and
// T; chemical potentials; two compositions), both scaled to the unit square, which is the window.
//
// A line is located across it by false position on a signed measure of the distance from it (locate), and followed
// by continuation (follow): a step of length h along the tangent, then a bracket across the line (along its normal)
// narrowed until it is within the axes' tolerances. The step grows on straight stretches and halves where the line
// turns (more than 25 degrees) or is not bracketed, so kinks and narrow features between grid nodes are kept. A line
// ends on the border of the square or where it closes on itself. Each equilibrium starts Newton from a neighbour's
// result (about half the cost of a cold start).
import type { EquilibriumResult } from '../../core/equilibrium.js';
import { baseName } from '../../../contract/phases.js';
import type { HalfTrace } from './continuation.js';

/** A point of the plane, both axes scaled to 0..1. */
export interface UV {
  u: number;
  v: number;
}
/** An equilibrium at a point of the plane: its stable phase labels (NAME, NAME#2, sorted) and the solver's result. */
export interface Sample extends UV {
  labels: string[];
  result: EquilibriumResult;
}
/** A located point of a line: the middle of a bracket narrower than the tolerances, and the bracket's two ends. */
export interface Located {
  p: UV;
  inside: Sample;
  outside: Sample;
}

export type LineEnd = 'range_edge' | 'closed' | 'lost' | 'length_limit';

/** The plane a line is followed in: how a point is solved, the axes' spans and tolerances in their own units. */
export interface ZpfPlane {
  /** the equilibrium at p, Newton started from `start` when given (the solver still certifies it globally) */
  solve(p: UV, start?: EquilibriumResult): Sample;
  /** the length of each axis and the accuracy of a line point along it, in the axis' units */
  spanU: number;
  spanV: number;
  tolU: number;
  tolV: number;
  /** the temperature at p (the scale RT of a driving force) */
  temperature(p: UV): number;
}

export const dot = (a: UV, b: UV) => a.u * b.u + a.v * b.v;
export const sub = (a: UV, b: UV): UV => ({ u: a.u - b.u, v: a.v - b.v });
export const add = (a: UV, b: UV, k = 1): UV => ({ u: a.u + k * b.u, v: a.v + k * b.v });
export const len = (a: UV) => Math.hypot(a.u, a.v);
export const unit = (a: UV): UV => {
  const l = len(a) || 1;
  return { u: a.u / l, v: a.v / l };
};
export const perp = (a: UV): UV => ({ u: -a.v, v: a.u });
const clamp01 = (p: UV): UV => ({ u: Math.min(1, Math.max(0, p.u)), v: Math.min(1, Math.max(0, p.v)) });
const EDGE_EPS = 1e-12;
const onBorder = (p: UV) => p.u <= EDGE_EPS || p.u >= 1 - EDGE_EPS || p.v <= EDGE_EPS || p.v >= 1 - EDGE_EPS;

const R = 8.31446261815324;
const SIN_TURN_MAX = Math.sin((25 * Math.PI) / 180);
const SIN_STRAIGHT = Math.sin((8 * Math.PI) / 180);
const MAX_POINTS_PER_LINE = 600;

export const has = (smp: Sample, label: string) => smp.labels.includes(label);

/** |d signed / d distance| on either side of a line, from the last located bracket. */
interface Slopes {
  inside: number;
  outside: number;
}

/** One direction of a line while it is followed. */
interface Walk {
  label: string;
  start: Located;
  prev: Located;
  tangent: UV;
  normal: UV;
  h: number;
  slopes: Slopes;
  pts: Located[];
}

/** Where the next point is looked for: the predicted point, the direction of the bracket, and whether at the border. */
interface Prediction {
  q: UV;
  dir: UV;
  toEdge: boolean;
}

export class ZpfFollower {
  /** the first step, the largest and the smallest (scaled plane) */
  readonly h0: number;
  private readonly hmax: number;
  private readonly hmin: number;
  /** the tolerance of a point across the line, and the distance back the tangent is taken over */
  private readonly tolN: number;
  private readonly tangentBase: number;

  /** `divisions`: the seed grid's cells per axis (the first step is half a cell, the largest one a cell) */
  constructor(
    private readonly plane: ZpfPlane,
    divisions: number,
  ) {
    const { spanU, spanV, tolU, tolV } = plane;
    this.h0 = 0.5 / divisions;
    this.hmax = 1 / divisions;
    this.tolN = Math.min(spanU > 0 ? tolU / spanU : 1, tolV / spanV);
    this.hmin = Math.max(4 * this.tolN, 1e-3);
    this.tangentBase = 8 * Math.max(spanU > 0 ? tolU / spanU : 0, tolV / spanV);
  }

  private closeEnough(a: UV, b: UV): boolean {
    const { spanU, spanV, tolU, tolV } = this.plane;
    return Math.abs(a.u - b.u) * spanU <= tolU && Math.abs(a.v - b.v) * spanV <= tolV;
  }

  /** Length of a bracket along direction `dir` (unit, scaled plane) that meets both tolerances. */
  private tolAlong(dir: UV): number {
    const { spanU, spanV, tolU, tolV } = this.plane;
    return Math.min(
      Math.abs(dir.u) * spanU > 0 ? tolU / (Math.abs(dir.u) * spanU) : Infinity,
      Math.abs(dir.v) > 0 ? tolV / (Math.abs(dir.v) * spanV) : Infinity,
    );
  }

  /**
   * Signed distance-like measure of a sample from the line of `label`: the amount of the phase (its smallest set
   * when the label is NAME#k) where it is stable, its driving force / RT (negative) where not. Both go to zero
   * linearly at a zero-phase-fraction line, so false position converges fast; NaN (no driving force of a second
   * composition set) falls back to bisection.
   */
  signed(smp: Sample, label: string): number {
    const name = baseName(label);
    if (has(smp, label)) {
      const nps = smp.result.phases.filter((ph) => ph.name === name).map((ph) => ph.NP);
      return nps.length ? Math.max(1e-300, Math.min(...nps)) : NaN;
    }
    if (label !== name) return NaN;
    const m = smp.result.metastable.find((ph) => ph.name === name);
    return m && m.DF < 0 ? m.DF / (R * this.plane.temperature(smp)) : NaN;
  }

  /**
   * Narrows a bracket (a with the phase, b without) to the tolerances: false position on `signed`, each estimate
   * checked by two points 0.45 tolerance to either side of it (one is enough when it lands on the far side);
   * bisection when the measure is missing or the estimate stalls.
   */
  locate(label: string, inside: Sample, outside: Sample): Located {
    const solve = this.plane.solve;
    let a = inside,
      b = outside;
    // Illinois variant of false position (M. Dowell, P. Jarratt, BIT 11 (1971) 168): the end kept twice in a
    // row has its value halved, so the bracket closes from both sides
    let ga = this.signed(a, label),
      gb = this.signed(b, label);
    let kept: 'a' | 'b' | '' = '';
    /** the inside sample before `a` (a one-sided secant when the outside gives no measure) */
    let prevA: Sample | undefined;
    let prevGa = NaN;
    const take = (smp: Sample) => {
      if (has(smp, label)) {
        prevA = a;
        prevGa = ga;
        a = smp;
        ga = this.signed(a, label);
        if (kept === 'b' && Number.isFinite(gb)) gb /= 2;
        kept = 'b';
      } else {
        b = smp;
        gb = this.signed(b, label);
        if (kept === 'a' && Number.isFinite(ga)) ga /= 2;
        kept = 'a';
      }
    };
    while (!this.closeEnough(a, b)) {
      const L = len(sub(b, a));
      const dirAB = unit(sub(b, a));
      const half = (0.45 * this.tolAlong(dirAB)) / L;
      const secant = Number.isFinite(ga) && Number.isFinite(gb) && ga > 0 && gb < 0;
      let t = secant ? Math.min(0.95, Math.max(0.05, ga / (ga - gb))) : 0.5;
      if (!secant && prevA && Number.isFinite(ga) && Number.isFinite(prevGa) && prevGa > ga) {
        // the amount falls linearly towards the line: extrapolate from the last two inside samples
        const dp = dot(sub(a, prevA), dirAB);
        const r = (ga * dp) / (prevGa - ga);
        if (dp > 0 && r > 0 && r < L) t = Math.min(0.95, Math.max(0.05, r / L));
      }
      // (the bracket as it is when a point is asked: the second check point is placed in the bracket the first one
      // has narrowed)
      const at = (f: number): UV => ({ u: a.u + f * (b.u - a.u), v: a.v + f * (b.v - a.v) });
      if (t !== 0.5 && half < 0.05 && t - half > 0 && t + half < 1) {
        // near the end: the estimate checked by points 0.45 tolerance to either side (the second only when the
        // first lands on the near side), which closes the bracket when the estimate is within the tolerance
        const s1 = solve(at(t - half), a.result);
        const wasIn = has(s1, label);
        take(s1);
        if (wasIn) take(solve(at(Math.min(1, (t + half - (t - half)) / (1 - (t - half)))), a.result));
      } else take(solve(at(t), a.result));
    }
    return { p: { u: (a.u + b.u) / 2, v: (a.v + b.v) / 2 }, inside: a, outside: b };
  }

  /** Follows the line of `label` from a located point in one direction; returns the points after the start. */
  follow(label: string, start: Located, sign: 1 | -1): HalfTrace<Located, LineEnd> {
    const normal = unit(sub(start.outside, start.inside));
    const w: Walk = {
      label,
      start,
      prev: start,
      normal,
      tangent: { u: sign * perp(normal).u, v: sign * perp(normal).v },
      h: this.h0,
      slopes: { inside: 0, outside: 0 },
      pts: [],
    };
    this.updateSlopes(w, start);
    while (w.pts.length < MAX_POINTS_PER_LINE) {
      const pred = this.predict(w);
      if (!pred) return { points: w.pts, end: 'range_edge' };
      const found = this.bracketAcross(w, pred);
      if (!found) {
        if (w.h > this.hmin) {
          w.h /= 2;
          continue;
        }
        return { points: w.pts, end: 'lost' };
      }
      const end = this.advance(w, pred, found);
      if (end) return { points: w.pts, end };
    }
    return { points: w.pts, end: 'length_limit' };
  }

  private updateSlopes(w: Walk, l: Located, extra?: Sample): void {
    for (const smp of [l.inside, l.outside, ...(extra ? [extra] : [])]) {
      const gs = this.signed(smp, w.label),
        dist = len(sub(smp, l.p));
      if (!Number.isFinite(gs) || !(dist > 0)) continue;
      if (has(smp, w.label)) w.slopes.inside = Math.abs(gs) / dist;
      else w.slopes.outside = Math.abs(gs) / dist;
    }
  }

  /** The predicted point a step h along the tangent; a step beyond the border is clipped to it (null: no room left). */
  private predict(w: Walk): Prediction | null {
    const prev = w.prev;
    let q = add(prev.p, w.tangent, w.h);
    let dir = w.normal;
    let toEdge = false;
    if (q.u < 0 || q.u > 1 || q.v < 0 || q.v > 1) {
      // clip the step to the border and bracket along the border there
      let k = 1;
      if (q.u < 0) k = Math.min(k, prev.p.u / (prev.p.u - q.u));
      if (q.u > 1) k = Math.min(k, (1 - prev.p.u) / (q.u - prev.p.u));
      if (q.v < 0) k = Math.min(k, prev.p.v / (prev.p.v - q.v));
      if (q.v > 1) k = Math.min(k, (1 - prev.p.v) / (q.v - prev.p.v));
      q = clamp01(add(prev.p, w.tangent, w.h * k));
      toEdge = true;
      const vertical = q.u <= EDGE_EPS || q.u >= 1 - EDGE_EPS;
      dir = vertical ? { u: 0, v: w.normal.v >= 0 ? 1 : -1 } : { u: w.normal.u >= 0 ? 1 : -1, v: 0 };
      if (len(sub(q, prev.p)) < this.tolN) return null;
    }
    return { q, dir, toEdge };
  }

  /**
   * The line located across the predicted point: one equilibrium there, then a point beyond the line as far as the
   * measure says (two points 0.45 tolerance to either side of the predicted crossing, which close the bracket when
   * the prediction holds), widened three times at most. Undefined when no bracket was found.
   */
  private bracketAcross(w: Walk, { q, dir }: Prediction): Located | undefined {
    const label = w.label;
    const tl = this.tolAlong(dir);
    const sq = this.plane.solve(q, w.prev.inside.result);
    const inQ = has(sq, label);
    const g = this.signed(sq, label);
    const slope = inQ ? w.slopes.inside : w.slopes.outside;
    let near = sq;
    let farSign = inQ ? 1 : -1;
    let found: Located | undefined;
    if (Number.isFinite(g) && slope > 0) {
      const root = farSign * Math.min(Math.abs(g) / slope, Math.max(0.3 * w.h, 3 * tl));
      const r = this.bracketAtRoot(label, sq, q, dir, root, 0.45 * tl);
      found = r.found;
      if (!found && r.near) [near, farSign] = [r.near, r.farSign];
    }
    found ??= this.widenBeyond(w, sq, near, farSign, dir, slope, tl);
    if (found) this.updateSlopes(w, found, sq);
    return found;
  }

  /** The two points `delta` to either side of the predicted crossing q + root dir: the bracket, or the nearer side. */
  private bracketAtRoot(
    label: string,
    sq: Sample,
    q: UV,
    dir: UV,
    root: number,
    delta: number,
  ): { found?: Located; near?: Sample; farSign: 1 | -1 } {
    const at = (tau: number) => clamp01(add(q, dir, tau));
    const inQ = has(sq, label);
    const s1 = this.plane.solve(at(root - delta), sq.result);
    if (!has(s1, label)) return inQ ? { found: this.locate(label, sq, s1), farSign: 1 } : { near: s1, farSign: -1 };
    const s2 = this.plane.solve(at(root + delta), s1.result);
    if (!has(s2, label)) return { found: this.locate(label, s1, s2), farSign: 1 };
    if (!inQ) return { found: this.locate(label, s2, sq), farSign: 1 };
    return { near: s2, farSign: 1 };
  }

  /**
   * A second point beyond the line, as far as the measure says (from the slope between the two samples on this side
   * when there are two, else the last step's), widened three times at most.
   */
  private widenBeyond(
    w: Walk,
    sq: Sample,
    near0: Sample,
    farSign: number,
    dir: UV,
    slope: number,
    tl: number,
  ): Located | undefined {
    const label = w.label;
    let near = near0;
    const nearIn = has(near, label);
    const cap = Math.max(0.3 * w.h, 3 * tl);
    let d = cap;
    const gNear = this.signed(near, label);
    if (Number.isFinite(gNear)) {
      const gq = this.signed(sq, label),
        dq = len(sub(sq, near));
      const local =
        near !== sq && has(sq, label) === nearIn && Number.isFinite(gq) && dq > 0 ? Math.abs(gq - gNear) / dq : 0;
      const k = local > 0 && Math.abs(gq) > Math.abs(gNear) ? local : slope;
      if (k > 0) d = Math.min(cap, Math.max(2 * tl, (1.5 * Math.abs(gNear)) / k));
    }
    for (let tries = 0; tries < 4; tries++) {
      const far = clamp01(add(near, dir, farSign * d));
      if (len(sub(far, near)) < tl / 4) break;
      const sf = this.plane.solve(far, near.result);
      if (has(sf, label) !== nearIn) return nearIn ? this.locate(label, near, sf) : this.locate(label, sf, near);
      near = sf;
      d *= 2.5;
    }
    return undefined;
  }

  /**
   * The located point taken as the line's next one, unless the step came out too long or the line turned more than
   * the step allows (then the step halves: null, go on); the end of the line when it reached the border or its start.
   */
  private advance(w: Walk, { q, toEdge }: Prediction, found: Located): LineEnd | null {
    const step = sub(found.p, w.prev.p);
    if (len(step) < this.tolN / 2) return toEdge ? 'range_edge' : 'lost';
    if (len(step) > 1.6 * w.h && w.h > this.hmin) {
      w.h /= 2;
      return null;
    }
    // the tangent from a point far enough back that the points' own tolerance does not turn it
    let back = w.prev;
    for (let k = w.pts.length - 1; k >= -1 && len(sub(found.p, back.p)) < this.tangentBase; k--)
      back = k >= 0 ? w.pts[k]! : w.start;
    const t2 = unit(len(sub(found.p, back.p)) >= this.tangentBase ? sub(found.p, back.p) : step);
    // the turn, judged by the distance of the found point from the prediction across the line; a deviation
    // within the tolerance of the points themselves is noise, not a turn
    const dev = Math.abs(dot(sub(found.p, q), w.normal));
    const noise = 2 * this.tolAlong(w.normal);
    if (dev > Math.max(SIN_TURN_MAX * w.h, noise) && w.h > this.hmin) {
      w.h /= 2;
      return null;
    }
    w.pts.push(found);
    w.tangent = t2;
    const nn = perp(t2);
    w.normal = dot(nn, sub(found.outside, found.inside)) >= 0 ? nn : { u: -nn.u, v: -nn.v };
    w.prev = found;
    if (toEdge || onBorder(found.p)) return 'range_edge';
    if (w.pts.length > 3 && len(sub(found.p, w.start.p)) < w.h) return 'closed';
    if (dev < Math.max(SIN_STRAIGHT * w.h, noise)) w.h = Math.min(this.hmax, w.h * 1.5);
    return null;
  }
}
