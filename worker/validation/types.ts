// Types of the validation-case schema "calphad-validation-cases/1" (shared/validation/README.md).
export interface Tolerance {
  rtol?: number;
  atol?: number;
  basis?: string;
}

export interface ExpectedEntry {
  quantity: string;
  value: unknown;
  unit?: string;
  tolerance?: Tolerance;
  compare?: string;
  phase?: string;
  note?: string;
}

export interface ValidationCase {
  id: string;
  kind: string;
  description: string;
  tdb: string | null;
  components: string[];
  phases: string[];
  conditions: Record<string, unknown>;
  site_fractions?: Record<string, Array<Record<string, number>>>;
  parameter_overrides?: Record<string, number>;
  calculation?: Record<string, unknown>;
  element_masses?: Record<string, number>;
  expected: ExpectedEntry[];
  reference_origin?: string;
  notes?: string;
  algorithm_dependent?: boolean;
  /** the curator's tolerance for an independent engine where the source's only fits the source's own algorithm */
  suggested_tolerance?: Tolerance;
}

export interface CasesFile {
  schema: string;
  set?: string;
  description?: string;
  tolerance_rule?: string;
  n_cases?: number;
  cases: ValidationCase[];
}

export type Verdict = 'matched' | 'mismatch' | 'unsupported' | 'error';

export interface EntryReport {
  quantity: string;
  phase?: string;
  expected: unknown;
  computed: unknown;
  verdict: Verdict;
  /** |computed - expected| for numeric comparisons (max over list items) */
  deviation?: number;
  message?: string;
  /** the tolerance the verdict used: the entry's own, or the case's suggested_tolerance */
  tolerance_used?: 'entry' | 'suggested';
}

export interface CaseReport {
  id: string;
  kind: string;
  verdict: Verdict;
  entries: EntryReport[];
  message?: string;
}

/** What a kind implementation computes for one expected entry. */
export interface ComputedValue {
  value: unknown;
  /** set when this entry cannot be computed by the implementation (reported, never skipped) */
  unsupported?: string;
  /** set when the computation failed at this entry (no result, not converged, contradictory input) */
  error?: string;
}

export interface KindContext {
  /** folder holding the TDB files the cases name */
  tdbDir: string;
  /** folder of the cases file: a `tdb` not found in tdbDir is looked up relative to it */
  casesDir?: string;
}

/** A kind implementation: computed values for every expected entry of a case, in order. */
export type KindHandler = (c: ValidationCase, ctx: KindContext) => ComputedValue[] | Promise<ComputedValue[]>;
