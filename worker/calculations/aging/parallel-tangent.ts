// The driving force for precipitation of a phase from a supersaturated matrix by the parallel-tangent construction
// (Hillert, Phase Equilibria, Phase Diagrams and Phase Transformations, Cambridge 2008, ch. 6): the precipitate's
// composition is the one whose tangent is parallel to the matrix's tangent at the matrix composition, and the driving
// force per mole of atoms of the precipitate is the distance between the two tangents there,
//     dG_m = sum_A mu_A(matrix) x_A(precipitate) - G_m(precipitate)        (formula sheet §9.2).
// At fixed chemical potentials mu (those of the matrix alone at its composition) this is the maximum over the
// precipitate's site fractions y of (mu . M(y) - G_f(y)) / N_f; we minimise G_f(y) - mu . M(y) per formula unit by
// Newton's method on the site-fraction constraints (the relaxation of a metastable set of §9.2), which is the same
// optimum for phases whose atoms per formula unit do not depend on y (no vacancies on a substitutional sublattice).
import { solveLinear } from '../../core/linear.js';
import type { PhaseModel } from '../../core/models.js';

/** The precipitate at the parallel tangent: its driving force (J/mol of atoms), composition and site fractions. */
export interface TangentState {
  drivingForce: number;
  x: Record<string, number>;
  y: Float64Array;
}

const FLOOR = 1e-14;

/** G_f - mu . M and its gradient and Hessian in y (per formula unit; M is linear in y). */
function objective(model: PhaseModel, T: number, P: number, mu: number[], y: Float64Array) {
  const m = y.length;
  const n = m + 2;
  const e = model.evaluate(T, P, y, 2);
  const mo = model.moles(y, 1);
  let value = e.Gf;
  mu.forEach((u, a) => (value -= u * mo.M[a]));
  const grad = Array.from({ length: m }, (_, k) => {
    let g = e.dGf[2 + k];
    mu.forEach((u, a) => (g -= u * mo.dM[a * m + k]));
    return g;
  });
  const hess = Array.from({ length: m }, (_, k) => Array.from({ length: m }, (_, l) => e.d2Gf[(2 + k) * n + 2 + l]));
  return { value, grad, hess, M: mo.M, Nf: mo.Nf, Gf: e.Gf };
}

/** The Newton step on the constraint surface E dy = 0: [H E^T; E 0][dy; lambda] = [-g; 0]. */
function newtonStep(model: PhaseModel, grad: number[], hess: number[][]): number[] | null {
  const m = grad.length;
  const E = model.constraints.map((c) => Array.from(c.coeff));
  const size = m + E.length;
  const A = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  const b = Array.from({ length: size }, () => [0]);
  for (let k = 0; k < m; k++) {
    for (let l = 0; l < m; l++) A[k][l] = hess[k][l];
    E.forEach((row, s) => {
      A[k][m + s] = row[k];
      A[m + s][k] = row[k];
    });
    b[k][0] = -grad[k];
  }
  const X = solveLinear(A, b);
  return X ? X.slice(0, m).map((r) => r[0]) : null;
}

/** The largest step fraction (<= 1) keeping every site fraction above the floor. */
function feasibleFraction(y: Float64Array, dy: number[]): number {
  let alpha = 1;
  dy.forEach((d, k) => {
    if (d < 0 && y[k] + d < FLOOR) alpha = Math.min(alpha, (0.9 * (y[k] - FLOOR)) / -d);
  });
  return Math.max(alpha, 0);
}

/**
 * The precipitate relaxed at the matrix's chemical potentials `mu` (J/mol, in model.info.elements order), from the
 * site fractions y0 (a state of the precipitate phase, e.g. its tie-line state; the search stays in y0's basin, which
 * keeps an ordered phase ordered). Newton with a backtracking line search; at most 60 iterations.
 */
export function parallelTangent(model: PhaseModel, T: number, P: number, mu: number[], y0: Float64Array): TangentState {
  let y = Float64Array.from(y0, (v) => Math.max(v, FLOOR));
  let f = objective(model, T, P, mu, y);
  // a compound of one constituent per sublattice has no composition to relax: its tangent is its one state
  const free = y.length > model.constraints.length;
  for (let it = 0; free && it < 60; it++) {
    const dy = newtonStep(model, f.grad, f.hess);
    if (!dy) break;
    let alpha = feasibleFraction(y, dy);
    let accepted = false;
    for (let back = 0; back < 30 && alpha > 1e-12; back++, alpha /= 2) {
      const trial = Float64Array.from(y, (v, k) => v + alpha * dy[k]);
      const g = objective(model, T, P, mu, trial);
      if (g.value <= f.value + 1e-12 * Math.abs(f.value)) {
        y = trial;
        f = g;
        accepted = true;
        break;
      }
    }
    const size = dy.reduce((a, d) => Math.max(a, Math.abs(d)), 0);
    if (!accepted || size * alpha < 1e-11) break;
  }
  const drivingForce = (mu.reduce((a, u, k) => a + u * f.M[k], 0) - f.Gf) / f.Nf;
  const x = Object.fromEntries(model.info.elements.map((el, k) => [el, f.M[k] / f.Nf]));
  return { drivingForce, x, y };
}
