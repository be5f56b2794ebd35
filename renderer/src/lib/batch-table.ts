// The rows of a batch result (contract/results/equilibrium_batch.ts) as the Batch view shows them: the cells of a
// column, rows.jsonl read back, the rows kept by a filter, sorted by a column, and the columns that can be plotted.
// Pure TypeScript (tested in Node).
import type { BatchRowRecord } from '../../../contract/results/equilibrium_batch.js';
import type { ResultTable } from './results.js';

export type Cell = number | string | null;
export interface BatchColumn {
  name: string;
  unit: string;
}

/** Rows the view loads whole (sorting, filtering and plotting in the page); larger batches show their first rows. */
export const BATCH_VIEW_ROWS = 20_000;

/** The cell of a row in a column of result.csv (row, label, status, reason, the inputs, then the outputs). */
export function rowCell(r: BatchRowRecord, column: string): Cell {
  if (column === 'row') return r.row;
  if (column === 'label') return r.label ?? null;
  if (column === 'status') return r.status;
  if (column === 'reason') return r.reason;
  if (column === 'input_T') return r.input.T;
  if (column === 'input_P') return r.input.P;
  const el = /^input_x\((.+)\)$/.exec(column)?.[1];
  if (el) return r.input.x[el] ?? null;
  return r.values?.[column] ?? null;
}

/** rows.jsonl read back: one record per non-empty line (a line that is not JSON names its number). */
export function parseRowsJsonl(text: string): BatchRowRecord[] {
  const rows: BatchRowRecord[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      rows.push(JSON.parse(line) as BatchRowRecord);
    } catch {
      throw new Error(`rows.jsonl line ${i + 1} is not JSON`);
    }
  });
  return rows;
}

export interface BatchFilter {
  /** 'all' or a row status */
  status: string;
  /** text every kept row contains in some cell (case-insensitive); '' keeps all */
  text: string;
}

/** The rows the filter keeps, in their order. */
export function filterRows(rows: BatchRowRecord[], columns: BatchColumn[], f: BatchFilter): BatchRowRecord[] {
  const needle = f.text.trim().toLowerCase();
  return rows.filter(
    (r) =>
      (f.status === 'all' || r.status === f.status) &&
      (!needle ||
        columns.some((c) =>
          String(rowCell(r, c.name) ?? '')
            .toLowerCase()
            .includes(needle),
        )),
  );
}

/** The rows sorted by a column (numbers before text, empty cells last; stable), ascending or not. */
export function sortRows(rows: BatchRowRecord[], column: string, ascending: boolean): BatchRowRecord[] {
  const rank = (v: Cell) => (v === null || v === '' ? 2 : typeof v === 'number' ? 0 : 1);
  const sign = ascending ? 1 : -1;
  return rows
    .map((r, i) => ({ r, i, v: rowCell(r, column) }))
    .sort((a, b) => {
      const ra = rank(a.v),
        rb = rank(b.v);
      if (ra !== rb) return ra - rb;
      if (ra === 2) return a.i - b.i;
      const d = ra === 0 ? (a.v as number) - (b.v as number) : String(a.v).localeCompare(String(b.v));
      return d ? sign * d : a.i - b.i;
    })
    .map((x) => x.r);
}

/** Columns with a number in some row: what a plot can put on an axis (the inputs first, as in the table). */
export function numericColumns(rows: BatchRowRecord[], columns: BatchColumn[]): BatchColumn[] {
  return columns.filter((c) => c.name !== 'row' && rows.some((r) => typeof rowCell(r, c.name) === 'number'));
}

/** The table of rows for ResultTableView (and its CSV export). */
export function batchTable(rows: BatchRowRecord[], columns: BatchColumn[]): ResultTable {
  return { columns, rows: rows.map((r) => columns.map((c) => rowCell(r, c.name))) };
}

/**
 * The axes a plot of the rows opens with: x the input that varies most (a composition before the temperature, the
 * widest range of its values), y the first output.
 */
export function defaultAxes(rows: BatchRowRecord[], columns: BatchColumn[]): { x: string; y: string } {
  const spread = (name: string) => {
    let lo = Infinity,
      hi = -Infinity;
    for (const r of rows) {
      const v = rowCell(r, name);
      if (typeof v === 'number') {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
    return hi > lo ? (hi - lo) / Math.max(Math.abs(hi), Math.abs(lo)) : 0;
  };
  const inputs = columns
    .filter((c) => c.name.startsWith('input_x('))
    .concat(columns.filter((c) => c.name === 'input_T'));
  const x = inputs.reduce<BatchColumn | undefined>(
    (best, c) => (!best || spread(c.name) > spread(best.name) ? c : best),
    undefined,
  );
  const y = columns.find((c) => !c.name.startsWith('input_') && c.name !== 'row');
  return { x: x?.name ?? columns[0]?.name ?? '', y: y?.name ?? columns[1]?.name ?? '' };
}
