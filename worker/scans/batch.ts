// Chunked equilibrium batches for long scans (thermodynamic_properties_next, the lever rule of
// scheil_solidification). One native batch over N points cannot return before it has converted all N
// results, even when cancelled (about 50 us per point: 5 s for 100 000 points), and it writes its own
// 0..1 progress into the control block it is given. Running the scan in chunks of about 100 ms, each
// with a private control block, keeps the reaction to a cancel well under a second for any scan length
// and lets the calculation report its overall progress.
import {
  equilibriumBatch,
  type EquilibriumConditions,
  type EquilibriumOptions,
  type EquilibriumResult,
} from '../core/equilibrium.js';
import type { NativeDatabase } from '../core/native.js';
import { CancelledError, CONTROL_BYTES, type JobControl } from '../protocol.js';

export interface BatchSetup {
  database: NativeDatabase;
  /** solver components (elements, plus VA when the database defines it) */
  components: string[];
  /** allowed phases; undefined or [] = every phase the components allow */
  phases?: string[];
  options?: EquilibriumOptions;
}

/** Conditions given as an array or produced lazily by index (a long scan then never builds them all). */
export type ConditionSource = EquilibriumConditions[] | { length: number; at(i: number): EquilibriumConditions };

/** Target wall time of one chunk, ms. */
const CHUNK_MS = 100;

/**
 * Equilibria of all conditions, in order, `threads` OpenMP threads per chunk. Throws CancelledError
 * when the job's cancel flag is set (checked before every chunk and at the end); reports progress
 * done/total mapped into [p0, p1]. `start`: a result the first condition continues from (the scan's
 * previous point, e.g. the previous batch of the lever rule).
 */
export function chunkedBatch(
  setup: BatchSetup,
  conditions: ConditionSource,
  threads: number,
  control?: JobControl,
  p0 = 0,
  p1 = 1,
  start?: EquilibriumResult,
): EquilibriumResult[] {
  const at = Array.isArray(conditions) ? (i: number) => conditions[i] : conditions.at.bind(conditions);
  const n = conditions.length;
  const out: EquilibriumResult[] = [];
  const th = Math.max(1, Math.floor(threads));
  let size = 4 * th;
  while (out.length < n) {
    if (control?.cancelled) throw new CancelledError();
    const chunk: EquilibriumConditions[] = [];
    for (let i = out.length; i < Math.min(n, out.length + size); i++) chunk.push(at(i));
    const t0 = performance.now();
    // the chunk's first point continues from the last point before it (`start` for the first chunk)
    const last = out.length ? out[out.length - 1] : start;
    const rs = equilibriumBatch({
      database: setup.database,
      components: setup.components,
      phases: setup.phases,
      // neighbouring conditions of a scan: each point starts from the previous one (the solver still
      // certifies every answer by its grid re-scan, and redoes a failed warm start cold)
      conditions: chunk,
      options: { warmStart: true, ...setup.options, ...(last?.converged ? { start: last } : {}) },
      threads: th,
      control: new SharedArrayBuffer(CONTROL_BYTES),
    });
    for (const r of rs) out.push(r);
    control?.setProgress(p0 + ((p1 - p0) * out.length) / n);
    size = nextChunkSize(size, th, performance.now() - t0, chunk.length);
  }
  if (control?.cancelled) throw new CancelledError();
  return out;
}

/** The next chunk's size: about CHUNK_MS, at most twice the last one and 8192, at least one condition per thread. */
export function nextChunkSize(size: number, threads: number, elapsedMs: number, count: number): number {
  const perPoint = elapsedMs / count;
  return Math.max(threads, Math.min(2 * size, perPoint > 0 ? Math.floor(CHUNK_MS / perPoint) : 2 * size, 8192));
}
