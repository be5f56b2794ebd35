// equilibrium_batch in the renderer's pure helpers, run in Node: the New task form offers the type with its rows as a
// table (pasted or read from a file) and its temperatures as a list of numbers, leaving products and paired rows to
// the API; a copy of a batch opens the form with its table; a batch's result.json is shown when it has what BatchView
// reads; the rows are filtered, sorted and tabulated as the view shows them. Lives with the e2e tests because it
// imports renderer sources.
import { describe, expect, it } from 'vitest';
import { FORM_TASK_TYPES, OPEN_TASK_TYPES, conditionFields } from '../../renderer/src/lib/taskforms.js';
import { buildTaskConfig, copyOfTask, freshValues } from '../../renderer/src/lib/task-form-values.js';
import { checkResult } from '../../renderer/src/lib/results.js';
import {
  batchTable,
  filterRows,
  numericColumns,
  parseRowsJsonl,
  sortRows,
} from '../../renderer/src/lib/batch-table.js';
import type { BatchRowRecord } from '../../contract/results/equilibrium_batch.js';

describe('equilibrium_batch in the renderer', () => {
  it('the form offers the batch: a table, its unit and temperatures; no products or composition_unit', () => {
    expect(FORM_TASK_TYPES).toEqual(OPEN_TASK_TYPES);
    const fields = Object.fromEntries(conditionFields('equilibrium_batch').map((f) => [f.key, f.kind]));
    expect(fields['table.csv']).toBe('table');
    expect(fields['table.unit']).toBe('enum');
    expect(fields['table.temperatures']).toBe('numbers');
    expect(
      Object.keys(fields).filter((k) => k.startsWith('product') || k === 'rows' || k === 'composition_unit'),
    ).toEqual([]);
    const values = {
      ...freshValues('equilibrium_batch'),
      components: ['AL', 'ZN'],
      'table.csv': 'ZN\n0.1\n0.2',
      'table.temperatures': '500, 600 700',
    };
    const cfg = buildTaskConfig('equilibrium_batch', values, { tdbCode: 'X', previewUnit: undefined, components: [] });
    expect(cfg.condition).toMatchObject({ table: { csv: 'ZN\n0.1\n0.2', temperatures: [500, 600, 700] } });
  });

  it('a copy of a batch opens the form with its table and temperatures', () => {
    const cfg = {
      task_type: 'equilibrium_batch',
      tdb_code: 'X',
      condition: { components: ['AL', 'ZN'], pressure: 101325, table: { csv: 'ZN\n0.1', temperatures: [500, 600] } },
    };
    const copy = copyOfTask(JSON.stringify(cfg), 7, new URLSearchParams());
    expect(copy).toMatchObject({ taskType: 'equilibrium_batch' });
    if ('values' in copy) {
      expect(copy.values['table.csv']).toBe('ZN\n0.1');
      expect(copy.values['table.temperatures']).toBe('500, 600');
    }
  });

  it("a batch's result.json is shown with its counts, columns, files and first rows", () => {
    const doc = {
      task_type: 'equilibrium_batch',
      counts: { rows: 1, done: 1, ok: 1, not_converged: 0, failed: 0 },
      columns: [{ name: 'row', unit: '' }],
      files: { csv: 'result/result.csv', jsonl: 'result/rows.jsonl' },
      preview_rows: [],
    };
    expect(checkResult(doc, 'equilibrium_batch')).toBeNull();
    const { counts: _c, ...without } = doc;
    expect(checkResult(without, 'equilibrium_batch')).toBe('result.json (equilibrium_batch) lacks counts');
  });

  it('rows.jsonl read back, filtered by status and text, sorted with empty cells last, tabulated', () => {
    const row = (n: number, status: BatchRowRecord['status'], G: number | null, label?: string): BatchRowRecord => ({
      row: n,
      ...(label ? { label } : {}),
      status,
      reason: status === 'ok' ? '' : 'did not converge',
      input: { T: 500 + n, P: 101325, x: { AL: 0.9, ZN: 0.1 } },
      ...(status === 'failed' ? {} : { values: { G, phase_name: 'FCC_A1' } }),
    });
    const rows = parseRowsJsonl(
      [row(1, 'ok', -3), row(2, 'failed', null), row(3, 'ok', -5, 'b')].map((r) => JSON.stringify(r)).join('\n') + '\n',
    );
    expect(rows).toHaveLength(3);
    expect(() => parseRowsJsonl('{"row":1}\nnot json')).toThrow('line 2');
    const columns = [
      { name: 'row', unit: '' },
      { name: 'label', unit: '' },
      { name: 'status', unit: '' },
      { name: 'input_T', unit: 'K' },
      { name: 'input_x(ZN)', unit: '' },
      { name: 'G', unit: 'J/mol' },
      { name: 'phase_name', unit: '' },
    ];
    expect(filterRows(rows, columns, { status: 'ok', text: '' }).map((r) => r.row)).toEqual([1, 3]);
    expect(filterRows(rows, columns, { status: 'all', text: 'B' }).map((r) => r.row)).toEqual([3]);
    expect(sortRows(rows, 'G', true).map((r) => r.row)).toEqual([3, 1, 2]);
    expect(sortRows(rows, 'G', false).map((r) => r.row)).toEqual([1, 3, 2]);
    expect(numericColumns(rows, columns).map((c) => c.name)).toEqual(['input_T', 'input_x(ZN)', 'G']);
    expect(batchTable(rows.slice(0, 1), columns).rows).toEqual([[1, null, 'ok', 501, 0.1, -3, 'FCC_A1']]);
  });
});
