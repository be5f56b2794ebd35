// Mapping of an isopleth (vertical section): the zero-phase-fraction (ZPF) lines in the plane of the path
// parameter s (composition, 0..1 from composition_start to composition_end) and T.
//
// Method. The ZPF line of a phase P is the border of the part of the section where P is stable (Morral's
// zero-phase-fraction lines; J.E. Morral, H. Gupta, Scripta Metall. Mater. 25 (1991) 1393). It crosses the
// lines of the other phases (with a kink), so each phase's border is followed on its own, judged by one
// predicate: "P is among the stable phases". P is a composition-set label: NAME#2 means "at least two sets of NAME".
// 1. A coarse grid of resolution x resolution equilibria in (s, T) (OpenMP batches in chunks, so a cancel is
//    seen between chunks).
// 2. Every grid edge whose two ends disagree about P and that no line of P traced so far crosses seeds a line:
//    the crossing is located on the edge by bisection, then the line is followed both ways by continuation:
//    a step of length h along the tangent (scaled plane, both axes 0..1), then bisection across the line
//    (along its normal) until the bracket is within tolT in T and tolX in the axis fraction. The step grows
//    on straight stretches and halves where the line turns (more than 25 degrees) or is not bracketed, so
//    kinks and narrow features between grid nodes are kept where a line is followed. A line ends on the
//    border of the section or where it closes on itself. Tracing runs on one thread: each equilibrium depends
//    on the last, and starts Newton from a neighbour's result (about half the cost of a cold start, so two
//    cold equilibria on two threads take as long as two warm ones in a row).
// 3. Regions: connected grid nodes of one phase set get a label point; a phase set met only beside a line
//    (narrower than the grid) is labelled there. Horizontal runs shared by two or more lines at one T are
//    the invariant-like lines (n+1 phases of an n-component system meet at one temperature). The liquidus is
//    where a solid phase's line borders the field of liquid alone; the solidus is the liquid's own line.
import { baseName } from '../../../contract/phases.js';
import { equilibrium, type EquilibriumResult } from '../../core/equilibrium.js';
import type { NativeDatabase } from '../../core/native.js';
import { chunkedBatch } from '../../scans/batch.js';
import { CancelledError, type JobControl } from '../../protocol.js';
import { axisValue, solverX, type CompositionPath } from './path.js';
import { resultStateLabels, StateLabeller } from '../core/labels.js';
import type { IsoplethRegion } from '../../../contract/results/isopleth.js';

export interface IsoplethSetup {
  database: NativeDatabase;
  /** solver components (elements plus VA where the database defines it) */
  components: string[];
  phases?: string[];
  path: CompositionPath;
  T: [number, number];
  P: number;
  /** grid nodes per axis */
  resolution: number;
  threads: number;
  control?: JobControl;
  /** phase names that are liquids (liquidus / solidus) */
  liquids: Set<string>;
  /** accuracy of every line point: K and axis fraction */
  tolT?: number;
  tolX?: number;
}

/** One point of a ZPF line with the phase sets on its two sides. */
export interface LinePoint {
  s: number;
  T: number;
  /** the axis element's fraction (in the path's unit) */
  x: number;
  /** stable phase labels on the side where the line's phase is present / absent */
  with: string[];
  without: string[];
}

export type LineEnd = 'range_edge' | 'closed' | 'lost' | 'length_limit';

export interface ZpfLine {
  /** phase label whose amount is zero along the line */
  phase: string;
  points: LinePoint[];
  ends: [LineEnd, LineEnd];
}

/** A labelled region of the section, as the result document has it. */
export type RegionLabel = IsoplethRegion;

export interface InvariantLine {
  T: number;
  /** axis fraction range the horizontal spans */
  x: [number, number];
  /** every phase stable on either side of the line */
  phases: string[];
  /** the phases whose ZPF lines run along it */
  line_phases: string[];
}

export interface NamedLine {
  /** liquidus: the solid phase that forms first on cooling; solidus: the liquid */
  phase: string;
  points: { s: number; T: number; x: number }[];
}

export interface IsoplethMap {
  lines: ZpfLine[];
  regions: RegionLabel[];
  invariants: InvariantLine[];
  liquidus: NamedLine[];
  solidus: NamedLine[];
  grid: { s: number[]; T: number[]; labels: string[][] };
  stats: { equilibria: number; notConverged: number; seconds: number; gridSeconds: number };
  logs: string[];
}

/** Stable phase labels of a result: NAME, NAME#2, ... per composition set, sorted. */
export function phaseLabels(r: EquilibriumResult): string[] {
  const count = new Map<string, number>();
  for (const p of r.phases) count.set(p.name, (count.get(p.name) ?? 0) + 1);
  const out: string[] = [];
  for (const [name, c] of count) for (let k = 1; k <= c; k++) out.push(k === 1 ? name : `${name}#${k}`);
  return out.sort();
}

/** The base name of a label (FCC_A1#2 -> FCC_A1). */

interface UV {
  u: number;
  v: number;
}
interface Sample extends UV {
  labels: string[];
  result: EquilibriumResult;
}
interface Located {
  p: UV;
  inside: Sample;
  outside: Sample;
}

const dot = (a: UV, b: UV) => a.u * b.u + a.v * b.v;
const sub = (a: UV, b: UV): UV => ({ u: a.u - b.u, v: a.v - b.v });
const add = (a: UV, b: UV, k = 1): UV => ({ u: a.u + k * b.u, v: a.v + k * b.v });
const len = (a: UV) => Math.hypot(a.u, a.v);
const unit = (a: UV): UV => {
  const l = len(a) || 1;
  return { u: a.u / l, v: a.v / l };
};
const perp = (a: UV): UV => ({ u: -a.v, v: a.u });
const clamp01 = (p: UV): UV => ({ u: Math.min(1, Math.max(0, p.u)), v: Math.min(1, Math.max(0, p.v)) });
const EDGE_EPS = 1e-12;
const onBorder = (p: UV) => p.u <= EDGE_EPS || p.u >= 1 - EDGE_EPS || p.v <= EDGE_EPS || p.v >= 1 - EDGE_EPS;

/** Whether segments ab and cd meet (touching counts). */
function segmentsMeet(a: UV, b: UV, c: UV, d: UV): boolean {
  const cross = (o: UV, p: UV, q: UV) => (p.u - o.u) * (q.v - o.v) - (p.v - o.v) * (q.u - o.u);
  const d1 = cross(c, d, a),
    d2 = cross(c, d, b),
    d3 = cross(a, b, c),
    d4 = cross(a, b, d);
  const eps = 1e-14;
  return (
    ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps) || Math.abs(d1) <= eps || Math.abs(d2) <= eps) &&
    ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps) || Math.abs(d3) <= eps || Math.abs(d4) <= eps)
  );
}

const SIN_TURN_MAX = Math.sin((25 * Math.PI) / 180);
const SIN_STRAIGHT = Math.sin((8 * Math.PI) / 180);
const MAX_POINTS_PER_LINE = 600;

export function mapIsopleth(setup: IsoplethSetup): IsoplethMap {
  const t0 = performance.now();
  const { path, control } = setup;
  const [T0, T1] = setup.T;
  const tolT = setup.tolT ?? 0.1,
    tolX = setup.tolX ?? 1e-4;
  const axisSpan = Math.abs(path.axisRange[1] - path.axisRange[0]);
  const n = Math.max(3, Math.floor(setup.resolution));
  const logs: string[] = [];
  let equilibria = 0,
    notConverged = 0;

  const conditionAt = (p: UV) => ({ T: T0 + p.v * (T1 - T0), P: setup.P, X: solverX(path, p.u) });
  const sampleOf = (p: UV, r: EquilibriumResult): Sample => {
    equilibria++;
    if (!r.converged) notConverged++;
    return { u: p.u, v: p.v, labels: phaseLabels(r), result: r };
  };
  const checkCancel = () => {
    if (control?.cancelled) throw new CancelledError();
  };
  /** one equilibrium, Newton started from a neighbour's result (the solver still certifies it globally) */
  const one = (p: UV, start?: EquilibriumResult): Sample => {
    checkCancel();
    const r = equilibrium({
      database: setup.database,
      components: setup.components,
      phases: setup.phases,
      conditions: conditionAt(p),
      options: start ? { start } : undefined,
    });
    return sampleOf(p, r);
  };
  const has = (smp: Sample, label: string) => smp.labels.includes(label);
  const closeEnough = (a: UV, b: UV) =>
    Math.abs(a.u - b.u) * axisSpan <= tolX && Math.abs(a.v - b.v) * (T1 - T0) <= tolT;

  /** Length of a bracket along direction `dir` (unit, scaled plane) that meets both tolerances. */
  const tolAlong = (dir: UV) =>
    Math.min(
      Math.abs(dir.u) * axisSpan > 0 ? tolX / (Math.abs(dir.u) * axisSpan) : Infinity,
      Math.abs(dir.v) > 0 ? tolT / (Math.abs(dir.v) * (T1 - T0)) : Infinity,
    );
  const R = 8.31446261815324;
  /**
   * Signed distance-like measure of a sample from the line of `label`: the amount of the phase (its smallest set
   * when the label is NAME#k) where it is stable, its driving force / RT (negative) where not. Both go to zero
   * linearly at a zero-phase-fraction line, so false position converges fast; NaN (no driving force of a second
   * composition set) falls back to bisection.
   */
  const signed = (smp: Sample, label: string): number => {
    const name = baseName(label);
    if (has(smp, label)) {
      const nps = smp.result.phases.filter((ph) => ph.name === name).map((ph) => ph.NP);
      return nps.length ? Math.max(1e-300, Math.min(...nps)) : NaN;
    }
    if (label !== name) return NaN;
    const m = smp.result.metastable.find((ph) => ph.name === name);
    return m && m.DF < 0 ? m.DF / (R * (T0 + smp.v * (T1 - T0))) : NaN;
  };

  /**
   * Narrows a bracket (a with the phase, b without) to the tolerances: false position on `signed`, each estimate
   * checked by two points 0.45 tolerance to either side of it (one is enough when it lands on the far side);
   * bisection when the measure is missing or the estimate stalls.
   */
  const locate = (label: string, inside: Sample, outside: Sample): Located => {
    let a = inside,
      b = outside;
    // Illinois variant of false position (M. Dowell, P. Jarratt, BIT 11 (1971) 168): the end kept twice in a
    // row has its value halved, so the bracket closes from both sides
    let ga = signed(a, label),
      gb = signed(b, label);
    let kept: 'a' | 'b' | '' = '';
    /** the inside sample before `a` (a one-sided secant when the outside gives no measure) */
    let prevA: Sample | undefined;
    let prevGa = NaN;
    while (!closeEnough(a, b)) {
      const L = len(sub(b, a));
      const dirAB = unit(sub(b, a));
      const half = (0.45 * tolAlong(dirAB)) / L;
      const secant = Number.isFinite(ga) && Number.isFinite(gb) && ga > 0 && gb < 0;
      let t = secant ? Math.min(0.95, Math.max(0.05, ga / (ga - gb))) : 0.5;
      if (!secant && prevA && Number.isFinite(ga) && Number.isFinite(prevGa) && prevGa > ga) {
        // the amount falls linearly towards the line: extrapolate from the last two inside samples
        const dp = dot(sub(a, prevA), dirAB);
        const r = (ga * dp) / (prevGa - ga);
        if (dp > 0 && r > 0 && r < L) t = Math.min(0.95, Math.max(0.05, r / L));
      }
      const at = (f: number): UV => ({ u: a.u + f * (b.u - a.u), v: a.v + f * (b.v - a.v) });
      const take = (smp: Sample) => {
        if (has(smp, label)) {
          prevA = a;
          prevGa = ga;
          a = smp;
          ga = signed(a, label);
          if (kept === 'b' && Number.isFinite(gb)) gb /= 2;
          kept = 'b';
        } else {
          b = smp;
          gb = signed(b, label);
          if (kept === 'a' && Number.isFinite(ga)) ga /= 2;
          kept = 'a';
        }
      };
      if (t !== 0.5 && half < 0.05 && t - half > 0 && t + half < 1) {
        // near the end: the estimate checked by points 0.45 tolerance to either side (the second only when the
        // first lands on the near side), which closes the bracket when the estimate is within the tolerance
        const s1 = one(at(t - half), a.result);
        const wasIn = has(s1, label);
        take(s1);
        if (wasIn) take(one(at(Math.min(1, (t + half - (t - half)) / (1 - (t - half)))), a.result));
      } else take(one(at(t), a.result));
    }
    return { p: { u: (a.u + b.u) / 2, v: (a.v + b.v) / 2 }, inside: a, outside: b };
  };

  // ---- 1. the grid
  control?.setProgress(0);
  const us = Array.from({ length: n }, (_, i) => i / (n - 1));
  const nodes: UV[] = [];
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) nodes.push({ u: us[i]!, v: us[j]! });
  // column-wise order (T runs fastest) so warm starts follow a T scan at fixed composition
  const order: number[] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) order.push(j * n + i);
  const results = chunkedBatch(
    { database: setup.database, components: setup.components, phases: setup.phases },
    order.map((k) => conditionAt(nodes[k]!)),
    setup.threads,
    control,
    0,
    0.35,
  );
  const grid: Sample[] = new Array(nodes.length);
  order.forEach((k, m) => {
    grid[k] = sampleOf(nodes[k]!, results[m]!);
  });
  const gridSeconds = (performance.now() - t0) / 1000;
  const node = (i: number, j: number) => grid[j * n + i]!;

  // ---- 2. seeds on grid edges and continuation
  const lines: ZpfLine[] = [];
  const linesOf = new Map<string, ZpfLine[]>();
  const H0 = 0.5 / (n - 1),
    HMAX = 1 / (n - 1);
  const tolN = Math.min(axisSpan > 0 ? tolX / axisSpan : 1, tolT / (T1 - T0));
  const HMIN = Math.max(4 * tolN, 1e-3);
  const TANGENT_BASE = 8 * Math.max(axisSpan > 0 ? tolX / axisSpan : 0, tolT / (T1 - T0));

  const point = (l: Located): LinePoint => ({
    s: l.p.u,
    T: T0 + l.p.v * (T1 - T0),
    x: axisValue(path, l.p.u),
    with: l.inside.labels,
    without: l.outside.labels,
  });

  /** Follows the line of `label` from a located point in one direction; returns the points after the start. */
  const follow = (label: string, start: Located, sign: 1 | -1): { pts: Located[]; end: LineEnd } => {
    const pts: Located[] = [];
    let prev = start;
    let normal = unit(sub(start.outside, start.inside));
    let tangent: UV = { u: sign * perp(normal).u, v: sign * perp(normal).v };
    let h = H0;
    /** |d signed / d distance| on either side of the line, from the last located bracket */
    const slopes = { inside: 0, outside: 0 };
    const updateSlopes = (l: Located, extra?: Sample) => {
      for (const smp of [l.inside, l.outside, ...(extra ? [extra] : [])]) {
        const gs = signed(smp, label),
          dist = len(sub(smp, l.p));
        if (!Number.isFinite(gs) || !(dist > 0)) continue;
        if (has(smp, label)) slopes.inside = Math.abs(gs) / dist;
        else slopes.outside = Math.abs(gs) / dist;
      }
    };
    updateSlopes(start);
    while (pts.length < MAX_POINTS_PER_LINE) {
      let q = add(prev.p, tangent, h);
      let dir = normal;
      let toEdge = false;
      if (q.u < 0 || q.u > 1 || q.v < 0 || q.v > 1) {
        // clip the step to the border and bracket along the border there
        let k = 1;
        if (q.u < 0) k = Math.min(k, prev.p.u / (prev.p.u - q.u));
        if (q.u > 1) k = Math.min(k, (1 - prev.p.u) / (q.u - prev.p.u));
        if (q.v < 0) k = Math.min(k, prev.p.v / (prev.p.v - q.v));
        if (q.v > 1) k = Math.min(k, (1 - prev.p.v) / (q.v - prev.p.v));
        q = clamp01(add(prev.p, tangent, h * k));
        toEdge = true;
        const vertical = q.u <= EDGE_EPS || q.u >= 1 - EDGE_EPS;
        dir = vertical ? { u: 0, v: normal.v >= 0 ? 1 : -1 } : { u: normal.u >= 0 ? 1 : -1, v: 0 };
        if (len(sub(q, prev.p)) < tolN) return { pts, end: 'range_edge' };
      }
      const tl = tolAlong(dir);
      let found: Located | undefined;
      {
        // one equilibrium at the predicted point, then a second beyond the line as far as the measure says
        // (1.5 times the linear estimate, at least 2 tolerances); widened three times at most
        const sq = one(q, prev.inside.result);
        const inQ = has(sq, label);
        const g = signed(sq, label);
        const slope = inQ ? slopes.inside : slopes.outside;
        const at = (tau: number) => clamp01(add(q, dir, tau));
        let near = sq;
        let farSign = inQ ? 1 : -1;
        if (Number.isFinite(g) && slope > 0) {
          // the line predicted |g| / slope away: two points 0.45 tolerance to either side of it close the bracket
          // when the prediction holds
          const root = farSign * Math.min(Math.abs(g) / slope, Math.max(0.3 * h, 3 * tl));
          const delta = 0.45 * tl;
          const s1 = one(at(root - delta), sq.result);
          if (!has(s1, label)) {
            if (inQ) found = locate(label, sq, s1);
            else {
              near = s1;
              farSign = -1;
            }
          } else {
            const s2 = one(at(root + delta), s1.result);
            if (!has(s2, label)) found = locate(label, s1, s2);
            else if (!inQ) found = locate(label, s2, sq);
            else {
              near = s2;
              farSign = 1;
            }
          }
        }
        // otherwise: a second point beyond the line, as far as the measure says (from the slope between the two
        // samples on this side when there are two, else the last step's), widened three times at most
        const nearIn = has(near, label);
        const cap = Math.max(0.3 * h, 3 * tl);
        let d = cap;
        const gNear = signed(near, label);
        if (Number.isFinite(gNear)) {
          const gq = signed(sq, label),
            dq = len(sub(sq, near));
          const local =
            near !== sq && has(sq, label) === nearIn && Number.isFinite(gq) && dq > 0 ? Math.abs(gq - gNear) / dq : 0;
          const k = local > 0 && Math.abs(gq) > Math.abs(gNear) ? local : slope;
          if (k > 0) d = Math.min(cap, Math.max(2 * tl, (1.5 * Math.abs(gNear)) / k));
        }
        for (let tries = 0; tries < 4 && !found; tries++) {
          const far = clamp01(add(near, dir, farSign * d));
          if (len(sub(far, near)) < tl / 4) break;
          const sf = one(far, near.result);
          if (has(sf, label) !== nearIn) found = nearIn ? locate(label, near, sf) : locate(label, sf, near);
          else {
            near = sf;
            d *= 2.5;
          }
        }
        if (found) updateSlopes(found, sq);
      }
      if (!found) {
        if (h > HMIN) {
          h /= 2;
          continue;
        }
        return { pts, end: 'lost' };
      }
      const step = sub(found.p, prev.p);
      if (len(step) < tolN / 2) return { pts, end: toEdge ? 'range_edge' : 'lost' };
      if (len(step) > 1.6 * h && h > HMIN) {
        h /= 2;
        continue;
      }
      // the tangent from a point far enough back that the points' own tolerance does not turn it
      let back = prev;
      for (let k = pts.length - 1; k >= -1 && len(sub(found.p, back.p)) < TANGENT_BASE; k--)
        back = k >= 0 ? pts[k]! : start;
      const t2 = unit(len(sub(found.p, back.p)) >= TANGENT_BASE ? sub(found.p, back.p) : step);
      // the turn, judged by the distance of the found point from the prediction across the line; a deviation
      // within the tolerance of the points themselves is noise, not a turn
      const dev = Math.abs(dot(sub(found.p, q), normal));
      const noise = 2 * tolAlong(normal);
      if (dev > Math.max(SIN_TURN_MAX * h, noise) && h > HMIN) {
        h /= 2;
        continue;
      }
      pts.push(found);
      tangent = t2;
      const nn = perp(t2);
      normal = dot(nn, sub(found.outside, found.inside)) >= 0 ? nn : { u: -nn.u, v: -nn.v };
      prev = found;
      if (toEdge || onBorder(found.p)) return { pts, end: 'range_edge' };
      if (pts.length > 3 && len(sub(found.p, start.p)) < h) return { pts, end: 'closed' };
      if (dev < Math.max(SIN_STRAIGHT * h, noise)) h = Math.min(HMAX, h * 1.5);
    }
    return { pts, end: 'length_limit' };
  };

  const covered = (label: string, a: UV, b: UV): boolean => {
    for (const l of linesOf.get(label) ?? []) {
      const ps = l.points.map((p) => ({ u: p.s, v: (p.T - T0) / (T1 - T0) }));
      for (let k = 0; k + 1 < ps.length; k++) if (segmentsMeet(a, b, ps[k]!, ps[k + 1]!)) return true;
      if (ps.length === 1 && len(sub(ps[0]!, a)) + len(sub(ps[0]!, b)) <= len(sub(a, b)) + 1e-9) return true;
    }
    return false;
  };

  const nearLine = (label: string, p: UV): boolean => {
    for (const l of linesOf.get(label) ?? []) {
      const ps = l.points.map((q) => ({ u: q.s, v: (q.T - T0) / (T1 - T0) }));
      for (let k = 0; k + 1 < ps.length; k++) {
        const a = ps[k]!,
          ab = sub(ps[k + 1]!, a);
        const f = Math.min(1, Math.max(0, dot(sub(p, a), ab) / Math.max(1e-300, dot(ab, ab))));
        if (len(sub(p, add(a, ab, f))) < 0.25 * H0) return true;
      }
    }
    return false;
  };

  const edges: [Sample, Sample][] = [];
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      if (i + 1 < n) edges.push([node(i, j), node(i + 1, j)]);
      if (j + 1 < n) edges.push([node(i, j), node(i, j + 1)]);
    }
  const flips = edges
    .map(([a, b]) => {
      const changed = [
        ...a.labels.filter((l) => !b.labels.includes(l)),
        ...b.labels.filter((l) => !a.labels.includes(l)),
      ];
      return { a, b, changed };
    })
    .filter((e) => e.changed.length > 0);
  let lost = 0;
  flips.forEach((e, k) => {
    control?.setProgress(0.35 + (0.6 * k) / Math.max(1, flips.length));
    for (const label of e.changed) {
      if (covered(label, e.a, e.b)) continue;
      const [inside, outside] = has(e.a, label) ? [e.a, e.b] : [e.b, e.a];
      const seed = locate(label, inside, outside);
      // an edge next to a node that a traced line passes on the other side: the seed lies on that line
      if (nearLine(label, seed.p)) continue;
      const fwd = follow(label, seed, 1);
      const bwd = fwd.end === 'closed' ? { pts: [] as Located[], end: 'closed' as LineEnd } : follow(label, seed, -1);
      const all = [...bwd.pts.reverse(), seed, ...fwd.pts];
      if (fwd.end === 'closed') all.push(seed);
      const line: ZpfLine = { phase: label, points: all.map(point), ends: [bwd.end, fwd.end] };
      if (bwd.end === 'lost' || fwd.end === 'lost') lost++;
      lines.push(line);
      const list = linesOf.get(label) ?? [];
      list.push(line);
      linesOf.set(label, list);
    }
  });
  // the same line traced twice (from two seeds, one where the first pass cut a corner): keep the more detailed
  const nearShare = (a: ZpfLine, b: ZpfLine) => {
    const ps = b.points.map((q) => ({ u: q.s, v: (q.T - T0) / (T1 - T0) }));
    const near = a.points.filter((q) => {
      const p = { u: q.s, v: (q.T - T0) / (T1 - T0) };
      for (let k = 0; k + 1 < ps.length; k++) {
        const o = ps[k]!,
          ab = sub(ps[k + 1]!, o);
        const f = Math.min(1, Math.max(0, dot(sub(p, o), ab) / Math.max(1e-300, dot(ab, ab))));
        if (len(sub(p, add(o, ab, f))) < 0.25 * H0) return true;
      }
      return false;
    }).length;
    return near / Math.max(1, a.points.length);
  };
  for (let i = lines.length - 1; i >= 0; i--) {
    for (let j = 0; j < lines.length; j++) {
      if (i === j || lines[i]!.phase !== lines[j]!.phase) continue;
      const [a, b] = [lines[i]!, lines[j]!];
      if (nearShare(a, b) >= 0.8 && nearShare(b, a) >= 0.8 && a.points.length <= b.points.length) {
        lines.splice(i, 1);
        break;
      }
    }
  }
  if (lost) logs.push(`${lost} line(s) could not be followed to the border of the section (ends marked "lost")`);

  // ---- 3. regions, invariants, liquidus and solidus
  const regions = regionLabels(grid, n, T0, T1, path);
  const gridSets = new Set(regions.map((r) => r.phases.join('+')));
  for (const l of lines) {
    for (const side of ['with', 'without'] as const) {
      const seen = new Map<string, LinePoint[]>();
      for (const p of l.points) {
        const key = p[side].join('+');
        if (gridSets.has(key)) continue;
        seen.set(key, [...(seen.get(key) ?? []), p]);
      }
      for (const [key, ps] of seen) {
        const m = ps[Math.floor(ps.length / 2)]!;
        regions.push({
          phases: key ? key.split('+') : [],
          labels: key ? key.split('+') : [],
          s: m.s,
          T: m.T,
          x: m.x,
          grid_nodes: 0,
        });
        gridSets.add(key);
      }
    }
  }
  // display labels: the ordering state of each set, from an equilibrium at the region's label point
  const labeller = new StateLabeller(setup.database, setup.components);
  for (const r of regions) {
    if (!r.phases.length) continue;
    const smp = one({ u: r.s, v: (r.T - T0) / (T1 - T0) });
    if (smp.result.converged && smp.labels.join('+') === r.phases.join('+'))
      r.labels = resultStateLabels(labeller, smp.result);
  }
  const invariants = invariantLines(lines);
  const isLiquid = (label: string) => setup.liquids.has(baseName(label));
  const liquidus: NamedLine[] = [],
    solidus: NamedLine[] = [];
  for (const l of lines) {
    if (isLiquid(l.phase)) {
      if (l.phase.includes('#')) continue;
      solidus.push({ phase: l.phase, points: l.points.map(({ s, T, x }) => ({ s, T, x })) });
      continue;
    }
    let run: LinePoint[] = [];
    const flush = () => {
      if (run.length >= 2) liquidus.push({ phase: l.phase, points: run.map(({ s, T, x }) => ({ s, T, x })) });
      run = [];
    };
    for (const p of l.points) {
      if (p.without.length > 0 && p.without.every(isLiquid)) run.push(p);
      else flush();
    }
    flush();
  }
  control?.setProgress(0.97);
  const seconds = (performance.now() - t0) / 1000;
  return {
    lines,
    regions,
    invariants,
    liquidus,
    solidus,
    grid: { s: us, T: us.map((v) => T0 + v * (T1 - T0)), labels: grid.map((g) => g.labels) },
    stats: { equilibria, notConverged, seconds, gridSeconds },
    logs,
  };
}

/** One label per connected group of grid nodes with the same phase set, at its most interior node. */
function regionLabels(grid: Sample[], n: number, T0: number, T1: number, path: CompositionPath): RegionLabel[] {
  const key = grid.map((g) => g.labels.join('+'));
  const comp = new Array<number>(grid.length).fill(-1);
  const out: RegionLabel[] = [];
  let c = 0;
  for (let k = 0; k < grid.length; k++) {
    if (comp[k] !== -1) continue;
    const members: number[] = [];
    const stack = [k];
    comp[k] = c;
    while (stack.length) {
      const m = stack.pop()!;
      members.push(m);
      const i = m % n,
        j = Math.floor(m / n);
      for (const [di, dj] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        const i2 = i + di,
          j2 = j + dj;
        if (i2 < 0 || j2 < 0 || i2 >= n || j2 >= n) continue;
        const m2 = j2 * n + i2;
        if (comp[m2] === -1 && key[m2] === key[k]) {
          comp[m2] = c;
          stack.push(m2);
        }
      }
    }
    // the node with most same-set neighbours (8-neighbourhood), nearest the group's centroid among those
    const cu = members.reduce((a, m) => a + (m % n), 0) / members.length,
      cv = members.reduce((a, m) => a + Math.floor(m / n), 0) / members.length;
    const score = (m: number) => {
      const i = m % n,
        j = Math.floor(m / n);
      let s = 0;
      for (let di = -1; di <= 1; di++)
        for (let dj = -1; dj <= 1; dj++) {
          const i2 = i + di,
            j2 = j + dj;
          if ((di || dj) && i2 >= 0 && j2 >= 0 && i2 < n && j2 < n && comp[j2 * n + i2] === c) s++;
        }
      return s * 1000 - Math.hypot(i - cu, j - cv);
    };
    const best = members.reduce((a, m) => (score(m) > score(a) ? m : a), members[0]!);
    const g = grid[best]!;
    out.push({
      phases: g.labels,
      labels: g.labels,
      s: g.u,
      T: T0 + g.v * (T1 - T0),
      x: axisValue(path, g.u),
      grid_nodes: members.length,
    });
    c++;
  }
  return out;
}

/** Horizontal runs that the lines of two or more phases share at one temperature. */
function invariantLines(lines: ZpfLine[]): InvariantLine[] {
  interface Run {
    T: number;
    x: [number, number];
    phases: Set<string>;
    linePhase: string;
  }
  const runs: Run[] = [];
  const MIN_SPAN = 1e-3; // axis fraction
  for (const l of lines) {
    let i = 0;
    while (i < l.points.length) {
      let j = i;
      let lo = l.points[i]!.T,
        hi = lo;
      while (j + 1 < l.points.length) {
        const T = l.points[j + 1]!.T;
        if (Math.max(hi, T) - Math.min(lo, T) > 0.3) break;
        lo = Math.min(lo, T);
        hi = Math.max(hi, T);
        j++;
      }
      const xs = l.points.slice(i, j + 1).map((p) => p.x);
      if (j > i && Math.max(...xs) - Math.min(...xs) >= MIN_SPAN) {
        const phases = new Set<string>();
        for (const p of l.points.slice(i, j + 1)) for (const q of [...p.with, ...p.without]) phases.add(q);
        runs.push({ T: (lo + hi) / 2, x: [Math.min(...xs), Math.max(...xs)], phases, linePhase: l.phase });
      }
      i = j > i ? j : i + 1;
    }
  }
  const out: InvariantLine[] = [];
  const used = new Set<number>();
  runs.forEach((r, k) => {
    if (used.has(k)) return;
    // runs at the same T (0.5 K) that overlap any run of the group, transitively
    const group = [r];
    for (let grown = true; grown;) {
      grown = false;
      runs.forEach((q, m) => {
        if (m <= k || used.has(m)) return;
        if (group.some((g) => Math.abs(q.T - g.T) <= 0.5 && q.x[0] <= g.x[1] + 1e-9 && g.x[0] <= q.x[1] + 1e-9)) {
          group.push(q);
          used.add(m);
          grown = true;
        }
      });
    }
    const linePhases = [...new Set(group.map((g) => g.linePhase))];
    if (linePhases.length < 2) return;
    out.push({
      T: group.reduce((a, g) => a + g.T, 0) / group.length,
      x: [Math.min(...group.map((g) => g.x[0])), Math.max(...group.map((g) => g.x[1]))],
      phases: [...new Set(group.flatMap((g) => [...g.phases]))].sort(),
      line_phases: linePhases.sort(),
    });
  });
  return out.sort((a, b) => b.T - a.T);
}
