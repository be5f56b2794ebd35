// Solver results as result.json points (contract/results/common.ts EquilibriumPoint): phase amounts, compositions
// in mole and mass fractions, site fractions named by constituent, the ordering state of phases with an
// order-disorder description.
import type { NativeDatabase } from '../core/native.js';
import { convergedNote, type EquilibriumResult, type PhaseState } from '../core/equilibrium.js';
import { PhaseModel } from '../core/models.js';
import { classifyOrdering, orderingModelOf, type OrderingModel, type OrderingState } from './ordering.js';
import { phaseLabel, type EquilibriumPoint, type SublatticeFractions } from '../../contract/results/common.js';
import { elementMasses, massFractionsOrUndefined } from './units.js';

/**
 * Converts solver results to result.json points; caches one PhaseModel per phase to name the
 * site-fraction variables.
 */
export class PointConverter {
  private readonly models = new Map<string, PhaseModel | null>();
  private orderingModels?: Map<string, OrderingModel | null>;
  private masses?: Record<string, number>;
  constructor(
    private readonly db: NativeDatabase,
    private readonly components: string[],
  ) {}

  /** Ordered or not (phases with an order-disorder description only; undefined otherwise). */
  ordering(phase: PhaseState): OrderingState | undefined {
    if (!this.orderingModels) {
      this.orderingModels = new Map(this.db.info().phases.map((p) => [p.name, orderingModelOf(p)]));
    }
    const m = this.orderingModels.get(phase.name);
    return m ? classifyOrdering(m, this.siteFractions(phase)) : undefined;
  }

  siteFractions(phase: PhaseState): SublatticeFractions[] {
    let model = this.models.get(phase.name);
    if (model === undefined) {
      model = PhaseModel.build(this.db, phase.name, this.components);
      this.models.set(phase.name, model);
    }
    if (!model) return [];
    const out: SublatticeFractions[] = Array.from({ length: model.info.numSublattices }, () => ({}));
    model.variables.forEach((v, k) => {
      out[v.sublattice]![v.species] = phase.y[k] ?? 0;
    });
    return out;
  }

  private orderingField(p: PhaseState): { ordering?: OrderingState } {
    const o = this.ordering(p);
    return o ? { ordering: o } : {};
  }

  /** `w`: mass fractions of x, omitted when an element has no positive molar mass. */
  private massField(x: Record<string, number>): { w?: Record<string, number> } {
    this.masses ??= elementMasses(this.db.info().elements);
    const w = massFractionsOrUndefined(x, this.masses);
    return w ? { w } : {};
  }

  point(r: EquilibriumResult): EquilibriumPoint {
    return {
      T: r.T,
      P: r.P,
      x: { ...r.x },
      ...this.massField(r.x),
      converged: r.converged,
      reason: convergedNote(r),
      GM: r.GM,
      HM: r.HM,
      SM: r.SM,
      CPM: r.CPM,
      MU: { ...r.mu },
      phases: r.phases.map((p) => ({
        name: p.name,
        composition_set: p.setNumber,
        label: phaseLabel({ name: p.name, composition_set: p.setNumber }),
        amount: p.NP,
        x: { ...p.x },
        ...this.massField(p.x),
        site_fractions: this.siteFractions(p),
        GM: p.GM,
        HM: p.HM,
        SM: p.SM,
        CPM: p.CPM,
        ...this.orderingField(p),
      })),
      metastable: r.metastable.map((m) => ({ name: m.name, driving_force: m.DF, x: { ...m.x }, GM: m.GM })),
    };
  }
}

/** The derivatives a point is solved with: HM.T gives the equilibrium Cp (formula sheet §9.4). */
export const POINT_DERIVATIVES = ['HM.T'];

/** The point of an equilibrium solved with POINT_DERIVATIVES, with its equilibrium Cp (null when there is none). */
export function pointWithCp(
  conv: PointConverter,
  r: EquilibriumResult,
): EquilibriumPoint & { Cp_equilibrium: number | null } {
  const cpEq = r.derivatives['HM.T'];
  return { ...conv.point(r), Cp_equilibrium: typeof cpEq === 'number' && Number.isFinite(cpEq) ? cpEq : null };
}
