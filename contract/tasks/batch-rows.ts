// The rows of an equilibrium_batch: given as a list (paired rows, each its own composition, temperature and
// pressure), as a product (every composition at every temperature, composition by composition) or as CSV text (one
// column per element, optional T, pressure and label columns). Read one at a time, so a long batch is never held as
// rows; the same reader checks a table at POST /task (a 400 naming the row, the column and the bound) and feeds the
// worker. Pure TypeScript.
import { nearestName } from '../phase-selection.js';
import { compositionProblem, conditionElements } from './common.js';
import { csvRecords, CsvSyntaxError, type CsvRecord } from './batch-csv.js';

export const TABLE_UNITS = ['mole_fraction', 'mass_fraction', 'mole_percent', 'mass_percent'] as const;
export type TableUnit = (typeof TABLE_UNITS)[number];
export type FractionUnit = 'mole_fraction' | 'mass_fraction';

/** What the rows are read from (the schema in contract/tasks/equilibrium_batch.ts guarantees these shapes). */
export interface BatchSourceCondition {
  components: string[];
  pressure: number;
  composition_unit?: FractionUnit;
  rows?: { compositions: Record<string, number>; temperature: number; pressure?: number; label?: string }[];
  product?: { compositions: Record<string, number>[]; temperatures: number[]; labels?: string[] };
  table?: { csv: string; unit?: TableUnit; temperatures?: number[] };
}

/** One row of a batch, as given (the composition in fractions of `unit`). */
export interface BatchRowInput {
  /** 1-based number of the row in the batch (the row of the result table) */
  row: number;
  label?: string;
  T: number;
  P: number;
  composition: Record<string, number>;
  unit: FractionUnit;
}

/** A row of a table that cannot be computed: `path` below task_config.condition, the message names row and column. */
export class BatchInputError extends Error {
  constructor(
    readonly path: (string | number)[],
    message: string,
  ) {
    super(message);
    this.name = 'BatchInputError';
  }
}

const CSV_PATH = ['table', 'csv'];
const TEMPERATURE_HEADERS = ['T', 'TEMPERATURE'];
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The columns of a table's header line. */
interface TableLayout {
  elements: { column: number; element: string; header: string }[];
  T?: number;
  P?: number;
  label?: number;
  width: number;
}

/** Rows of the batch: rows.length, compositions x temperatures, or the table's records (x temperatures). */
export function batchRowCount(c: BatchSourceCondition): number {
  if (c.rows) return c.rows.length;
  if (c.product) return c.product.compositions.length * c.product.temperatures.length;
  if (!c.table) return 0;
  let records = -1; // the header
  for (const _ of csvRecords(c.table.csv)) records++;
  return Math.max(0, records) * (c.table.temperatures?.length ?? 1);
}

/** The rows in order. A table's problems are thrown as BatchInputError (its syntax too). */
export function* batchRows(c: BatchSourceCondition): Generator<BatchRowInput> {
  const unit = c.composition_unit ?? 'mole_fraction';
  if (c.rows) {
    let row = 0;
    for (const r of c.rows) {
      row++;
      const P = r.pressure ?? c.pressure;
      yield { row, T: r.temperature, P, composition: r.compositions, unit, ...(r.label ? { label: r.label } : {}) };
    }
  } else if (c.product) {
    const { compositions, temperatures, labels } = c.product;
    let row = 0;
    for (const [i, composition] of compositions.entries()) {
      const label = labels?.[i];
      for (const T of temperatures)
        yield { row: ++row, T, P: c.pressure, composition, unit, ...(label ? { label } : {}) };
    }
  } else if (c.table) yield* tableRows(c.table, conditionElements(c.components), c.pressure);
}

/** The records of a table as rows: its header read, every field checked. */
function* tableRows(
  table: NonNullable<BatchSourceCondition['table']>,
  elements: string[],
  pressure: number,
): Generator<BatchRowInput> {
  const unit = table.unit ?? 'mole_fraction';
  const records = csvSyntaxChecked(csvRecords(table.csv));
  const first = records.next();
  if (first.done)
    throw new BatchInputError(CSV_PATH, 'has no header line (one column per element, T, pressure, label)');
  const layout = readHeader(first.value, elements);
  if (layout.T !== undefined && table.temperatures)
    throw new BatchInputError(['table', 'temperatures'], 'must be absent when the table has a T column');
  if (layout.T === undefined && !table.temperatures)
    throw new BatchInputError(CSV_PATH, 'has no T column: give one (K) or table.temperatures');
  let row = 0;
  let any = false;
  for (const rec of records) {
    any = true;
    const at = (n: number) => `row ${n} (line ${rec.line})`;
    const number = row + 1;
    if (rec.fields.length !== layout.width)
      throw new BatchInputError(CSV_PATH, `${at(number)}: has ${rec.fields.length} fields, the header ${layout.width}`);
    const read = new FieldReader(rec, at(number));
    const composition = read.composition(layout, elements, unit);
    const P = layout.P === undefined ? pressure : read.positive(layout.P, 'pressure', 'Pa');
    const label = layout.label === undefined ? undefined : rec.fields[layout.label];
    const base = { P, composition, unit: unit.startsWith('mass') ? 'mass_fraction' : 'mole_fraction' } as const;
    const temperatures = layout.T === undefined ? table.temperatures! : [read.positive(layout.T, 'T', 'K')];
    for (const T of temperatures) yield { row: ++row, T, ...base, ...(label ? { label } : {}) };
  }
  if (!any) throw new BatchInputError(CSV_PATH, 'has a header line but no rows');
}

/** The records, a syntax error becoming a BatchInputError naming the line. */
function* csvSyntaxChecked(records: Generator<CsvRecord>): Generator<CsvRecord> {
  try {
    yield* records;
  } catch (e) {
    if (e instanceof CsvSyntaxError) throw new BatchInputError(CSV_PATH, `is not valid CSV: ${e.message}`);
    throw e;
  }
}

/** The columns of the header: each an element of condition.components, T, pressure or label, each once. */
function readHeader(rec: CsvRecord, elements: string[]): TableLayout {
  const layout: TableLayout = { elements: [], width: rec.fields.length };
  const seen = new Map<string, number>();
  rec.fields.forEach((raw, column) => {
    const name = raw.trim();
    const key = name.toUpperCase();
    const where = `header (line ${rec.line}), column ${column + 1} '${name}'`;
    const kind = TEMPERATURE_HEADERS.includes(key) ? 'T' : key === 'PRESSURE' ? 'P' : key === 'LABEL' ? 'label' : key;
    if (seen.has(kind)) throw new BatchInputError(CSV_PATH, `${where}: repeats column ${seen.get(kind)! + 1}`);
    seen.set(kind, column);
    if (kind === 'T' || kind === 'P' || kind === 'label') layout[kind] = column;
    else if (elements.includes(key)) layout.elements.push({ column, element: key, header: name });
    else {
      const known = [...elements, 'T', 'pressure', 'label'];
      const nearest = nearestName(name, known);
      throw new BatchInputError(
        CSV_PATH,
        `${where}: is not one of condition.components (${elements.join(', ')}), T, pressure or label${nearest ? ` (nearest: ${nearest})` : ''}`,
      );
    }
  });
  if (layout.elements.length === 0)
    throw new BatchInputError(CSV_PATH, `header (line ${rec.line}): has no composition column (one per element)`);
  return layout;
}

/** The numbers of one record, each error naming the row and the column. */
class FieldReader {
  constructor(
    private readonly rec: CsvRecord,
    private readonly at: string,
  ) {}

  number(column: number, name: string): number {
    const text = this.rec.fields[column]!.trim();
    if (text === '') throw new BatchInputError(CSV_PATH, `${this.at}, column ${name}: is empty`);
    if (!NUMBER.test(text))
      throw new BatchInputError(CSV_PATH, `${this.at}, column ${name}: must be a number (got '${text.slice(0, 40)}')`);
    return Number(text);
  }

  positive(column: number, name: string, unit: string): number {
    const v = this.number(column, name);
    if (!(v > 0) || !Number.isFinite(v))
      throw new BatchInputError(CSV_PATH, `${this.at}, column ${name}: must be greater than 0 ${unit}`);
    return v;
  }

  /** The row's composition in fractions (percent divided by 100), checked as every composition map is. */
  composition(layout: TableLayout, elements: string[], unit: TableUnit): Record<string, number> {
    const percent = unit.endsWith('percent');
    const top = percent ? 100 : 1;
    const what = unit.replace('_', ' ') + 's';
    const composition: Record<string, number> = {};
    for (const { column, element, header } of layout.elements) {
      const v = this.number(column, header);
      if (!(v >= 0 && v <= top))
        throw new BatchInputError(CSV_PATH, `${this.at}, column ${header}: must be between 0 and ${top} (${what})`);
      composition[element] = percent ? v / 100 : v;
    }
    const fractions = `${unit.startsWith('mass') ? 'mass' : 'mole'} ${percent ? 'percents / 100' : 'fractions'}`;
    const r = compositionProblem(elements, composition, fractions);
    if ('problem' in r) {
      const column = r.problem.key ? `, column ${r.problem.key}` : '';
      throw new BatchInputError(CSV_PATH, `${this.at}${column}: ${r.problem.message}`);
    }
    return composition;
  }
}
