// equilibrium_batch in the renderer's pure helpers, run in Node: the New task form does not offer the type (its rows
// need a form of their own), a copy of a batch says so instead of opening another type's form, and a batch's
// result.json is shown when it has what BatchView reads. Lives with the e2e tests because it imports renderer sources.
import { describe, expect, it } from 'vitest';
import { FORM_TASK_TYPES, OPEN_TASK_TYPES } from '../../renderer/src/lib/taskforms.js';
import { copyOfTask } from '../../renderer/src/lib/task-form-values.js';
import { checkResult } from '../../renderer/src/lib/results.js';

describe('equilibrium_batch in the renderer', () => {
  it('the form offers every open type but the batch; a copy of a batch names why it cannot be edited', () => {
    expect(OPEN_TASK_TYPES).toContain('equilibrium_batch');
    expect(FORM_TASK_TYPES).toEqual(OPEN_TASK_TYPES.filter((t) => t !== 'equilibrium_batch'));
    const cfg = { task_type: 'equilibrium_batch', tdb_code: 'X', condition: { components: ['AL', 'ZN'] } };
    expect(copyOfTask(JSON.stringify(cfg), 7, new URLSearchParams())).toEqual({
      problem: 'task #7 is of type equilibrium_batch, which the form does not offer',
    });
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
});
