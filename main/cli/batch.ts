// `phasedesk batch TABLE.csv|TABLE.xlsx (--tdb FILE | --db CODE) --out DIR [...]`: an equilibrium_batch of a table without
// the service, as `phasedesk calc` runs a task_config (main/console/calc.ts): the options become the task_config,
// validated by the same schema as POST /task (a bad row is bad input, exit code 2, naming row and column), and the
// same calculation writes DIR/result/result.csv, rows.jsonl and result.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CalcInputError, runTaskConfig } from '../console/calc.js';
import { csvRecords, sheetToCsv } from '../../contract/tasks/batch-csv.js';
import { TABLE_UNITS } from '../../contract/tasks/batch-rows.js';
import { PACKAGE_ROOT } from '../util/package-root.js';

export const BATCH_USAGE = `usage: phasedesk batch TABLE.csv|TABLE.xlsx (--tdb FILE | --db CODE) --out DIR [options]
  One equilibrium per row of TABLE (a header line: one column per element, optional T [K], pressure [Pa] and label
  columns; of a workbook, its first sheet), written to DIR/result/result.csv (the merged table), DIR/result/rows.jsonl and result.json.
  --db CODE              a database of the bundled catalog (databases/catalog.json) instead of --tdb FILE
  --components EL,...    the system's elements (default: the table's element columns, and --balance)
  --balance EL           the element no column gives (1 minus the others), e.g. --balance AL
  --unit UNIT            ${TABLE_UNITS.join(', ')} (default mole_fraction)
  --temperatures T,...   every row at each of these temperatures, K (when the table has no T column)
  --pressure PA          the pressure of the rows without a pressure column (default 101325)
  --outputs NAME,...     output names of the point vocabulary, e.g. 'NP(*),x(*,*),G,T_liquidus,T_solidus'
  --inhibit ENTRY,...    phases, patterns and @groups left out (condition.inhibit_phases)
  --threads N            OpenMP threads (default: all cores)`;

const RESERVED = new Set(['T', 'TEMPERATURE', 'PRESSURE', 'LABEL']);

/** A comma-separated option, split at the commas outside parentheses (x(*,*) is one output name). */
export function splitList(text: string): string[] {
  const out: string[] = [];
  let depth = 0,
    from = 0;
  for (let i = 0; i <= text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if ((ch === ',' && depth === 0) || i === text.length) {
      const item = text.slice(from, i).trim();
      if (item) out.push(item);
      from = i + 1;
    }
  }
  return out;
}

/**
 * The table as CSV text: a .xlsx file's first sheet (read-excel-file; a file that is no workbook is bad input), any
 * other file as it is.
 */
async function readTable(file: string): Promise<string> {
  if (/\.xlsx$/i.test(file)) {
    const { readSheet } = await import('read-excel-file/node');
    try {
      return sheetToCsv(await readSheet(file));
    } catch (e) {
      throw new CalcInputError(`cannot read ${file} as a workbook (.xlsx): ${(e as Error).message}`);
    }
  }
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new CalcInputError(`cannot read ${file}: ${(e as Error).message}`);
  }
}

/** The file of a code of the bundled catalog (case-insensitive). */
function catalogFile(code: string): string {
  const catalog = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'databases', 'catalog.json'), 'utf8')) as {
    code: string;
    file: string;
  }[];
  const e = catalog.find((d) => d.code.toUpperCase() === code.toUpperCase());
  if (!e)
    throw new CalcInputError(`--db ${code}: not in the bundled catalog (${catalog.map((d) => d.code).join(', ')})`);
  return path.join(PACKAGE_ROOT, e.file);
}

/** The element columns of the table's header (every column but T, temperature, pressure and label). */
function headerElements(csv: string): string[] {
  const first = csvRecords(csv).next();
  if (first.done) return [];
  return first.value.fields.map((f) => f.trim().toUpperCase()).filter((f) => f && !RESERVED.has(f));
}

type Values = Record<string, string | undefined>;

/** The task_config of the options. */
function batchConfig(csv: string, v: Values, tdbCode: string): Record<string, unknown> {
  const numbers = (name: string, text: string) =>
    splitList(text).map((t) => {
      const n = Number(t);
      if (!Number.isFinite(n)) throw new CalcInputError(`--${name}: '${t}' is not a number`);
      return n;
    });
  const components = v.components
    ? splitList(v.components)
    : [...headerElements(csv), ...(v.balance ? [v.balance.toUpperCase()] : [])];
  const condition: Record<string, unknown> = {
    components,
    pressure: v.pressure !== undefined ? numbers('pressure', v.pressure)[0] : 101325,
    table: {
      csv,
      ...(v.unit ? { unit: v.unit } : {}),
      ...(v.temperatures ? { temperatures: numbers('temperatures', v.temperatures) } : {}),
    },
    ...(v.outputs ? { thermo_outputs: splitList(v.outputs) } : {}),
    ...(v.inhibit ? { inhibit_phases: splitList(v.inhibit) } : {}),
  };
  return { task_type: 'equilibrium_batch', tdb_code: tdbCode, condition };
}

/** CLI entry: prints logs (stderr) and the summary (stdout); returns the exit code (2 bad input, 1 failed). */
export async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    const text = { type: 'string' } as const;
    parsed = parseArgs({
      args: argv.slice(1),
      allowPositionals: true,
      strict: true,
      options: {
        ...Object.fromEntries(
          [
            'tdb',
            'db',
            'out',
            'components',
            'balance',
            'unit',
            'temperatures',
            'pressure',
            'outputs',
            'inhibit',
            'threads',
          ].map((k) => [k, text]),
        ),
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    console.error(`phasedesk batch: ${(e as Error).message}\n${BATCH_USAGE}`);
    return 2;
  }
  const v = parsed.values as Values & { help?: boolean };
  if (v.help) {
    console.log(BATCH_USAGE);
    return 0;
  }
  try {
    if (parsed.positionals.length !== 1) throw new CalcInputError('give exactly one TABLE.csv or TABLE.xlsx');
    if ((v.tdb === undefined) === (v.db === undefined))
      throw new CalcInputError('give one of --tdb FILE and --db CODE');
    const tdb = v.tdb ?? catalogFile(v.db!);
    const csv = await readTable(parsed.positionals[0]!);
    const cfg = batchConfig(csv, v, v.db ?? path.basename(tdb).replace(/\.tdb$/i, ''));
    const threads = v.threads !== undefined ? Number(v.threads) : undefined;
    const r = await runTaskConfig(cfg, { tdb, out: v.out ?? '', threads });
    for (const l of r.logs) console.error(l);
    console.log(r.summary ?? 'equilibrium_batch finished');
    return 0;
  } catch (e) {
    if (e instanceof CalcInputError) {
      console.error(`phasedesk batch: ${e.message}\n${BATCH_USAGE.split('\n')[0]}`);
      return 2;
    }
    console.error(`phasedesk batch: calculation failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}
