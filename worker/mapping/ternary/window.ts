// The window of a ternary section: per component a [min, max] mole fraction. What "inside the window" means for
// a composition, the part of a tie-line inside it, and how far a step may go before it leaves it.
import type { TernaryTieLine, Vec3 } from './geometry.js';

export class SectionWindow {
  constructor(readonly bounds: [number, number][]) {}

  /** The lower bounds: the corner of the simplex the seed grid spans. */
  get lower(): Vec3 {
    return this.bounds.map((w) => w[0]) as Vec3;
  }

  contains(X: Vec3, tol = 1e-12): boolean {
    return X.every((v, i) => v >= this.bounds[i]![0] - tol && v <= this.bounds[i]![1] + tol);
  }

  /** Middle of the part of tie-line tl inside the window; null when no part of it is inside. */
  middle(tl: TernaryTieLine): Vec3 | null {
    const [a, b] = tl.x;
    let t0 = 0,
      t1 = 1;
    for (let i = 0; i < 3; i++) {
      const da = b[i]! - a[i]!;
      for (const [bound, upper] of [
        [this.bounds[i]![0], false],
        [this.bounds[i]![1], true],
      ] as const) {
        if (Math.abs(da) < 1e-15) {
          if (upper ? a[i]! > bound + 1e-12 : a[i]! < bound - 1e-12) return null;
          continue;
        }
        const t = (bound - a[i]!) / da;
        // the part with a_i + t da on the inner side of the bound
        if (da > 0 === upper) t1 = Math.min(t1, t);
        else t0 = Math.max(t0, t);
      }
    }
    if (t1 < t0) return null;
    const t = (t0 + t1) / 2;
    return [0, 1, 2].map((i) => a[i]! + t * (b[i]! - a[i]!)) as Vec3;
  }

  /** Largest s >= 0 with X + s d inside the window (d sums to 0). */
  reach(X: Vec3, d: Vec3): number {
    let s = Infinity;
    for (let i = 0; i < 3; i++) {
      if (d[i]! > 1e-15) s = Math.min(s, (this.bounds[i]![1] - X[i]!) / d[i]!);
      else if (d[i]! < -1e-15) s = Math.min(s, (this.bounds[i]![0] - X[i]!) / d[i]!);
    }
    return Math.max(0, s);
  }
}

/** The point lies on a binary edge of the Gibbs triangle (a component at zero). */
export function onBinaryEdge(X: Vec3): boolean {
  return X.some((v) => v < 1e-6);
}
