// TypeScript wrapper of the phase models of the calculation core (native-core/src/models,
// binding native-core/src/napi/models_napi.cpp). A PhaseModel is the Gibbs energy of one phase of a
// database for a given set of components, with exact derivatives over z = (T, P, y_0 .. y_{m-1})
// (formula sheet shared/design/calphad-formulas.md §0-§7).
import { loadCore, type CoreAddon, type NativeDatabase, type NativePhaseModel } from './native.js';

export interface SiteVariable {
  sublattice: number;
  species: string;
}

export interface LinearConstraint {
  /** sum_k coeff[k] * y_k = rhs */
  coeff: Float64Array;
  rhs: number;
  /** 'site_sum' (one per sublattice) or 'charge' (electroneutrality, §7.4) */
  kind: string;
}

export interface PhaseModelInfo {
  name: string;
  /** system elements in the order of moles(): components minus VA, sorted */
  elements: string[];
  variables: SiteVariable[];
  constraints: LinearConstraint[];
  numSublattices: number;
  charged: boolean;
  ionicLiquid: boolean;
  gas: boolean;
  liquid: boolean;
}

/** Energies with gradients (length n = m + 2) and dense row-major Hessians (n x n) over z = (T, P, y). */
export interface EnergyEvaluation {
  /** J/mol of atoms */
  GM: number;
  /** J/mol of formula units (N_f * GM) */
  Gf: number;
  dGM: Float64Array;
  d2GM: Float64Array;
  dGf: Float64Array;
  d2Gf: Float64Array;
}

export interface PhasePropertyValues {
  GM: number;
  /** S = -dGM/dT, H = GM + T S, Cp = -T d2GM/dT2 (exact, from the T-derivatives; §9.3) */
  SM: number;
  HM: number;
  CPM: number;
  /** Curie/Neel temperature after the afm rule (K) */
  TC: number;
  /** magnetic moment per formula unit after the afm rule */
  BMAGN: number;
  /** magnetic moment per mole of atoms (beta / N_f; Thermo-Calc's BM, §5.4) */
  BMAGN_per_atom: number;
  /** molar volume (6.3), m^3/mol */
  VM: number;
  GM_NO_IDMIX: number;
  /** moles of atoms per formula unit */
  Nf: number;
}

export interface MolesEvaluation {
  M: Float64Array;
  dM: Float64Array;
  d2M: Float64Array;
  Nf: number;
}

type Numbers = Float64Array | number[];

function addon(): CoreAddon {
  return loadCore();
}

/** Site fractions per sublattice, species -> y (the validation-case notation). */
export type SiteFractionSpec = Array<Record<string, number>>;

export class PhaseModel {
  readonly info: PhaseModelInfo;

  private constructor(private readonly native: NativePhaseModel) {
    this.info = native.info();
  }

  /**
   * Model of `phase` for a calculation with these components (elements, 'VA' allowed). Returns null
   * when the phase cannot form from them (§1.1). Throws an Error naming the model, phase and file for a
   * refused phase.
   */
  static build(db: NativeDatabase, phase: string, components: string[]): PhaseModel | null {
    const m = addon().PhaseModel.build(db, phase, components);
    return m ? new PhaseModel(m) : null;
  }

  get name(): string {
    return this.info.name;
  }
  get variables(): SiteVariable[] {
    return this.info.variables;
  }
  get constraints(): LinearConstraint[] {
    return this.info.constraints;
  }

  /**
   * Site-fraction vector in variable order from a per-sublattice map. Species that are not variables
   * of the model (inactive for these components) must have y = 0; variables missing from the map are 0.
   */
  siteFractions(spec: SiteFractionSpec): Float64Array {
    if (spec.length !== this.info.numSublattices) {
      throw new Error(`phase ${this.name} has ${this.info.numSublattices} sublattices, got ${spec.length}`);
    }
    const y = new Float64Array(this.variables.length);
    spec.forEach((subl, s) => {
      for (const [species, value] of Object.entries(subl)) {
        const k = this.variables.findIndex((v) => v.sublattice === s && v.species === species.toUpperCase());
        if (k < 0) {
          if (value !== 0) throw new Error(`${species} is not a constituent of sublattice ${s} of ${this.name} here`);
          continue;
        }
        y[k] = value;
      }
    });
    return y;
  }

  /** Energies and derivatives; order 0 = values, 1 = + gradients, 2 = + Hessians. */
  evaluate(T: number, P: number, y: Numbers, order: 0 | 1 | 2 = 2): EnergyEvaluation {
    return this.native.evaluate(T, P, y, order);
  }

  /** GM, SM, HM, CPM and the physical properties at one point. */
  properties(T: number, P: number, y: Numbers): PhasePropertyValues {
    const e = this.native.evaluate(T, P, y, 2);
    const n = this.variables.length + 2;
    const p = this.native.properties(T, P, y);
    const SM = -e.dGM[0];
    return { ...p, GM: e.GM, SM, HM: e.GM + T * SM, CPM: -T * e.d2GM[0 * n + 0] };
  }

  /**
   * The Curie (or, after the antiferromagnetic factor, Neel) temperature at y, K: properties().TC without the
   * energy's derivatives, for callers that ask it at many points (a diagram's magnetic lines).
   */
  curieTemperature(T: number, P: number, y: Numbers): number {
    return this.native.properties(T, P, y).TC;
  }

  /** M_A per formula unit (elements in info.elements order), N_f, and their y-derivatives. */
  moles(y: Numbers, order: 0 | 1 | 2 = 1): MolesEvaluation {
    return this.native.moles(y, order);
  }

  /** GM of many points (rows of m site fractions, flattened): the value-only sampling path. */
  energies(T: number, P: number, Y: Numbers): Float64Array {
    return this.native.energies(T, P, Y);
  }

  /**
   * GM of many points through the linear parameter tables the solver uses for its sampled grid
   * (PhaseModel::compile_points); null when the model has no tabulated form (Einstein, two-state,
   * volume terms). Within tabulatedRoundingBound of energies(): the table of the reference, excess and ideal
   * terms is stored in single precision.
   */
  energiesTabulated(T: number, P: number, Y: Numbers): Float64Array | null {
    return this.native.energiesTabulated(T, P, Y);
  }

  /** How far energiesTabulated may lie from energies() at these rows, J/mol of atoms; null without a table. */
  tabulatedRoundingBound(T: number, P: number, Y: Numbers): number | null {
    return this.native.tabulatedRoundingBound(T, P, Y);
  }

  /**
   * The magnetic ordering temperature (K) of each row: T* after the antiferromagnetic rule (IHJ), the larger of
   * T_C and T_N (Xiong); 0 where the phase has no magnetic moment.
   */
  orderingTemperatures(T: number, P: number, Y: Numbers): Float64Array {
    return this.native.orderingTemperatures(T, P, Y);
  }

  /** The largest of orderingTemperatures through the linear tables of the solver's grid; null without a table. */
  orderingTemperatureMaxTabulated(T: number, P: number, Y: Numbers): number | null {
    return this.native.orderingTemperatureMaxTabulated(T, P, Y);
  }

  /** Full evaluation (values + derivatives up to `order`) of many points on `threads` OpenMP threads; returns GM. */
  evaluateBatch(T: number, P: number, Y: Numbers, order: 0 | 1 | 2 = 2, threads = 1): Float64Array {
    return this.native.evaluateBatch(T, P, Y, order, threads);
  }
}

/** Number of parameters after the phase-option B/F symmetry expansion (§5.5). */
export function expandedParameterCount(db: NativeDatabase): number {
  return addon().expandedParameterCount(db);
}

/** OpenMP threads available to the core. */
export function coreMaxThreads(): number {
  return addon().maxThreads();
}
