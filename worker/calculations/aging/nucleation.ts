// Classical nucleation theory as used by the Kampmann-Wagner numerical model (Kampmann and Wagner, in "Decomposition
// of Alloys: the Early Stages", Pergamon 1984, p. 91; Russell, Adv. Colloid Interface Sci. 13 (1980) 205):
//   dG_v = dG_m / V_m (J/m^3), r* = 2 g gamma / dG_v, dG* = 16 pi g^3 gamma^3 / (3 dG_v^2),
//   Z = V_m / (2 pi N_A r*^2) sqrt(g gamma / (k T))      (Zeldovich factor),
//   beta* = 4 pi g r*^2 / a^4 * (sum_i (x_i^p - x_i^m)^2 / (x_i^m D_i))^-1   (Svoboda et al., Mater. Sci. Eng. A 385
//           (2004) 166: the attachment rate of a multicomponent nucleus, over its surface 4 pi g r*^2),
// with r* the nucleus's equivalent-sphere radius and g its area factor (shape.ts; 1 for a sphere): a particle of
// equivalent radius R costs 4 pi g R^2 gamma of interface, so dG(R) = -4/3 pi R^3 dG_v + 4 pi g R^2 gamma, whose
// maximum and curvature in the number of atoms give r*, dG* and Z above.
//   tau = 1 / (2 beta* Z^2),  J = N0 Z beta* exp(-dG*/kT) exp(-tau/t).
import type { NucleationSite } from './types.js';

export const AVOGADRO = 6.02214076e23;
export const BOLTZMANN = 1.380649e-23;
export const GAS_CONSTANT = 8.3145;

export interface NucleusInput {
  /** J per mole of atoms of the precipitate (> 0 when it can nucleate) */
  drivingForce: number;
  /** precipitate molar volume, m^3/mol of atoms */
  molarVolume: number;
  /** J/m^2 */
  gamma: number;
  /** the nucleus's surface over its equivalent sphere's (shape.ts; default 1, a sphere) */
  areaFactor?: number;
  T: number;
  /** the matrix's atomic spacing (its lattice parameter), m */
  spacing: number;
  /** sum_i (x_i^p - x_i^m)^2 / (x_i^m D_i), s/m^2, over the elements of the system */
  diffusionResistance: number;
  /** nucleation sites per m^3 */
  sites: number;
  /** time since the start of the treatment, s */
  t: number;
}

export interface Nucleus {
  criticalRadius: number;
  barrier: number;
  zeldovich: number;
  attachment: number;
  incubation: number;
  /** nuclei per m^3 per s */
  rate: number;
}

/** The critical nucleus and the nucleation rate; null when the matrix is not supersaturated for the phase. */
export function nucleation(q: NucleusInput): Nucleus | null {
  if (!(q.drivingForce > 0)) return null;
  const g = q.areaFactor ?? 1;
  const dGv = q.drivingForce / q.molarVolume;
  const criticalRadius = (2 * g * q.gamma) / dGv;
  const barrier = (16 * Math.PI * g ** 3 * q.gamma ** 3) / (3 * dGv * dGv);
  const kT = BOLTZMANN * q.T;
  const zeldovich =
    (q.molarVolume / (2 * Math.PI * AVOGADRO * criticalRadius * criticalRadius)) * Math.sqrt((g * q.gamma) / kT);
  const attachment = (4 * Math.PI * g * criticalRadius * criticalRadius) / (q.spacing ** 4 * q.diffusionResistance);
  const incubation = 1 / (2 * attachment * zeldovich * zeldovich);
  const rate = q.sites * zeldovich * attachment * Math.exp(-barrier / kT) * (q.t > 0 ? Math.exp(-incubation / q.t) : 0);
  return { criticalRadius, barrier, zeldovich, attachment, incubation, rate: Number.isFinite(rate) ? rate : 0 };
}

/** sum_i (x_i^p - x_i^m)^2 / (x_i^m D_i) over the elements with a diffusivity (Svoboda et al. 2004). */
export function diffusionResistance(
  precipitate: Record<string, number>,
  matrix: Record<string, number>,
  tracer: Record<string, number>,
): number {
  let sum = 0;
  for (const [el, D] of Object.entries(tracer)) {
    const xm = Math.max(matrix[el] ?? 0, 1e-12);
    const dx = (precipitate[el] ?? 0) - (matrix[el] ?? 0);
    if (D > 0) sum += (dx * dx) / (xm * D);
  }
  return sum;
}

/**
 * Nucleation sites per m^3: bulk, every atom of the matrix (N_A / V_m); dislocations, one per atomic spacing along
 * the lines (rho / a); grain boundaries, one per a^2 of boundary, whose area per volume is 3.35 / d for
 * tetrakaidecahedral grains of diameter d (DeHoff and Rhines, Quantitative Microscopy, McGraw-Hill 1968).
 */
export function siteDensity(
  site: NucleationSite,
  matrixMolarVolume: number,
  spacing: number,
  dislocationDensity: number | undefined,
  grainSize: number | undefined,
): number | Error {
  if (site === 'bulk') return AVOGADRO / matrixMolarVolume;
  if (site === 'dislocations') {
    if (!(dislocationDensity! > 0))
      return new Error('matrix.dislocation_density: give it (m/m^3) for nucleation on dislocations');
    return dislocationDensity! / spacing;
  }
  if (!(grainSize! > 0)) return new Error('matrix.grain_size: give it (m) for nucleation on grain boundaries');
  return 3.35 / grainSize! / (spacing * spacing);
}
