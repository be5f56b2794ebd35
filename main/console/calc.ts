// `phasedesk calc CONFIG.json --tdb FILE --out DIR [--threads N]`: runs one
// task_config without the service, for scripts and batch work. The configuration is validated with
// the same zod schemas as POST /task (main/requests/task-config.ts), the same worker/calculations/<task_type>
// module runs in this process with a JobControl, and it writes the same files the service would:
// DIR/result/result.json, DIR/result/result.csv, DIR/preview/<name>.svg + .png (+ DIR/vtk/ for the
// types that make VTK files).
//
// tdb_code: the database is the file given by --tdb, never a catalog entry, so tdb_code is optional
// here; when absent it is derived from the file name (the spec's legacy rule "a missing tdb_code is
// derived from the file name of tdb_file"), when present it is only validated. result.json records
// the file name and sha256 of --tdb with database code null (worker/results/common.ts provenance).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { OPEN_TASK_TYPES, validateTaskConfig } from '../requests/task-config.js';
import { CONTROL_BYTES, JobControl, type CalculationJob } from '../../worker/protocol.js';
import { loadCalculation } from '../../worker/index.js';
import { openDatabase } from '../../worker/core/database.js';
import { isDatabaseFileError } from '../../worker/core/errors.js';

export const CALC_USAGE = `usage: phasedesk calc CONFIG.json --tdb FILE --out DIR [--threads N]
  Runs a task_config (JSON, as in POST /task) without the service and writes DIR/result/result.json,
  DIR/result/result.csv and DIR/preview/*.svg|png. task_type: ${OPEN_TASK_TYPES.join(', ')}.
  tdb_code may be omitted (the database is FILE). --threads: OpenMP threads (default: all cores).`;

/** Bad input (usage, configuration): exit code 2. */
export class CalcInputError extends Error {}

export interface CalcOptions {
  config: string;
  tdb: string;
  out: string;
  threads?: number;
}

export interface CalcRun {
  taskType: string;
  summary: string | null;
  logs: string[];
  out: string;
}

/** Validates and runs one configuration; throws CalcInputError for bad input, Error for a failed calculation. */
export async function runCalc(o: CalcOptions): Promise<CalcRun> {
  let text: string;
  try {
    text = readFileSync(o.config, 'utf8');
  } catch (e) {
    throw new CalcInputError(`cannot read ${o.config}: ${(e as Error).message}`);
  }
  let cfg: unknown;
  try {
    cfg = JSON.parse(text);
  } catch (e) {
    throw new CalcInputError(`${o.config} is not valid JSON: ${(e as Error).message}`);
  }
  // A file holding a whole POST /task body ({title, task_config, ...}) is accepted too.
  if (cfg && typeof cfg === 'object' && !Array.isArray(cfg) && 'task_config' in cfg && !('task_type' in cfg)) {
    cfg = (cfg as { task_config: unknown }).task_config;
  }
  if (!cfg || typeof cfg !== 'object' || Array.isArray(cfg))
    throw new CalcInputError('task_config must be a JSON object');
  return runTaskConfig(cfg as Record<string, unknown>, o);
}

/**
 * Validates and runs a task_config read or built by a command (`calc`, `batch`); throws CalcInputError for bad
 * input, Error for a failed calculation.
 */
export async function runTaskConfig(cfg: Record<string, unknown>, o: Omit<CalcOptions, 'config'>): Promise<CalcRun> {
  const c = { ...cfg };
  const taskType = c.task_type;
  if (typeof taskType !== 'string') throw new CalcInputError('task_config.task_type is required');
  if (!(OPEN_TASK_TYPES as readonly string[]).includes(taskType)) {
    throw new CalcInputError(
      `task_config.task_type: unsupported task type '${taskType}' (one of ${OPEN_TASK_TYPES.join(', ')})`,
    );
  }
  if (!o.tdb) throw new CalcInputError('--tdb FILE is required');
  const tdb = path.resolve(o.tdb);
  if (!existsSync(tdb) || !statSync(tdb).isFile()) throw new CalcInputError(`--tdb ${o.tdb}: no such file`);
  const warnings = readableTdb(tdb, o.tdb);
  if (c.tdb_code === undefined) c.tdb_code = path.basename(tdb).replace(/\.tdb$/i, '');
  const v = validateTaskConfig(taskType, c);
  if (!v.ok) throw new CalcInputError(v.error);
  if (!o.out) throw new CalcInputError('--out DIR is required');
  const out = path.resolve(o.out);
  if (existsSync(out) && !statSync(out).isDirectory())
    throw new CalcInputError(`--out ${o.out} exists and is not a directory`);
  const threads = o.threads ?? availableParallelism();
  if (!Number.isInteger(threads) || threads < 1) throw new CalcInputError('--threads must be a positive integer');
  const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
  const job: CalculationJob = {
    taskUuid: randomUUID(),
    taskType,
    config: { ...v.value, tdb_file: tdb },
    ompThreads: threads,
    taskDir: out,
    control: control.buffer,
  };
  const run = await loadCalculation(taskType);
  if (!run) throw new CalcInputError(`task_config.task_type: unsupported task type '${taskType}'`);
  const r = await run(job, control);
  return { taskType, summary: r.summary, logs: [...warnings, ...r.logs], out };
}

/**
 * A TDB file that cannot be read (nothing usable in it, a bound of the reader, unreadable) is bad input: CalcInputError
 * naming FILE:LINE. Returns what the reader ignored or dropped, as log lines (at most 20, then a count).
 */
function readableTdb(file: string, given: string): string[] {
  let warnings: string[];
  try {
    warnings = openDatabase(file).info().warnings;
  } catch (e) {
    if (isDatabaseFileError(e)) throw new CalcInputError(`--tdb ${given}: ${e.message}`);
    throw e;
  }
  const shown = warnings.slice(0, 20).map((w) => `warning: ${w}`);
  if (warnings.length > shown.length) shown.push(`warning: ${warnings.length - shown.length} more in ${given}`);
  return shown;
}

/** CLI entry: prints logs (stderr) and the summary (stdout); returns the exit code. */
export async function calcCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        tdb: { type: 'string' },
        out: { type: 'string' },
        threads: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    console.error(`phasedesk calc: ${(e as Error).message}\n${CALC_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(CALC_USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(`phasedesk calc: give exactly one CONFIG.json\n${CALC_USAGE}`);
    return 2;
  }
  const threads = values.threads !== undefined ? Number(values.threads) : undefined;
  try {
    const r = await runCalc({ config: positionals[0], tdb: values.tdb ?? '', out: values.out ?? '', threads });
    for (const l of r.logs) console.error(l);
    console.log(r.summary ?? `${r.taskType} finished`);
    return 0;
  } catch (e) {
    if (e instanceof CalcInputError) {
      console.error(`phasedesk calc: ${e.message}`);
      return 2;
    }
    console.error(`phasedesk calc: calculation failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}
