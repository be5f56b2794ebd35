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
 * modification (the retained end's value halved when the same end is kept twice), to X_TOLERANCE.
 */
function crossing(f: CurveFn, negative: number, positive: number): number {
  let a = negative,
    fa = f(a),
    b = positive,
    fb = f(b),
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
      const x: [number, number] = [crossing(f, inside.x, x1), crossing(f, inside.x, x2)];
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
