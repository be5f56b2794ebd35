// What a Scheil path has found so far: its steps, the solid formed of each phase, the remaining liquid, and
// once known its liquidus, its end and why it ended.
import type { ScheilEndReason, ScheilStep } from '../../../contract/results/scheil_solidification.js';
import { AMOUNT_EPS, type Split } from './equilibria.js';
import type { HeatStep } from './path-heat.js';
import { trappedSplit } from './solute-trapping.js';

/**
 * How the liquid's composition follows a step: the equilibrium liquid of the step (Scheil-Gulliver, the default), or
 * a composition that gives some solute back to the solid formed before (back diffusion, back-diffusion.ts). Called
 * with the liquid before the step, the step's equilibrium liquid, the fraction of the liquid that stays liquid, the
 * fraction solid before the step and the solids the step forms.
 */
export type LiquidUpdate = (
  before: Record<string, number>,
  equilibrium: Record<string, number>,
  fL: number,
  fsBefore: number,
  solids: Split['solids'],
) => Record<string, number>;

/** The solids of a split that form, as amounts per mole of alloy (`per` the amount of liquid each NP counts for). */
function formedOf(solids: Split['solids'], per: number): HeatStep['formed'] {
  return solids
    .filter((q) => q.NP > AMOUNT_EPS && q.state)
    .map((q) => ({ label: q.label, amount: per * q.NP, phase: q.state!.phase, x: q.state!.x, y: q.state!.y }));
}

export class PathState {
  readonly steps: ScheilStep[] = [];
  /** beside each step: the liquid left and the solids formed with their states (the path's enthalpy, path-heat.ts) */
  readonly heat: HeatStep[] = [];
  /** solid formed of each phase label, per mole of alloy */
  readonly totals: Record<string, number> = {};
  /** fraction solid */
  fs = 0;
  /** composition of the remaining liquid */
  xL: Record<string, number>;
  liquidus: number | null = null;
  solidus: number | null = null;
  endReason: ScheilEndReason | null = null;
  eutecticPhases: string[] = [];

  constructor(
    x0: Record<string, number>,
    private readonly liquidUpdate?: LiquidUpdate,
    /** solute trapping, V / V_D (solute-trapping.ts); 0 or undefined: local equilibrium at the interface */
    private readonly trapping?: number,
  ) {
    this.xL = { ...x0 };
  }

  /** The liquid after a step is not the step's equilibrium liquid (back diffusion): steps at T repeat until it is. */
  get relaxesLiquid(): boolean {
    return this.liquidUpdate !== undefined;
  }

  /** A step without solid at T: the start of the path, or its liquidus with the phases about to form. */
  recordLiquid(T: number, phasesForming: string[]): void {
    this.heat.push({ T, liquid: { amount: 1 - this.fs, x: { ...this.xL } }, formed: [] });
    this.steps.push({
      T,
      fraction_solid: 0,
      fraction_liquid: 1,
      phases_forming: phasesForming,
      liquid_x: { ...this.xL },
      solid_increment: 0,
      phase_increments: {},
    });
  }

  /**
   * A step at T: the solids of the equilibrium split form from the liquid left before it, 1 - fsBefore (Scheil's
   * rule), more of them and nearer the liquid's composition with solute trapping, and the liquid takes the
   * composition of the split.
   */
  record(T: number, equilibrium: Split, fsBefore: number): void {
    const s = this.trapping ? trappedSplit(equilibrium, this.trapping) : equilibrium;
    const remaining = 1 - fsBefore;
    const inc: Record<string, number> = {};
    for (const q of s.solids) if (q.NP > AMOUNT_EPS) inc[q.label] = (inc[q.label] ?? 0) + remaining * q.NP;
    for (const [k, v] of Object.entries(inc)) this.totals[k] = (this.totals[k] ?? 0) + v;
    const dfs = remaining * Math.max(0, 1 - s.fL);
    this.fs = Math.min(1, fsBefore + dfs);
    if (s.xL) this.xL = this.liquidUpdate ? this.liquidUpdate(this.xL, s.xL, s.fL, fsBefore, s.solids) : s.xL;
    this.heat.push({
      T,
      liquid: { amount: 1 - this.fs, x: { ...this.xL }, y: s.yL },
      formed: formedOf(s.solids, remaining),
    });
    this.steps.push({
      T,
      fraction_solid: this.fs,
      fraction_liquid: 1 - this.fs,
      phases_forming: Object.keys(inc).sort(),
      liquid_x: { ...this.xL },
      solid_increment: dfs,
      phase_increments: inc,
      latent_heat: remaining * s.latent,
    });
  }

  /**
   * The last step: all the remaining liquid solidifies at T into `solids` in their proportions, and the path
   * ends for `reason` ('eutectic': at an invariant, whose solids are kept as the eutectic phases).
   */
  solidifyRest(T: number, solids: Split['solids'], reason: ScheilEndReason): void {
    const remaining = 1 - this.fs;
    const sum = solids.reduce((a, q) => a + q.NP, 0) || 1;
    const inc: Record<string, number> = {};
    for (const q of solids) if (q.NP > AMOUNT_EPS) inc[q.label] = (inc[q.label] ?? 0) + (remaining * q.NP) / sum;
    for (const [k, v] of Object.entries(inc)) this.totals[k] = (this.totals[k] ?? 0) + v;
    const forming = Object.keys(inc).sort();
    this.heat.push({ T, liquid: { amount: 0, x: { ...this.xL } }, formed: formedOf(solids, remaining / sum) });
    if (reason === 'eutectic') this.eutecticPhases = forming;
    this.fs = 1;
    this.steps.push({
      T,
      fraction_solid: 1,
      fraction_liquid: 0,
      phases_forming: forming,
      liquid_x: { ...this.xL },
      solid_increment: remaining,
      phase_increments: inc,
    });
    this.solidus = T;
    this.endReason = reason;
  }
}
