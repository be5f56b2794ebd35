// point_calculation (service spec "task_type = point_calculation", issue 5): one global equilibrium
// at the condition's T, P and composition (worker/core/equilibrium.ts, formula sheet §8-§9),
// restricted to activated_phases when given. Writes result/result.json ({point, table} beside the
// ResultDocument fields), result/result.csv (the outputs table) and preview/point.svg/.png (the
// phase table). A non-converged equilibrium is written as such (converged:false) and said in the
// summary and the logs, never hidden.
//
// Also exports the input handling that line_calculation shares (database, components, phases,
// compositions, provenance).
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { openDatabase, type NativeDatabase } from '../core/database.js';
import { equilibrium, type EquilibriumConditions, type EquilibriumResult } from '../core/equilibrium.js';
import { alloyTemperatures } from '../results/alloy-temperatures.js';
import { addFurtherQuantities } from '../results/thermo-extra.js';
import { pointTable } from '../plots/charts.js';
import {
  PointConverter,
  RESULT_VERSION,
  phaseLabel,
  provenance,
  tableToCsv,
  writeResultFiles,
  type EquilibriumPoint,
  type ResultDocument,
} from '../results/common.js';
import type { PointCalculationResult } from '../results/point_calculation.js';
import { buildTable, elementsOf, phaseSetName, selectOutputs, type OutputTaskType } from '../results/outputs.js';
import { elementMasses, moleFractionCondition, type CompositionUnit } from '../results/units.js';
import {
  CancelledError,
  type CalculationJob,
  type CalculationOutput,
  type JobControl,
  type TaskJob,
} from '../protocol.js';

export const CP_DEFINITION =
  'Cp = dHM/dT along the equilibrium (phase amounts and compositions follow T; solver dot derivative ' +
  'HM.T, formula sheet §9.4); Cp_frozen = sum NP*CPM with the phase amounts held fixed';

/** What openSystem reads of a condition (every type's schema in contract/tasks/ guarantees these shapes). */
export interface SystemCondition {
  components: string[];
  activated_phases?: string[];
}

/**
 * The condition with its composition maps in mole fractions: composition_unit "mass_fraction" converted with the
 * molar masses of the database's ELEMENT lines (worker/results/units.ts); unchanged otherwise.
 */
export function inMoleFractions<
  C extends SystemCondition & { composition_unit?: CompositionUnit } & Record<string, unknown>,
>(job: CalculationJob, cond: C): C {
  if ((cond.composition_unit ?? 'mole_fraction') === 'mole_fraction') return cond;
  const elements = [...new Set(elementsOf(cond.components.map((c) => c.toUpperCase())))];
  return moleFractionCondition(cond, elements, () => elementMasses(cachedDatabase(tdbFileOf(job)).info().elements));
}

export function tdbFileOf(job: CalculationJob): string {
  const f = job.config.tdb_file;
  if (typeof f !== 'string' || f.length === 0)
    throw new Error('task_config.tdb_file is missing (the database file of the task)');
  return f;
}

export interface CalcSystem {
  db: NativeDatabase;
  tdbFile: string;
  /** solver components: the elements plus VA when the database defines it */
  components: string[];
  /** mass-carrying elements, upper case, in the order of condition.components */
  elements: string[];
  /** activated phases (upper case) that can form, or undefined = every phase the components allow */
  phases: string[] | undefined;
  /** phases of the database that can form with the elements (for output names) */
  formable: string[];
  logs: string[];
}

/**
 * Databases opened by this worker, by path + size + mtime: the native solver keeps its prepared phase
 * models and sampling grid per database handle, so the next task on the same file starts warm.
 */
const databases = new Map<string, NativeDatabase>();
const MAX_CACHED_DATABASES = 8;

export function cachedDatabase(tdbFile: string): NativeDatabase {
  const st = statSync(tdbFile);
  const key = `${tdbFile}|${st.size}|${st.mtimeMs}`;
  let db = databases.get(key);
  if (!db) {
    db = openDatabase(tdbFile);
    if (databases.size >= MAX_CACHED_DATABASES) databases.delete(databases.keys().next().value as string);
    databases.set(key, db);
  }
  return db;
}

/** Forgets the opened databases (benchmarks of a cold start). */
export function clearDatabaseCache(): void {
  databases.clear();
}

/** Opens the database and resolves components and activated phases of a task. */
export function openSystem(job: CalculationJob, cond: SystemCondition): CalcSystem {
  const tdbFile = tdbFileOf(job);
  const db = cachedDatabase(tdbFile);
  const info = db.info();
  const dbElements = new Set(info.elements.map((e) => e.name.toUpperCase()));
  const raw = cond.components.map((c) => c.toUpperCase());
  const elements = [...new Set(elementsOf(raw))];
  if (elements.length === 0) throw new Error('condition.components: no element given');
  for (const e of elements) {
    if (!dbElements.has(e))
      throw new Error(
        `condition.components: ${e} is not an element of ${basename(tdbFile)} (${[...dbElements].filter((x) => x !== 'VA' && x !== '/-').join(', ')})`,
      );
  }
  // VA is a component of sublattice models whenever the database defines it (README of the validation set).
  const components = dbElements.has('VA') ? [...elements, 'VA'] : [...elements];
  // phases the file rejects by default (DEFAULT_COMMAND REJECT_PHASE) are used when activated by name
  const formable = db.phasesFor(elements, true);
  const logs: string[] = [];
  let phases: string[] | undefined;
  const act = (cond.activated_phases ?? []).map((p) => p.toUpperCase());
  if (act.length > 0) {
    const defined = new Set(info.phases.map((p) => p.name.toUpperCase()));
    const unknown = act.filter((p) => !defined.has(p));
    if (unknown.length)
      throw new Error(`condition.activated_phases: ${unknown.join(', ')} not defined in ${basename(tdbFile)}`);
    phases = act.filter((p) => formable.includes(p));
    const dropped = act.filter((p) => !formable.includes(p));
    if (dropped.length)
      logs.push(`activated phases that cannot form from ${elements.join('-')} are ignored: ${dropped.join(', ')}`);
    if (phases.length === 0)
      throw new Error(`condition.activated_phases: none of ${act.join(', ')} can form from ${elements.join(', ')}`);
  }
  return { db, tdbFile, components, elements, phases, formable, logs };
}

const SUM_TOL = 1e-6;

/**
 * Mole-fraction conditions for the solver from one or more composition maps (start/end of a line
 * share one dependent element). Each map gives either every element (summing to 1 within 1e-6) or
 * every element but one (the dependent one, 1 - sum). `field` names the map in error messages.
 */
export function resolveCompositions(
  elements: string[],
  maps: { field: string; value: Record<string, number> }[],
): {
  dependent: string;
  X: Record<string, number>[];
  full: Record<string, number>[];
} {
  // The fractions are numbers in [0, 1] (the task schema's `fraction`); keys are matched to the elements here.
  const norm = maps.map(({ field, value }) => {
    const out: Record<string, number> = {};
    for (const [k, v] of Object.entries(value)) {
      const el = k.toUpperCase();
      if (el === 'VA') continue;
      if (!elements.includes(el))
        throw new Error(`${field}.${k}: ${el} is not one of the components ${elements.join(', ')}`);
      out[el] = v;
    }
    return { field, x: out };
  });
  if (elements.length === 1)
    return { dependent: elements[0], X: norm.map(() => ({})), full: norm.map(() => ({ [elements[0]]: 1 })) };
  // dependent element: the one missing from every map, else (all given) the largest on average
  const missing = new Set<string>();
  for (const { field, x } of norm) {
    const miss = elements.filter((e) => !(e in x));
    if (miss.length > 1)
      throw new Error(
        `${field}: give the mole fractions of all components or of all but one (missing ${miss.join(', ')})`,
      );
    const sum = Object.values(x).reduce((a, b) => a + b, 0);
    if (miss.length === 0 && Math.abs(sum - 1) > SUM_TOL)
      throw new Error(`${field}: the mole fractions of all components sum to ${sum}, not 1`);
    if (miss.length === 1 && sum > 1 + SUM_TOL) throw new Error(`${field}: the mole fractions sum to ${sum} > 1`);
    for (const m of miss) missing.add(m);
  }
  if (missing.size > 1)
    throw new Error(
      `${norm.map((n) => n.field).join(' and ')} leave out different components (${[...missing].join(', ')}): leave out the same one`,
    );
  let dependent: string;
  if (missing.size === 1) dependent = [...missing][0];
  else {
    const avg = (e: string) => norm.reduce((a, n) => a + n.x[e], 0);
    dependent = elements.reduce((best, e) => (avg(e) > avg(best) ? e : best), elements[0]);
  }
  const X = norm.map(({ x }) => Object.fromEntries(elements.filter((e) => e !== dependent).map((e) => [e, x[e]])));
  const full = X.map((x) => {
    const sum = Object.values(x).reduce((a, b) => a + b, 0);
    return Object.fromEntries(elements.map((e) => [e, e === dependent ? Math.max(0, 1 - sum) : x[e]]));
  });
  return { dependent, X, full };
}

/** ResultDocument fields; config keeps the file name of the database, not the server's path. */
export function documentBase<T extends string>(
  job: CalculationJob,
  taskType: T,
  tdbFile: string,
): ResultDocument & { task_type: T } {
  const config = { ...job.config, tdb_file: basename(tdbFile) };
  return {
    version: RESULT_VERSION,
    task_type: taskType,
    provenance: provenance(tdbFile, job.database?.code ?? null, job.database?.sha256),
    config,
  };
}

export function outputNames(
  taskType: OutputTaskType,
  cond: { thermo_outputs?: string[]; outputs_list_template?: string[] },
): string[] {
  return selectOutputs(taskType, cond.outputs_list_template, cond.thermo_outputs);
}

const fmtT = (T: number) => `${Number(T.toFixed(2))} K`;

/** "FCC_A1 + LIQUID" (labels sorted) or "no stable phase". */
export function phaseSetText(p: EquilibriumPoint): string {
  const s = phaseSetName(p);
  return s ? s.split('+').join(' + ') : 'no stable phase';
}

export function run(job: TaskJob<'point_calculation'>, control: JobControl): CalculationOutput {
  if (control.cancelled) throw new CancelledError();
  const cond = inMoleFractions(job, job.config.condition);
  const sys = openSystem(job, cond);
  const T = cond.temperature,
    P = cond.pressure;
  const comp = resolveCompositions(sys.elements, [{ field: 'condition.compositions', value: cond.compositions }]);
  const names = outputNames('point_calculation', cond);
  const conditions: EquilibriumConditions = { T, P, X: comp.X[0] };
  // One equilibrium is not split across threads (job.ompThreads is used by the scans); HM.T gives the
  // equilibrium Cp (formula sheet §9.4).
  const r = equilibrium({
    database: sys.db,
    components: sys.components,
    phases: sys.phases,
    conditions,
    options: { derivatives: ['HM.T'] },
  });
  if (control.cancelled) throw new CancelledError();
  const conv = new PointConverter(sys.db, sys.components);
  const cpEq = r.derivatives['HM.T'];
  const point = { ...conv.point(r), Cp_equilibrium: typeof cpEq === 'number' && Number.isFinite(cpEq) ? cpEq : null };
  const further = pointFurtherQuantities(sys, cond, point, r, conditions, control);
  const table = buildTable(
    [{ ...point, T_liquidus: further.alloy.liquidus, T_solidus: further.alloy.solidus }],
    names,
    { components: sys.elements, phases: sys.formable },
  );
  const doc: PointCalculationResult = {
    ...documentBase(job, 'point_calculation', sys.tdbFile),
    point,
    table,
    outputs: names,
    cp_definition: CP_DEFINITION,
    alloy_temperatures: further.alloy,
    ...further.fields,
  };
  const state = r.converged ? 'converged' : `NOT converged: ${r.reason}`;
  const xText = sys.elements.map((e) => `X(${e})=${Number((comp.full[0][e] ?? 0).toPrecision(6))}`).join(', ');
  const tC = `${Number((T - 273.15).toFixed(2))} °C`;
  const tText = job.config.preview_temperature_unit === 'celsius' ? `${tC} (${fmtT(T)})` : `${fmtT(T)} (${tC})`;
  const preview = pointPreview(
    point,
    sys.elements,
    `Equilibrium at ${tText}, ${P} Pa, ${xText} (${r.converged ? 'converged' : 'not converged'})`,
  );
  const files = writeResultFiles(job.taskDir, { json: doc, csv: tableToCsv(table), previews: { point: preview } });
  const summary = `${phaseSetText(point)} at ${fmtT(T)} (${state})`;
  const logs = [
    ...sys.logs,
    `database ${basename(sys.tdbFile)} (sha256 ${doc.provenance.database.sha256.slice(0, 12)}...), components ${sys.components.join(', ')}`,
    `conditions T=${T} K, P=${P} Pa, ${xText}${sys.phases ? `, phases ${sys.phases.join(', ')}` : ''}`,
    `equilibrium ${state} after ${r.iterations} iterations: ${phaseSetText(point)}, GM=${r.GM.toFixed(3)} J/mol`,
    ...(r.converged
      ? []
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
  const alloy = alloyTemperatures(
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

/** Phase table of one point: stable composition sets, then metastable phases with driving forces. */
export function pointPreview(p: EquilibriumPoint, elements: string[], title: string): string {
  const columns = ['Phase', 'Status', 'NP (mol/mol)', ...elements.map((e) => `x(${e})`), 'GM (J/mol)', 'DF (J/mol)'];
  const rows: (string | number | null)[][] = [];
  for (const q of [...p.phases].sort((a, b) => phaseLabel(a).localeCompare(phaseLabel(b)))) {
    rows.push([phaseLabel(q), 'stable', q.amount, ...elements.map((e) => q.x[e] ?? null), q.GM, 0]);
  }
  for (const m of [...p.metastable].sort((a, b) => b.driving_force - a.driving_force)) {
    rows.push([m.name, 'metastable', 0, ...elements.map((e) => m.x[e] ?? null), m.GM, m.driving_force]);
  }
  return pointTable({ columns, rows, title });
}
