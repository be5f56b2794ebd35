// The feasible set {A y = b, 0 <= y} of a phase's linear constraints (site sums, electroneutrality
// (7.5)) by vertex enumeration: used to find the only charge-neutral configuration of a phase
// (case pyc-prop-alcl3-only-neutral-config). Small phases only (m <= 16).
import { solveLinear } from '../core/linear.js';
import type { LinearConstraint } from '../core/models.js';

/** The solution of a square system; null if singular. */
function solve(A: number[][], b: number[]): number[] | null {
  const x = solveLinear(
    A,
    b.map((v) => [v]),
    1e-12,
  );
  return x && x.map((row) => row[0]);
}

/** Vertices of the polytope; returns the point if all vertices coincide, else null. */
export function uniqueFeasiblePoint(m: number, cons: LinearConstraint[]): number[] | null {
  if (m > 16) return null;
  const rows = cons.map((c) => Array.from(c.coeff));
  const rhs = cons.map((c) => c.rhs);
  const verts: number[][] = [];
  for (let mask = 0; mask < 1 << m; mask++) {
    const free = [...Array(m).keys()].filter((k) => mask & (1 << k));
    if (free.length === 0 || free.length > rows.length) continue;
    // choose rows: try all subsets of rows of size |free|
    const r = rows.length;
    for (let rm = 0; rm < 1 << r; rm++) {
      const sel = [...Array(r).keys()].filter((k) => rm & (1 << k));
      if (sel.length !== free.length) continue;
      const y = solve(
        sel.map((i) => free.map((k) => rows[i][k])),
        sel.map((i) => rhs[i]),
      );
      if (!y) continue;
      const full = new Array(m).fill(0);
      free.forEach((k, i) => (full[k] = y[i]));
      const ok =
        full.every((v) => v >= -1e-12) &&
        rows.every((row, i) => Math.abs(row.reduce((s, a, k) => s + a * full[k], 0) - rhs[i]) < 1e-9);
      if (ok) verts.push(full);
      break;
    }
  }
  if (verts.length === 0) return null;
  const first = verts[0];
  return verts.every((v) => v.every((x, k) => Math.abs(x - first[k]) < 1e-10)) ? first : null;
}
