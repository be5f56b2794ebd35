// The step rule of a ternary section (core/continuation.ts): a two-phase region is a one-parameter family of
// tie-lines (F = C - P = 1 at fixed T and P), followed from a tie-line by moving the overall composition from the
// middle of its part inside the window along its normal (in the Gibbs triangle's Cartesian plane, so steps are
// isotropic), re-solved warm-started from the previous answer. The new tie-line is accepted when it holds the same
// two phases at compositions close to the previous ones (phase identity by continuity: a miscibility gap's two sets
// are told apart by which boundary they continue). A probe outside the field halves the step; the trace ends at a
// three-phase triangle (the probe lands in it: its edge is the region's exact last tie-line), at a binary edge or
// the window (the midpoint reaches it), at a critical point (the tie-line shrinks to nothing, Griffiths & Wheeler
// 1970 as in a binary gap), or where the step falls below its minimum.
import { baseName } from '../../../contract/phases.js';
import type { EquilibriumResult } from '../../core/equilibrium.js';
import { traceBothWays, type HalfTrace } from '../core/continuation.js';
import type { MapLedger } from '../core/ledger.js';
import type { SectionFields } from './fields.js';
import {
  dist3 as dist,
  fromPlane,
  mid,
  sortedBases,
  toPlane,
  type TernaryEndKind,
  type TernaryTieLine,
  type TernaryTriangle,
  type TernaryTwoPhaseRegion,
  type Vec3,
} from './geometry.js';
import type { SectionSolver, SectionState, SetState } from './solver.js';
import { onBinaryEdge, type SectionWindow } from './window.js';

/** Mole fraction: the smallest continuation step (half of it ends the halving) */
export const MIN_STEP = 2e-4;
/** a tie-line this short where its region ends is a critical point */
const SHORT_TIELINE = 0.02;
const MAX_TRACE_STEPS = 600;
/** A tie-line end moving more than this many times the step of the midpoint is checked for continuity. */
const FAST_END = 2;
/** At half the step, a continuously moving end lies nearer than this share of its move to both of its positions. */
const BETWEEN = 0.8;

/** A trace started on a triangle's edge: the edge's tie-line, the direction away from the triangle, the end behind. */
export interface EdgeSeed {
  tl: TernaryTieLine;
  dir: 1 | -1;
  end: TernaryEndKind;
}

/** One direction of a trace while it is followed: the last tie-line, its equilibrium, the step, the tie-lines found. */
interface Walk {
  tl: TernaryTieLine;
  raw: EquilibriumResult | null;
  h: number;
  out: TernaryTieLine[];
  labels: [string, string];
  bases: string[];
}

/** Where the next step starts and goes: the middle of the tie-line's part in the window, the normal, the room left. */
interface Heading {
  m: Vec3;
  d: Vec3;
  reach: number;
}

export class TieLineTracer {
  private budgetNoted = false;

  constructor(
    private readonly solver: SectionSolver,
    private readonly fields: SectionFields,
    private readonly window: SectionWindow,
    private readonly ledger: MapLedger,
    private readonly maxStep: number,
    private readonly budget: number,
  ) {}

  /**
   * Traces the region of two-phase state e both ways from its tie-line (or, from a triangle's edge, away from the
   * triangle only) and adds it to the fields; a trace that stops short is logged, a critical end of a miscibility gap
   * is a critical point.
   */
  traceRegion(e: SectionState, seed?: EdgeSeed): void {
    const [p, q] = e.phases as [SetState, SetState];
    const labels: [string, string] = [p.label, q.label];
    const first: TernaryTieLine = seed ? seed.tl : { x: [p.x, q.x] };
    const potentials = this.fields.potentials;
    if (e.raw && !potentials.has(first)) potentials.set(first, e.raw);
    const trace = traceBothWays(
      first,
      (dir) => this.half(labels, first, e.raw, dir),
      seed ? { only: seed.dir, behind: seed.end } : { first: -1 },
    );
    const tielines = trace.points;
    const region: TernaryTwoPhaseRegion = { phases: labels, tielines, ends: trace.ends };
    const ends = [
      [trace.ends[0], tielines[0]!],
      [trace.ends[1], tielines[tielines.length - 1]!],
    ] as const;
    for (const [end, tl] of ends) {
      if (end === 'step_limit' || end === 'not_converged') {
        this.ledger.log(
          `region ${labels.join('+')}: trace stopped (${end === 'not_converged' ? 'the equilibria beyond did not converge' : 'no further step accepted'}) ` +
            `at the tie-line ${tl.x.map((v) => v.map((q) => q.toFixed(4)).join('/')).join(' - ')} without reaching a triangle, an edge or a critical point`,
        );
      }
    }
    for (const [end, tl] of ends) {
      if (end === 'critical' && baseName(labels[0]) === baseName(labels[1])) {
        this.fields.criticalPoints.push({ phases: labels, x: mid(tl.x[0], tl.x[1]) });
      }
    }
    this.fields.addRegion(region);
  }

  /** Follows a region from tie-line `seed` (phases labels a/b) along +/- its normal. */
  private half(
    labels: [string, string],
    seed: TernaryTieLine,
    seedRaw: EquilibriumResult | null,
    dir: 1 | -1,
  ): HalfTrace<TernaryTieLine, TernaryEndKind> {
    const w: Walk = { tl: seed, raw: seedRaw, h: this.maxStep / 2, out: [], labels, bases: labels.map(baseName) };
    for (let step = 0; step < MAX_TRACE_STEPS; step++) {
      if (this.budgetUsedUp()) return { points: w.out, end: 'step_limit' };
      const heading = this.heading(w.tl, dir);
      if (typeof heading === 'string') return { points: w.out, end: heading };
      const end = this.advance(w, heading);
      if (end) return { points: w.out, end };
    }
    return { points: w.out, end: 'step_limit' };
  }

  private budgetUsedUp(): boolean {
    if (this.ledger.equilibria <= this.budget) return false;
    if (!this.budgetNoted)
      this.ledger.log(`the budget of ${this.budget} point equilibria was used up: the remaining traces are cut short`);
    this.budgetNoted = true;
    return true;
  }

  /**
   * The point that moves (the middle of the part of the tie-line inside the window, the whole tie-line without one)
   * and the unit normal of the tie-line in the plane, as a composition change; or how the trace ends here.
   */
  private heading(tl: TernaryTieLine, dir: 1 | -1): Heading | TernaryEndKind {
    const a = toPlane(tl.x[0]),
      b = toPlane(tl.x[1]);
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const m = this.window.middle(tl);
    if (!m) return 'window';
    const mp = toPlane(m);
    const nrm: [number, number] = len > 1e-12 ? [(-(b[1] - a[1]) / len) * dir, ((b[0] - a[0]) / len) * dir] : [0, 0];
    if (len <= 1e-12) return 'critical';
    const d = fromPlane([mp[0] + nrm[0], mp[1] + nrm[1]]).map((v, k) => v - m[k]!) as Vec3;
    const reach = this.window.reach(m, d);
    if (reach < MIN_STEP) return onBinaryEdge(m) ? 'edge' : 'window';
    return { m, d, reach };
  }

  /**
   * One step of the trace, halved until a tie-line of the region is accepted (null: go on) or the step is below its
   * minimum; a step into a tie-triangle of the pair, or across a known one, ends the region on its edge.
   */
  private advance(w: Walk, { m, d, reach }: Heading): TernaryEndKind | null {
    let blockedBy: TernaryTriangle | null = null;
    let lastFailed = false;
    while (w.h >= MIN_STEP / 2) {
      const s = Math.min(w.h, reach);
      const X = m.map((v, k) => v + s * d[k]!) as Vec3;
      // a step across a known tie-triangle would land in the field beyond it (a thin triangle can be stepped over)
      const crossed = this.fields.crossedTriangle(m, X);
      if (crossed) {
        blockedBy = crossed;
        w.h /= 2;
        continue;
      }
      const e = this.solver.solve(X, w.raw);
      lastFailed = !e.ok;
      if (e.ok && e.phases.length === 2 && sortedBases(e.phases.map((p) => p.label)) === sortedBases([...w.labels])) {
        if (!this.continuous(w, e, s, m, d) || !this.accept(w, e, s)) {
          w.h /= 2;
          continue;
        }
        // the midpoint reached the window: this tie-line is the last one
        if (s >= reach - 1e-12) return onBinaryEdge(X) ? 'edge' : 'window';
        return null;
      }
      if (e.ok && e.phases.length === 3 && this.meetsTriangle(w, e)) return 'three_phase';
      w.h /= 2;
    }
    const edge = blockedBy ? this.fields.edgeOf(blockedBy, w.tl, w.bases as [string, string]) : null;
    if (edge) {
      w.out.push(edge);
      return 'three_phase';
    }
    const a2 = toPlane(w.tl.x[0]),
      b2 = toPlane(w.tl.x[1]);
    if (Math.hypot(b2[0] - a2[0], b2[1] - a2[1]) < SHORT_TIELINE) return 'critical';
    return lastFailed ? 'not_converged' : 'step_limit';
  }

  /** The ends of state e's tie-line, the one continuing the walk's phase 0 first (the nearer to its last end). */
  private oriented(w: Walk, e: SectionState): [SetState, SetState] {
    const [p, q] = e.phases as [SetState, SetState];
    const direct = dist(p.x, w.tl.x[0]) + dist(q.x, w.tl.x[1]);
    const swapped = dist(q.x, w.tl.x[0]) + dist(p.x, w.tl.x[1]);
    return direct <= swapped ? [p, q] : [q, p];
  }

  /**
   * An end that moves more than FAST_END times the step of the midpoint moves continuously: at half the step it lies
   * between its two positions. Otherwise the step crossed a tie-triangle of two sets of one phase, whose third corner
   * the end jumped to (alcrni at 1273 K: the ordered B2 end of A2 + B2 jumps 0.066 in x(Ni), from the antisite to the
   * vacancy-rich B2 across the A2 + B2 + B2 triangle); the step is halved until it lands in the triangle.
   */
  private continuous(w: Walk, e: SectionState, s: number, m: Vec3, d: Vec3): boolean {
    const ends = this.oriented(w, e);
    const fast = [0, 1].filter((k) => dist(ends[k]!.x, w.tl.x[k]!) > FAST_END * s);
    if (!fast.length) return true;
    const half = this.solver.solve(m.map((v, k) => v + (s / 2) * d[k]!) as Vec3, w.raw);
    if (
      !half.ok ||
      half.phases.length !== 2 ||
      sortedBases(half.phases.map((p) => p.label)) !== sortedBases([...w.labels])
    )
      return false;
    const mids = this.oriented(w, half);
    return fast.every((k) => {
      const jump = dist(ends[k]!.x, w.tl.x[k]!);
      return dist(mids[k]!.x, w.tl.x[k]!) < BETWEEN * jump && dist(mids[k]!.x, ends[k]!.x) < BETWEEN * jump;
    });
  }

  /**
   * The tie-line of state e continues the walk's last one: identity by continuity (the end closer to the previous
   * end of phase 0 continues phase 0), the same phases in that order, neither end jumping. Accepted, it is the
   * walk's new tie-line and the step grows.
   */
  private accept(w: Walk, e: SectionState, s: number): boolean {
    const [u, v] = this.oriented(w, e);
    if (baseName(u.label) !== w.bases[0] || baseName(v.label) !== w.bases[1]) return false;
    const jump = Math.max(dist(u.x, w.tl.x[0]), dist(v.x, w.tl.x[1]));
    if (jump > Math.max(0.08, 6 * s)) return false;
    w.tl = { x: [u.x, v.x] };
    w.raw = e.raw;
    if (e.raw) this.fields.potentials.set(w.tl, e.raw);
    w.out.push(w.tl);
    w.h = Math.min(this.maxStep, w.h * 1.5);
    return true;
  }

  /** A three-phase state holding the walk's pair: its triangle ends the region, on the triangle's edge. */
  private meetsTriangle(w: Walk, e: SectionState): boolean {
    const key = e.phases.map((p) => baseName(p.label));
    const bases = w.bases;
    const hasPair =
      bases[0] === bases[1]
        ? key.filter((k) => k === bases[0]).length >= 2
        : key.includes(bases[0]!) && key.includes(bases[1]!);
    if (!hasPair) return false;
    const tri = this.fields.addTriangle(e);
    if (!tri) return false;
    const edge = this.fields.edgeOf(tri, w.tl, bases as [string, string]);
    if (edge) w.out.push(edge);
    return true;
  }
}
