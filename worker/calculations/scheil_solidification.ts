// Task type scheil_solidification: Scheil-Gulliver solidification beside the equilibrium
// (lever-rule) solidification of the same alloy.
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
import { alloyName } from '../../contract/plots/names.js';
import { documentBase } from '../results/document.js';
import { inMoleFractions, openSystem } from '../system/system.js';
import { tableToCsv } from '../../contract/results/common.js';
import { CancelledError, type CalculationOutput, type JobControl, type TaskJob } from '../protocol.js';
import type { NativeDatabase } from '../core/native.js';
import { writeResultFiles } from '../results/common.js';
import type { ScheilDocument, ScheilPath } from '../../contract/results/scheil_solidification.js';
import { scheilChart } from '../plots/charts.js';
import type { TemperatureUnit } from '../plots/panel.js';
import { elementMasses, moleToMassFractions } from '../system/units.js';

import { PathEquilibria } from './scheil_solidification/equilibria.js';
import { leverRule } from './scheil_solidification/lever-rule.js';
import { followPath } from './scheil_solidification/path.js';
import { PathState } from './scheil_solidification/path-state.js';
import { scheilSetup } from './scheil_solidification/setup.js';
import { startPath } from './scheil_solidification/start.js';
import {
  scheilFirstClass,
  scheilTable,
  withAlloyTemperatures,
  withLiquidMassFractions,
} from './scheil_solidification/table.js';

function throwIfCancelled(control: Pick<JobControl, 'cancelled'> | undefined): void {
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
  threads?: number;
  control?: JobControl;
}

/** The path (as in result.json) plus what the calculation needs to write its files. */
export interface ScheilRun extends ScheilPath {
  elements: string[];
  logs: string[];
}

/** The Scheil path of the alloy and, unless turned off, its lever rule. */
export function scheilSolidification(input: ScheilInput): ScheilRun {
  const setup = scheilSetup(input);
  const logs: string[] = [];
  const eq = new PathEquilibria(setup, logs);
  const state = new PathState(setup.x0);
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
    start_temperature: setup.T0,
    started_below_liquidus: start.startedBelow,
    suggested_start_temperature: start.suggested,
    warnings: start.warnings,
  };
}

export function scheilPreview(
  run: ScheilRun,
  title = 'Solidification: Scheil-Gulliver and lever rule',
  temperatureUnit?: TemperatureUnit,
): string {
  return scheilChart({
    title,
    scheil: { T: run.steps.map((s) => s.T), fs: run.steps.map((s) => s.fraction_solid) },
    lever: run.lever_rule.length
      ? { T: run.lever_rule.map((p) => p.T), fs: run.lever_rule.map((p) => p.fraction_solid) }
      : undefined,
    liquidusT: run.liquidus_temperature ?? undefined,
    eutecticT: run.end_reason === 'eutectic' && run.solidus_temperature !== null ? run.solidus_temperature : undefined,
    celsiusAxis: true,
    temperatureUnit,
  });
}

const f1 = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(1)} K`);

export function scheilSummary(run: ScheilRun): string {
  const reason = run.end_reason === 'eutectic' ? 'eutectic' : run.end_reason.replace(/_/g, ' ');
  const below = run.started_below_liquidus
    ? `; started at ${run.start_temperature} K, below the liquidus${run.suggested_start_temperature !== null ? `: start at ${run.suggested_start_temperature} K` : ''}`
    : '';
  return (
    `liquidus ${f1(run.liquidus_temperature)}, Scheil solidus ${f1(run.solidus_temperature)} (${reason}), ` +
    `lever-rule solidus ${f1(run.lever_rule_solidus_temperature)}${below}`
  );
}

export function run(job: TaskJob<'scheil_solidification'>, control: JobControl): CalculationOutput {
  throwIfCancelled(control);
  const cond = inMoleFractions(job, job.config.condition);
  const sys = openSystem(job, cond);
  const t0 = performance.now();
  const res = scheilSolidification({
    database: sys.db,
    components: sys.elements,
    // the task's inhibit_phases (or the database's recommended selection) are applied in sys.phases
    phases: sys.phases ?? [],
    P: cond.pressure,
    composition: cond.compositions,
    startTemperature: cond.start_temperature,
    temperatureStep: cond.temperature_step,
    threads: job.ompThreads,
    control,
  });
  const ms = performance.now() - t0;
  const masses = elementMasses(sys.db.info().elements);
  const table = withAlloyTemperatures(withLiquidMassFractions(scheilTable(res), res, masses), res);
  const doc: ScheilDocument = {
    ...documentBase(job, 'scheil_solidification', sys),
    liquid_phase: res.liquid_phase,
    liquidus_temperature: res.liquidus_temperature,
    solidus_temperature: res.solidus_temperature,
    end_reason: res.end_reason,
    steps: res.steps,
    lever_rule: res.lever_rule,
    lever_rule_solidus_temperature: res.lever_rule_solidus_temperature,
    table,
    eutectic_phases: res.eutectic_phases,
    phase_totals: res.phase_totals,
    composition: res.composition,
    start_temperature: res.start_temperature,
    started_below_liquidus: res.started_below_liquidus,
    suggested_start_temperature: res.suggested_start_temperature,
    warnings: res.warnings,
    ...scheilFirstClass(res, masses),
  };
  throwIfCancelled(control);
  // the alloy as the task gave it: in mass percent for a task in mass fractions
  const inMass = job.config.condition.composition_unit === 'mass_fraction';
  const alloy = alloyName(
    inMass ? moleToMassFractions(res.composition, masses) : res.composition,
    inMass ? 'mass' : 'mole',
  );
  const title = `Scheil and lever-rule solidification of ${alloy} (${sys.tdbFile.split(/[\\/]/).pop()})`;
  writeResultFiles(job.taskDir, {
    json: doc,
    csv: tableToCsv(table),
    previews: { scheil: scheilPreview(res, title, job.config.preview_temperature_unit) },
  });
  return {
    summary: scheilSummary(res),
    logs: [
      ...sys.logs,
      ...res.logs,
      `Scheil: ${res.steps.length} steps, end ${res.end_reason}, in ${ms.toFixed(0)} ms`,
      `solid formed: ${Object.entries(res.phase_totals)
        .map(([k, v]) => `${k} ${v.toFixed(4)}`)
        .join(', ')}`,
    ],
  };
}
