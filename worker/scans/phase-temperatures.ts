// The temperatures of an alloy that output names ask for beside its equilibrium (point_calculation and the rows of
// equilibrium_batch): T_solvus(PHASE), the temperature nearest the point's at which the phase appears or disappears
// (a phase fixed at amount 0, worker/scans/fixed-phase.ts), and T0(PHASE1,PHASE2), where the two phases of the alloy's
// composition have equal Gibbs energy (worker/scans/t-zero.ts). Both at a fixed composition: none for an open system.
import type { TablePoint } from '../../contract/results/outputs/columns.js';
import { solvusPhases, tZeroPairs } from '../../contract/results/outputs/names.js';
import type { AlloySystem } from './alloy-temperatures.js';
import { fixedPhaseTemperature } from './fixed-phase.js';
import { tZeroTemperature } from './t-zero.js';

/** What the output names ask for: the phases of T_solvus and the pairs of T0 (empty lists: nothing to search). */
export interface PhaseTemperatureOutputs {
  solvus: string[];
  tZero: [string, string][];
}

export function phaseTemperatureOutputs(names: readonly string[]): PhaseTemperatureOutputs {
  return { solvus: solvusPhases(names), tZero: tZeroPairs(names) };
}

/**
 * The T_solvus and T0 fields of a table point at the alloy's composition X and pressure P, each searched from T;
 * null where none lies in the range. Empty when nothing is asked for.
 */
export function phaseTemperatures(
  sys: AlloySystem,
  asked: PhaseTemperatureOutputs,
  at: { X: Record<string, number>; P: number; T: number },
  cancelled: () => boolean,
): Pick<TablePoint, 'T_solvus' | 'T0'> {
  const out: Pick<TablePoint, 'T_solvus' | 'T0'> = {};
  if (asked.solvus.length) {
    out.T_solvus = {};
    for (const phase of asked.solvus) {
      const found = fixedPhaseTemperature(sys, at.X, at.P, { phase, amount: 0, from: at.T }, cancelled);
      out.T_solvus[phase] = found instanceof Error ? null : found.T;
    }
  }
  if (asked.tZero.length) {
    out.T0 = {};
    for (const pair of asked.tZero) out.T0[pair.join(',')] = tZeroTemperature(sys, pair, at.X, at.P, at.T, cancelled);
  }
  return out;
}
