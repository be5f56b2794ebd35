// `phasedesk calc CONFIG.json --tdb FILE --out DIR [--threads N]`: runs one
// task_config without the service, for scripts and batch work. The configuration is validated with
// the same zod schemas as POST /task (main/requests/task-config.ts), the same worker/calculations/<task_type>
// module runs in this process with a JobControl, and it writes the same files the service would:
// DIR/result/result.json, DIR/result/result.csv, DIR/preview/<name>.svg + .png (+ DIR/vtk/ for the
// types that make VTK files).
//
// The database: --tdb FILE, tdb_code then optional (when absent it is derived from the file name, the spec's legacy
// rule "a missing tdb_code is derived from the file name of tdb_file"; when present it is only validated), and
// result.json records the file name and sha256 with database code null (worker/results/common.ts provenance). Or
// --db CODE (or the configuration's tdb_code when neither is given): the data directory's or the bundled catalog's
// database of that code (main/console/calc-database.ts), with its recommended phase selection as the service uses
// it, and result.json records the code.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { OPEN_TASK_TYPES, validateTaskConfig } from '../requests/task-config.js';
import { databaseRefusal } from '../requests/database-checks.js';
import { CONTROL_BYTES, JobControl, type CalculationJob } from '../../worker/protocol.js';
import { loadCalculation } from '../../worker/index.js';
import { openDatabase } from '../../worker/core/database.js';
import { cachedDatabase } from '../../worker/system/system.js';
import { isDatabaseFileError } from '../../worker/core/errors.js';

export const CALC_USAGE = `usage: phasedesk calc CONFIG.json (--tdb FILE | --db CODE) --out DIR [--threads N] [--data-dir DIR]
  Runs a task_config (JSON, as in POST /task) without the service and writes DIR/result/result.json,
  DIR/result/result.csv and DIR/preview/*.svg|png. task_type: ${OPEN_TASK_TYPES.join(', ')}.
  --tdb FILE: that TDB file (tdb_code may be omitted). --db CODE: the database of that code that the service of
  --data-dir (PHASEDESK_DATA_DIR) has imported, else the bundled one, with its recommended phase selection; without
  either, the configuration's tdb_code. --mobility-tdb FILE: a file of mobility data (MQ, MF, DQ, DF) read beside
  the database (else the configuration's mobility_tdb_code, as --db). --threads: OpenMP threads (default: all cores).
  Exit codes: 0 done, 1 the calculation failed, 2 bad input.`;

/** Bad input (usage, configuration): exit code 2. */
export class CalcInputError extends Error {}

export interface CalcOptions {
  config: string;
  /** a TDB file, or */
  tdb?: string;
  /** a database code (main/console/calc-database.ts), or neither: the configuration's tdb_code */
  db?: string;
  /** a file of mobility data read beside the database, or the configuration's mobility_tdb_code */
  mobilityTdb?: string;
  dataDir?: string;
  out: string;
  threads?: number;
}

/** The database a calculation reads: the file, and for a code its catalog record (code, hash, selection). */
interface CalcDatabase {
  file: string;
  given: string;
  database?: CalculationJob['database'];
}

/** --tdb FILE, else --db CODE (or the configuration's tdb_code) through the data directory or the bundled catalog. */
async function calcDatabase(o: Omit<CalcOptions, 'config'>, configCode: unknown): Promise<CalcDatabase> {
  if (o.tdb && o.db) throw new CalcInputError('give --tdb FILE or --db CODE, not both');
  const code = o.db || (!o.tdb && typeof configCode === 'string' && configCode !== '' ? configCode : undefined);
  if (!o.tdb && !code)
    throw new CalcInputError('--tdb FILE or --db CODE is required (or tdb_code in the configuration)');
  if (o.tdb) {
    const file = path.resolve(o.tdb);
    if (!existsSync(file) || !statSync(file).isFile()) throw new CalcInputError(`--tdb ${o.tdb}: no such file`);
    return { file, given: o.tdb };
  }
  const { databaseOfCode } = await import('./calc-database.js');
  let db;
  try {
    db = await databaseOfCode(code!, o.dataDir);
  } catch (e) {
    throw new CalcInputError((e as Error).message);
  }
  if (!existsSync(db.file))
    throw new CalcInputError(`--db ${code}: the file of database ${db.code} is missing (${db.file})`);
  const sha256 = db.sha256 ?? createHash('sha256').update(readFileSync(db.file)).digest('hex');
  return { file: db.file, given: db.code, database: { code: db.code, sha256, phase_selection: db.selection } };
}

/** --mobility-tdb FILE, else the configuration's mobility_tdb_code through the catalog; undefined without either. */
async function calcMobility(o: Omit<CalcOptions, 'config'>, configCode: unknown): Promise<string | undefined> {
  if (o.mobilityTdb) {
    const file = path.resolve(o.mobilityTdb);
    if (!existsSync(file) || !statSync(file).isFile())
      throw new CalcInputError(`--mobility-tdb ${o.mobilityTdb}: no such file`);
    return file;
  }
  if (typeof configCode !== 'string' || configCode === '') return undefined;
  const { databaseOfCode } = await import('./calc-database.js');
  try {
    return (await databaseOfCode(configCode, o.dataDir)).file;
  } catch (e) {
    throw new CalcInputError(`task_config.mobility_tdb_code: ${(e as Error).message}`);
  }
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
  const db = await calcDatabase(o, c.tdb_code);
  const tdb = db.file;
  const mobility = await calcMobility(o, c.mobility_tdb_code);
  const { warnings, lists } = readableTdb(tdb, db.given, mobility);
  if (db.database) c.tdb_code = db.database.code;
  else if (c.tdb_code === undefined) c.tdb_code = path.basename(tdb).replace(/\.tdb$/i, '');
  const v = validateTaskConfig(taskType, c);
  if (!v.ok) throw new CalcInputError(v.error);
  // the elements and phases of the file, as POST /task checks them against the database record
  const refusal = databaseRefusal((v.value.condition ?? {}) as Record<string, unknown>, {
    ...lists,
    code: db.database?.code ?? path.basename(tdb),
    selection: db.database?.phase_selection ?? null,
  });
  if (refusal) throw new CalcInputError(refusal);
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
    config: { ...v.value, tdb_file: tdb, ...(mobility ? { mobility_tdb_file: mobility } : {}) },
    ...(db.database ? { database: db.database } : {}),
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
 * naming FILE:LINE. Returns what the reader ignored or dropped, as log lines (at most 20, then a count), and the
 * file's elements and phases. The database is opened through the calculation's cache of opened databases
 * (worker/system/system.ts), so the calculation reads this handle instead of opening and holding a second one (MF
 * Steel: 17 MB of native memory and 0.16 s).
 */
function readableTdb(
  file: string,
  given: string,
  mobility?: string,
): { warnings: string[]; lists: { elements: string[]; phases: string[] } } {
  let info;
  try {
    info = cachedDatabase(file, mobility).info();
  } catch (e) {
    if (!isDatabaseFileError(e)) throw e;
    // which of the two files was refused: the database read alone
    const option = mobility && databaseReads(file) ? '--mobility-tdb' : '--tdb';
    throw new CalcInputError(`${option} ${option === '--tdb' ? given : mobility}: ${e.message}`);
  }
  const warnings = info.warnings;
  const shown = warnings.slice(0, 20).map((w) => `warning: ${w}`);
  if (warnings.length > shown.length) shown.push(`warning: ${warnings.length - shown.length} more in ${given}`);
  const lists = { elements: info.elements.map((e) => e.name), phases: info.phases.map((p) => p.name) };
  return { warnings: shown, lists };
}

/** Whether the TDB file alone can be read (a refused file throws a database file error). */
function databaseReads(file: string): boolean {
  try {
    openDatabase(file).info();
    return true;
  } catch (e) {
    if (isDatabaseFileError(e)) return false;
    throw e;
  }
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
        db: { type: 'string' },
        'mobility-tdb': { type: 'string' },
        'data-dir': { type: 'string' },
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
    const r = await runCalc({
      config: positionals[0],
      tdb: values.tdb,
      db: values.db,
      mobilityTdb: values['mobility-tdb'],
      dataDir: values['data-dir'],
      out: values.out ?? '',
      threads,
    });
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
