// The equilibria of a Scheil path: the remaining liquid brought to equilibrium at one temperature, the
// result split into the liquid and the labelled solids, and bisections in temperature on such splits.
import { equilibrium, type EquilibriumResult, type PhaseState } from '../../core/equilibrium.js';
import { CancelledError } from '../../protocol.js';
import { PhaseNamer, SetLabeler } from './phase-labels.js';
import type { ScheilSetup } from './setup.js';

/** Resolution of the bisections (liquidus, vanishing liquid, lever-rule solidus), K. */
export const T_RESOLUTION = 0.01;
/** A solid phase "forms" when its amount in the step's equilibrium exceeds this (moles of atoms per mole). */
export const AMOUNT_EPS = 1e-12;

/** An equilibrium of the path: its temperature and result. */
export interface PathPoint {
  T: number;
  r: EquilibriumResult;
}

/** The state of one solid composition set. */
export interface SolidState {
  phase: string;
  x: Record<string, number>;
  y: Float64Array;
}

/** An equilibrium split into the liquid and the solids. */
export interface Split {
  /** liquid amount (sum over liquid composition sets) */
  fL: number;
  /** liquid composition (amount-weighted over liquid sets) */
  xL: Record<string, number> | null;
  /** solid labels with their amounts, labels NAME / NAME#2 after PhaseNamer, and each set's state (its phase, mole
   * fractions and site fractions: the enthalpy of the path, path-heat.ts) */
  solids: { label: string; NP: number; state?: SolidState }[];
  /** the site fractions of the (first) liquid set */
  yL?: Float64Array;
  /** heat the solids release, J per mole of the equilibrium's atoms: sum of NP (H of the liquid - H of the solid) */
  latent: number;
}

export const hasSolid = (s: Split): boolean => s.fL < 1 - 1e-9;
/** Solid composition sets count separately (Ag-Cu: the eutectic solids are FCC_A1 and FCC_A1#2). */
export const distinctSolids = (s: Split): number => s.solids.filter((q) => q.NP > AMOUNT_EPS).length;

/**
 * X conditions (all components but one) from a full mole-fraction map. The dependent component is the
 * one with the largest fraction, so the conditions stay well inside (0, 1) as the liquid enriches.
 */
export function xConditions(x: Record<string, number>): Record<string, number> {
  const els = Object.keys(x);
  let dep = els[0];
  for (const e of els) if (x[e] > x[dep]) dep = e;
  const out: Record<string, number> = {};
  for (const e of els) if (e !== dep) out[e] = x[e];
  return out;
}

/**
 * The equilibria of one path. Each starts from the previous converged one (options.start; a start that does
 * not fit falls back to the cold start, and every answer is still certified by the solver's grid re-scan), and
 * the solids' labels follow their composition sets from one split to the next, so the order of the calls is
 * part of the answer.
 */
export class PathEquilibria {
  private previous: EquilibriumResult | undefined;
  private readonly namer: PhaseNamer;
  private readonly labeler: SetLabeler;

  constructor(
    private readonly setup: ScheilSetup,
    private readonly logs: string[],
  ) {
    this.namer = new PhaseNamer(setup.database, setup.components);
    this.labeler = new SetLabeler(setup.elements);
  }

  /** The equilibrium of composition `x` at T; throws CancelledError once the job is cancelled. */
  solve(T: number, x: Record<string, number>): EquilibriumResult {
    if (this.setup.control?.cancelled) throw new CancelledError();
    const r = equilibrium({
      database: this.setup.database,
      components: this.setup.components,
      phases: this.setup.phases,
      conditions: { T, P: this.setup.P, X: xConditions(x) },
      options: this.previous?.converged ? { start: this.previous } : undefined,
    });
    if (r.converged) this.previous = r;
    return r;
  }

  split(r: EquilibriumResult): Split {
    const { elements, liquid } = this.setup;
    let yL: Float64Array | undefined;
    let fL = 0,
      hLiquid = 0,
      hSolids = 0,
      nSolids = 0;
    const xs: Record<string, number> = Object.fromEntries(elements.map((e) => [e, 0]));
    const byBase = new Map<string, PhaseState[]>();
    const amounts = new Map<PhaseState, number>();
    for (const p of r.phases) {
      if (p.name === liquid) {
        yL ??= p.y;
        fL += p.NP;
        hLiquid += p.NP * p.HM;
        for (const e of elements) xs[e] += p.NP * (p.x[e] ?? 0);
        continue;
      }
      hSolids += p.NP * p.HM;
      nSolids += p.NP;
      const base = this.namer.name(p);
      byBase.set(base, [...(byBase.get(base) ?? []), p]);
      amounts.set(p, p.NP);
    }
    const solids: Split['solids'] = [];
    for (const [base, sets] of byBase) {
      this.labeler.assign(base, sets).forEach((label, i) =>
        solids.push({
          label,
          NP: amounts.get(sets[i]) ?? 0,
          state: { phase: sets[i]!.name, x: sets[i]!.x, y: sets[i]!.y },
        }),
      );
    }
    const xL = fL > 0 ? Object.fromEntries(elements.map((e) => [e, xs[e] / fL])) : null;
    // all liquid up to round-off (NP = 1 - 2e-16): no solid forms, fraction solid must stay exactly 0
    if (fL > 0 && !solids.some((q) => q.NP > AMOUNT_EPS)) fL = 1;
    const latent = fL > 0 && nSolids > 0 ? nSolids * (hLiquid / fL) - hSolids : 0;
    return { fL, xL, solids, latent, yL };
  }

  /** Bisection on [lo, hi] (pred(lo) true, pred(hi) false) to T_RESOLUTION; returns both ends with their results. */
  bisect(
    x: Record<string, number>,
    lo: PathPoint,
    hi: PathPoint,
    pred: (s: Split) => boolean,
  ): { lo: PathPoint; hi: PathPoint } {
    while (hi.T - lo.T > T_RESOLUTION) {
      const T = 0.5 * (lo.T + hi.T);
      const r = this.solve(T, x);
      if (!r.converged) {
        this.logs.push(`bisection at T=${T.toFixed(3)} K did not converge (${r.reason}); bracket kept`);
        break;
      }
      if (pred(this.split(r))) lo = { T, r };
      else hi = { T, r };
    }
    return { lo, hi };
  }
}
