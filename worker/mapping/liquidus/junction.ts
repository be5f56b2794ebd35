// An invariant point of the liquidus surface: the liquid composition saturated with three solids alpha, beta, gamma
// at once (the liquid's corner of the four-phase equilibrium L + alpha + beta + gamma), where three valleys meet. Each
// T_phi(b, c) (search.ts) is smooth over the triangle, so near the point each is a plane through three known states;
// the point is where the three planes meet (two linear equations T_alpha = T_beta = T_gamma in b, c). The state found
// there replaces the support state farthest from it, and the planes are fitted again: a secant method in two
// variables, converging superlinearly like the valleys' regula falsi.
import type { Search } from './lockstep.js';
import { liquidusSearch, TRIAL_GAP, type LiquidusState } from './search.js';
import { VALLEY_TOLERANCE } from './valley.js';

const MAX_TRIALS = 8;
/** K above the support states' mean liquidus (first trial) or the last trial's where a trial's search starts, and
 * the first step up from a state below */
const FIRST_ABOVE = 2,
  NEXT_ABOVE = 0.3,
  STEP_UP = 2;

/** A state at the triangle coordinates (b, c): the fractions of the second and third corners. */
export interface Supported {
  bc: [number, number];
  state: LiquidusState;
}

export interface InvariantPoint {
  bc: [number, number];
  state: LiquidusState;
  /** the three solids */
  phases: [string, string, string];
  /** K: the largest difference of the three T_phi at the point */
  spread: number;
}

/** The plane T = p0 + p1 b + p2 c through three points, or undefined when they are collinear. */
function plane(pts: [number, number, number][]): [number, number, number] | undefined {
  const [[b0, c0, t0], [b1, c1, t1], [b2, c2, t2]] = pts as [
    [number, number, number],
    [number, number, number],
    [number, number, number],
  ];
  const det = (b1 - b0) * (c2 - c0) - (b2 - b0) * (c1 - c0);
  if (Math.abs(det) < 1e-14) return undefined;
  const p1 = ((t1 - t0) * (c2 - c0) - (t2 - t0) * (c1 - c0)) / det;
  const p2 = ((b1 - b0) * (t2 - t0) - (b2 - b0) * (t1 - t0)) / det;
  return [t0 - p1 * b0 - p2 * c0, p1, p2];
}

/** Where the three phases' planes meet, from three support states. */
function meeting(support: Supported[], phases: string[]): [number, number] | undefined {
  const planes = phases.map((ph) =>
    plane(support.map((p) => [p.bc[0], p.bc[1], p.state.phaseT.get(ph) ?? NaN] as [number, number, number])),
  );
  if (planes.some((p) => !p || !p.every(Number.isFinite))) return undefined;
  const [pa, pb, pc] = planes as [number, number, number][];
  // (pa - pb) . (1, b, c) = 0 and (pb - pc) . (1, b, c) = 0
  const a1 = pa[1] - pb[1],
    a2 = pa[2] - pb[2],
    a0 = pa[0] - pb[0];
  const c1 = pb[1] - pc[1],
    c2 = pb[2] - pc[2],
    c0 = pb[0] - pc[0];
  const det = a1 * c2 - a2 * c1;
  if (Math.abs(det) < 1e-12) return undefined;
  return [(-a0 * c2 + a2 * c0) / det, (-a1 * c0 + a0 * c1) / det];
}

function spreadOf(st: LiquidusState, phases: string[]): number {
  const ts = phases.map((p) => st.phaseT.get(p) ?? -Infinity);
  return Math.max(...ts) - Math.min(...ts);
}

/**
 * The invariant point of `phases` near three support states (the valleys' crossings around it), inside the triangle
 * [0 <= b, c; b + c <= 1]; undefined when the planes do not meet, a trial leaves the triangle or its liquidus search
 * fails, or a fourth phase is primary there.
 */
export function* invariantPoint(
  at: (b: number, c: number) => Record<string, number>,
  P: number,
  support: Supported[],
  phases: [string, string, string],
): Search<InvariantPoint | undefined> {
  const pts = [...support];
  let start = support.reduce((t, p) => t + p.state.T, 0) / support.length + FIRST_ABOVE;
  for (let trial = 0; trial < MAX_TRIALS; trial++) {
    const bc = meeting(pts.slice(-3), phases);
    if (!bc || bc[0] < -1e-9 || bc[1] < -1e-9 || bc[0] + bc[1] > 1 + 1e-9) return undefined;
    const st = yield* liquidusSearch(at(bc[0], bc[1]), P, start, STEP_UP, TRIAL_GAP);
    if (!st || !phases.includes(st.primary)) return undefined;
    start = st.T + NEXT_ABOVE;
    const spread = spreadOf(st, phases);
    if (spread <= VALLEY_TOLERANCE) return { bc, state: st, phases, spread };
    // the new state replaces the support state farthest from it
    const dist = (p: Supported) => Math.hypot(p.bc[0] - bc[0], p.bc[1] - bc[1]);
    const last = pts.slice(-3).sort((p, q) => dist(q) - dist(p));
    pts.push(...last.slice(1), { bc, state: st });
  }
  return undefined;
}
