// Diffusion in one phase at one state, after Andersson and Agren (J. Appl. Phys. 72 (1992) 1350):
//  - atomic mobilities M_k from the database's kinetic parameters (worker/core/mobility.ts), tracer diffusivities
//    D*_k = RT M_k;
//  - the thermodynamic factor dmu_i/dN_j of the phase alone, its internal degrees of freedom (site fractions)
//    relaxed, from the phase's own Hessian: the linearised conditions of internal equilibrium
//        W dy - J^T dmu - E^T dlambda = 0,  n J dy + M dn = dN,  E dy = 0,  M . dmu = 0
//    (W = d2G_f/dy2, J = dM/dy the moles of each element per formula unit, E the site-sum and charge rows, n the
//    formula units in one mole of atoms) solved for dmu per unit dN_j (thermodynamicFactor);
//  - u-fractions u_k = x_k / sum over substitutional i of x_i; an element is interstitial when every sublattice
//    holding it also holds vacancies and some sublattice holds none (carbon in (Fe,Cr)1(C,VA)1);
//  - intrinsic (lattice-fixed) coefficients D'_kj = u_k yVa_k M_k dmu_k/du_j, with dmu/du_j - dmu/du_n for a
//    substitutional j (n dependent) and yVa_k the vacant fraction of the interstitial sublattice of an interstitial
//    k (1 for a substitutional one: the vacancies of the vacancy mechanism are within M_k);
//  - chemical coefficients in the volume-fixed frame of the substitutional elements:
//        D^n_kj = sum_i (delta_ik - u_k s_i) D'_ij,   s_i = 1 for substitutional i, 0 for interstitial.
// In a binary A-B this is Darken's D = (x_A D*_B + x_B D*_A) phi with phi = (x_B / RT) dmu_B/dx_B (the tests check it).
// A database diffusivity given directly (DQ/DF, e.g. kawin's Al-Sc-Zr) is the element's tracer diffusivity here.
import type { PhaseDiffusion } from '../../contract/results/common.js';
import { solveLinear } from '../core/linear.js';
import { MobilityModel, type MobilityValues } from '../core/mobility.js';
import { equilibrium } from '../core/equilibrium.js';
import { PhaseModel } from '../core/models.js';
import type { NativeDatabase } from '../core/native.js';

const R = 8.3145;

/** The pieces of one phase needed at every state: its thermodynamic model and its kinetic parameters. */
export interface DiffusionPhase {
  model: PhaseModel;
  mobility: MobilityModel;
  interstitials: Set<string>;
  /** per interstitial element: the variable index of VA on its sublattice */
  vacancyOf: Map<string, number>;
}

/** The kinetic model of a phase, or null when the database has no kinetic parameter for it (or an ionic liquid). */
export function diffusionPhase(db: NativeDatabase, model: PhaseModel, components: string[]): DiffusionPhase | null {
  if (model.info.ionicLiquid) return null;
  const mobility = MobilityModel.build(db, model.name, components);
  if (!mobility) return null;
  const vars = model.variables;
  const sublattices = [...Array(model.info.numSublattices).keys()];
  const holdsVacancy = (s: number) => vars.some((v) => v.sublattice === s && v.species === 'VA');
  const someWithout = sublattices.some((s) => !holdsVacancy(s));
  const interstitials = new Set<string>();
  const vacancyOf = new Map<string, number>();
  for (const el of model.info.elements) {
    const own = vars.filter((v) => v.species === el).map((v) => v.sublattice);
    if (!someWithout || own.length === 0 || !own.every(holdsVacancy)) continue;
    interstitials.add(el);
    vacancyOf.set(
      el,
      vars.findIndex((v) => v.sublattice === own[0] && v.species === 'VA'),
    );
  }
  return { model, mobility, interstitials, vacancyOf };
}

/**
 * dmu_i/dN_j (J/mol per mole) of the phase at y for an amount of one mole of atoms, elements in model order; null
 * when the linearised system is singular (an element absent from the phase, a phase at a critical point).
 */
export function thermodynamicFactor(
  model: PhaseModel,
  T: number,
  P: number,
  y: Float64Array | number[],
): number[][] | null {
  const m = model.variables.length;
  const n = m + 2;
  const e = model.evaluate(T, P, y, 2);
  const mo = model.moles(y, 1);
  const C = model.info.elements.length;
  const E = model.constraints.map((c) => Array.from(c.coeff));
  const S = E.length;
  const size = m + C + S + 1;
  const A = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  const RT = R * T;
  const nf = 1 / mo.Nf;
  // unknowns: dy (m), dmu/RT (C), dlambda/RT (S), dn (1)
  for (let k = 0; k < m; k++) {
    for (let l = 0; l < m; l++) A[k][l] = e.d2Gf[(2 + k) * n + 2 + l] / RT;
    for (let a = 0; a < C; a++) A[k][m + a] = -mo.dM[a * m + k];
    for (let s = 0; s < S; s++) A[k][m + C + s] = -E[s][k];
  }
  for (let a = 0; a < C; a++) {
    for (let l = 0; l < m; l++) A[m + a][l] = nf * mo.dM[a * m + l];
    A[m + a][size - 1] = mo.M[a];
  }
  for (let s = 0; s < S; s++) for (let l = 0; l < m; l++) A[m + C + s][l] = E[s][l];
  for (let a = 0; a < C; a++) A[size - 1][m + a] = mo.M[a];
  const B = Array.from({ length: size }, (_, i) =>
    Array.from({ length: C }, (_, j) => (i >= m && i < m + C && i - m === j ? 1 : 0)),
  );
  const X = solveLinear(A, B);
  if (!X) return null;
  return Array.from({ length: C }, (_, i) => Array.from({ length: C }, (_, j) => RT * X[m + i][j]));
}

/** The substitutional element with the largest fraction: the default dependent element of the matrices. */
function majorSubstitutional(x: Record<string, number>, substitutional: string[]): string {
  return substitutional.reduce((a, b) => ((x[b] ?? 0) > (x[a] ?? 0) ? b : a));
}

/** M_k and D*_k of the elements with data (a directly given diffusivity stands for both through D = RT M). */
function mobilities(
  els: string[],
  v: MobilityValues,
  T: number,
): { M: Record<string, number>; D: Record<string, number> } {
  const M: Record<string, number> = {};
  const D: Record<string, number> = {};
  els.forEach((el, k) => {
    const mob = Number.isFinite(v.mobility[k]) ? v.mobility[k] : v.diffusivity[k] / (R * T);
    if (!Number.isFinite(mob)) return;
    M[el] = mob;
    D[el] = R * T * mob;
  });
  return { M, D };
}

/**
 * Mobilities and diffusivities of the phase at (T, P, y) with mole fractions x; `dependent` is the substitutional
 * element n of the matrices (default: the phase's major one). The matrices are left empty when an element lacks
 * mobility data or the thermodynamic factor is singular; the mobilities are still given.
 */
export function phaseDiffusion(
  ph: DiffusionPhase,
  T: number,
  P: number,
  y: Float64Array | number[],
  x: Record<string, number>,
  dependent?: string,
): PhaseDiffusion {
  const { model } = ph;
  const els = model.info.elements;
  const props = model.properties(T, P, y);
  const v = ph.mobility.evaluate(T, P, y, props.TC, props.BMAGN !== 0);
  const { M, D } = mobilities(ph.mobility.elements, v, T);
  const substitutional = els.filter((el) => !ph.interstitials.has(el));
  const n = dependent && substitutional.includes(dependent) ? dependent : majorSubstitutional(x, substitutional);
  const out: PhaseDiffusion = {
    mobility: M,
    tracer: D,
    interstitials: [...ph.interstitials],
    dependent: n,
    chemical: {},
    intrinsic: {},
  };
  if (v.alpha > 0) out.magnetic_order = v.magneticOrder;
  const G = els.every((el) => el in M) ? thermodynamicFactor(model, T, P, y) : null;
  if (G) Object.assign(out, diffusionMatrices(ph, els, G, M, x, y, n));
  return out;
}

/** The intrinsic and chemical matrices from the thermodynamic factor G (one mole of atoms) and the mobilities. */
function diffusionMatrices(
  ph: DiffusionPhase,
  els: string[],
  G: number[][],
  M: Record<string, number>,
  x: Record<string, number>,
  y: Float64Array | number[],
  n: string,
): Pick<PhaseDiffusion, 'chemical' | 'intrinsic'> {
  const isSub = (el: string) => !ph.interstitials.has(el);
  const xS = els.filter(isSub).reduce((a, el) => a + (x[el] ?? 0), 0);
  const u = (el: string) => (x[el] ?? 0) / xS;
  const idx = (el: string) => els.indexOf(el);
  const ni = idx(n);
  // dmu_i/du_j for one mole of substitutional atoms: the phase scaled by 1/xS, so G scales by xS
  const dmu = (i: string, j: string) => xS * (G[idx(i)][idx(j)] - (isSub(j) ? G[idx(i)][ni] : 0));
  const vacancy = (el: string) => (isSub(el) ? 1 : y[ph.vacancyOf.get(el)!]);
  const independent = els.filter((el) => el !== n);
  const intrinsic: Record<string, Record<string, number>> = {};
  for (const k of els) {
    intrinsic[k] = {};
    for (const j of independent) intrinsic[k][j] = u(k) * vacancy(k) * M[k] * dmu(k, j);
  }
  const chemical: Record<string, Record<string, number>> = {};
  for (const k of independent) {
    chemical[k] = {};
    for (const j of independent)
      chemical[k][j] = els.reduce((a, i) => a + ((i === k ? 1 : 0) - (isSub(i) ? u(k) : 0)) * intrinsic[i][j], 0);
  }
  return { chemical, intrinsic };
}

/**
 * The diffusion of one phase alone at the alloy's mole fractions x (every element; its site fractions relaxed), or
 * null when the database has no kinetic data for it or its state does not converge.
 */
export function phaseDiffusionAt(
  sys: { db: NativeDatabase; components: string[]; elements: string[] },
  phase: string,
  T: number,
  P: number,
  x: Record<string, number>,
): PhaseDiffusion | null {
  const model = PhaseModel.build(sys.db, phase, sys.components);
  const kinetic = model ? diffusionPhase(sys.db, model, sys.components) : null;
  if (!model || !kinetic) return null;
  const r = equilibrium({
    database: sys.db,
    components: sys.components,
    phases: [phase],
    conditions: { T, P, X: Object.fromEntries(sys.elements.slice(1).map((e) => [e, x[e] ?? 0])) },
    options: { singleSet: true },
  });
  if (!r.converged || r.phases.length !== 1) return null;
  return phaseDiffusion(kinetic, T, P, r.phases[0]!.y, r.phases[0]!.x);
}
