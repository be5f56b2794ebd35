// The curvature of one phase's molar Gibbs energy along a binary's composition axis, its internal degrees of freedom
// (site fractions beyond the composition) relaxed: d2G_m/dx_B^2 = G_BB + G_AA - 2 G_AB with G_ij = dmu_i/dN_j of the
// phase alone (worker/system/diffusion.ts thermodynamicFactor). Negative curvature is the chemical spinodal region
// (Cahn and Hilliard, J. Chem. Phys. 28 (1958) 258); adding the strain energy 2 eta^2 Y V_m of a coherent
// fluctuation gives the coherent spinodal (Cahn, Acta Metall. 9 (1961) 795).
import { equilibrium } from '../../core/equilibrium.js';
import type { PhaseModel } from '../../core/models.js';
import type { NativeDatabase } from '../../core/native.js';
import { thermodynamicFactor } from '../../system/diffusion.js';

export interface CurvatureSystem {
  db: NativeDatabase;
  components: string[];
  model: PhaseModel;
  /** the elements [A, B]: B is on the axis */
  axis: [string, string];
  P: number;
}

/**
 * The site fractions of a phase whose composition fixes them (one sublattice holds the elements, every other only
 * vacancies), as a function of x_B; null for a phase with internal degrees of freedom (sublattice occupation,
 * ordering), whose state is found by minimising its Gibbs energy at that composition.
 */
function directSites(model: PhaseModel, axis: [string, string]): ((xB: number) => Float64Array) | null {
  const vars = model.variables;
  const holding = new Set(vars.filter((v) => v.species !== 'VA').map((v) => v.sublattice));
  if (holding.size !== 1) return null;
  const s = [...holding][0]!;
  if (vars.some((v) => v.sublattice === s && v.species === 'VA')) return null;
  const others = vars.filter((v) => v.sublattice !== s);
  if (others.some((v) => v.species !== 'VA')) return null;
  const [A, B] = axis;
  const ia = vars.findIndex((v) => v.sublattice === s && v.species === A);
  const ib = vars.findIndex((v) => v.sublattice === s && v.species === B);
  if (ia < 0 || ib < 0) return null;
  return (xB) => {
    const y = new Float64Array(vars.length);
    vars.forEach((v, k) => {
      if (v.species === 'VA') y[k] = 1;
    });
    y[ia] = 1 - xB;
    y[ib] = xB;
    return y;
  };
}

/** d2G_m/dx_B^2 of the phase at (T, x_B), J/mol; NaN where the phase has no converged state there. */
export class Curvature {
  private readonly direct: ((xB: number) => Float64Array) | null;
  private readonly ia: number;
  private readonly ib: number;
  /** the variables of A and B on the sublattice of atoms (a phase whose composition fixes its site fractions) */
  private readonly ya: number;
  private readonly yb: number;
  /** atoms per formula unit of a phase whose composition fixes its site fractions (the atom sublattice's ratio) */
  private readonly atoms: number;
  evaluations = 0;

  constructor(private readonly sys: CurvatureSystem) {
    this.direct = directSites(sys.model, sys.axis);
    const els = sys.model.info.elements;
    this.ia = els.indexOf(sys.axis[0]);
    this.ib = els.indexOf(sys.axis[1]);
    const atoms = sys.model.variables.findIndex((v) => v.species !== 'VA');
    const sub = atoms >= 0 ? sys.model.variables[atoms]!.sublattice : -1;
    this.ya = sys.model.variables.findIndex((v) => v.sublattice === sub && v.species === sys.axis[0]);
    this.yb = sys.model.variables.findIndex((v) => v.sublattice === sub && v.species === sys.axis[1]);
    this.atoms = this.direct ? sys.model.moles(this.direct(0.5), 0).Nf : 1;
  }

  /**
   * A phase whose composition fixes its site fractions: y_B = x_B and y_A = 1 - x_B on its one sublattice of atoms
   * (site ratio a = N_f), so d2G_m/dx_B^2 = (H_AA + H_BB - 2 H_AB) / N_f with H the Hessian of G per formula unit:
   * one evaluation, no linear system.
   */
  private directCurvature(T: number, y: Float64Array): number {
    const m = this.sys.model.variables.length;
    const n = m + 2;
    const e = this.sys.model.evaluate(T, this.sys.P, y, 2);
    const H = (i: number, j: number) => e.d2Gf[(2 + i) * n + 2 + j]!;
    const { ya, yb } = this;
    return (H(ya, ya) + H(yb, yb) - 2 * H(ya, yb)) / this.atoms;
  }

  /** The phase's site fractions at x_B (relaxed), or null. */
  private sites(T: number, xB: number): Float64Array | null {
    if (this.direct) return this.direct(xB);
    const r = equilibrium({
      database: this.sys.db,
      components: this.sys.components,
      phases: [this.sys.model.name],
      conditions: { T, P: this.sys.P, X: { [this.sys.axis[1]]: xB } },
      options: { singleSet: true },
    });
    return r.converged && r.phases.length === 1 ? r.phases[0]!.y : null;
  }

  at(T: number, xB: number): number {
    this.evaluations++;
    if (this.direct) return this.directCurvature(T, this.direct(xB));
    const y = this.sites(T, xB);
    if (!y) return NaN;
    const G = thermodynamicFactor(this.sys.model, T, this.sys.P, y);
    if (!G) return NaN;
    const { ia, ib } = this;
    return G[ib]![ib]! + G[ia]![ia]! - 2 * G[ia]![ib]!;
  }
}
