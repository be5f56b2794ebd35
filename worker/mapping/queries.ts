// Point-equilibrium root finding that complements the mapped diagram (worker/mapping/binary.ts):
// the temperature at which the stable phase set changes along a line of fixed overall composition
// (boundary / invariant temperatures) and the temperature where two phases of a pure element have the
// same Gibbs energy (melting / transformation points). Bisection on T to 1e-6 K of global equilibria
// (formula sheet §8-§9) - nothing is fitted.
import { equilibrium, type EquilibriumResult } from '../core/equilibrium.js';
import type { NativeDatabase } from '../core/native.js';
import { CancelledError } from '../protocol.js';

export interface LineRequest {
  database: NativeDatabase;
  /** solver components (elements, and VA when the database has it) */
  components: string[];
  phases?: string[];
  /** fixed overall mole fractions of all components but one */
  X: Record<string, number>;
  P?: number;
  /** scan range and step (default 200-3000 K, 5 K) */
  T?: [number, number];
  step?: number;
  control?: { readonly cancelled: boolean };
}

export interface PhaseSetChange {
  /** transition temperature, K (bracket narrower than `tol`) */
  T: number;
  /** phase names (one entry per composition set, sorted) just below and just above */
  below: string[];
  above: string[];
}

const NP_MIN = 1e-10;

/** Sorted phase names of the stable composition sets (a gap gives the name twice). */
export function phaseNames(r: EquilibriumResult): string[] {
  return r.phases
    .filter((p) => p.NP > NP_MIN)
    .map((p) => p.name.toUpperCase())
    .sort();
}

/** Every change of the stable phase set along T at fixed composition, each located to `tol` K. */
export function phaseSetChanges(req: LineRequest, tol = 1e-6): PhaseSetChange[] {
  const [T0, T1] = req.T ?? [200, 3000];
  const step = req.step ?? 5;
  const solve = (T: number) => {
    if (req.control?.cancelled) throw new CancelledError();
    const r = equilibrium({
      database: req.database,
      components: req.components,
      phases: req.phases,
      conditions: { T, P: req.P ?? 101325, X: req.X },
    });
    return { T, ok: r.converged, key: phaseNames(r).join('+'), names: phaseNames(r) };
  };
  const out: PhaseSetChange[] = [];
  let prev = solve(T0);
  for (let T = T0 + step; T <= T1 + 1e-9; T += step) {
    const cur = solve(Math.min(T, T1));
    if (prev.ok && cur.ok && cur.key !== prev.key) {
      let lo = prev,
        hi = cur;
      while (hi.T - lo.T > tol) {
        const m = solve((lo.T + hi.T) / 2);
        if (!m.ok) break;
        if (m.key === lo.key) lo = m;
        else hi = m; // a third set inside the bracket: keep narrowing on the lower change
      }
      out.push({ T: (lo.T + hi.T) / 2, below: lo.names, above: hi.names });
    }
    prev = cur;
  }
  return out;
}

/**
 * Temperature where G(phaseA) = G(phaseB) for the pure element `element` (each phase alone, one
 * composition set), by a scan for the sign change and bisection to `tol` K. Null if there is none in
 * the range. `other` = the second element of a binary database (held at 1e-10) or none for a unary.
 */
export function pureTransition(
  database: NativeDatabase,
  components: string[],
  element: string,
  phaseA: string,
  phaseB: string,
  range: [number, number] = [200, 4000],
  tol = 1e-6,
  P = 101325,
): number | null {
  const others = components.filter((c) => c !== element && c !== 'VA');
  const X: Record<string, number> = Object.fromEntries(others.map((o) => [o, 1e-10]));
  const g = (T: number, ph: string) => {
    const r = equilibrium({
      database,
      components,
      phases: [ph],
      conditions: { T, P, X },
      options: { singleSet: true },
    });
    if (!r.converged) throw new Error(`${ph} alone did not converge at ${T} K: ${r.reason}`);
    return r.GM;
  };
  const f = (T: number) => g(T, phaseA) - g(T, phaseB);
  let a = range[0],
    fa = f(a);
  for (let T = a + 20; T <= range[1]; T += 20) {
    const fb = f(T);
    if (Math.sign(fb) !== Math.sign(fa)) {
      let lo = a,
        hi = T,
        flo = fa;
      while (hi - lo > tol) {
        const m = (lo + hi) / 2,
          fm = f(m);
        if (Math.sign(fm) === Math.sign(flo)) {
          lo = m;
          flo = fm;
        } else hi = m;
      }
      return (lo + hi) / 2;
    }
    a = T;
    fa = fb;
  }
  return null;
}
