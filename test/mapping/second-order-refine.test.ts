// Second-order lines followed in x (worker/mapping/order-lines.ts): every other x is solved first and an x
// between only where the line is not straight there. Checked on a model transition with a known T_c(x): an
// ordered state below T_c whose order parameter follows the mean-field law eta^2 ~ (T_c - T), disordered above.
import { expect, test } from 'vitest';
import type { BinaryState } from '../../worker/mapping/binary-types.js';
import { followSecondOrderLines, type PointRequest } from '../../worker/mapping/order-lines.js';

/** A dome, flat at its top (x = 0.5) and 2000 K per unit x at x = 0.3 and 0.7. */
const tc = (x: number) => 1000 - 5000 * (x - 0.5) ** 2;

function state(T: number, x: number): BinaryState {
  const ordered = T < tc(x);
  const label = ordered ? 'B2' : 'A2';
  return {
    ok: true,
    T,
    X: x,
    key: label,
    phases: [{ base: label, label, x, NP: 1, eta: ordered ? Math.sqrt((tc(x) - T) / 200) : 0 }],
  };
}

/** x of the polyline at T on its branch between xa and xb (null when it does not reach T there). */
function polylineX(pts: { T: number; x: number }[], T: number, xa: number, xb: number): number | null {
  for (let i = 0; i + 1 < pts.length; i++) {
    const a = pts[i],
      b = pts[i + 1];
    if (a.x < xa - 1e-9 || b.x > xb + 1e-9) continue;
    if ((a.T - T) * (b.T - T) <= 0 && a.T !== b.T) return a.x + ((T - a.T) / (b.T - a.T)) * (b.x - a.x);
  }
  return null;
}

test('a second-order line is solved at every other x where it is straight, at every x next to its maximum, and stays within 0.001 in x of the transition', () => {
  const requests: PointRequest[] = [];
  const solveMany = (reqs: PointRequest[]) => {
    requests.push(...reqs);
    return reqs.map((q) => state(q.T, q.x));
  };
  const located = [0.3, 0.5, 0.7].map((x) => ({ ordered: 'B2', disordered: 'A2', T: tc(x), x }));
  const [line] = followSecondOrderLines(
    located,
    (T, x) => state(T, x),
    { Tlo: 300, Thi: 2000 },
    () => {},
    solveMany,
  );
  const xs = line.points.map((p) => p.x);
  // every point is on the transition (the mean-field estimate is exact for this model)
  for (const p of line.points) expect(Math.abs(p.T - tc(p.x))).toBeLessThan(0.06);
  // x from 0.3 to 0.7 at a step of 0.01: 41 x; the straight flanks are solved at every other x only
  expect(xs[0]).toBeCloseTo(0.3, 9);
  expect(xs[xs.length - 1]).toBeCloseTo(0.7, 9);
  expect(line.points.length).toBeLessThan(41);
  const solvedNear = (x: number) => xs.some((v) => Math.abs(v - x) < 1e-9);
  expect(solvedNear(0.35) || solvedNear(0.65)).toBe(false); // straight there: left out
  expect(solvedNear(0.49) && solvedNear(0.51)).toBe(true); // flat top: a chord error in T is a large one in x
  // drawn line against the transition: at fixed T within 0.001 in x on both flanks
  for (let T = tc(0.3) + 1; T < 995; T += 7) {
    const half = Math.sqrt((1000 - T) / 5000);
    for (const [xa, xb, exact] of [
      [0.3, 0.5, 0.5 - half],
      [0.5, 0.7, 0.5 + half],
    ]) {
      const x = polylineX(line.points, T, xa, xb);
      expect(x).not.toBeNull();
      expect(Math.abs(x! - exact)).toBeLessThan(1e-3);
    }
  }
  // fewer points solved than with every x: the bisection of each x asks for about the same number
  expect(new Set(requests.map((q) => q.x)).size).toBeLessThan(41);
});
