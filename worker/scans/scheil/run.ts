// The Scheil-Gulliver path of an alloy beside its equilibrium (lever-rule) solidification: the task type
// scheil_solidification (worker/calculations/scheil_solidification.ts) and the T_scheil_end output of point
// calculations and batch rows.
//
// Model (classic Scheil-Gulliver; E. Scheil, Z. Metallkd. 34 (1942) 70; G.H. Gulliver, J. Inst. Met. 9
// (1913) 120; as implemented step-wise by pycalphad/scheil, and by S.-L. Chen et al., J. Phase Equilib.
// Diffus. 30 (2009) 429): complete mixing in the liquid, local equilibrium at the liquid/solid
// interface, no diffusion in the solids. The formula sheet (shared/design/calphad-formulas.md) has no
// Scheil section, so the classic rules are used:
//   at each temperature T_k the remaining liquid (composition x_L) is brought to equilibrium with the
//   allowed phases; the solids formed are removed:  f_s <- f_s + (1 - f_s) * (1 - NP(liquid)), each
//   solid phase j gains (1 - f_s) * NP(j); x_L <- the liquid's composition.
// Temperatures go down from start_temperature in steps of temperature_step. The first solid (liquidus)
// is refined by bisection to 0.01 K. When the remaining liquid would vanish completely within a step:
//  * if it vanishes into as many solid phases as there are components, the liquid has reached an
//    invariant (binary eutectic: liquid + 2 solids; ternary eutectic: liquid + 3 solids): the last
//    liquid solidifies at that temperature (located to 0.01 K) -> end_reason 'eutectic';
//  * otherwise the step overshot the solidus of the current liquid: a shorter step (half way to where the
//    liquid vanishes) is taken, so no liquid is solidified "in equilibrium" behind the model's back; if
//    the liquid freezes within 0.01 K (congruent freezing of a pure component or a congruent minimum)
//    the path ends -> end_reason 'liquid_exhausted'.
// It also ends when the liquid fraction falls below `stop` (1e-8) -> 'liquid_exhausted', at the minimum
// temperature -> 'minimum_temperature', on a non-converged equilibrium -> 'not_converged', or when the
// alloy has no liquid at the start -> 'no_liquid'.
import { CancelledError, type JobControl } from '../../protocol.js';
import type { NativeDatabase } from '../../core/native.js';
import type { ScheilPath } from '../../../contract/results/scheil_solidification.js';
import { PathEquilibria } from './equilibria.js';
import { leverRule } from './lever-rule.js';
import { followPath } from './path.js';
import type { HeatStep } from './path-heat.js';
import { PathState, type LiquidUpdate } from './path-state.js';
import { scheilSetup } from './setup.js';
import { startPath } from './start.js';

export function throwIfCancelled(control: Pick<JobControl, 'cancelled'> | undefined): void {
  if (control?.cancelled) throw new CancelledError();
}

export interface ScheilInput {
  database: NativeDatabase;
  /** elements (VA is added when the database has it) */
  components: string[];
  /** activated phases; [] = every phase the components allow */
  phases?: string[];
  /** phases suppressed (removed from the activated set) */
  inhibitPhases?: string[];
  P?: number;
  /** alloy composition: all components, or all but one (the dependent one) */
  composition: Record<string, number>;
  startTemperature: number;
  temperatureStep: number;
  /** name of the liquid phase; default LIQUID, else the phase with the TDB liquid option L */
  liquidPhase?: string;
  /** stop when the liquid fraction falls below this (default 1e-8) */
  stop?: number;
  /** lowest temperature of the path (default 1 K) */
  minimumTemperature?: number;
  /** also compute the lever rule (default true) */
  leverRule?: boolean;
  /** the liquid's composition after each step (back diffusion); default the step's equilibrium liquid (Scheil) */
  liquidUpdate?: LiquidUpdate;
  /** solute trapping: the interface velocity over Aziz's diffusive speed, V / V_D (solute-trapping.ts); default 0 */
  soluteTrapping?: number;
  threads?: number;
  control?: JobControl;
}

/** The path (as in result.json) plus what the calculation needs to write its files. */
export interface ScheilRun extends ScheilPath {
  elements: string[];
  logs: string[];
  /** beside each step, the states its enthalpy needs (path-heat.ts) */
  heat: HeatStep[];
}

/** The Scheil path of the alloy and, unless turned off, its lever rule. */
export function scheilSolidification(input: ScheilInput): ScheilRun {
  const setup = scheilSetup(input);
  const logs: string[] = [];
  const eq = new PathEquilibria(setup, logs);
  const state = new PathState(setup.x0, input.liquidUpdate, input.soluteTrapping);
  const start = startPath(eq, setup, state, logs);
  const { lastT, endReason } = followPath(eq, setup, state, { T: setup.T0, r: start.first }, logs);
  const lever =
    input.leverRule !== false && endReason !== 'no_liquid'
      ? leverRule(
          eq,
          setup,
          { liquidus: state.liquidus, solidus: state.solidus, lastT },
          Math.max(1, input.threads ?? 1),
          logs,
        )
      : { lever: [], solidus: null };
  return {
    liquid_phase: setup.liquid,
    liquidus_temperature: state.liquidus,
    solidus_temperature: state.solidus,
    end_reason: endReason,
    steps: state.steps,
    lever_rule: lever.lever,
    lever_rule_solidus_temperature: lever.solidus,
    eutectic_phases: state.eutecticPhases,
    phase_totals: state.totals,
    composition: setup.x0,
    elements: setup.elements,
    logs,
    heat: state.heat,
    start_temperature: setup.T0,
    started_below_liquidus: start.startedBelow,
    suggested_start_temperature: start.suggested,
    warnings: start.warnings,
  };
}

/** Steps of the Scheil path of a T_scheil_end output, K. */
export const SCHEIL_END_STEP = 1;

/**
 * The end of the alloy's Scheil path (T_scheil_end outputs of point calculations and batch rows): from 1 K above its
 * liquidus (rounded up) in SCHEIL_END_STEP steps, without the lever rule; null without a liquidus or when the path
 * has no end (its reason in the logs of the path, not kept).
 */
export function scheilEndTemperature(
  sys: { db: NativeDatabase; elements: string[]; phases: string[] | undefined },
  X: Record<string, number>,
  P: number,
  liquidus: number | null,
  control?: JobControl,
): number | null {
  if (liquidus === null) return null;
  const run = scheilSolidification({
    database: sys.db,
    components: sys.elements,
    phases: sys.phases ?? [],
    P,
    composition: X,
    startTemperature: Math.ceil(liquidus) + 1,
    temperatureStep: SCHEIL_END_STEP,
    leverRule: false,
    control,
  });
  return run.solidus_temperature ?? null;
}
