// point_calculation (service spec "task_type = point_calculation"): one global equilibrium
// at the condition's T, P and composition (worker/core/equilibrium.ts, formula sheet §8-§9),
// restricted to activated_phases when given. Writes result/result.json ({point, table} beside the
// ResultDocument fields), result/result.csv (the outputs table) and preview/point.svg/.png (the
// phase table). A non-converged equilibrium is written as such (converged:false) and said in the
// summary and the logs, never hidden.
import { scheilEndTemperature } from '../scans/scheil/run.js';
import { asksFor } from '../../contract/results/outputs/names.js';
import { inMoleFractions, openSystem, resolveCompositions, type CalcSystem } from '../system/system.js';
import { CP_DEFINITION } from '../../contract/results/common.js';
import { documentBase, outputNames, phaseSetText } from '../results/document.js';
import { basename } from 'node:path';
import { PointConverter, pointWithCp, POINT_DERIVATIVES } from '../system/point-converter.js';
import { phaseLabel, tableToCsv, type EquilibriumPoint } from '../../contract/results/common.js';
import { convergedNote, equilibrium, type EquilibriumConditions, type EquilibriumResult } from '../core/equilibrium.js';
import { DisorderedSetNames } from '../system/disordered-sets.js';
import { ALLOY_T_RANGE, alloyTemperatures } from '../scans/alloy-temperatures.js';
import { fixedPhaseEntry, fixedPhaseTemperature } from '../scans/fixed-phase.js';
import { phaseTemperatureOutputs, phaseTemperatures } from '../scans/phase-temperatures.js';
import { addFurtherQuantities, heldPotentials, potentialText, ThermoExtras } from '../results/thermo-extra.js';
import { isLiquidName } from '../../contract/phases.js';
import type { AlloyTemperaturesField } from '../../contract/results/point_calculation.js';
import { pointTable } from '../plots/charts.js';
import { writeResultFiles } from '../results/common.js';
import type { PointCalculationResult } from '../../contract/results/point_calculation.js';
import { buildTable } from '../../contract/results/outputs/columns.js';
import { CancelledError, type CalculationOutput, type JobControl, type TaskJob } from '../protocol.js';

const fmtT = (T: number) => `${Number(T.toFixed(2))} K`;

export function run(job: TaskJob<'point_calculation'>, control: JobControl): CalculationOutput {
  if (control.cancelled) throw new CancelledError();
  const cond = inMoleFractions(job, job.config.condition);
  const sys = openSystem(job, cond);
  const T = cond.temperature,
    P = cond.pressure;
  const MU = heldPotentials(
    cond,
    () => new ThermoExtras(sys.db, sys.components, sys.elements, cond.reference_states, T, P),
    T,
    P,
  );
  const free = sys.elements.filter((e) => !(e in MU));
  const comp = resolveCompositions(free, [{ field: 'condition.compositions', value: cond.compositions }]);
  const names = outputNames('point_calculation', job.config.condition);
  const open = Object.keys(MU).length > 0;
  const fixed = fixedPhaseOf(sys, cond, comp.X[0], control);
  const conditions: EquilibriumConditions = { T: fixed?.at ?? T, P, X: comp.X[0], ...(open ? { MU } : {}) };
  // One equilibrium is not split across threads (job.ompThreads is used by the scans); HM.T gives the
  // equilibrium Cp (formula sheet §9.4).
  const r = new DisorderedSetNames(sys.db, sys.components, sys.phases).apply(
    equilibrium({
      database: sys.db,
      components: sys.components,
      phases: sys.phases,
      conditions,
      options: { derivatives: POINT_DERIVATIVES },
    }),
  );
  if (control.cancelled) throw new CancelledError();
  const conv = new PointConverter(sys.db, sys.components);
  const point = pointWithCp(conv, r);
  const further = pointFurtherQuantities(sys, cond, point, r, conditions, control);
  // solvus and T0 at the point's composition: none in an open system, whose composition follows T
  const at = { X: conditions.X ?? {}, P, T: conditions.T };
  const phaseTs = open ? {} : phaseTemperatures(sys, phaseTemperatureOutputs(names), at, () => control.cancelled);
  const table = buildTable(
    [
      {
        ...point,
        T_liquidus: further.alloy.liquidus,
        T_solidus: further.alloy.solidus,
        ...phaseTs,
        ...(asksFor(names, 'T_scheil_end') && !open
          ? { T_scheil_end: scheilEndTemperature(sys, at.X, P, further.alloy.liquidus, control) }
          : {}),
      },
    ],
    names,
    { components: sys.elements, phases: sys.formable },
  );
  const doc: PointCalculationResult = {
    ...documentBase(job, 'point_calculation', sys),
    point,
    table,
    outputs: names,
    cp_definition: CP_DEFINITION,
    alloy_temperatures: further.alloy,
    ...further.fields,
    ...(fixed ? { fixed_phase: fixed.field } : {}),
  };
  const state = r.converged ? 'converged' : `NOT converged: ${r.reason}`;
  const xText = open
    ? [
        ...Object.entries(comp.X[0]).map(([e, x]) => `X(${e})=${Number(x.toPrecision(6))}`),
        ...potentialText(cond),
      ].join(', ')
    : sys.elements.map((e) => `X(${e})=${Number((comp.full[0][e] ?? 0).toPrecision(6))}`).join(', ');
  const tC = `${Number((conditions.T - 273.15).toFixed(2))} °C`;
  const tText =
    job.config.preview_temperature_unit === 'celsius'
      ? `${tC} (${fmtT(conditions.T)})`
      : `${fmtT(conditions.T)} (${tC})`;
  const preview = pointPreview(
    point,
    sys.elements,
    `Equilibrium at ${tText}, ${P} Pa, ${xText} (${r.converged ? 'converged' : 'not converged'})`,
  );
  const files = writeResultFiles(job.taskDir, { json: doc, csv: tableToCsv(table), previews: { point: preview } });
  const summary = `${phaseSetText(point)} at ${fmtT(conditions.T)} (${state})`;
  const logs = [
    ...sys.logs,
    `database ${basename(sys.tdbFile)} (sha256 ${doc.provenance.database.sha256.slice(0, 12)}...), components ${sys.components.join(', ')}`,
    `conditions T=${T} K, P=${P} Pa, ${xText}${sys.phases ? `, phases ${sys.phases.join(', ')}` : ''}`,
    ...(fixed ? [fixed.log] : []),
    `equilibrium ${state} after ${r.iterations} iterations: ${phaseSetText(point)}, GM=${r.GM.toFixed(3)} J/mol`,
    ...(r.converged
      ? convergedNote(r)
        ? [`note: ${convergedNote(r)}`]
        : []
      : [`warning: the equilibrium did not converge (${r.reason}); the result is written with converged:false`]),
    ...further.logs,
    `written ${files.join(', ')}`,
  ];
  return { summary, logs };
}

/**
 * The further quantities of a point (worker/results/thermo-extra.ts: reference states, formation energies,
 * magnetic and volume properties, degree of ordering) and the alloy's liquidus and solidus.
 */
function pointFurtherQuantities(
  sys: CalcSystem,
  cond: { reference_states?: Record<string, string> },
  point: EquilibriumPoint,
  r: EquilibriumResult,
  conditions: EquilibriumConditions,
  control: JobControl,
) {
  const fields = addFurtherQuantities(sys, cond, [{ point, r }]);
  const alloy = conditions.MU
    ? openSystemAlloy(sys)
    : alloyTemperatures(
        sys,
        conditions.X ?? {},
        conditions.P ?? 101325,
        () => control.cancelled,
        undefined,
        undefined,
        conditions.T,
        r,
      );
  const fmt = (v: number | null) => (v === null ? 'none' : `${v.toFixed(2)} K`);
  const logs = [
    `alloy: liquidus ${fmt(alloy.liquidus)}, solidus ${fmt(alloy.solidus)}${alloy.note ? ` (${alloy.note})` : ''}`,
    ...fields.quantity_notes.map((n) => `note: ${n}`),
  ];
  return { fields, alloy, logs };
}

/**
 * condition.fixed_phases: the temperature at which the phase's amount crosses the given one, nearest
 * condition.temperature (worker/scans/fixed-phase.ts); the point is computed at the bracket's end on the phase's side.
 */
function fixedPhaseOf(
  sys: CalcSystem,
  cond: { fixed_phases?: Record<string, number>; temperature: number; pressure: number },
  X: Record<string, number>,
  control: JobControl,
): { at: number; field: NonNullable<PointCalculationResult['fixed_phase']>; log: string } | undefined {
  const fixed = fixedPhaseEntry(sys, cond.fixed_phases);
  if (!fixed) return undefined;
  const { key, phase, amount } = fixed;
  const found = fixedPhaseTemperature(
    sys,
    X,
    cond.pressure,
    { phase, amount, from: cond.temperature },
    () => control.cancelled,
  );
  if (found instanceof Error) throw new Error(`condition.fixed_phases.${key}: ${found.message}`);
  const field = { phase, amount, start_temperature: cond.temperature, temperature: found.T, bracket: found.bracket };
  const log = `${phase} at amount ${amount}: ${found.T.toFixed(2)} K (bracket ${found.bracket.map((t) => t.toFixed(3)).join('-')} K, searched from ${cond.temperature} K); the point is computed at ${found.stateT.toFixed(3)} K`;
  return { at: found.stateT, field, log };
}

/** No liquidus or solidus of an open system: its composition changes with the temperature. */
function openSystemAlloy(sys: CalcSystem): AlloyTemperaturesField {
  return {
    liquid_phases: (sys.phases ?? sys.formable).filter(isLiquidName),
    liquidus: null,
    solidus: null,
    range: ALLOY_T_RANGE,
    note: 'not searched: chemical potential or activity conditions leave the composition free',
  };
}

/**
 * Metastable phases the preview table lists, nearest to stability first; result.json and result.csv hold them all
 * (a steel database leaves over a hundred, a table image of which nobody reads and which takes seconds to draw).
 */
export const PREVIEW_METASTABLE_ROWS = 15;

/** Phase table of one point: stable composition sets, then the metastable phases nearest to stability. */
export function pointPreview(p: EquilibriumPoint, elements: string[], title: string): string {
  const columns = ['Phase', 'Status', 'NP (mol/mol)', ...elements.map((e) => `x(${e})`), 'GM (J/mol)', 'DF (J/mol)'];
  const rows: (string | number | null)[][] = [];
  for (const q of [...p.phases].sort((a, b) => phaseLabel(a).localeCompare(phaseLabel(b)))) {
    rows.push([phaseLabel(q), 'stable', q.amount, ...elements.map((e) => q.x[e] ?? null), q.GM, 0]);
  }
  const metastable = [...p.metastable].sort((a, b) => b.driving_force - a.driving_force);
  for (const m of metastable.slice(0, PREVIEW_METASTABLE_ROWS)) {
    rows.push([m.name, 'metastable', 0, ...elements.map((e) => m.x[e] ?? null), m.GM, m.driving_force]);
  }
  const more = metastable.length - PREVIEW_METASTABLE_ROWS;
  if (more > 0) rows.push([`${more} more`, 'metastable', null, ...elements.map(() => null), null, '(result.json)']);
  return pointTable({ columns, rows, title });
}
