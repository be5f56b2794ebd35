// Non-spherical precipitates in the KWN model: needles (prolate spheroids, semi-axes a, a, c = alpha a) and plates
// (oblate spheroids, semi-axes alpha a, alpha a, a) of a constant aspect ratio alpha >= 1, sized by their
// equivalent-sphere radius R (the sphere of the same volume: R = alpha^(1/3) a for a needle, alpha^(2/3) a for a plate).
// Two factors carry the shape into the spherical equations (Holmedal, Osmundsen and Du, Metall. Mater. Trans. A 47
// (2016) 581; Wu, Chen and Mason, J. Phase Equilib. Diffus. 39 (2018) 571):
//   area factor g = A / (4 pi R^2), the spheroid's surface over the equivalent sphere's: the interface energy of a
//     particle is 4 pi R^2 g gamma, so the capillary pressure is 2 g gamma / R and r* = 2 g gamma / dG_v;
//   kinetic factor k = C / R, the spheroid's electrostatic capacitance over the equivalent sphere's: the stationary
//     diffusion flux into an ellipsoid is 4 pi C D dc (Ham, J. Phys. Chem. Solids 6 (1958) 335), so
//     dV/dt = 4 pi R^2 dR/dt = 4 pi C D dc and the equivalent radius grows k times the sphere's rate.
// Spheroid areas and capacitances with the eccentricity e = sqrt(1 - 1/alpha^2):
//   prolate  A = 2 pi a^2 (1 + alpha asin(e)/e),        C = 2 c e / ln((1 + e)/(1 - e))
//   oblate   A = 2 pi a^2 (alpha^2 + atanh(e)/e),       C = alpha a e / asin(e)
import type { PrecipitateShape } from './types.js';

export interface ShapeFactors {
  /** surface area over the equivalent sphere's (1 for a sphere) */
  area: number;
  /** growth rate of the equivalent radius over the sphere's (1 for a sphere) */
  kinetic: number;
}

const SPHERE: ShapeFactors = { area: 1, kinetic: 1 };

/** Below this eccentricity the closed forms lose digits to 0/0: the second-order expansions take over. */
const SMALL_E = 1e-4;

/** The area and kinetic factors of a shape (a sphere, or a spheroid of aspect ratio 1: both 1). */
export function shapeFactors(shape: PrecipitateShape | undefined): ShapeFactors {
  const alpha = shape?.aspect_ratio ?? 1;
  if (!shape || shape.kind === 'sphere' || alpha === 1) return SPHERE;
  const e = Math.sqrt(1 - 1 / (alpha * alpha));
  const near = e < SMALL_E;
  if (shape.kind === 'needle') {
    // asin(e)/e = 1 + e^2/6, 2e/ln((1+e)/(1-e)) = e/atanh(e) = 1 - e^2/3 to second order
    const asinOverE = near ? 1 + (e * e) / 6 : Math.asin(e) / e;
    const eOverAtanh = near ? 1 - (e * e) / 3 : e / Math.atanh(e);
    return {
      area: (1 + alpha * asinOverE) / (2 * alpha ** (2 / 3)),
      kinetic: alpha ** (2 / 3) * eOverAtanh,
    };
  }
  const atanhOverE = near ? 1 + (e * e) / 3 : Math.atanh(e) / e;
  const eOverAsin = near ? 1 - (e * e) / 6 : e / Math.asin(e);
  return {
    area: (alpha * alpha + atanhOverE) / (2 * alpha ** (4 / 3)),
    kinetic: alpha ** (1 / 3) * eOverAsin,
  };
}
