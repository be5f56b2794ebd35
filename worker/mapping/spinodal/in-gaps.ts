// The chemical spinodal inside the miscibility gaps of a mapped binary diagram: a two-phase region whose two labels
// are sets of one phase (FCC_A1 + FCC_A1#2) is that phase's gap, and at each of its tie-lines (T, x1, x2) the
// spinodal lies between x1 and x2 (the curvature of G is positive at the binodal compositions and negative between
// the two spinodal ones): a composition of negative curvature on the tie-line (the last tie-line's spinodal middle,
// the tie-line's middle, else the least curvature), then each spinodal composition by false position between it and
// a tie-line end. The diagram's own tie-lines set the temperatures, so the spinodal costs a few curvature
// evaluations per tie-line and no scan of its own.
import { baseName } from '../../../contract/phases.js';
import type { GapPoint } from '../../../contract/results/spinodal_decomposition.js';
import { PhaseModel } from '../../core/models.js';
import type { NativeDatabase } from '../../core/native.js';
import { Curvature } from './curvature.js';
import { StabilityDeterminant, type CoherencyStrain } from './determinant.js';
import { leastValue, type CurveFn } from './gaps.js';

const X_TOLERANCE = 1e-7;

/**
 * The root of f between a point where it is negative and one where it is positive: false position with the Illinois
 * modification (the retained end's value halved when the same end is kept twice), to X_TOLERANCE. Values already
 * known at the ends may be passed.
 */
function crossing(f: CurveFn, negative: number, positive: number, fNeg = f(negative), fPos = f(positive)): number {
  let a = negative,
    fa = fNeg,
    b = positive,
    fb = fPos,
    side = 0;
  for (let i = 0; i < 60 && Math.abs(b - a) > X_TOLERANCE; i++) {
    const c = b - (fb * (b - a)) / (fb - fa);
    const fc = f(c);
    if (!Number.isFinite(fc)) break;
    if (fc < 0) {
      a = c;
      fa = fc;
      if (side === -1) fb /= 2;
      side = -1;
    } else {
      b = c;
      fb = fc;
      if (side === 1) fa /= 2;
      side = 1;
    }
  }
  return 0.5 * (a + b);
}

/**
 * The root of f between `negative` and `positive` starting from a guess (extrapolated from the gap's previous
 * tie-lines): the bracket is narrowed to the guess and steps from it, doubling, towards the end its sign points to,
 * so false position starts within a small fraction of the tie-line. Without a usable guess, the whole interval.
 */
function crossingNear(f: CurveFn, negative: number, positive: number, guess: number | null, step: number): number {
  const within = (x: number) => (x - negative) * (positive - x) > 0;
  if (guess === null || !within(guess)) return crossing(f, negative, positive);
  let fGuess = f(guess);
  if (!Number.isFinite(fGuess)) return crossing(f, negative, positive);
  const towards = fGuess < 0 ? positive : negative;
  const dir = Math.sign(towards - guess);
  let [from, fFrom, d] = [guess, fGuess, step];
  for (;;) {
    const next = from + dir * d;
    if (!within(next))
      return fFrom < 0 ? crossing(f, from, positive, fFrom) : crossing(f, negative, from, undefined, fFrom);
    fGuess = f(next);
    if (!Number.isFinite(fGuess)) return crossing(f, negative, positive);
    if (fGuess < 0 !== fFrom < 0)
      return fFrom < 0 ? crossing(f, from, next, fFrom, fGuess) : crossing(f, next, from, fGuess, fFrom);
    [from, fFrom, d] = [next, fGuess, 2 * d];
  }
}

/** The next spinodal composition of a gap's branch, linearly extrapolated in T from its last two, and a step. */
function extrapolated(branch: GapPoint[], side: 0 | 1, T: number): { guess: number | null; step: number } {
  const [p0, p1] = [branch.at(-2), branch.at(-1)];
  if (!p1) return { guess: null, step: 0 };
  if (!p0 || p1.T === p0.T) return { guess: p1.x[side], step: 1e-3 };
  const slope = (p1.x[side] - p0.x[side]) / (p1.T - p0.T);
  const move = slope * (T - p1.T);
  return { guess: p1.x[side] + move, step: Math.max(0.25 * Math.abs(move), 1e-6) };
}

/** A composition inside (x1, x2) where f < 0: the hint (the last tie-line's spinodal middle), the middle, else the least. */
function negativeInside(f: CurveFn, x1: number, x2: number, hint: number | null): { x: number; value: number } {
  for (const x of [hint, 0.5 * (x1 + x2)]) {
    if (x === null || x <= x1 || x >= x2) continue;
    const value = f(x);
    if (value < 0) return { x, value };
  }
  return leastValue(f, x1, x2);
}

export interface GapRegion {
  phases: [string, string];
  tielines: { T: number; x: [number, number] }[];
}

export interface PhaseSpinodal {
  phase: string;
  points: GapPoint[];
}

/** The spinodal of every miscibility gap among the regions (x of the diagram's axis element). */
export function spinodalsInGaps(
  sys: { db: NativeDatabase; components: string[]; P: number },
  axis: [string, string],
  regions: readonly GapRegion[],
): PhaseSpinodal[] {
  const out: PhaseSpinodal[] = [];
  for (const region of regions) {
    const phase = baseName(region.phases[0]);
    if (baseName(region.phases[1]) !== phase) continue;
    const model = PhaseModel.build(sys.db, phase, sys.components);
    if (!model) continue;
    const curvature = new Curvature({ db: sys.db, components: sys.components, model, axis, P: sys.P });
    const points: GapPoint[] = [];
    let hint: number | null = null;
    for (const t of region.tielines) {
      const [x1, x2] = [Math.min(...t.x), Math.max(...t.x)];
      if (x2 - x1 < 1e-6) continue;
      const f: CurveFn = (x) => curvature.at(t.T, x);
      const inside = negativeInside(f, x1, x2, hint);
      if (!(inside.value < 0)) continue;
      const [low, high] = [extrapolated(points, 0, t.T), extrapolated(points, 1, t.T)];
      const x: [number, number] = [
        crossingNear(f, inside.x, x1, low.guess, low.step),
        crossingNear(f, inside.x, x2, high.guess, high.step),
      ];
      hint = 0.5 * (x[0] + x[1]);
      points.push({ T: t.T, x });
    }
    if (points.length) out.push({ phase, points: points.sort((a, b) => a.T - b.T) });
  }
  return out;
}

type Composition = Record<string, number>;

export interface SectionGapRegion {
  phases: [string, string];
  tielines: { x: [Composition, Composition] }[];
}

export interface SectionSpinodal {
  phase: string;
  /** the two spinodal compositions on each tie-line of the gap */
  points: [Composition, Composition][];
}

/**
 * The spinodal line inside every miscibility gap of an isothermal section: on each tie-line of a region of two sets
 * of one phase, the two compositions where the determinant of the phase's composition Hessian changes sign, found as
 * in a binary along the tie-line's parameter s (x = x1 + s (x2 - x1)).
 */
export function sectionSpinodals(
  sys: { db: NativeDatabase; components: string[]; P: number; coherency?: CoherencyStrain },
  T: number,
  regions: readonly SectionGapRegion[],
): SectionSpinodal[] {
  const out: SectionSpinodal[] = [];
  for (const region of regions) {
    const phase = baseName(region.phases[0]);
    if (baseName(region.phases[1]) !== phase) continue;
    const model = PhaseModel.build(sys.db, phase, sys.components);
    if (!model) continue;
    const stability = new StabilityDeterminant({ ...sys, model });
    const points: [Composition, Composition][] = [];
    let hint: number | null = null;
    for (const t of region.tielines) {
      const [a, b] = t.x;
      const along = (u: number) =>
        Object.fromEntries(Object.keys(a).map((e) => [e, a[e]! + u * ((b[e] ?? 0) - a[e]!)]));
      const f: CurveFn = (u) => stability.at(T, along(u));
      const inside = negativeInside(f, 0, 1, hint);
      if (!(inside.value < 0)) continue;
      const u: [number, number] = [crossing(f, inside.x, 0), crossing(f, inside.x, 1)];
      hint = 0.5 * (u[0] + u[1]);
      points.push([along(u[0]), along(u[1])]);
    }
    if (points.length) out.push({ phase, points });
  }
  return out;
}
