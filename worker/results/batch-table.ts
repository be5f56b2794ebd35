// The merged table of an equilibrium_batch, written as the rows finish: result/rows.jsonl gets one line per row at
// once (each row with the columns of its own point, as a point calculation's table gives them), and at the end
// result/result.csv is written from it in one streaming pass, with the columns of every row merged. What is kept in
// memory does not grow with the rows: the shape of the points met (phase labels, their sublattice constituents,
// the metastable phases), which the merged columns are resolved from, the counts and the first rows. result.xlsx
// (batches of at most XLSX_MAX_ROWS rows) holds the same table as a spreadsheet.
import { closeSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import writeXlsxFile from 'write-excel-file/node';
import { columnHeading, csvCell, csvHeader, phaseLabel, type PhaseRecord } from '../../contract/results/common.js';
import {
  buildTable,
  resolveColumns,
  type Column,
  type TableContext,
  type TablePoint,
} from '../../contract/results/outputs/columns.js';
import { BATCH_PREVIEW_ROWS, type BatchCounts, type BatchRowRecord } from '../../contract/results/equilibrium_batch.js';

export const ROWS_FILE = 'result/rows.jsonl';
export const CSV_FILE = 'result/result.csv';
export const XLSX_FILE = 'result/result.xlsx';
/** Rows a result.xlsx is written for (one worksheet built in memory; result.csv streams any number). */
export const XLSX_MAX_ROWS = 50_000;

type Cell = number | string | null;
/** bytes gathered before a write */
const WRITE_BUFFER = 1 << 20;

const PHASE_RECORD_FIELDS = ['GM_formation', 'VM', 'TC', 'BMAGN', 'degree_of_ordering', 'ordering'] as const;

/** A phase label met: its set, the constituents of each sublattice in the order met, the fields it carried. */
interface LabelShape {
  name: string;
  composition_set: number;
  sublattices: string[][];
  fields: Partial<PhaseRecord>;
}

/**
 * The union of what the points of a table show, as one point: resolveColumns gives for it the columns (and their
 * order) it gives for all the points together, since `*` expands over the labels, constituents and metastable
 * phases met.
 */
export class PointShapes {
  private readonly labels = new Map<string, LabelShape>();
  private readonly metastable = new Set<string>();

  add(p: TablePoint): void {
    for (const q of p.phases) {
      const label = phaseLabel(q);
      let s = this.labels.get(label);
      if (!s) {
        s = { name: q.name, composition_set: q.composition_set, sublattices: [], fields: {} };
        this.labels.set(label, s);
      }
      q.site_fractions.forEach((sub, i) => {
        const have = (s.sublattices[i] ??= []);
        for (const sp of Object.keys(sub)) if (!have.includes(sp)) have.push(sp);
      });
      for (const f of PHASE_RECORD_FIELDS)
        if (q[f] !== undefined && s.fields[f] === undefined) s.fields[f] = q[f] as never;
    }
    for (const m of p.metastable) this.metastable.add(m.name);
  }

  point(): TablePoint {
    return {
      ...EMPTY_POINT,
      phases: [...this.labels.values()].map((s) => ({
        ...EMPTY_PHASE,
        ...s.fields,
        name: s.name,
        composition_set: s.composition_set,
        label: phaseLabel(s),
        site_fractions: s.sublattices.map((sps) => Object.fromEntries(sps.map((sp) => [sp, 0]))),
      })),
      metastable: [...this.metastable].map((name) => ({ name, driving_force: 0, x: {}, GM: 0 })),
    };
  }
}

const EMPTY_PHASE = { amount: 0, x: {}, GM: 0, HM: 0, SM: 0, CPM: 0 };
/** A point without phases: a column of a phase the row does not have takes its value here (NP 0, others empty). */
const EMPTY_POINT: TablePoint = {
  T: 0,
  P: 0,
  x: {},
  converged: true,
  reason: '',
  GM: 0,
  HM: 0,
  SM: 0,
  CPM: 0,
  MU: {},
  phases: [],
  metastable: [],
};

/** The row's own output columns and values (the table a point calculation of that row gives). */
export function rowValues(
  point: TablePoint,
  names: readonly string[],
  ctx: TableContext,
): Record<string, number | string | null> {
  const t = buildTable([point], names, ctx);
  return Object.fromEntries(t.columns.map((c, i) => [c.name, t.rows[0]![i]!]));
}

/** Writes the rows as they come and the merged CSV at the end. */
export class BatchTableWriter {
  readonly counts: BatchCounts;
  readonly preview: BatchRowRecord[] = [];
  private readonly shapes = new PointShapes();
  private fd: number | null;
  private pending = '';

  constructor(
    private readonly dir: string,
    private readonly names: readonly string[],
    private readonly ctx: TableContext,
    rows: number,
    /** where the rows go (a lab server's row chunk writes them to a stage file of its own) */
    private readonly rowsFile = join(dir, ROWS_FILE),
  ) {
    mkdirSync(dirname(rowsFile), { recursive: true });
    this.fd = openSync(rowsFile, 'w');
    this.counts = { rows, done: 0, ok: 0, not_converged: 0, failed: 0 };
  }

  /** One finished row; `point` is its equilibrium (absent for a failed row). */
  add(record: BatchRowRecord, point?: TablePoint): void {
    if (point) this.shapes.add(point);
    this.counts.done++;
    this.counts[record.status]++;
    if (this.preview.length < BATCH_PREVIEW_ROWS) this.preview.push(record);
    this.pending += JSON.stringify(record) + '\n';
    if (this.pending.length >= WRITE_BUFFER) this.flush();
  }

  /** The rows of an earlier run (a lab server's stored row chunk) and the shape of their points (PointShapes.point). */
  addStored(records: Iterable<BatchRowRecord>, shapes: TablePoint): void {
    for (const r of records) this.add(r);
    this.shapes.add(shapes);
  }

  /** What the points met so far show, as one point (kept with a stored row chunk). */
  shapesPoint(): TablePoint {
    return this.shapes.point();
  }

  /** Writes what is gathered and closes the rows file (a row chunk's: no CSV). */
  close(): void {
    this.flush();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /** Writes what is gathered to rows.jsonl (also between chunks, so a stopped process leaves the rows done). */
  flush(): void {
    if (this.fd === null || this.pending.length === 0) return;
    writeSync(this.fd, this.pending);
    this.pending = '';
  }

  /**
   * Closes rows.jsonl and writes result.csv from it; returns the CSV's columns and, for a batch of at most
   * XLSX_MAX_ROWS rows, its cells for result.xlsx (writeXlsx).
   */
  finish(elements: readonly string[]): { columns: { name: string; unit: string }[]; cells: Cell[][] | null } {
    this.close();
    const outputs = resolveColumns(this.names, [this.shapes.point()], this.ctx);
    const columns = [...leadingColumns(elements), ...outputs.map((c) => ({ name: c.name, unit: c.unit }))];
    const cells: Cell[][] | null = this.counts.done <= XLSX_MAX_ROWS ? [] : null;
    const out = openSync(join(this.dir, CSV_FILE), 'w');
    try {
      let text = csvHeader(columns) + '\r\n';
      const defaults = outputs.map((c) => c.value(EMPTY_POINT));
      forEachLine(this.rowsFile, (line) => {
        const row = rowCells(JSON.parse(line) as BatchRowRecord, elements, outputs, defaults);
        cells?.push(row);
        text += row.map(csvCell).join(',') + '\r\n';
        if (text.length >= WRITE_BUFFER) {
          writeSync(out, text);
          text = '';
        }
      });
      writeSync(out, text);
    } finally {
      closeSync(out);
    }
    return { columns, cells };
  }
}

/**
 * result.xlsx: the table of result.csv as one worksheet, the header row frozen, numbers as numbers (write-excel-file).
 * The workbook is built in memory, so only batches of at most XLSX_MAX_ROWS rows get one (result.csv has every row).
 */
export async function writeXlsx(
  dir: string,
  columns: { name: string; unit: string }[],
  cells: Cell[][],
): Promise<void> {
  const header = columns.map((c) => ({ value: columnHeading(c), fontWeight: 'bold' as const }));
  const data = [header, ...cells];
  await writeXlsxFile(data, { sheet: 'rows', stickyRowsCount: 1 }).toFile(join(dir, XLSX_FILE));
}

function rowCells(
  r: BatchRowRecord,
  elements: readonly string[],
  outputs: readonly Column[],
  defaults: readonly (number | string | null)[],
): Cell[] {
  const cells: Cell[] = [
    r.row,
    r.label ?? null,
    r.status,
    r.reason,
    r.input.T,
    r.input.P,
    ...elements.map((e) => r.input.x[e] ?? null),
  ];
  const values = r.values;
  outputs.forEach((c, i) => {
    cells.push(values === undefined ? null : c.name in values ? values[c.name]! : defaults[i]!);
  });
  return cells;
}

/** The columns before the outputs: the row, its label and status, and its conditions. */
function leadingColumns(elements: readonly string[]): { name: string; unit: string }[] {
  return [
    { name: 'row', unit: '' },
    { name: 'label', unit: '' },
    { name: 'status', unit: '' },
    { name: 'reason', unit: '' },
    { name: 'input_T', unit: 'K' },
    { name: 'input_P', unit: 'Pa' },
    ...elements.map((e) => ({ name: `input_x(${e})`, unit: 'mol/mol' })),
  ];
}

/** Calls `f` with each line of a file, read in blocks (the file is never held whole). */
export function forEachLine(file: string, f: (line: string) => void): void {
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(WRITE_BUFFER);
  let rest = '';
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      // a character cut at the block's end is completed by the next block: decode whole lines only
      const text = rest + buf.toString('latin1', 0, n);
      const lines = text.split('\n');
      rest = lines.pop()!;
      for (const l of lines) if (l) f(Buffer.from(l, 'latin1').toString('utf8'));
    }
    if (rest) f(Buffer.from(rest, 'latin1').toString('utf8'));
  } finally {
    closeSync(fd);
  }
}
