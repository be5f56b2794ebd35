// result.json of equilibrium_batch (types only; importable by the renderer: no node: imports). The rows themselves
// are in result/rows.jsonl (one JSON object per row, written as the rows finish) and result/result.csv (the merged
// table); result.json holds what describes them, so its size does not grow with the number of rows.
import type { ResultDocument } from './common.js';

/** ok: converged; not_converged: the solver's answer is written, flagged; failed: no answer (reason says why). */
export const BATCH_ROW_STATUSES = ['ok', 'not_converged', 'failed'] as const;
export type BatchRowStatus = (typeof BATCH_ROW_STATUSES)[number];

/** One line of result/rows.jsonl. */
export interface BatchRowRecord {
  /** 1-based number of the row in the batch */
  row: number;
  label?: string;
  status: BatchRowStatus;
  /** why the row is not ok; when it is, '' or a note (a phase left out of the equilibrium) */
  reason: string;
  /** the row's conditions: K, Pa, overall mole fractions of every element (after unit conversion) */
  input: { T: number; P: number; x: Record<string, number> };
  /** the row's output columns (their names as in `columns`); absent for a failed row */
  values?: Record<string, number | string | null>;
}

export interface BatchCounts {
  /** rows of the batch */
  rows: number;
  /** rows computed (equals rows unless the task was cancelled) */
  done: number;
  ok: number;
  not_converged: number;
  failed: number;
}

export interface EquilibriumBatchResult extends ResultDocument {
  task_type: 'equilibrium_batch';
  /** false when the calculation stopped (cancel) before every row: the files hold the rows done */
  complete: boolean;
  counts: BatchCounts;
  /** columns of result/result.csv: row, label, status, reason, the inputs, then the outputs */
  columns: { name: string; unit: string }[];
  /** the output names the columns were built from, after defaults and template/custom merging */
  outputs: string[];
  /** the files of the rows, relative to the task's folder (xlsx: for batches of at most 50,000 rows) */
  files: { csv: string; jsonl: string; xlsx?: string };
  /** the first rows (at most PREVIEW_ROWS), as in rows.jsonl, for a view that does not download the table */
  preview_rows: BatchRowRecord[];
  /** which Cp the `Cp` column holds */
  cp_definition: string;
  /** reference state of each element for MUR, ACR, GM_formation (a phase, or 'SER') */
  reference_states: Record<string, string>;
  /** quantities left out and why */
  quantity_notes: string[];
}

/** Rows kept in result.json's preview_rows. */
export const BATCH_PREVIEW_ROWS = 50;
