// The rows of an equilibrium_batch as the contract reads them: the strict CSV reader (quotes, line ends, a byte-order
// mark, errors naming the line) and the three sources in their order (a product composition by composition, a table
// without a T column record by record at every temperature), percents as fractions.
import { describe, expect, it } from 'vitest';
import { csvRecords, CsvSyntaxError } from '../../contract/tasks/batch-csv.js';
import {
  BatchInputError,
  batchRowCount,
  batchRows,
  type BatchSourceCondition,
} from '../../contract/tasks/batch-rows.js';

const records = (text: string) => [...csvRecords(text)].map((r) => [r.line, ...r.fields]);

describe('csvRecords', () => {
  it('reads quoted fields (commas, doubled quotes, line ends inside), CRLF and LF, a BOM, and skips blank lines', () => {
    expect(records('\ufeffa,b\r\n"x, y","say ""hi"""\n\n"two\nlines",\n3,4')).toEqual([
      [1, 'a', 'b'],
      [2, 'x, y', 'say "hi"'],
      [4, 'two\nlines', ''],
      [6, '3', '4'],
    ]);
  });

  it.each([
    ['a,b"c\n', 1, 'a double quote inside a field that does not start with one'],
    ['a\n"b"c\n', 2, 'text after the closing double quote of a field'],
    ['a\n"b\n', 2, 'a double-quoted field is never closed'],
    ['a\rb\n', 1, 'a carriage return not followed by a line feed'],
  ])('%j is an error naming line %i', (text, line, message) => {
    expect(() => records(text)).toThrow(new CsvSyntaxError(line, message));
  });
});

describe('batchRows', () => {
  const base = { components: ['AL', 'ZN'], pressure: 101325 };
  const rows = (c: BatchSourceCondition) =>
    [...batchRows(c)].map((r) => [r.row, r.label ?? '', r.T, r.P, r.composition, r.unit]);

  it('a product: every composition at every temperature, composition by composition, with its label', () => {
    const c = {
      ...base,
      product: { compositions: [{ ZN: 0.1 }, { ZN: 0.2 }], temperatures: [500, 600], labels: ['a', 'b'] },
    };
    expect(batchRowCount(c)).toBe(4);
    expect(rows(c)).toEqual([
      [1, 'a', 500, 101325, { ZN: 0.1 }, 'mole_fraction'],
      [2, 'a', 600, 101325, { ZN: 0.1 }, 'mole_fraction'],
      [3, 'b', 500, 101325, { ZN: 0.2 }, 'mole_fraction'],
      [4, 'b', 600, 101325, { ZN: 0.2 }, 'mole_fraction'],
    ]);
  });

  it('a table in mass percent with pressure and label columns; without a T column, at every temperature', () => {
    const c = { ...base, table: { csv: 'label,zn,pressure,T\nx,10,2e5,700\n', unit: 'mass_percent' as const } };
    expect(rows(c)).toEqual([[1, 'x', 700, 2e5, { ZN: 0.1 }, 'mass_fraction']]);
    const p = { ...base, table: { csv: 'AL,ZN\n0.7,0.3\n0.6,0.4\n', temperatures: [500, 600] } };
    expect(batchRowCount(p)).toBe(4);
    expect(rows(p).map((r) => [r[2], r[4]])).toEqual([
      [500, { AL: 0.7, ZN: 0.3 }],
      [600, { AL: 0.7, ZN: 0.3 }],
      [500, { AL: 0.6, ZN: 0.4 }],
      [600, { AL: 0.6, ZN: 0.4 }],
    ]);
  });

  it('a table problem is a BatchInputError at table.csv naming row, line and column', () => {
    const c = { ...base, table: { csv: 'ZN,T\n0.1,500\n0.2,-3\n' } };
    expect(() => rows(c)).toThrow(
      new BatchInputError(['table', 'csv'], 'row 2 (line 3), column T: must be greater than 0 K'),
    );
  });
});
