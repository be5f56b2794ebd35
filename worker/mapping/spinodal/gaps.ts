// The spinodal gaps of a curvature function along x in (0, 1): the intervals where it is negative, their ends found
// by bisection on a sign change of a grid; and the critical point where a gap closes as T rises, by bisection on T
// of "the least curvature over the gap is negative" (at the critical point the two spinodal branches meet at the
// minimum of the curvature, which is zero there).

/** f(x) at one temperature (NaN where undefined). */
export type CurveFn = (x: number) => number;

const X_TOLERANCE = 1e-9;

/** The root of f between a (f(a) sign sa) and b by bisection to X_TOLERANCE. */
function bisect(f: CurveFn, a: number, b: number, sa: number): number {
  let lo = a,
    hi = b;
  while (hi - lo > X_TOLERANCE) {
    const m = 0.5 * (lo + hi);
    const v = f(m);
    if (!Number.isFinite(v)) break;
    if (Math.sign(v) === sa) lo = m;
    else hi = m;
  }
  return 0.5 * (lo + hi);
}

/** The grid of compositions: n points strictly inside (0, 1). */
export function compositionGrid(n: number): number[] {
  return Array.from({ length: n }, (_, k) => (k + 0.5) / n);
}

/** The intervals of x where f < 0, each [low, high] with its ends refined; values of f on `grid` given. */
export function negativeIntervals(f: CurveFn, grid: number[], values: number[]): [number, number][] {
  const out: [number, number][] = [];
  let start: number | null = null;
  for (let k = 0; k < grid.length; k++) {
    const v = values[k]!;
    if (!Number.isFinite(v)) continue;
    const prev = k > 0 ? values[k - 1]! : NaN;
    if (v < 0 && start === null)
      start = k > 0 && Number.isFinite(prev) ? bisect(f, grid[k - 1]!, grid[k]!, Math.sign(prev)) : grid[k]!;
    if (v >= 0 && start !== null) {
      out.push([start, bisect(f, grid[k - 1]!, grid[k]!, -1)]);
      start = null;
    }
  }
  if (start !== null) out.push([start, grid[grid.length - 1]!]);
  return out;
}

/** The least value of f on [a, b] and where: a grid of 41 points, then golden-section about the best. */
export function leastValue(f: CurveFn, a: number, b: number): { x: number; value: number } {
  let best = { x: a, value: Infinity };
  const n = 40;
  for (let k = 0; k <= n; k++) {
    const x = a + ((b - a) * k) / n;
    const v = f(x);
    if (Number.isFinite(v) && v < best.value) best = { x, value: v };
  }
  const g = (Math.sqrt(5) - 1) / 2;
  let lo = Math.max(a, best.x - (b - a) / n),
    hi = Math.min(b, best.x + (b - a) / n);
  for (let i = 0; i < 40 && hi - lo > X_TOLERANCE; i++) {
    const c = hi - g * (hi - lo),
      d = lo + g * (hi - lo);
    if (f(c) < f(d)) hi = d;
    else lo = c;
  }
  const x = 0.5 * (lo + hi);
  const v = f(x);
  return Number.isFinite(v) && v < best.value ? { x, value: v } : best;
}

/**
 * The critical point of a gap open at T1 (its interval `gap`) and closed at T2 > T1: bisection on T of the least
 * curvature near the gap, to 1e-4 K. `at(T)` gives the curvature function of a temperature.
 */
export function criticalPoint(at: (T: number) => CurveFn, T1: number, T2: number, gap: [number, number]) {
  let lo = T1,
    hi = T2;
  const width = gap[1] - gap[0];
  const a = Math.max(1e-9, gap[0] - width),
    b = Math.min(1 - 1e-9, gap[1] + width);
  let where = leastValue(at(T1), a, b);
  while (hi - lo > 1e-4) {
    const T = 0.5 * (lo + hi);
    const m = leastValue(at(T), a, b);
    if (m.value < 0) {
      lo = T;
      where = m;
    } else hi = T;
  }
  return { T: 0.5 * (lo + hi), x: where.x };
}
