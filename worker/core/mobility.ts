// TypeScript wrapper of the kinetic parameters of a phase (native-core/src/models/mobility_model.hpp): atomic
// mobilities and diffusivities from MQ, MF, DQ and DF on the site fractions of the phase's PhaseModel.
import { loadCore, type NativeDatabase, type NativeMobilityModel, type NativeMobilityValues } from './native.js';

export type MobilityValues = NativeMobilityValues;

export class MobilityModel {
  readonly elements: string[];

  private constructor(private readonly native: NativeMobilityModel) {
    this.elements = native.elements();
  }

  /** null when the phase has no kinetic parameter for these components (or cannot form from them). */
  static build(db: NativeDatabase, phase: string, components: string[]): MobilityModel | null {
    const m = loadCore().MobilityModel.build(db, phase, components);
    return m ? new MobilityModel(m) : null;
  }

  /** The parameter sums, M_k and D_k at (T, P, y); `curie` and `hasMoment` feed the bcc ferromagnetic factor. */
  evaluate(T: number, P: number, y: ArrayLike<number>, curie = 0, hasMoment = false): MobilityValues {
    return this.native.evaluate(T, P, Float64Array.from(y), curie, hasMoment);
  }
}

/** Jonsson's degree of magnetic order of the Inden-Hillert-Jarl function at tau = T/T*, structure factor p. */
export function magneticOrderDegree(tau: number, p: number): number {
  return loadCore().magneticOrderDegree(tau, p);
}
