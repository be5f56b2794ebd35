// Solute trapping at a fast solidification front (Aziz, J. Appl. Phys. 53 (1982) 1158): a solid growing at velocity V
// has no time to reject solute, its partition coefficient rises from the equilibrium k_e towards 1,
//     k_v = (k_e + V/V_D) / (1 + V/V_D),
// with V_D = D_i / lambda the diffusive speed of the interface (D_i the diffusivity across it, lambda the interatomic
// distance). Applied to each element j of a path step, x_S,j = k_v,j x_L,j with the step's interface liquid x_L:
//     x_S,trapped = (x_S + beta x_L) / (1 + beta),   beta = V / V_D,
// the equilibrium solid moved along its tie-line towards the liquid (the compositions still sum to 1). The liquid
// stays on its tie-line end (the liquidus at T), so the mass balance of the step, x_before = f_L x_L + (1 - f_L) x_S,
// fixes the liquid left: since x_before - x_S,trapped and x_L - x_S,trapped are both along x_L - x_S,
//     f_L,trapped = (f_L - w) / (1 - w),   w = beta / (1 + beta),
// that is (1 + beta) times the step's equilibrium solid, of the trapped composition; where that exceeds the liquid
// left (f_L <= w), all of it freezes without partition. For a constant k_e this is Scheil's equation with k_v;
// beta = 0 is the path without trapping, beta >> 1 freezes the alloy just below its liquidus at its own composition.
import type { Split } from './equilibria.js';

/** Aziz's velocity-dependent partition coefficient of one element. */
export function azizPartition(equilibrium: number, velocity: number, diffusiveSpeed: number): number {
  const beta = velocity / diffusiveSpeed;
  return (equilibrium + beta) / (1 + beta);
}

/** A step's split with solute trapping at beta = V / V_D: more solid, of the trapped composition (module comment). */
export function trappedSplit(s: Split, beta: number): Split {
  if (!(beta > 0) || s.fL >= 1 || s.fL <= 0) return s;
  const w = beta / (1 + beta);
  const fL = Math.max(0, (s.fL - w) / (1 - w));
  const scale = (1 - fL) / (1 - s.fL);
  const xL = s.xL;
  // each solid set moves towards the liquid the same way, so their mixture is the trapped solid of the step; where
  // the whole liquid freezes, it freezes at the composition of the step's material, liquid and solid together
  const whole = fL === 0 ? stepComposition(s) : null;
  const trapped = (x: Record<string, number>) =>
    whole ?? (xL ? Object.fromEntries(Object.keys(x).map((e) => [e, (x[e]! + beta * (xL[e] ?? 0)) / (1 + beta)])) : x);
  return {
    ...s,
    fL,
    solids: s.solids.map((q) => ({
      ...q,
      NP: q.NP * scale,
      state: q.state && { ...q.state, x: trapped(q.state.x) },
    })),
    latent: s.latent * scale,
  };
}

/** The composition of a step's material: its liquid and its solid sets, by amount (null without their compositions). */
function stepComposition(s: Split): Record<string, number> | null {
  if (!s.xL || s.solids.some((q) => !q.state)) return null;
  const x: Record<string, number> = {};
  let total = s.fL;
  for (const [e, v] of Object.entries(s.xL)) x[e] = s.fL * v;
  for (const q of s.solids) {
    total += q.NP;
    for (const [e, v] of Object.entries(q.state!.x)) x[e] = (x[e] ?? 0) + q.NP * v;
  }
  return Object.fromEntries(Object.entries(x).map(([e, v]) => [e, v / total]));
}
