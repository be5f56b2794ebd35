// Diffusion-controlled growth of a spherical precipitate in a supersaturated matrix (mean-field, quasi-stationary).
//
// Binary: Zener's stationary field (J. Appl. Phys. 20 (1949) 950; the form of Kampmann and Wagner 1984)
//     dr/dt = (D / r) (x_inf - x_r) / (x_p - x_r)
// with x_r the matrix composition at the interface of a particle of radius r: the composition at which the engine's
// parallel-tangent driving force equals the Gibbs-Thomson pressure, dG_m(x_r) = 2 gamma V_m / r, read from a table
// of dG_m against ln x at the temperature (interfaceTable). This is exact for the database's thermodynamics; in the
// dilute ideal limit it is x_r = x_eq exp(2 gamma V_m / (x_p R T r)) and, linearised, the capillarity of LSW.
//
// Multicomponent: the flux balance of Philippe and Voorhees (Acta Mater. 61 (2013) 4237, eq. 28),
//     dr/dt = (dG_m - 2 gamma V_m / r) / (r  dx^T L^-1 dx),   L^-1 = G D^-1
// with dx = x_p - x_inf over the independent elements, G = d(mu_j - mu_n)/dx_k the matrix's Hessian and D its
// chemical diffusivities (volume-fixed frame, dependent n); the driving force of the current matrix from the
// parallel tangent. For a binary it reduces to dr/dt = (D / r) (x_inf - x_r)/(x_p - x_r) linearised about x_inf.
import { solveLinear } from '../../core/linear.js';
import type { MatrixState } from './thermo.js';

/** G_jk = d(mu_j - mu_n)/dx_k (J/mol) of the independent elements from dmu_i/dN_j of one mole of atoms. */
export function reducedHessian(factor: number[][], elements: string[], dependent: string): number[][] {
  const n = elements.indexOf(dependent);
  const ind = elements.map((_, i) => i).filter((i) => i !== n);
  const dmu = (i: number, k: number) => factor[i]![k]! - factor[i]![n]!;
  return ind.map((j) => ind.map((k) => dmu(j, k) - dmu(n, k)));
}

/**
 * dx^T G D^-1 dx (J s / (mol m^2)) for the precipitate composition xp against the matrix state (elements in the
 * order of the model: sorted, as thermodynamicFactor gives them); null where G or D is singular.
 */
export function growthResistance(
  state: MatrixState,
  modelElements: string[],
  xp: Record<string, number>,
): number | null {
  if (!state.factor) return null;
  const G = reducedHessian(state.factor, modelElements, state.dependent);
  const ind = modelElements.filter((e) => e !== state.dependent);
  const D = ind.map((k) => ind.map((j) => state.chemical[k]?.[j] ?? 0));
  const dx = ind.map((e) => (xp[e] ?? 0) - (state.x[e] ?? 0));
  const w = solveLinear(
    D,
    dx.map((v) => [v]),
  );
  if (!w) return null;
  let sum = 0;
  ind.forEach((_, j) => ind.forEach((__, k) => (sum += dx[j]! * G[j]![k]! * w[k]![0]!)));
  return sum > 0 ? sum : null;
}

/** Philippe and Voorhees' growth rate (m/s) at radius r. */
export function multicomponentGrowth(drivingForce: number, capillarity: number, resistance: number, r: number): number {
  return (drivingForce - capillarity / r) / (r * resistance);
}

/** dG_m against the solute's fraction in the matrix at one temperature, increasing; inverted for x_r. */
export interface InterfaceTable {
  logX: number[];
  drivingForce: number[];
}

/** The index i of the interval [v_i, v_i+1] of an increasing array holding v (clamped to the ends). */
function bracket(values: number[], v: number): number {
  let lo = 0,
    hi = values.length - 1;
  if (v <= values[0]!) return 0;
  if (v >= values[hi]!) return hi - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! <= v) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The solute fraction at which the driving force is g (linear in ln x between the table's points, clamped). */
export function interfaceComposition(table: InterfaceTable, g: number): number {
  const { logX, drivingForce: F } = table;
  const last = F.length - 1;
  if (g <= F[0]!) return Math.exp(logX[0]!);
  if (g >= F[last]!) return Math.exp(logX[last]!);
  const i = bracket(F, g);
  const s = (g - F[i]!) / (F[i + 1]! - F[i]!);
  return Math.exp(logX[i]! + s * (logX[i + 1]! - logX[i]!));
}

/** The driving force at the solute fraction x (the table read the other way, extrapolated linearly in ln x). */
export function tableDrivingForce(table: InterfaceTable, x: number): number {
  const { logX, drivingForce: F } = table;
  const l = Math.log(Math.max(x, 1e-300));
  const i = bracket(logX, l);
  const s = (l - logX[i]!) / (logX[i + 1]! - logX[i]!);
  return F[i]! + s * (F[i + 1]! - F[i]!);
}

/** Zener's binary growth rate (m/s) at radius r. */
export function binaryGrowth(D: number, xInf: number, xr: number, xp: number, r: number): number {
  return ((D / r) * (xInf - xr)) / (xp - xr);
}
