// equilibrium_batch (extension): one global equilibrium per row, the rows read one chunk at a time
// (contract/tasks/batch-rows.ts), solved across the job's OpenMP threads temperature by temperature, each row
// warm-started from the one before it (the solver certifies every answer by its grid re-scan and redoes a failed warm
// start cold; a row with a miscibility gap is solved again cold, so its sets are numbered as its point
// calculation's), then made into the point calculation's point and outputs (worker/calculations/point_calculation.ts),
// with the alloy's liquidus and solidus (from the previous alloy's by Newton's method, certified, else by the point
// calculation's search: worker/scans/liquidus-newton.ts) when T_liquidus or T_solidus is asked for, and each row's
// temperature sought when a phase is fixed at an amount (condition.fixed_phases, as in a point calculation). A row that
// does not converge or cannot be computed is a row of the result with its status and reason, never a failed task.
// The rows go to disk as they finish (worker/results/batch-table.ts); a cancel keeps them: the files are completed
// with the rows done and result.json says complete: false.
import { scheilEndTemperature } from '../scans/scheil/run.js';
import { createHash } from 'node:crypto';
import { CP_DEFINITION } from '../../contract/results/common.js';
import { batchRowCount, batchRows, type BatchRowInput } from '../../contract/tasks/batch-rows.js';
import { rowsCondition } from '../../contract/tasks/equilibrium_batch.js';
import { potentialElements } from '../../contract/tasks/common.js';
import type { BatchRowRecord, EquilibriumBatchResult } from '../../contract/results/equilibrium_batch.js';
import { asksFor } from '../../contract/results/outputs/names.js';
import { resolveColumns, type TableContext, type TablePoint } from '../../contract/results/outputs/columns.js';
import { openSystem, resolveCompositions, type CalcSystem } from '../system/system.js';
import { elementMasses, massMapToMoleFractions } from '../system/units.js';
import { PointConverter, pointWithCp, POINT_DERIVATIVES } from '../system/point-converter.js';
import { convergedNote } from '../core/equilibrium.js';
import { documentBase } from '../results/document.js';
import { selectOutputs } from '../../contract/results/outputs/selection.js';
import { heldPotentials, ThermoExtras } from '../results/thermo-extra.js';
import { writeResultFiles } from '../results/common.js';
import {
  BatchTableWriter,
  CSV_FILE,
  ROWS_FILE,
  rowValues,
  writeXlsx,
  XLSX_FILE,
  XLSX_MAX_ROWS,
} from '../results/batch-table.js';
import { alloyTemperatures, type AlloyTemperatures } from '../scans/alloy-temperatures.js';
import { nextChunkSize } from '../scans/batch.js';
import { liquidPhases } from '../scans/liquidus-newton.js';
import { batchAlloyTemperatures, GuessPool, type AlloyJob } from '../scans/liquidus-batch.js';
import { fixedPhaseEntry, fixedPhaseTemperature } from '../scans/fixed-phase.js';
import {
  phaseTemperatureOutputs,
  phaseTemperatures,
  type PhaseTemperatureOutputs,
} from '../scans/phase-temperatures.js';
import {
  equilibrium,
  equilibriumBatch,
  type EquilibriumConditions,
  type EquilibriumResult,
} from '../core/equilibrium.js';
import { isCoreError } from '../core/errors.js';
import { CancelledError, CONTROL_BYTES, type CalculationOutput, type JobControl, type TaskJob } from '../protocol.js';

type Condition = TaskJob<'equilibrium_batch'>['config']['condition'];

/** A row ready for the solver: its conditions, or why it has none. */
interface SolverRow {
  input: BatchRowInput;
  /** overall mole fractions of every element */
  x: Record<string, number>;
  conditions?: EquilibriumConditions;
  error?: string;
}

/** What every row of one task shares: the system, the outputs and their context, the further quantities. */
export interface BatchContext {
  sys: CalcSystem;
  names: string[];
  ctx: TableContext;
  conv: PointConverter;
  extras: ThermoExtras;
  alloy: boolean;
  masses: () => Record<string, number>;
  control: JobControl;
  threads: number;
  /** the liquidus and solidus of the alloys of the current chunk of rows, by alloy key (alloysOf) */
  alloyTs: Map<string, AlloyTemperatures | Error>;
  /** the guesses of the alloys found last (worker/scans/liquidus-batch.ts), created with the first chunk */
  guesses?: GuessPool;
  /** T_scheil_end asked for: the last alloy's end of its Scheil path */
  scheil: boolean;
  lastScheil?: { key: string; value: number | null };
  /** the elements held at a chemical potential or activity (condition.chemical_potentials, activities) */
  held: string[];
  /** their MU conditions at a row's T and P, J/mol */
  heldMU: (T: number, P: number) => Record<string, number>;
  /** the phases of T_solvus(PHASE) and the pairs of T0(PHASE1,PHASE2) outputs, searched at every row */
  phaseTs: PhaseTemperatureOutputs;
  /** condition.fixed_phases: the phase, its amount and the key as given (every row's T is then sought) */
  fixed?: { phase: string; amount: number; key: string };
}

/** What a batch's rows and its result document share: the row context, the condition and the number of rows. */
export interface PreparedBatch {
  b: BatchContext;
  cond: Condition;
  total: number;
}

/** Opens the system and resolves the outputs; an output naming a phase the database lacks fails here. */
export function prepareBatch(job: TaskJob<'equilibrium_batch'>, control: JobControl): PreparedBatch {
  if (control.cancelled) throw new CancelledError();
  const cond = job.config.condition;
  const sys = openSystem(job, cond);
  // each row begins with its input T, P and composition: the table needs no second copy of them (outputNames adds one)
  const names = selectOutputs('equilibrium_batch', cond.outputs_list_template, cond.thermo_outputs);
  const ctx: TableContext = { components: sys.elements, phases: sys.formable };
  resolveColumns(names, [], ctx); // an output naming a phase the database does not define fails here, before any row
  let masses: Record<string, number> | undefined;
  const held = potentialElements(cond);
  const extras = new ThermoExtras(sys.db, sys.components, sys.elements, cond.reference_states);
  const b: BatchContext = {
    sys,
    names,
    ctx,
    conv: new PointConverter(sys.db, sys.components),
    extras,
    // an open system's composition follows T: no liquidus or solidus (the columns stay empty)
    alloy: held.length === 0 && asksFor(names, 'T_liquidus', 'T_solidus', 'T_scheil_end'),
    masses: () => (masses ??= elementMasses(sys.db.info().elements)),
    control,
    threads: Math.max(1, Math.floor(job.ompThreads)),
    alloyTs: new Map(),
    held,
    heldMU: (T, P) => heldPotentials(cond, () => extras, T, P),
    fixed: fixedPhaseEntry(sys, cond.fixed_phases),
    scheil: held.length === 0 && asksFor(names, 'T_scheil_end'),
    // an open system's composition follows T: no solvus or T0 (the columns stay empty)
    phaseTs: held.length ? { solvus: [], tZero: [] } : phaseTemperatureOutputs(names),
  };
  return { b, cond, total: batchRowCount(cond) };
}

export async function run(job: TaskJob<'equilibrium_batch'>, control: JobControl) {
  const batch = prepareBatch(job, control);
  const { b, cond, total } = batch;
  const writer = new BatchTableWriter(job.taskDir, b.names, b.ctx, total);
  let cancelled = false;
  try {
    solveRows(b, cond, writer);
  } catch (e) {
    if (!isCancel(e, control)) throw e;
    cancelled = true;
  }
  return writeBatchResult(job, batch, writer, cancelled);
}

/** The calculation was stopped by its cancel flag (not failed). */
export function isCancel(e: unknown, control: JobControl): boolean {
  return e instanceof CancelledError || isCoreError(e, 'PD_CANCELLED') || control.cancelled;
}

/**
 * result.csv, result.xlsx and result.json from the rows in the writer; `cancelled`: the rows done are kept and the
 * output is thrown as a CancelledError's (the service records the files on the stopped task).
 */
export async function writeBatchResult(
  job: TaskJob<'equilibrium_batch'>,
  { b }: PreparedBatch,
  writer: BatchTableWriter,
  cancelled: boolean,
): Promise<CalculationOutput> {
  const { sys, names } = b;
  const base = documentBase(job, 'equilibrium_batch', sys);
  const table = writer.finish(sys.elements);
  if (table.cells) await writeXlsx(job.taskDir, table.columns, table.cells);
  const files = table.cells ? [ROWS_FILE, CSV_FILE, XLSX_FILE] : [ROWS_FILE, CSV_FILE];
  const doc: EquilibriumBatchResult = {
    ...base,
    config: withTableDigest(base.config),
    complete: !cancelled,
    counts: writer.counts,
    columns: table.columns,
    outputs: names,
    files: { csv: CSV_FILE, jsonl: ROWS_FILE, ...(table.cells ? { xlsx: XLSX_FILE } : {}) },
    preview_rows: writer.preview,
    cp_definition: CP_DEFINITION,
    reference_states: { ...b.extras.references },
    quantity_notes: [
      ...b.extras.notes,
      ...(table.cells
        ? []
        : [`result.xlsx: not written for more than ${XLSX_MAX_ROWS} rows (result.csv has them all)`]),
    ],
  };
  writeResultFiles(job.taskDir, { json: doc });
  const c = writer.counts;
  const summary =
    (cancelled ? `stopped after ${c.done} of ${c.rows} row(s): ` : `${c.done} row(s): `) +
    `${c.ok} ok, ${c.not_converged} not converged, ${c.failed} failed`;
  const output = {
    summary,
    logs: [...sys.logs, `outputs ${names.join(', ')}`, summary, `written ${files.join(', ')}, result/result.json`],
  };
  // a cancel keeps the rows done: the files are complete for them, and the service records them on the stopped task
  if (cancelled) throw new CancelledError(output);
  return output;
}

/**
 * Rows per thread in a chunk, at least: the rows of a chunk are solved temperature by temperature, and each thread's
 * grids keep one temperature's energies, so the fewer times a thread leaves one temperature for another, the less it
 * computes them again. On the bench's alloys (3 temperatures) 16 rows per thread gave 9.4 ms of CPU per row, 128 gave
 * 8.1-8.4 and 512 8.0 (with about 80 and 240 MB more held: a chunk's results). A cancel waits for the chunk: 128 rows
 * of a 7-component alloy per thread, under a second.
 */
const MIN_ROWS_PER_THREAD = 128;
/**
 * ... and when the rows ask for T_liquidus or T_solidus: the searches of a chunk's alloys run together, stage by stage
 * (worker/scans/liquidus-batch.ts), and the more alloys a thread takes in a stage, the fewer times it leaves one stage's
 * temperatures for another's (a new temperature 50 K away costs twice the equilibrium). A cancel is seen between two
 * rounds of the searches, a few tens of ms apart.
 */
const MIN_ALLOY_ROWS_PER_THREAD = 96;

/**
 * Solves the rows chunk by chunk (about 100 ms each), writing each chunk's rows before the next starts; `range`: only
 * the rows [first, end) of the batch (0-based, a lab server's row chunk).
 */
export function solveRows(
  b: BatchContext,
  cond: Condition,
  writer: BatchTableWriter,
  range?: { first: number; end: number },
): void {
  const rows = batchRows(rowsCondition(cond, b.held));
  let index = 0;
  const first = range?.first ?? 0,
    end = range?.end ?? Infinity;
  const least = (b.alloy ? MIN_ALLOY_ROWS_PER_THREAD : MIN_ROWS_PER_THREAD) * b.threads;
  let size = least;
  let last: EquilibriumResult | undefined;
  for (;;) {
    if (b.control.cancelled) throw new CancelledError();
    const chunk: SolverRow[] = [];
    while (chunk.length < size && index < end) {
      const r = rows.next();
      if (r.done) break;
      if (index++ < first) continue;
      chunk.push(atFixedPhase(b, solverRow(b, r.value)));
    }
    if (chunk.length === 0) return;
    const t0 = performance.now();
    const results = solveChunk(b, chunk, last);
    if (b.alloy) alloysOf(b, chunk, results);
    for (const [i, row] of chunk.entries()) writeRow(b, writer, row, results[i]);
    writer.flush();
    for (const r of results) if (!(r instanceof Error) && r.converged) last = r;
    b.control.setProgress(writer.counts.done / Math.max(1, writer.counts.rows));
    b.control.setStage(`computing the rows: ${writer.counts.done} of ${writer.counts.rows} done`);
    size = Math.max(least, nextChunkSize(size, b.threads, performance.now() - t0, chunk.length));
  }
}

/** The row's mole fractions and solver conditions (a mass composition converted with the database's masses). */
function solverRow(b: BatchContext, input: BatchRowInput): SolverRow {
  const field = `row ${input.row}`;
  try {
    const map =
      input.unit === 'mass_fraction'
        ? massMapToMoleFractions(field, input.composition, b.sys.elements, b.masses())
        : input.composition;
    if (b.held.length === 0) {
      const comp = resolveCompositions(b.sys.elements, [{ field, value: map }]);
      return { input, x: comp.full[0]!, conditions: { T: input.T, P: input.P, X: comp.X[0]! } };
    }
    // an open system: the row's fractions of the other elements; the balance's and the held elements' are results
    const free = b.sys.elements.filter((e) => !b.held.includes(e));
    const X = resolveCompositions(free, [{ field, value: map }]).X[0]!;
    return { input, x: X, conditions: { T: input.T, P: input.P, X, MU: b.heldMU(input.T, input.P) } };
  } catch (e) {
    return { input, x: {}, error: (e as Error).message };
  }
}

/**
 * A row with a phase fixed at an amount: its temperature is the one nearest the row's at which the phase's amount
 * crosses it (worker/scans/fixed-phase.ts, as a point calculation's), the state taken on the phase's side of the
 * 0.01 K bracket; a row without such a temperature fails with the reason.
 */
function atFixedPhase(b: BatchContext, row: SolverRow): SolverRow {
  const f = b.fixed;
  const c = row.conditions;
  if (!f || !c) return row;
  const found = fixedPhaseTemperature(
    b.sys,
    c.X ?? {},
    c.P ?? 101325,
    { phase: f.phase, amount: f.amount, from: c.T },
    () => b.control.cancelled,
  );
  if (found instanceof Error)
    return { input: row.input, x: row.x, error: `condition.fixed_phases.${f.key}: ${found.message}` };
  return { ...row, conditions: { ...c, T: found.stateT } };
}

/**
 * The equilibria of a chunk across the threads, each warm-started from the row before it (the first from `last`).
 * A chunk the solver refuses as a whole is solved row by row, so one bad row fails alone.
 */
function solveChunk(b: BatchContext, chunk: SolverRow[], last?: EquilibriumResult): (EquilibriumResult | Error)[] {
  const solvable = temperatureMajor(chunk.filter((r) => r.conditions));
  const base = { database: b.sys.db, components: b.sys.components, phases: b.sys.phases };
  let solved: (EquilibriumResult | Error)[];
  try {
    solved = equilibriumBatch({
      ...base,
      conditions: solvable.map((r) => r.conditions!),
      options: { derivatives: POINT_DERIVATIVES, warmStart: true, ...(last?.converged ? { start: last } : {}) },
      threads: b.threads,
      control: new SharedArrayBuffer(CONTROL_BYTES),
    });
  } catch (e) {
    if (isCoreError(e, 'PD_CANCELLED')) throw e;
    solved = solvable.map((r) => {
      try {
        return equilibrium({ ...base, conditions: r.conditions!, options: { derivatives: POINT_DERIVATIVES } });
      } catch (err) {
        if (isCoreError(err, 'PD_CANCELLED')) throw err;
        return err as Error;
      }
    });
  }
  const byRow = new Map(solvable.map((r, k) => [r, numberedAsCold(b, r, solved[k]!)]));
  return chunk.map((r) => byRow.get(r) ?? new Error(r.error));
}

/**
 * A row whose answer holds a phase in two or more composition sets (a miscibility gap) solved again cold, as its
 * point calculation is: the sets of a gap are numbered in the order the solver met them, which a warm start from a
 * neighbouring row can change (an Al-Zn row's two FCC_A1 sets came out swapped), and a row must equal its point
 * calculation, labels included. Gaps are rare in a batch, so this costs little.
 */
function numberedAsCold(b: BatchContext, row: SolverRow, r: EquilibriumResult | Error): EquilibriumResult | Error {
  if (r instanceof Error || !r.converged || !r.phases.some((p) => p.setNumber > 1)) return r;
  const base = { database: b.sys.db, components: b.sys.components, phases: b.sys.phases };
  return equilibrium({ ...base, conditions: row.conditions!, options: { derivatives: POINT_DERIVATIVES } });
}

/**
 * The rows ordered by temperature and pressure, in their order within each (a stable sort). The solver's grids keep
 * the energies of the last (T, P) and each thread's warm start follows its rows (docs/engine.md), so the rows of a
 * table at a few temperatures, alloy by alloy, solved in their order changed the temperature at every row: one
 * temperature after the other spares the grids' energies and starts each row from an alloy at its own temperature.
 */
function temperatureMajor(rows: SolverRow[]): SolverRow[] {
  const at = (r: SolverRow) => r.conditions!;
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => at(a.r).T - at(b.r).T || (at(a.r).P ?? 101325) - (at(b.r).P ?? 101325) || a.i - b.i)
    .map((e) => e.r);
}

/** One row of the table from its equilibrium (or from why it has none). */
function writeRow(b: BatchContext, writer: BatchTableWriter, row: SolverRow, r: EquilibriumResult | Error): void {
  const { input } = row;
  const base = {
    row: input.row,
    ...(input.label !== undefined ? { label: input.label } : {}),
    input: { T: input.T, P: input.P, x: row.x },
  };
  if (r instanceof Error) {
    writer.add({ ...base, status: 'failed', reason: r.message });
    return;
  }
  let point: TablePoint;
  try {
    const p = pointWithCp(b.conv, r);
    b.extras.enrich(p, r);
    const alloy = b.alloy ? alloyOf(b, row) : undefined;
    point = alloy ? { ...p, T_liquidus: alloy.liquidus, T_solidus: alloy.solidus } : p;
    if (b.scheil && alloy) point = { ...point, T_scheil_end: scheilEndOf(b, row, alloy.liquidus) };
    if (b.phaseTs.solvus.length || b.phaseTs.tZero.length) point = { ...point, ...phaseTemperaturesOf(b, row) };
  } catch (e) {
    if (e instanceof CancelledError || isCoreError(e, 'PD_CANCELLED')) throw e;
    writer.add({ ...base, status: 'failed', reason: (e as Error).message });
    return;
  }
  const record: BatchRowRecord = {
    ...base,
    status: r.converged ? 'ok' : 'not_converged',
    reason: convergedNote(r),
    values: rowValues(point, b.names, b.ctx),
  };
  writer.add(record, point);
}

/** The key of a row's alloy: its mole fractions and pressure (rows of one alloy share the alloy's temperatures). */
const alloyKey = (c: EquilibriumConditions) => JSON.stringify([c.X, c.P]);

/**
 * The liquidus and solidus of the chunk's alloys not yet found, searched side by side (worker/scans/liquidus-batch.ts),
 * into b.alloyTs, which keeps those of the chunk before (an alloy's rows may straddle two chunks). Each alloy's scan,
 * when it needs one, starts from its first row's state.
 */
function alloysOf(b: BatchContext, chunk: SolverRow[], results: (EquilibriumResult | Error)[]): void {
  const cancelled = () => b.control.cancelled;
  const keys = new Set<string>();
  const jobs: AlloyJob[] = [];
  for (const [i, row] of chunk.entries()) {
    const c = row.conditions,
      r = results[i];
    if (!c || !r || r instanceof Error) continue;
    const key = alloyKey(c);
    if (keys.has(key)) continue;
    keys.add(key);
    if (b.alloyTs.has(key)) continue;
    const X = c.X ?? {},
      P = c.P ?? 101325;
    jobs.push({ key, X, P, scan: () => alloyTemperatures(b.sys, X, P, cancelled, undefined, undefined, c.T, r) });
  }
  const found = batchAlloyTemperatures(
    b.sys,
    jobs,
    (b.guesses ??= new GuessPool(liquidPhases(b.sys))),
    b.threads,
    cancelled,
  );
  const kept = [...b.alloyTs].filter(([key]) => keys.has(key));
  b.alloyTs = new Map([...kept, ...found]);
}

/** The liquidus and solidus of the row's alloy (alloysOf found them before the chunk's rows are written). */
function alloyOf(b: BatchContext, row: SolverRow): AlloyTemperatures {
  const value = b.alloyTs.get(alloyKey(row.conditions!));
  if (value === undefined) throw new Error('the liquidus and solidus of the alloy were not computed');
  if (value instanceof Error) throw value;
  return value;
}

/** The end of the Scheil path of the row's alloy (computed once for the rows of one alloy that follow each other). */
function scheilEndOf(b: BatchContext, row: SolverRow, liquidus: number | null): number | null {
  const c = row.conditions!;
  const key = alloyKey(c);
  if (b.lastScheil?.key === key) return b.lastScheil.value;
  const value = scheilEndTemperature(b.sys, c.X ?? {}, c.P ?? 101325, liquidus, b.control);
  b.lastScheil = { key, value };
  return value;
}

/** The T_solvus and T0 outputs at the row's composition, each searched from the row's temperature. */
function phaseTemperaturesOf(b: BatchContext, row: SolverRow): Pick<TablePoint, 'T_solvus' | 'T0'> {
  const c = row.conditions!;
  return phaseTemperatures(b.sys, b.phaseTs, { X: c.X ?? {}, P: c.P ?? 101325, T: c.T }, () => b.control.cancelled);
}

/**
 * The configuration as result.json records it: a table's CSV text by its length and sha256 (the text is the task's
 * input, kept with the task; result.json keeps a size that does not grow with the rows).
 */
function withTableDigest(config: Record<string, unknown>): Record<string, unknown> {
  const cond = config.condition as Condition;
  if (!cond.table) return config;
  const { csv, ...table } = cond.table;
  const digest = { csv_characters: csv.length, csv_sha256: createHash('sha256').update(csv).digest('hex') };
  return { ...config, condition: { ...cond, table: { ...table, ...digest } } };
}
