// The coarsening rate of Lifshitz and Slyozov (J. Phys. Chem. Solids 19 (1961) 35) and Wagner (Z. Elektrochem. 65
// (1961) 581) for diffusion-controlled growth: <r>^3 - <r0>^3 = k t with
//     k = 8 gamma V_m / (9 dx^T G D^-1 dx)
// (dx = x_p - x_eq, G the matrix's Hessian d(mu_j - mu_n)/dx_k, D its chemical diffusivities), which is
// Kuehmann and Voorhees' multicomponent form (Metall. Mater. Trans. A 27 (1996) 937) and for a dilute ideal binary
// (G = R T / x_eq) the classical
//     k = 8 gamma V_m D x_eq / (9 R T (x_p - x_eq)^2).
// The number density then falls as 1/t and the supersaturation as t^(-1/3).
import { GAS_CONSTANT } from './nucleation.js';

/** LSW's k (m^3/s) from the resistance dx^T G D^-1 dx (J s / (mol m^2)). */
export function lswRate(gamma: number, molarVolume: number, resistance: number): number {
  return (8 * gamma * molarVolume) / (9 * resistance);
}

/** LSW's k (m^3/s) in the dilute ideal binary limit. */
export function lswRateDilute(gamma: number, molarVolume: number, D: number, xEq: number, xP: number, T: number) {
  return (8 * gamma * molarVolume * D * xEq) / (9 * GAS_CONSTANT * T * (xP - xEq) ** 2);
}
