// T0 of two phases at an alloy's composition (T0(PHASE1,PHASE2) outputs): the temperature at which the two phases of
// the same composition have equal Gibbs energy, the upper limit of a diffusionless (partitionless) transformation
// between them, as for martensite and bainite in steels (Zener, Trans. AIME 167 (1946) 550; Bhadeshia, Bainite in
// Steels, 2001). Each phase alone at the overall composition is a global equilibrium restricted to that phase and to one
// composition set (its internal degrees of freedom, such as interstitial sites or order, at their minimum); the
// difference of the two is followed out from the start temperature on both sides (5 K, doubling, within 200-4000 K)
// until it changes sign, then the bracket is narrowed to 0.01 K (regula falsi with the Illinois modification, so both
// ends move: Dowell and Jarratt, BIT 11 (1971) 168).
import { equilibrium } from '../core/equilibrium.js';
import { CancelledError } from '../protocol.js';
import { ALLOY_T_RANGE, type AlloySystem } from './alloy-temperatures.js';
import { ALLOY_T_TOLERANCE } from './highest-flip.js';

const FIRST_STEP = 5;

/** G of each phase alone at X (J/mol of atoms), or null when it cannot take that composition at T. */
function singlePhaseG(sys: AlloySystem, phase: string, X: Record<string, number>, T: number, P: number): number | null {
  const r = equilibrium({
    database: sys.db,
    components: sys.components,
    phases: [phase],
    conditions: { T, P, X },
    options: { singleSet: true },
  });
  return r.converged ? r.GM : null;
}

/**
 * T0 of the two phases at X, the nearest to `from` (K, the middle of the final bracket), or null when their Gibbs
 * energies do not cross within ALLOY_T_RANGE or a phase cannot take the composition.
 */
export function tZeroTemperature(
  sys: AlloySystem,
  phases: readonly [string, string],
  X: Record<string, number>,
  P: number,
  from: number,
  cancelled: () => boolean,
): number | null {
  const dG = (T: number): number | null => {
    if (cancelled()) throw new CancelledError();
    const a = singlePhaseG(sys, phases[0], X, T, P);
    const b = a === null ? null : singlePhaseG(sys, phases[1], X, T, P);
    return a === null || b === null ? null : a - b;
  };
  const d0 = dG(from);
  if (d0 === null) return null;
  if (d0 === 0) return from;
  const bracket = signChange(dG, from, d0);
  return bracket ? narrow(dG, bracket) : null;
}

interface Sample {
  T: number;
  d: number;
}

/** The nearest pair of samples on either side of a sign change of dG, stepping out from `from` on both sides. */
function signChange(dG: (T: number) => number | null, from: number, d0: number): [Sample, Sample] | null {
  let up: Sample | null = { T: from, d: d0 },
    down: Sample | null = { T: from, d: d0 };
  for (let step = FIRST_STEP; up || down; step *= 2) {
    for (const dir of [1, -1] as const) {
      const last: Sample | null = dir > 0 ? up : down;
      if (!last) continue;
      const T = Math.min(ALLOY_T_RANGE[1], Math.max(ALLOY_T_RANGE[0], from + dir * step));
      const d: number | null = T === last.T ? null : dG(T);
      const next: Sample | null = d === null ? null : { T, d };
      if (next && Math.sign(next.d) !== Math.sign(d0)) return [last, next];
      if (dir > 0) up = next;
      else down = next;
    }
  }
  return null;
}

/** Regula falsi (Illinois) on the bracket until it is ALLOY_T_TOLERANCE wide; the middle of the last bracket. */
function narrow(dG: (T: number) => number | null, [a, b]: [Sample, Sample]): number | null {
  let side = 0;
  for (let i = 0; i < 100 && Math.abs(b.T - a.T) > ALLOY_T_TOLERANCE; i++) {
    let T = b.T - (b.d * (b.T - a.T)) / (b.d - a.d);
    // a step that lands within a tenth of the tolerance of an end goes that far past it, so the bracket shrinks
    const lo = Math.min(a.T, b.T) + 0.1 * ALLOY_T_TOLERANCE,
      hi = Math.max(a.T, b.T) - 0.1 * ALLOY_T_TOLERANCE;
    if (!(T > lo && T < hi)) T = Math.min(hi, Math.max(lo, Number.isFinite(T) ? T : 0.5 * (a.T + b.T)));
    const d = dG(T);
    if (d === null) return null;
    if (d === 0) return T;
    if (Math.sign(d) === Math.sign(b.d)) {
      b = { T, d };
      if (side === -1) a = { T: a.T, d: a.d / 2 };
      side = -1;
    } else {
      a = { T, d };
      if (side === 1) b = { T: b.T, d: b.d / 2 };
      side = 1;
    }
  }
  return 0.5 * (a.T + b.T);
}
