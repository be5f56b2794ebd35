// The straight path of a scan through T-x space: T and the mole fractions linear in s = 0..1.
import type { EquilibriumConditions } from '../core/equilibrium.js';

/** The straight line of a scan: state at s in [0, 1]. */
export interface ScanPath {
  T0: number;
  T1: number;
  P: number;
  /** independent mole fractions at both ends (solver conditions) */
  X0: Record<string, number>;
  X1: Record<string, number>;
  /** all mole fractions at both ends (for reports) */
  full0: Record<string, number>;
  full1: Record<string, number>;
  /**
   * chemical potentials (J/mol) of the elements held along the line at a potential or activity (an open system), at
   * the state's T and P; these elements are absent from X0/X1 and full0/full1, their mole fractions are results
   */
  mu?: (T: number, P: number) => Record<string, number>;
}

export function stateAt(
  path: ScanPath,
  s: number,
): { T: number; X: Record<string, number>; x: Record<string, number> } {
  const lerp = (a: number, b: number) => a + (b - a) * s;
  const X: Record<string, number> = {};
  for (const k of Object.keys(path.X0)) X[k] = lerp(path.X0[k], path.X1[k]);
  const x: Record<string, number> = {};
  for (const k of Object.keys(path.full0)) x[k] = lerp(path.full0[k], path.full1[k]);
  return { T: lerp(path.T0, path.T1), X, x };
}

export function conditionsAt(path: ScanPath, s: number): EquilibriumConditions {
  const st = stateAt(path, s);
  return { T: st.T, P: path.P, X: st.X, ...(path.mu ? { MU: path.mu(st.T, path.P) } : {}) };
}
