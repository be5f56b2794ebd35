// The precipitates' yield-strength increment from their size distributions (Deschamps and Brechet, Acta Mater. 47
// (1999) 293, after Friedel's statistics of weak obstacles and Ardell, Metall. Trans. A 16 (1985) 2131):
//   line tension Gamma = beta G b^2;
//   obstacle strength of a particle of radius r: F = 2 Gamma r / r_c below the transition radius r_c (sheared: its
//     resistance grows with its size), F = 2 Gamma at and above it (bypassed by Orowan looping);
//   the particles a slip plane meets, per m^2: n_s = sum_i 2 r_i N_i (N_i per m^3 in bin i); their spacing in the
//     plane l = n_s^(-1/2), and their mean obstacle strength F = sum_i 2 r_i N_i F_i / n_s;
//   shear stress tau = F^(3/2) / (b l sqrt(2 Gamma)) (Friedel: the dislocation bows until it meets the next obstacle),
//   yield strength increment dsigma = M tau.
// For one size r, volume fraction f = 4/3 pi r^3 N: l = r sqrt(2 pi / (3 f)), and
//   dsigma = M 2 beta G b sqrt(3 f / (2 pi)) r^(1/2) / r_c^(3/2)   (shearing, r < r_c, rising as sqrt(f r)),
//   dsigma = M 2 beta G b sqrt(3 f / (2 pi)) / r                  (Orowan, r >= r_c, falling as 1 / r),
// which meet at r = r_c: the peak of an isothermal ageing curve, where the particles coarsen past r_c.
// Radii are the equivalent-sphere radii of the model.
import type { PhaseStrength, StrengthInput } from './types.js';

export interface StrengthLaw {
  /** Taylor factor */
  M: number;
  /** shear modulus, Pa */
  G: number;
  /** Burgers vector, m */
  b: number;
  /** line tension over G b^2 */
  beta: number;
  /** transition radius, m */
  rc: number;
}

/** The law of one phase from the configuration. */
export function strengthLaw(s: StrengthInput, phase: string): StrengthLaw {
  return {
    M: s.taylor_factor,
    G: s.shear_modulus,
    b: s.burgers_vector,
    beta: s.line_tension_factor,
    rc: s.transition_radii?.[phase] ?? s.transition_radius,
  };
}

/** dsigma (Pa) of the particles of `radius` (m) and `number` (m^-3) the filter keeps, by Friedel's statistics. */
function friedel(law: StrengthLaw, radius: ArrayLike<number>, number: ArrayLike<number>, keep: (r: number) => boolean) {
  const tension = law.beta * law.G * law.b * law.b;
  let planar = 0;
  let force = 0;
  for (let i = 0; i < radius.length; i++) {
    const r = radius[i]!;
    if (!(number[i]! > 0) || !(r > 0) || !keep(r)) continue;
    const cut = 2 * r * number[i]!;
    planar += cut;
    force += cut * 2 * tension * Math.min(r / law.rc, 1);
  }
  if (!(planar > 0)) return 0;
  const mean = force / planar;
  return (law.M * mean ** 1.5 * Math.sqrt(planar)) / (law.b * Math.sqrt(2 * tension));
}

/** A phase's increment: its sheared particles alone, its bypassed ones alone, and the whole distribution. */
export function phaseStrength(law: StrengthLaw, radius: ArrayLike<number>, number: ArrayLike<number>): PhaseStrength {
  return {
    shearing: friedel(law, radius, number, (r) => r < law.rc),
    orowan: friedel(law, radius, number, (r) => r >= law.rc),
    total: friedel(law, radius, number, () => true),
  };
}

/** The phases' increments together: the root of the sum of squares, or their sum. */
export function combineStrengths(values: number[], rule: StrengthInput['combination']): number {
  if (rule === 'linear') return values.reduce((a, v) => a + v, 0);
  return Math.sqrt(values.reduce((a, v) => a + v * v, 0));
}
