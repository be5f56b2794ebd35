// A strict reader of CSV text (RFC 4180): fields separated by commas, a field optionally in double quotes with ""
// for a quote inside, records ended by CRLF or LF, blank lines skipped. No npm CSV library is among the project's
// dependencies, and the batch tables need only this much; anything else (a quote inside an unquoted field, text
// after a closing quote, a quote never closed) is an error naming the line, never a guess. Pure TypeScript: POST
// /task checks a table with it, the worker reads the rows with it.

/** One record: its fields and the line of the text it starts on (1-based). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'CsvSyntaxError';
  }
}

const QUOTE = 0x22,
  COMMA = 0x2c,
  CR = 0x0d,
  LF = 0x0a;

/** The records of the text in order, read lazily (a long table is never held as records). */
export function* csvRecords(text: string): Generator<CsvRecord> {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a byte-order mark, as spreadsheet programs write it
  let line = 1;
  while (i < n) {
    const start = line;
    const fields: string[] = [];
    for (;;) {
      const f = readField(text, i, line);
      fields.push(f.value);
      i = f.end;
      line = f.line;
      if (i < n && text.charCodeAt(i) === COMMA) {
        i++;
        continue;
      }
      break;
    }
    // the record's end: CRLF, LF or the end of the text
    if (i < n && text.charCodeAt(i) === CR) i++;
    if (i < n && text.charCodeAt(i) === LF) i++;
    else if (i < n) throw new CsvSyntaxError(line, 'a carriage return not followed by a line feed');
    line++;
    if (fields.length === 1 && fields[0] === '') continue; // a blank line
    yield { line: start, fields };
  }
}

/** One field from position i: its text, the position after it and the line it ends on. */
function readField(text: string, i: number, line: number): { value: string; end: number; line: number } {
  const n = text.length;
  if (text.charCodeAt(i) !== QUOTE) {
    let j = i;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c === COMMA || c === CR || c === LF) break;
      if (c === QUOTE) throw new CsvSyntaxError(line, 'a double quote inside a field that does not start with one');
      j++;
    }
    return { value: text.slice(i, j), end: j, line };
  }
  let value = '';
  let j = i + 1;
  let from = j;
  let at = line;
  for (;;) {
    if (j >= n) throw new CsvSyntaxError(line, 'a double-quoted field is never closed');
    const c = text.charCodeAt(j);
    if (c === LF) at++;
    if (c !== QUOTE) {
      j++;
      continue;
    }
    value += text.slice(from, j);
    if (text.charCodeAt(j + 1) === QUOTE) {
      value += '"';
      j += 2;
      from = j;
      continue;
    }
    j++;
    break;
  }
  const next = text.charCodeAt(j);
  if (j < n && next !== COMMA && next !== CR && next !== LF)
    throw new CsvSyntaxError(at, 'text after the closing double quote of a field');
  return { value, end: j, line: at };
}

/**
 * A sheet's rows as the CSV text a batch table takes (RFC 4180: a field with a comma, quote or line break quoted):
 * numbers in full precision, a date as its ISO text (the table's reader names it as not a number), empty cells
 * empty; trailing empty cells of a row are kept so that every record has the header's width.
 */
export function sheetToCsv(rows: readonly (readonly unknown[])[]): string {
  const width = Math.max(0, ...rows.map((r) => r.length));
  // a cell as read-excel-file gives it: a string, number, boolean, Date or null
  const field = (v: unknown): string => {
    const s = v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return rows
    .filter((r) => r.some((v) => v !== null && v !== undefined && v !== ''))
    .map((r) => Array.from({ length: width }, (_, i) => field(r[i])).join(','))
    .join('\n');
}
