// The primary solid's composition profile at the end of solidification with back diffusion (Clyne and Kurz, Metall.
// Trans. A 12 (1981) 965, in the bookkeeping of back-diffusion.ts). Each step's solid is a slice of the dendrite arm,
// placed at the fraction solid before it; of element j it keeps the fraction 1 - 2 Omega_j of the composition it
// formed with and the fraction 2 Omega_j takes the composition of the solid at the interface, so once the back
// diffusion stops (the path's end, or the first step forming another solid: the eutectic stage) slice i holds
//     x_j,final(i) = (1 - 2 Omega_j) x_S,j(i) + 2 Omega_j x_S,j(last step with back diffusion)
// and the slices formed after that keep their composition (Scheil). The balance element is what the others leave.
// Summed over the slices this is exactly what the liquid update left out of the liquid: the profile and the
// remaining liquid hold the alloy. 2 Omega = 0 gives the profile as formed, 2 Omega = 1 a uniform solid.

/** The solid one step of the path formed: where it sits, how much of it, its composition, and whether the back
 * diffusion was on at that step. */
export interface SolidSlice {
  /** fraction solid before the step */
  fs: number;
  /** the step's increment of fraction solid */
  df: number;
  /** composition of the solid the step formed */
  x: Record<string, number>;
  /** the step took part in the back diffusion (primary solid only, before the eutectic stage) */
  equilibrated: boolean;
}

/** The composition of every slice at the end of solidification; `balance` takes what the others leave. */
export function finalProfile(
  slices: readonly SolidSlice[],
  twoOmega: Readonly<Record<string, number>>,
  balance: string,
): { fraction_solid: number; x: Record<string, number> }[] {
  let interface_: Record<string, number> | null = null;
  for (const s of slices) if (s.equilibrated) interface_ = s.x;
  return slices.map((s) => {
    if (!s.equilibrated || !interface_) return { fraction_solid: s.fs, x: { ...s.x } };
    const x: Record<string, number> = {};
    let sum = 0;
    for (const e of Object.keys(s.x)) {
      if (e === balance) continue;
      const phi = Math.min(1, Math.max(0, twoOmega[e] ?? 0));
      x[e] = (1 - phi) * (s.x[e] ?? 0) + phi * (interface_[e] ?? 0);
      sum += x[e];
    }
    x[balance] = Math.max(0, 1 - sum);
    return { fraction_solid: s.fs, x };
  });
}
