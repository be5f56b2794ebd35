// Many equilibria through equilibriumBatch (worker/core/equilibrium.ts, OpenMP threads) in chunks
// sized to ~0.2 s of work, so that the JS side can check the job's cancel flag and publish a
// monotonic overall progress between chunks. The job's control block is not handed to the native
// batch because the native code writes its own 0..1 progress of the batch at byte 8, which would
// make the task's progress jump backwards from chunk to chunk; with 0.2 s chunks a cancel is still
// honoured well within the 1 s the service promises.
import { equilibriumBatch, type EquilibriumConditions, type EquilibriumOptions, type EquilibriumResult } from '../../core/equilibrium.js';
import type { NativeDatabase } from '../../core/native.js';
import { CancelledError, type JobControl } from '../../protocol.js';

export interface SolverSystem {
  db: NativeDatabase;
  components: string[];
  phases?: string[];
  options?: EquilibriumOptions;
}

/** Target wall time of one chunk, ms. */
const CHUNK_MS = 200;

export class ChunkedSolver {
  /** measured wall time per equilibrium (ms, all threads together); undefined before the first chunk */
  private msPerEq: number | undefined;
  /** equilibria computed so far (for the throughput figure) */
  count = 0;

  constructor(private readonly sys: SolverSystem, private readonly threads: number, private readonly control: JobControl) {}

  private checkCancel(): void { if (this.control.cancelled) throw new CancelledError(); }

  /**
   * Solves n equilibria, conditions from condAt(i), results passed to onResult(i, r) in order;
   * progress(frac) is called after every chunk with the fraction done (0..1).
   */
  solve(n: number, condAt: (i: number) => EquilibriumConditions, onResult: (i: number, r: EquilibriumResult) => void,
    progress?: (frac: number) => void): void {
    let i = 0;
    while (i < n) {
      this.checkCancel();
      // first chunk small (a few equilibria per thread) to measure the speed of this system
      const size = this.msPerEq === undefined
        ? Math.min(n - i, 4 * this.threads)
        : Math.min(n - i, Math.max(this.threads, Math.min(50_000, Math.floor(CHUNK_MS / Math.max(this.msPerEq, 1e-4)))));
      const conds: EquilibriumConditions[] = new Array(size);
      for (let k = 0; k < size; k++) conds[k] = condAt(i + k);
      const t0 = performance.now();
      const rs = equilibriumBatch({
        database: this.sys.db, components: this.sys.components, phases: this.sys.phases,
        conditions: conds, options: this.sys.options, threads: this.threads,
      });
      const ms = (performance.now() - t0) / size;
      this.msPerEq = this.msPerEq === undefined ? ms : 0.5 * this.msPerEq + 0.5 * ms;
      for (let k = 0; k < size; k++) onResult(i + k, rs[k]!);
      i += size;
      this.count += size;
      progress?.(i / n);
    }
    this.checkCancel();
  }
}
