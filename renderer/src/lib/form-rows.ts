// The rows of a `rows` field of the new-task form (taskforms.ts): a list of objects (an aging task's precipitates,
// its schedule) or a record of objects (diffusivities per element) typed one row per object and one cell per
// property. A row holds what its cells hold (numbers in the API's units, the choice of an enumeration, text); a
// record's row also holds its key under ROW_KEY. This module turns rows into the task_config's value and back, and
// names the row of a validation issue.
import { fieldLabel, type FieldSpec } from './taskforms.js';

export type Row = Record<string, unknown>;

/** Where a record's row keeps its key (no schema property starts with $). */
export const ROW_KEY = '$key';

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A cell's value as the schema takes it: blank is absent, numbers stay numbers, a word that is not one stays text. */
export function cellValue(c: FieldSpec, v: unknown): unknown {
  if (blank(v)) return undefined;
  if (c.kind === 'number') {
    if (typeof v === 'number') return Number.isNaN(v) ? undefined : v;
    const n = Number(String(v).trim());
    return Number.isFinite(n) ? n : String(v).trim();
  }
  if (c.kind === 'boolean') return v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined;
  return typeof v === 'string' ? v.trim() : v;
}

function setAt(o: Row, path: string, v: unknown): void {
  const parts = path.split('.');
  let at = o;
  for (const p of parts.slice(0, -1)) at = (at[p] ??= {}) as Row;
  at[parts.at(-1)!] = v;
}

const getAt = (o: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((a, k) => (a && typeof a === 'object' ? (a as Row)[k] : undefined), o);

/** The object of one row: its filled cells, nested properties (diffusivity.D0) under their objects. */
function rowObject(f: FieldSpec, row: Row): Row {
  const o: Row = {};
  for (const c of f.columns ?? []) {
    const v = cellValue(c, row[c.key]);
    if (v !== undefined) setAt(o, c.key, v);
  }
  return o;
}

/** Whether a row has nothing typed in it. */
export function emptyRow(f: FieldSpec, row: Row): boolean {
  return Object.keys(rowObject(f, row)).length === 0 && blank(row[ROW_KEY]);
}

/**
 * The task_config's value of the rows: a list of objects, or a record keyed by each row's key; undefined when no row
 * has anything typed. Empty rows between filled ones are kept, so the schema's issue for row i names the row on screen.
 */
export function rowsToConfig(f: FieldSpec, rows: unknown): unknown {
  if (!Array.isArray(rows)) return rows;
  const list = rows as Row[];
  if (list.every((r) => emptyRow(f, r))) return undefined;
  if (!f.rowKey) return list.map((r) => rowObject(f, r));
  return Object.fromEntries(list.map((r) => [String(r[ROW_KEY] ?? '').trim(), rowObject(f, r)]));
}

/** The rows of a stored value ("Edit a copy"): one per object of the list, or per key of the record. */
export function rowsOfConfig(f: FieldSpec, value: unknown): Row[] {
  const cells = (o: unknown): Row => {
    const row: Row = {};
    for (const c of f.columns ?? []) {
      const v = getAt(o, c.key);
      if (v !== undefined) row[c.key] = c.kind === 'boolean' ? String(v) : v;
    }
    return row;
  };
  if (Array.isArray(value)) return value.map(cells);
  if (value && typeof value === 'object')
    return Object.entries(value as Row).map(([k, o]) => ({ [ROW_KEY]: k, ...cells(o) }));
  return [];
}

/** What to call one row in a button ("Add precipitate"): the field's name in the singular, or "<name> row". */
export function rowNoun(f: FieldSpec): string {
  if (f.rowKey) return f.rowKey;
  const name = fieldLabel(f.key).toLowerCase();
  if (/ies$/.test(name)) return name.replace(/ies$/, 'y');
  if (/[^s]s$/.test(name)) return name.slice(0, -1);
  return `${name} row`;
}

/**
 * An issue the schema raised inside a rows field (condition.precipitates.1.interfacial_energy), placed on that field
 * with the row and the column named ("row 2, interfacial energy: must be greater than 0"); null for other paths.
 */
export function rowIssue(fields: FieldSpec[], path: string, message: string): { key: string; message: string } | null {
  for (const f of fields) {
    if (f.kind !== 'rows' || !path.startsWith(`condition.${f.key}.`)) continue;
    const [at, ...inner] = path.slice(`condition.${f.key}.`.length).split('.');
    const where = f.rowKey ? at! : `row ${Number(at) + 1}`;
    const column = inner.join('.');
    return {
      key: `condition.${f.key}`,
      message: `${column ? `${where}, ${fieldLabel(column).toLowerCase()}` : where}: ${message}`,
    };
  }
  return null;
}
