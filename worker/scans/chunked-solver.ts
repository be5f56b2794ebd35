// Many equilibria through equilibriumBatch (worker/core/equilibrium.ts, OpenMP threads) in chunks,
// with the job's cancel flag honoured between any two equilibria and a monotonic overall progress.
//
// Why a relay thread: the native batch reads its cancel flag at Int32 0 of the control block and
// writes its own 0..1 progress of the batch at byte 8. Handing it the job's control block would make
// the task's progress jump back at every chunk; handing it a private block would hide the cancel
// while the (blocking) batch runs, and one equilibrium may take seconds in large sublattice models.
// So the batch gets a private block, and a small worker thread (plain JS, no imports) polls every
// 20 ms: it copies the job's cancel flag into the private block and maps the batch progress onto the
// job's progress (base + span * p, never decreasing).
import { Worker } from 'node:worker_threads';
import {
  equilibriumBatch,
  type EquilibriumConditions,
  type EquilibriumOptions,
  type EquilibriumResult,
} from '../core/equilibrium.js';
import type { NativeDatabase } from '../core/native.js';
import { CancelledError, PROGRESS_BYTE_OFFSET, type JobControl } from '../protocol.js';

export interface SolverSystem {
  db: NativeDatabase;
  components: string[];
  phases?: string[];
  options?: EquilibriumOptions;
}

/** Target wall time of one chunk, ms: bounds how stale the JS-side progress can be. */
const CHUNK_MS = 500;

/**
 * Private control block: Int32[0] cancel (read by native code), Int32[1] relay stop,
 * Float64 at byte 8 native batch progress, byte 16 base, byte 24 span of the current batch.
 */
const RELAY_BYTES = 32;

const RELAY_SOURCE = `
const { workerData } = require('node:worker_threads');
const job = new Int32Array(workerData.job, 0, 1);
const jobProgress = new Float64Array(workerData.job, ${PROGRESS_BYTE_OFFSET}, 1);
const flags = new Int32Array(workerData.priv, 0, 2);
const f = new Float64Array(workerData.priv, 8, 3);
while (Atomics.load(flags, 1) === 0) {
  if (Atomics.load(job, 0) !== 0) Atomics.store(flags, 0, 1);
  const p = f[1] + f[2] * Math.min(1, Math.max(0, f[0]));
  if (p > jobProgress[0] && p <= 1) jobProgress[0] = p;
  Atomics.wait(flags, 1, 0, 20);
}
`;

export class ChunkedSolver {
  /** measured wall time per equilibrium (ms, all threads together); undefined before the first chunk */
  private msPerEq: number | undefined;
  /** equilibria computed so far (for the throughput figure) */
  count = 0;
  private readonly priv = new SharedArrayBuffer(RELAY_BYTES);
  private readonly flags = new Int32Array(this.priv, 0, 2);
  private readonly window = new Float64Array(this.priv, 8, 3);
  private relay: Worker | undefined;

  constructor(
    private readonly sys: SolverSystem,
    private readonly threads: number,
    private readonly control: JobControl,
  ) {}

  private checkCancel(): void {
    if (this.control.cancelled) throw new CancelledError();
  }

  private startRelay(): void {
    if (this.relay) return;
    this.relay = new Worker(RELAY_SOURCE, { eval: true, workerData: { job: this.control.buffer, priv: this.priv } });
    this.relay.unref();
  }

  /** Stops the relay thread (call once the calculation is done or failed). */
  close(): void {
    Atomics.store(this.flags, 1, 1);
    Atomics.notify(this.flags, 1);
    this.relay = undefined;
  }

  /**
   * Solves n equilibria, conditions from condAt(i), results passed to onResult(i, r) in order; the
   * job's progress moves from `from` to `to` over the n equilibria.
   */
  solve(
    n: number,
    condAt: (i: number) => EquilibriumConditions,
    onResult: (i: number, r: EquilibriumResult) => void,
    from: number,
    to: number,
  ): void {
    this.startRelay();
    let i = 0;
    while (i < n) {
      this.checkCancel();
      // first chunk small (a few equilibria per thread) to measure the speed of this system
      const size =
        this.msPerEq === undefined
          ? Math.min(n - i, 4 * this.threads)
          : Math.min(
              n - i,
              Math.max(this.threads, Math.min(50_000, Math.floor(CHUNK_MS / Math.max(this.msPerEq, 1e-4)))),
            );
      const conds: EquilibriumConditions[] = new Array(size);
      for (let k = 0; k < size; k++) conds[k] = condAt(i + k);
      this.window[0] = 0;
      this.window[1] = from + (to - from) * (i / n);
      this.window[2] = (to - from) * (size / n);
      const t0 = performance.now();
      const rs = equilibriumBatch({
        database: this.sys.db,
        components: this.sys.components,
        phases: this.sys.phases,
        conditions: conds,
        options: this.sys.options,
        threads: this.threads,
        control: this.priv,
      });
      // a cancelled batch returns 'cancelled' placeholders for the rest: never use them
      this.checkCancel();
      const ms = (performance.now() - t0) / size;
      this.msPerEq = this.msPerEq === undefined ? ms : 0.5 * this.msPerEq + 0.5 * ms;
      for (let k = 0; k < size; k++) onResult(i + k, rs[k]!);
      i += size;
      this.count += size;
      const p = from + (to - from) * (i / n);
      if (p > this.control.getProgress()) this.control.setProgress(p);
    }
  }
}
