// The heat a solidification path gives off: the enthalpy of the whole, the liquid left and every slice of solid formed
// so far, each at its own composition (a Scheil solid keeps the one it formed with; with back diffusion a fraction
// 2 Omega_j of the primary solid takes the interface's, final-profile.ts; with solute trapping the trapped one),
//     H(T) = L h_L(T, x_L) + sum over slices n_i h_i(T, x_i),
// with h the molar enthalpy of each phase from the engine (G - T dG/dT at its site fractions: those its composition
// fixes for a substitutional phase, else the ones it formed with). Between two temperatures of the path T' > T the
// whole loses
//     H(state before, T') - H(state before, T)   the sensible heat (its phases cooled at fixed amounts and compositions)
//   + H(state before, T)  - H(state after, T)    the latent heat (what the steps at T change, isothermally),
// and the apparent heat capacity of a DSC trace or a casting simulation, -dH/dT along the path, is their sum over
// T' - T. The sum telescopes: its integral over the path is H(start) - H(end) exactly, and the latent part is exactly
// zero where nothing forms. Every state holds the alloy's atoms, so the split does not depend on the elements'
// reference states.
import { baseName } from '../../../contract/phases.js';
import { PhaseModel } from '../../core/models.js';
import type { NativeDatabase } from '../../core/native.js';
import { compositionSites } from '../../system/composition-sites.js';

type Composition = Record<string, number>;

/** One step of a path as its enthalpy needs it (path-state.ts records them beside the steps). */
export interface HeatStep {
  T: number;
  /** the liquid left after the step, per mole of alloy, with its site fractions where the equilibrium gave them */
  liquid: { amount: number; x: Composition; y?: Float64Array };
  /** the solids the step formed, per mole of alloy, with the state each formed in */
  formed: { label: string; amount: number; phase: string; x: Composition; y: Float64Array }[];
}

/** The heat of the path per temperature: J per mole of alloy, heat capacities in J/(mol K). */
export interface HeatRow {
  T: number;
  /** the latent heat of the steps at T */
  latent: number;
  /** the enthalpy of the whole at T after its steps, J/mol relative to the start */
  enthalpy: number;
  sensible_cp: number;
  latent_cp: number;
  apparent_cp: number;
}

/** The back diffusion of the path (back-diffusion.ts), to place the primary solid's composition at each step. */
export interface HeatBackDiffusion {
  twoOmega: Readonly<Record<string, number>>;
  balance: string;
  /** the back diffusion stops at the first step forming another solid */
  primary?: string;
}

interface Slice {
  amount: number;
  phase: string;
  x: Composition;
  /** its site fractions as it formed (at x where x fixes them) */
  y: Float64Array;
}

/** The temperature step of the central difference of G, K. */
const DT = 0.05;

/**
 * Molar enthalpies of the phases of one path, J/mol of atoms, many states of a phase in one call of the engine:
 * h = G - T dG/dT with dG/dT by a central difference of +-0.05 K (its error T DT^2 G'''/6, about 1e-5 J/mol for a heat
 * capacity of 30 J/(mol K) at 1000 K, varies by 1e-8 J/mol per kelvin; the rounding of G adds about 4e-7 J/mol).
 */
class Enthalpies {
  private readonly models = new Map<string, { model: PhaseModel; sites: ((x: Composition) => Float64Array) | null }>();

  constructor(private readonly sys: { db: NativeDatabase; components: string[]; P: number }) {}

  private of(phase: string) {
    let m = this.models.get(phase);
    if (!m) {
      const model = PhaseModel.build(this.sys.db, phase, this.sys.components);
      if (!model) throw new Error(`phase ${phase} of the path has no model for ${this.sys.components.join(', ')}`);
      m = { model, sites: compositionSites(model) };
      this.models.set(phase, m);
    }
    return m;
  }

  /** The site fractions of the phase at composition x (where x fixes them), else `y`. */
  sites(phase: string, x: Composition, y: Float64Array | undefined): Float64Array {
    const m = this.of(phase);
    const sites = m.sites ? m.sites(x) : y;
    if (!sites) throw new Error(`no site fractions for ${phase} at ${JSON.stringify(x)}`);
    return sites;
  }

  /** sum_i amounts[i] h(T, rows[i]) over states of one phase (rows of its site fractions). */
  total(phase: string, T: number, rows: readonly Float64Array[], amounts: readonly number[]): number {
    if (!rows.length) return 0;
    const { model } = this.of(phase);
    const m = model.variables.length;
    const Y = new Float64Array(rows.length * m);
    rows.forEach((r, i) => Y.set(r, i * m));
    const G = model.energies(T, this.sys.P, Y),
      up = model.energies(T + DT, this.sys.P, Y),
      down = model.energies(T - DT, this.sys.P, Y);
    let H = 0;
    for (let i = 0; i < rows.length; i++) H += amounts[i]! * (G[i]! - (T * (up[i]! - down[i]!)) / (2 * DT));
    return H;
  }
}

/** The composition of an equilibrated slice: 1 - 2 Omega_j of its own, 2 Omega_j of the interface's. */
function mixed(own: Composition, interface_: Composition, b: HeatBackDiffusion): Composition {
  const x: Composition = {};
  let sum = 0;
  for (const e of Object.keys(own)) {
    if (e === b.balance) continue;
    const phi = Math.min(1, Math.max(0, b.twoOmega[e] ?? 0));
    x[e] = (1 - phi) * own[e]! + phi * (interface_[e] ?? 0);
    sum += x[e];
  }
  x[b.balance] = Math.max(0, 1 - sum);
  return x;
}

/** sum of amount h(T) over the slices, one call of the engine per phase; `at`: they follow that interface. */
function slicesEnthalpy(
  h: Enthalpies,
  slices: readonly Slice[],
  T: number,
  at: Composition | null,
  back?: HeatBackDiffusion,
): number {
  const byPhase = new Map<string, { rows: Float64Array[]; amounts: number[] }>();
  for (const s of slices) {
    const y = at && back ? h.sites(s.phase, mixed(s.x, at, back), s.y) : s.y;
    const g = byPhase.get(s.phase) ?? { rows: [], amounts: [] };
    g.rows.push(y);
    g.amounts.push(s.amount);
    byPhase.set(s.phase, g);
  }
  let H = 0;
  for (const [phase, g] of byPhase) H += h.total(phase, T, g.rows, g.amounts);
  return H;
}

/**
 * The sensible, latent and apparent heat of a path per temperature (its steps at one temperature together). The
 * first row (the start) has no interval: its heat capacities are 0.
 */
export function pathHeat(
  sys: { db: NativeDatabase; components: string[]; P: number; liquid: string },
  alloy: Composition,
  steps: readonly HeatStep[],
  back?: HeatBackDiffusion,
): HeatRow[] {
  if (!steps.length) return [];
  const h = new Enthalpies(sys);
  // the slices that keep their composition, and those that follow the interface (back diffusion)
  const fixed: Slice[] = [],
    following: Slice[] = [];
  // the whole before the path: the alloy liquid (site fractions of the first equilibrium liquid where x does not fix them)
  let liquid: HeatStep['liquid'] = { amount: 1, x: alloy, y: steps.find((s) => s.liquid.y)?.liquid.y };
  let interface_: Composition | null = null;
  let backOn = back !== undefined;
  const liquidH = (T: number) =>
    liquid.amount > 0 ? h.total(sys.liquid, T, [h.sites(sys.liquid, liquid.x, liquid.y)], [liquid.amount]) : 0;
  const followingH = (T: number) => (interface_ ? slicesEnthalpy(h, following, T, interface_, back) : 0);
  const rows: HeatRow[] = [];
  let prevT = steps[0]!.T;
  const H0 = liquidH(prevT);
  let Hprev = H0;
  for (let i = 0; i < steps.length;) {
    const T = steps[i]!.T;
    const fixedBefore = slicesEnthalpy(h, fixed, T, null);
    const before = liquidH(T) + fixedBefore + followingH(T);
    const firstNew = fixed.length;
    for (; i < steps.length && steps[i]!.T === T; i++) {
      const step = steps[i]!;
      if (back?.primary && step.formed.some((f) => baseName(f.label) !== back.primary)) backOn = false;
      const equilibrated = backOn && step.liquid.amount > 0;
      for (const f of step.formed) {
        (equilibrated ? following : fixed).push({
          amount: f.amount,
          phase: f.phase,
          x: f.x,
          y: h.sites(f.phase, f.x, f.y),
        });
        if (equilibrated) interface_ = f.x;
      }
      liquid = { ...step.liquid, y: step.liquid.y ?? liquid.y };
    }
    const after = liquidH(T) + fixedBefore + slicesEnthalpy(h, fixed.slice(firstNew), T, null) + followingH(T);
    const dT = prevT - T;
    const sensible = Hprev - before,
      latent = before - after;
    rows.push({
      T,
      latent,
      enthalpy: after - H0,
      sensible_cp: dT > 0 ? sensible / dT : 0,
      latent_cp: dT > 0 ? latent / dT : 0,
      apparent_cp: dT > 0 ? (sensible + latent) / dT : 0,
    });
    prevT = T;
    Hprev = after;
  }
  return rows;
}
