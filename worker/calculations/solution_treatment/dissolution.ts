// The time to dissolve one precipitate particle at a solution temperature, by Whelan's model of a sphere dissolving
// under diffusion control in an infinite matrix (M.J. Whelan, Met. Sci. J. 3 (1969) 95):
//     dr/dt = -(k D / 2) (1/r + 1/sqrt(pi D t)),   k = 2 (c_I - c_M) / (c_P - c_I)
// with c_M the solute's mole fraction far away (the alloy's), c_I at the interface (the matrix in equilibrium with the
// particle at T) and c_P in the particle; molar volumes taken equal. With tau = sqrt(t) the equation is smooth at the
// start: dr/dtau = -k D tau / r - k sqrt(D / pi), integrated by fourth-order Runge-Kutta until r = 0. Without the
// transient term it gives r^2 = r0^2 - k D t; for small k that term is negligible (test/calculations/solution.test.ts).
import type { Dissolution } from '../../../contract/results/solution_treatment.js';
import { equilibrium, type EquilibriumResult } from '../../core/equilibrium.js';
import type { NativeDatabase } from '../../core/native.js';
import { phaseDiffusionAt } from '../../system/diffusion.js';

const R = 8.3145;

export interface WhelanInput {
  k: number;
  D: number;
  radius: number;
}

/** t(r = 0) and the radius against time (about 100 points); time null when k <= 0 (the particle grows or stays). */
export function whelanDissolution({ k, D, radius }: WhelanInput): {
  time: number | null;
  curve: { t: number; r: number }[];
} {
  if (!(k > 0) || !(D > 0)) return { time: null, curve: [{ t: 0, r: radius }] };
  const rate = (tau: number, r: number) => -(k * D * tau) / r - k * Math.sqrt(D / Math.PI);
  // the steady-state estimate of the time sets the step: 4000 steps of tau over it, smaller as r shrinks
  const tauEnd = Math.sqrt((radius * radius) / (k * D));
  let tau = 0,
    r = radius;
  const points: { t: number; r: number }[] = [{ t: 0, r }];
  for (let i = 0; i < 200_000 && r > 0; i++) {
    const h = Math.min(tauEnd / 4000, (0.01 * r) / Math.abs(rate(tau, r)));
    const k1 = rate(tau, r);
    const k2 = rate(tau + h / 2, Math.max(r + (h / 2) * k1, 1e-300));
    const k3 = rate(tau + h / 2, Math.max(r + (h / 2) * k2, 1e-300));
    const k4 = rate(tau + h, Math.max(r + h * k3, 1e-300));
    const next = r + (h / 6) * (k1 + 2 * k2 + 2 * k3 + k4);
    if (next <= radius * 1e-6 || !Number.isFinite(next)) {
      // the last piece linearly to r = 0
      const slope = k1;
      tau += r / -slope;
      r = 0;
    } else {
      tau += h;
      r = next;
    }
    points.push({ t: tau * tau, r });
  }
  const stride = Math.max(1, Math.floor(points.length / 100));
  const curve = points.filter((_, i) => i % stride === 0 || i === points.length - 1);
  return { time: r <= 0 ? tau * tau : null, curve };
}

export interface DissolutionSystem {
  db: NativeDatabase;
  components: string[];
  elements: string[];
}

/** The mole-fraction conditions of a composition: every element but the first. */
function conditionsOf(elements: string[], x: Record<string, number>): Record<string, number> {
  return Object.fromEntries(elements.slice(1).map((e) => [e, x[e] ?? 0]));
}

/** The matrix and the particle in equilibrium with each other at T (both phases alone), or null. */
function interfaceEquilibrium(
  sys: DissolutionSystem,
  phases: [string, string],
  T: number,
  P: number,
  X: Record<string, number>,
  particle: Record<string, number>,
): EquilibriumResult | null {
  for (const w of [0.5, 0.2, 0.8, 0.05]) {
    const mix = conditionsOf(
      sys.elements,
      Object.fromEntries(sys.elements.map((e) => [e, (1 - w) * (X[e] ?? 0) + w * (particle[e] ?? 0)])),
    );
    const r = equilibrium({ database: sys.db, components: sys.components, phases, conditions: { T, P, X: mix } });
    if (r.converged && phases.every((p) => r.phases.some((q) => q.name === p))) return r;
  }
  return null;
}

/** The solute's chemical diffusivity in the matrix at the alloy's composition, from the database's mobility data. */
function databaseDiffusivity(
  sys: DissolutionSystem,
  matrix: string,
  solute: string,
  T: number,
  P: number,
  X: Record<string, number>,
): { D: number; source: string } | null {
  const d = phaseDiffusionAt(sys, matrix, T, P, X);
  if (!d) return null;
  const chemical = d.chemical[solute]?.[solute];
  if (chemical !== undefined && chemical > 0)
    return {
      D: chemical,
      source: `chemical diffusivity of ${solute} in ${matrix} (dependent ${d.dependent}), database mobilities`,
    };
  const tracer = d.tracer[solute];
  return tracer !== undefined
    ? { D: tracer, source: `tracer diffusivity of ${solute} in ${matrix}, database mobilities` }
    : null;
}

export interface DissolutionRequest {
  matrix: string;
  phase: string;
  radius: number;
  T: number;
  P: number;
  /** the alloy's mole fractions, every element */
  X: Record<string, number>;
  /** the particle's composition where it was last stable (the scan) */
  particle: Record<string, number>;
  diffusivity?: { D0: number; Q: number };
}

/** Whelan's dissolution of one particle; an Error naming the field when it cannot be set up. */
export function dissolutionOf(sys: DissolutionSystem, q: DissolutionRequest): Dissolution | Error {
  const solute = sys.elements.reduce((a, b) =>
    (q.particle[b] ?? 0) - (q.X[b] ?? 0) > (q.particle[a] ?? 0) - (q.X[a] ?? 0) ? b : a,
  );
  const r = interfaceEquilibrium(sys, [q.matrix, q.phase], q.T, q.P, q.X, q.particle);
  if (!r)
    return new Error(
      `condition.dissolution.phase: no equilibrium of ${q.matrix} with ${q.phase} alone at ${q.T.toFixed(2)} K gives the interface compositions`,
    );
  // the matrix set nearest the alloy (a matrix with a miscibility gap comes in two sets)
  const distance = (x: Record<string, number>) =>
    sys.elements.reduce((a, e) => a + Math.abs((x[e] ?? 0) - (q.X[e] ?? 0)), 0);
  const matrixSet = r.phases.filter((p) => p.name === q.matrix).sort((a, b) => distance(a.x) - distance(b.x))[0]!;
  const c_interface = matrixSet.x[solute] ?? 0;
  const c_precipitate = r.phases.find((p) => p.name === q.phase)!.x[solute] ?? 0;
  const c_matrix = q.X[solute] ?? 0;
  const k = (2 * (c_interface - c_matrix)) / (c_precipitate - c_interface);
  const fromDb = q.diffusivity ? null : databaseDiffusivity(sys, q.matrix, solute, q.T, q.P, q.X);
  if (!q.diffusivity && !fromDb)
    return new Error(
      `condition.dissolution.diffusivity: the database has no mobility data for ${solute} in ${q.matrix}; give D0 and Q (or name mobility_tdb_code)`,
    );
  const D = q.diffusivity ? q.diffusivity.D0 * Math.exp(-q.diffusivity.Q / (R * q.T)) : fromDb!.D;
  const source = q.diffusivity
    ? `D0 exp(-Q/RT) as given (D0 ${q.diffusivity.D0} m^2/s, Q ${q.diffusivity.Q} J/mol)`
    : fromDb!.source;
  const { time, curve } = whelanDissolution({ k, D, radius: q.radius });
  return {
    phase: q.phase,
    temperature: q.T,
    solute,
    c_matrix,
    c_interface,
    c_precipitate,
    k,
    diffusivity: D,
    diffusivity_source: source,
    initial_radius: q.radius,
    time,
    curve,
  };
}
