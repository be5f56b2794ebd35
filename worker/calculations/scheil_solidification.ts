// Task type scheil_solidification: Scheil-Gulliver solidification beside the equilibrium (lever-rule)
// solidification of the same alloy; the model and its path are in worker/scans/scheil/run.ts.
import { alloyName } from '../../contract/plots/names.js';
import { documentBase } from '../results/document.js';
import { inMoleFractions, openSystem } from '../system/system.js';
import { tableToCsv } from '../../contract/results/common.js';
import type { CalculationOutput, JobControl, TaskJob } from '../protocol.js';
import { writeResultFiles } from '../results/common.js';
import type { ScheilDocument } from '../../contract/results/scheil_solidification.js';
import { scheilChart } from '../plots/charts.js';
import type { TemperatureUnit } from '../plots/panel.js';
import { elementMasses, moleToMassFractions } from '../system/units.js';

import { scheilSolidification, throwIfCancelled, type ScheilRun } from '../scans/scheil/run.js';
import {
  scheilFirstClass,
  scheilTable,
  withAlloyTemperatures,
  withLiquidMassFractions,
} from './scheil_solidification/table.js';

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
