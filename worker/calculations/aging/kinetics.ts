// The rates of one precipitate phase at one step: its driving force from the current matrix, the classical
// nucleation rate and the growth rate of a particle of any radius (binary: Zener's with the Gibbs-Thomson interface
// composition; more elements: Philippe and Voorhees' flux balance). See nucleation.ts and growth.ts.
import {
  binaryGrowth,
  growthResistance,
  interfaceComposition,
  multicomponentGrowth,
  tableDrivingForce,
  type InterfaceTable,
} from './growth.js';
import { diffusionResistance, nucleation, type Nucleus } from './nucleation.js';
import { interfaceTableOf, type PhaseContext } from './setup.js';
import type { TangentState } from './parallel-tangent.js';
import type { AgingThermo, MatrixState, TieLine } from './thermo.js';

export interface PhaseRates {
  drivingForce: number;
  nucleus: Nucleus | null;
  /** growth rate (m/s) of a particle of radius r */
  growth: (r: number) => number;
}

export class RateModel {
  private readonly tables = new Map<string, InterfaceTable>();
  private readonly lastLine = new Map<string, TieLine>();
  private readonly atState = new WeakMap<
    MatrixState,
    Map<string, { tangent: TangentState; resistance: number | null; gradient: Record<string, number> }>
  >();
  readonly binary: boolean;
  readonly solute: string;
  readonly solvent: string;

  constructor(
    readonly thermo: AgingThermo,
    readonly alloy: Record<string, number>,
    readonly spacing: number,
  ) {
    const els = thermo.sys.elements;
    this.binary = els.length === 2;
    this.solvent = els.reduce((a, b) => ((alloy[b] ?? 0) > (alloy[a] ?? 0) ? b : a));
    this.solute = els.find((e) => e !== this.solvent) ?? this.solvent;
  }

  line(phase: string, T: number): TieLine | null {
    return this.thermo.tieLine(phase, T, this.alloy);
  }

  /** The tie line at T, else the one at the last temperature the phase had one (above its solvus). */
  lineOrLast(phase: string, T: number): TieLine | null {
    return this.line(phase, T) ?? this.lastLine.get(phase) ?? null;
  }

  private table(phase: string, T: number, line: TieLine): InterfaceTable {
    const key = `${phase}|${T.toFixed(4)}`;
    let t = this.tables.get(key);
    if (!t) {
      t = interfaceTableOf(this.thermo, phase, T, this.solute, this.solvent, line);
      this.tables.set(key, t);
    }
    return t;
  }

  /**
   * The phase's rates at time t (since the start of the treatment) for the matrix at composition x, from the matrix
   * state evaluated at a composition near x (simulate.ts recomputes it when x has moved by more than a small part of
   * its supersaturation; in between the driving force follows x linearly).
   */
  rates(ctx: PhaseContext, state: MatrixState, x: Record<string, number>, t: number): PhaseRates | null {
    const current = this.line(ctx.phase, state.T);
    if (current) this.lastLine.set(ctx.phase, current);
    // above the phase's solvus (no tie line): its particles dissolve by the flux balance with the negative driving
    // force, from the precipitate's composition and state at the last temperature it had a tie line
    const line = current ?? this.lastLine.get(ctx.phase);
    if (!line) return null;
    // the Gibbs-Thomson pressure of a particle of equivalent radius r is capillarity / r (shape.ts: area factor)
    const capillarity = 2 * ctx.gamma * ctx.shape.area * ctx.molarVolume;
    // Zener's form and its table need a precipitate richer in the solute than the matrix
    const zener = this.binary && current && current.precipitate[this.solute]! > current.matrix[this.solute]!;
    const { drivingForce, nucleusX, growth } = zener
      ? this.binaryRates(ctx, state, x, line, capillarity)
      : this.multicomponentRates(ctx, state, x, line, capillarity);
    const nucleus = nucleation({
      drivingForce,
      molarVolume: ctx.molarVolume,
      gamma: ctx.gamma,
      areaFactor: ctx.shape.area,
      T: state.T,
      spacing: this.spacing,
      diffusionResistance: diffusionResistance(nucleusX, x, state.tracer),
      sites: ctx.sites,
      t,
    });
    // a needle's or plate's equivalent radius grows k times a sphere's (shape.ts: kinetic factor)
    const k = ctx.shape.kinetic;
    return { drivingForce, nucleus, growth: k === 1 ? growth : (r: number) => k * growth(r) };
  }

  /** Zener's growth with the tabulated Gibbs-Thomson interface composition; the driving force from the table. */
  private binaryRates(ctx: PhaseContext, state: MatrixState, x: Record<string, number>, line: TieLine, cap: number) {
    const table = this.table(ctx.phase, state.T, line);
    const s = this.solute;
    const D = state.chemical[s]?.[s] ?? state.tracer[s] ?? 0;
    const xInf = x[s] ?? 0;
    const xp = line.precipitate[s] ?? 0;
    return {
      drivingForce: tableDrivingForce(table, xInf),
      nucleusX: line.precipitate,
      growth: (r: number) => binaryGrowth(D, xInf, interfaceComposition(table, cap / r), xp, r),
    };
  }

  /**
   * Philippe and Voorhees' growth; the parallel tangent and the growth resistance once per matrix state, the
   * driving force carried to x by its gradient dG_m/dx_k = sum_i x_i^p dmu_i/dx_k (the precipitate's composition does
   * not move it at first order: it is an optimum).
   */
  private multicomponentRates(
    ctx: PhaseContext,
    state: MatrixState,
    x: Record<string, number>,
    line: TieLine,
    cap: number,
  ) {
    let perState = this.atState.get(state);
    if (!perState) this.atState.set(state, (perState = new Map()));
    let at = perState.get(ctx.phase);
    if (!at) {
      const tangent = this.thermo.drivingForce(ctx.phase, state, line.y);
      const elements = this.thermo.matrixModel.info.elements;
      const resistance = growthResistance(state, elements, line.precipitate);
      at = { tangent, resistance, gradient: drivingForceGradient(state, elements, tangent.x) };
      perState.set(ctx.phase, at);
    }
    const { tangent, resistance, gradient } = at;
    let drivingForce = tangent.drivingForce;
    for (const [e, g] of Object.entries(gradient)) drivingForce += g * ((x[e] ?? 0) - (state.x[e] ?? 0));
    const growth = resistance ? (r: number) => multicomponentGrowth(drivingForce, cap, resistance, r) : () => 0;
    return { drivingForce, nucleusX: tangent.x, growth };
  }
}

/** dG_m/dx_k of the independent elements (the dependent one taking up the change) from the thermodynamic factor. */
function drivingForceGradient(
  state: MatrixState,
  elements: string[],
  xp: Record<string, number>,
): Record<string, number> {
  const F = state.factor;
  if (!F) return {};
  const n = elements.indexOf(state.dependent);
  const out: Record<string, number> = {};
  elements.forEach((e, k) => {
    if (k === n) return;
    out[e] = elements.reduce((a, el, i) => a + (xp[el] ?? 0) * (F[i]![k]! - F[i]![n]!), 0);
  });
  return out;
}
