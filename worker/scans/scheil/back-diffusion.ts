// Scheil-Gulliver with back diffusion in the solid: a fraction 2 Omega of the solid formed so far stays in equilibrium
// with the liquid (it takes the composition of the solid forming at the interface), the rest keeps the composition it
// solidified with. The balance of an element j, per mole of alloy,
//     (1 - f_s) C_L = C_alloy - sum over the steps of (1 - 2 Omega) x_S df_s - 2 Omega f_s x_S,interface
// is, for a constant partition k, Clyne and Kurz's (Metall. Trans. A 12 (1981) 965)
//     (1 - (1 - 2 Omega k) f_s) dC_L = (1 - k) C_L df_s,
//     Omega(alpha) = alpha (1 - exp(-1/alpha)) - exp(-1/(2 alpha)) / 2,   alpha = 4 D_s t_f / lambda_2^2,
// from Scheil (Omega = 0, no diffusion in the solid) to the lever rule (Omega = 1/2, where k varies too). In a path of
// equilibrium steps a step gives df_s and the solid it formed x_S (from its mass balance, the solid at the interface);
// the liquid then holds what the balance leaves it, less than the equilibrium liquid, so it forms more solid at the
// same temperature: the path repeats the step there until it forms none (worker/scans/scheil/path.ts). A fast diffuser
// (carbon, nitrogen) has Omega = 1/2. Without back diffusion the liquid is the step's equilibrium liquid: the classic
// path exactly.
import { baseName } from '../../../contract/phases.js';
import type { SolidSlice } from './final-profile.js';
import type { LiquidUpdate } from './path-state.js';

/** Clyne and Kurz's back-diffusion coefficient Omega of the Fourier number alpha (0 to 1/2). */
export function clyneKurzOmega(alpha: number): number {
  if (!(alpha > 0)) return 0;
  if (!Number.isFinite(alpha)) return 0.5;
  return Math.min(0.5, Math.max(0, alpha * (1 - Math.exp(-1 / alpha)) - 0.5 * Math.exp(-1 / (2 * alpha))));
}

/** The solid formed in one step, per mole of it: from the liquid before and the fraction fL left liquid at x. */
export function stepSolid(before: Record<string, number>, after: Record<string, number>, fL: number) {
  const out: Record<string, number> = {};
  if (fL >= 1) return out;
  for (const e of Object.keys(before)) out[e] = Math.max(0, ((before[e] ?? 0) - fL * (after[e] ?? 0)) / (1 - fL));
  return out;
}

/**
 * The liquid update with back diffusion, 2 Omega_j per element (0: none, 1: complete); `solids`, when given,
 * receives the solid each step forms (final-profile.ts): its composition, the fraction solid before it and its
 * increment (the microsegregation profile as solidified), and whether the back diffusion was on at that step. The balance element (the alloy's largest fraction) is what the others leave, whatever its
 * own value. With `primary`, the back diffusion stops once a step forms another solid (the eutectic stage is
 * Scheil's: the model's back diffusion is into the primary dendrites).
 */
export function backDiffusionUpdate(
  twoOmega: Record<string, number>,
  solids?: SolidSlice[],
  primary?: string,
): LiquidUpdate {
  // per element, per mole of alloy: the alloy's amount and the amount frozen in the solid that does not diffuse
  let alloy: Record<string, number> | null = null;
  const frozen: Record<string, number> = {};
  // back diffusion is into the primary phase: once another solid forms (a eutectic), the rest of the path is Scheil's
  let primaryOnly = true;
  return (before, equilibrium, fL, fsBefore, formed) => {
    alloy ??= { ...before };
    if (primary && formed.some((q) => q.NP > 1e-12 && baseName(q.label) !== primary)) primaryOnly = false;
    const xS = stepSolid(before, equilibrium, fL);
    const fsAfter = fsBefore + (1 - fsBefore) * Math.max(0, 1 - fL);
    const df = fsAfter - fsBefore;
    if (solids && fL < 1) solids.push({ fs: fsBefore, df, x: xS, equilibrated: primaryOnly && fsAfter < 1 });
    // the balance element (the alloy's largest fraction) takes what the others leave
    const balance = Object.keys(alloy).reduce((a, b) => ((alloy![b] ?? 0) > (alloy![a] ?? 0) ? b : a));
    const next: Record<string, number> = {};
    let sum = 0;
    for (const e of Object.keys(before)) {
      if (e === balance) continue;
      const phi = Math.min(1, Math.max(0, twoOmega[e] ?? 0));
      const solid = xS[e] ?? 0;
      frozen[e] = (frozen[e] ?? 0) + (1 - phi) * solid * df;
      // the liquid holds what neither the frozen solid nor the fraction phi f_s at the interface composition holds;
      // without back diffusion that is the step's equilibrium liquid (taken as it is: the classic path exactly)
      let v =
        primaryOnly && phi > 0 && fsAfter < 1
          ? ((alloy[e] ?? 0) - frozen[e]! - phi * fsAfter * solid) / (1 - fsAfter)
          : (equilibrium[e] ?? 0);
      v = Number.isFinite(v) ? Math.max(0, v) : 0;
      next[e] = v;
      sum += v;
    }
    next[balance] = Math.max(0, 1 - sum);
    const total = sum + next[balance]!;
    for (const e of Object.keys(next)) next[e] = next[e]! / total;
    return next;
  };
}
