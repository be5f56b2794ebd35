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
import type { AgingThermo, MatrixState, TieLine } from './thermo.js';

export interface PhaseRates {
  drivingForce: number;
  nucleus: Nucleus | null;
  /** growth rate (m/s) of a particle of radius r */
  growth: (r: number) => number;
}

export class RateModel {
  private readonly tables = new Map<string, InterfaceTable>();
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

  private table(phase: string, T: number, line: TieLine): InterfaceTable {
    const key = `${phase}|${T.toFixed(4)}`;
    let t = this.tables.get(key);
    if (!t) {
      t = interfaceTableOf(this.thermo, phase, T, this.solute, this.solvent, line);
      this.tables.set(key, t);
    }
    return t;
  }

  /** The phase's rates at the matrix state and time t (since the start of the treatment). */
  rates(ctx: PhaseContext, state: MatrixState, t: number): PhaseRates | null {
    const line = this.line(ctx.phase, state.T);
    if (!line) return null;
    const capillarity = 2 * ctx.gamma * ctx.molarVolume;
    let drivingForce: number;
    let nucleusX: Record<string, number>;
    let growth: (r: number) => number;
    if (this.binary) {
      const table = this.table(ctx.phase, state.T, line);
      const s = this.solute;
      const D = state.chemical[s]?.[s] ?? state.tracer[s] ?? 0;
      const xInf = state.x[s] ?? 0;
      const xp = line.precipitate[s] ?? 0;
      drivingForce = tableDrivingForce(table, xInf);
      nucleusX = line.precipitate;
      growth = (r) => binaryGrowth(D, xInf, interfaceComposition(table, capillarity / r), xp, r);
    } else {
      const tangent = this.thermo.drivingForce(ctx.phase, state, line.y);
      drivingForce = tangent.drivingForce;
      nucleusX = tangent.x;
      const resistance = growthResistance(state, this.thermo.matrixModel.info.elements, line.precipitate);
      growth = resistance ? (r) => multicomponentGrowth(drivingForce, capillarity, resistance, r) : () => 0;
    }
    const nucleus = nucleation({
      drivingForce,
      molarVolume: ctx.molarVolume,
      gamma: ctx.gamma,
      T: state.T,
      spacing: this.spacing,
      diffusionResistance: diffusionResistance(nucleusX, state.x, state.tracer),
      sites: ctx.sites,
      t,
    });
    return { drivingForce, nucleus, growth };
  }
}
