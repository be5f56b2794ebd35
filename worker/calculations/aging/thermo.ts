// What the precipitation model asks of the engine, each answer cached: the tie line of each precipitate with the
// matrix (both phases alone) at the alloy's composition; the matrix alone at its current composition (chemical
// potentials, thermodynamic factor, diffusivities); the precipitate's driving force from it by the parallel tangent
// (parallel-tangent.ts).
import { equilibrium, type CompositionSet } from '../../core/equilibrium.js';
import { PhaseModel } from '../../core/models.js';
import { diffusionPhase, phaseDiffusion, thermodynamicFactor, type DiffusionPhase } from '../../system/diffusion.js';
import { parallelTangent, type TangentState } from './parallel-tangent.js';
import { GAS_CONSTANT } from './nucleation.js';
import type { AgingSystem, Arrhenius } from './types.js';

/** The matrix alone at one composition and temperature. */
export interface MatrixState {
  T: number;
  x: Record<string, number>;
  mu: Record<string, number>;
  y: Float64Array;
  /** dmu_i/dN_j of one mole of atoms, elements in system order (null where singular) */
  factor: number[][] | null;
  /** tracer diffusivities, m^2/s */
  tracer: Record<string, number>;
  /** chemical diffusivities D^n_kj of the independent elements (dependent n: the matrix's major element) */
  chemical: Record<string, Record<string, number>>;
  dependent: string;
}

/** A precipitate's tie line with the matrix at the alloy's composition: both compositions and its atom fraction. */
export interface TieLine {
  matrix: Record<string, number>;
  precipitate: Record<string, number>;
  y: Float64Array;
  amount: number;
}

const distance = (a: Record<string, number>, b: Record<string, number>) =>
  Object.keys(b).reduce((s, e) => s + Math.abs((a[e] ?? 0) - (b[e] ?? 0)), 0);

export class AgingThermo {
  readonly matrixModel: PhaseModel;
  private readonly kinetic: DiffusionPhase | null;
  private readonly models = new Map<string, PhaseModel>();
  private readonly tieLines = new Map<string, TieLine | null>();
  private readonly lastY = new Map<string, Float64Array>();

  constructor(
    readonly sys: AgingSystem,
    readonly matrix: string,
    readonly P: number,
    private readonly given: Record<string, Arrhenius> = {},
  ) {
    const model = PhaseModel.build(sys.db, matrix, sys.components);
    if (!model) throw new Error(`matrix.phase: ${matrix} cannot form from ${sys.elements.join(', ')}`);
    this.matrixModel = model;
    this.kinetic = diffusionPhase(sys.db, model, sys.components);
  }

  model(phase: string): PhaseModel {
    let m = this.models.get(phase);
    if (!m) {
      const built = PhaseModel.build(this.sys.db, phase, this.sys.components);
      if (!built) throw new Error(`precipitates: ${phase} cannot form from ${this.sys.elements.join(', ')}`);
      this.models.set(phase, (m = built));
    }
    return m;
  }

  private conditions(x: Record<string, number>): Record<string, number> {
    return Object.fromEntries(this.sys.elements.slice(1).map((e) => [e, x[e] ?? 0]));
  }

  /** The tie line of `phase` with the matrix at T through the alloy's composition, or null where it does not form. */
  tieLine(phase: string, T: number, alloy: Record<string, number>): TieLine | null {
    const key = `${phase}|${T.toFixed(4)}`;
    if (this.tieLines.has(key)) return this.tieLines.get(key)!;
    const r = equilibrium({
      database: this.sys.db,
      components: this.sys.components,
      phases: phase === this.matrix ? [phase] : [this.matrix, phase],
      conditions: { T, P: this.P, X: this.conditions(alloy) },
    });
    let line: TieLine | null = null;
    if (r.converged && r.phases.length >= 2) {
      // the precipitate: its phase's set farthest from the alloy (an ordered phase whose disordered state is the
      // matrix comes as two sets of one phase); the matrix: the remaining set nearest the alloy
      const own = r.phases.filter((p) => p.name === phase).sort((a, b) => distance(b.x, alloy) - distance(a.x, alloy));
      const prec = own[0];
      const rest = r.phases.filter((p) => p !== prec).sort((a, b) => distance(a.x, alloy) - distance(b.x, alloy));
      if (prec && rest[0]) line = tieLineOf(prec, rest[0]);
    }
    this.tieLines.set(key, line);
    return line;
  }

  /** The matrix alone at x and T: potentials, thermodynamic factor, diffusivities (`kinetics` false: potentials only). */
  matrixAt(T: number, x: Record<string, number>, kinetics = true): MatrixState {
    const r = equilibrium({
      database: this.sys.db,
      components: this.sys.components,
      phases: [this.matrix],
      conditions: { T, P: this.P, X: this.conditions(x) },
      options: { singleSet: true },
    });
    if (!r.converged || r.phases.length !== 1)
      throw new Error(`the matrix ${this.matrix} alone does not converge at ${T.toFixed(2)} K (${r.reason})`);
    const set = r.phases[0]!;
    if (!kinetics) return { T, x: set.x, mu: r.mu, y: set.y, factor: null, tracer: {}, chemical: {}, dependent: '' };
    const factor = thermodynamicFactor(this.matrixModel, T, this.P, set.y);
    return { T, x: set.x, mu: r.mu, y: set.y, factor, ...this.diffusivities(T, set) };
  }

  private diffusivities(T: number, set: CompositionSet) {
    const d = this.kinetic ? phaseDiffusion(this.kinetic, T, this.P, set.y, set.x) : null;
    const tracer: Record<string, number> = { ...(d?.tracer ?? {}) };
    for (const [el, a] of Object.entries(this.given)) tracer[el] = a.D0 * Math.exp(-a.Q / (GAS_CONSTANT * T));
    const dependent = d?.dependent ?? this.sys.elements.reduce((a, b) => ((set.x[b] ?? 0) > (set.x[a] ?? 0) ? b : a));
    const independent = this.sys.elements.filter((e) => e !== dependent);
    const complete = d && Object.keys(this.given).length === 0 && independent.every((k) => d.chemical[k]);
    // without a full chemical matrix (some element without mobility data, or diffusivities given): the diagonal of
    // tracer diffusivities, the dilute limit
    const chemical = complete
      ? d.chemical
      : Object.fromEntries(
          independent.map((k) => [k, Object.fromEntries(independent.map((j) => [j, k === j ? (tracer[k] ?? 0) : 0]))]),
        );
    return { tracer, chemical, dependent };
  }

  /** The precipitate at the parallel tangent to the matrix state (warm-started from its last state). */
  drivingForce(phase: string, state: MatrixState, start: Float64Array): TangentState {
    const model = this.model(phase);
    const mu = model.info.elements.map((el) => state.mu[el] ?? 0);
    const t = parallelTangent(model, state.T, this.P, mu, this.lastY.get(phase) ?? start);
    this.lastY.set(phase, t.y);
    return t;
  }
}

function tieLineOf(prec: CompositionSet, matrix: CompositionSet): TieLine {
  return { matrix: { ...matrix.x }, precipitate: { ...prec.x }, y: Float64Array.from(prec.y), amount: prec.NP };
}
