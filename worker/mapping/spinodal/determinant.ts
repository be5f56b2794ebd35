// The stability of one phase against composition fluctuations at any composition of a system: the Hessian of its
// molar Gibbs energy in the independent mole fractions (the first element dependent), its internal degrees of
// freedom relaxed, from G_ij = dmu_i/dN_j of the phase alone (worker/system/diffusion.ts thermodynamicFactor):
//     H_jk = G_jk - G_jA - G_Ak + G_AA   (j, k the independent elements, A the dependent one)
// Its determinant is positive where the phase is stable against every small fluctuation and changes sign on the
// spinodal (Cahn and Hilliard, J. Chem. Phys. 28 (1958) 258; for a ternary, the spinodal line of a section).
// A coherent fluctuation dx strains the lattice by sum_j eta_j dx_j (eta_j = (1/a) da/dx_j, the dependent element's
// taken off: only differences count) and costs Y V_m (sum_j eta_j dx_j)^2 per mole in the elastically soft <100>
// directions of a cubic crystal, Y = (c11 + 2 c12)(c11 - c12)/c11 (Cahn, Acta Metall. 9 (1961) 795; his binary
// f'' + 2 eta^2 Y): the coherent Hessian is H_jk + 2 Y V_m eta_j eta_k, whose determinant vanishes on the coherent
// spinodal.
import { equilibrium } from '../../core/equilibrium.js';
import type { PhaseModel } from '../../core/models.js';
import type { NativeDatabase } from '../../core/native.js';
import { compositionSites } from '../../system/composition-sites.js';
import { thermodynamicFactor } from '../../system/diffusion.js';

type Composition = Record<string, number>;

/** The determinant of a small symmetric matrix by Gaussian elimination (sizes 1 to a few). */
function determinant(H: number[][]): number {
  const M = H.map((r) => [...r]);
  const n = M.length;
  let det = 1;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[p]![c]!)) p = r;
    if (M[p]![c] === 0) return 0;
    if (p !== c) {
      [M[p], M[c]] = [M[c]!, M[p]!];
      det = -det;
    }
    det *= M[c]![c]!;
    for (let r = c + 1; r < n; r++) {
      const f = M[r]![c]! / M[c]![c]!;
      for (let k = c; k < n; k++) M[r]![k]! -= f * M[c]![k]!;
    }
  }
  return det;
}

/** Y of the elastically soft <100> directions of a cubic crystal, (c11 + 2 c12)(c11 - c12)/c11 (Cahn 1961), Pa. */
export const modulus100 = (c: { c11: number; c12: number }): number => ((c.c11 + 2 * c.c12) * (c.c11 - c.c12)) / c.c11;

/** The strain energy of a coherent fluctuation: 2 Y V_m (J/mol) and each element's mismatch (1/a) da/dx. */
export interface CoherencyStrain {
  twoYVm: number;
  mismatch: Readonly<Record<string, number>>;
}

/** The coherency strain of the configuration's elastic data (element names upper-cased as the database's). */
export function coherencyStrain(c: {
  c11: number;
  c12: number;
  molar_volume: number;
  lattice_mismatch: Record<string, number>;
}): CoherencyStrain {
  return {
    twoYVm: 2 * modulus100(c) * c.molar_volume,
    mismatch: Object.fromEntries(Object.entries(c.lattice_mismatch).map(([e, v]) => [e.toUpperCase(), v])),
  };
}

/** 2 Y V_m eta_j eta_k in the independent elements (the first of `elements` dependent): eta_j - eta_first. */
function strainMatrix(elements: readonly string[], c: CoherencyStrain): number[][] {
  const eta = (e: string) => c.mismatch[e] ?? 0;
  const rel = elements.slice(1).map((e) => eta(e) - eta(elements[0]!));
  return rel.map((a) => rel.map((b) => c.twoYVm * a * b));
}

export class StabilityDeterminant {
  private readonly direct: ((x: Composition) => Float64Array) | null;
  /** 2 Y V_m eta_j eta_k over the independent elements of the model's order, or null (the chemical spinodal) */
  private readonly strain: number[][] | null;
  evaluations = 0;

  constructor(
    private readonly sys: {
      db: NativeDatabase;
      components: string[];
      model: PhaseModel;
      P: number;
      coherency?: CoherencyStrain;
    },
  ) {
    this.strain = sys.coherency ? strainMatrix(sys.model.info.elements, sys.coherency) : null;
    this.direct = compositionSites(sys.model);
  }

  private sites(T: number, x: Composition): Float64Array | null {
    if (this.direct) return this.direct(x);
    const els = this.sys.model.info.elements;
    const r = equilibrium({
      database: this.sys.db,
      components: this.sys.components,
      phases: [this.sys.model.name],
      conditions: { T, P: this.sys.P, X: Object.fromEntries(els.slice(1).map((e) => [e, x[e] ?? 0])) },
      options: { singleSet: true },
    });
    return r.converged && r.phases.length === 1 ? r.phases[0]!.y : null;
  }

  /** det H at (T, x), (J/mol)^(C-1); NaN where the phase has no state there. */
  at(T: number, x: Composition): number {
    this.evaluations++;
    const y = this.sites(T, x);
    if (!y) return NaN;
    const G = thermodynamicFactor(this.sys.model, T, this.sys.P, y);
    if (!G) return NaN;
    const n = G.length;
    const S = this.strain;
    const H = Array.from({ length: n - 1 }, (_, j) =>
      Array.from(
        { length: n - 1 },
        (_, k) => G[j + 1]![k + 1]! - G[j + 1]![0]! - G[0]![k + 1]! + G[0]![0]! + (S ? S[j]![k]! : 0),
      ),
    );
    return determinant(H);
  }
}
