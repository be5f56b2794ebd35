// A scan's equilibria in OpenMP batches cut into chunks of about CHUNK_MS of wall time, so that a cancel is seen
// within a fraction of a second and the progress rises steadily; each chunk starts warm from the last point before it.
import { type CalcSystem } from '../system/system.js';
import { equilibriumBatch, type EquilibriumConditions, type EquilibriumResult } from '../core/equilibrium.js';
import { CONTROL_BYTES, CancelledError, type JobControl } from '../protocol.js';

/** Target wall time of one scan chunk, ms: the job's cancel flag is checked between chunks. */
const CHUNK_MS = 150;

/**
 * OpenMP threads for a batch of `n` equilibria of about `msPerEq` ms each (single-thread time; undefined
 * = not measured yet). A team of threads costs more than it gains when each thread gets little work
 * (measured: 2 threads on 4 Al-Zn points, 0.4 ms each, were ~15 ms per call on a loaded 2-core
 * machine, 1 thread ~2 ms), so few or cheap equilibria run on one thread.
 */
export function threadsFor(n: number, threads: number, msPerEq?: number): number {
  if (threads <= 1 || n < 2) return 1;
  if (n >= 8 * threads) return threads;
  // slow equilibria (e.g. multicomponent systems, tens of ms each): worth a team even for a few points
  if (msPerEq !== undefined && msPerEq >= 2) return Math.min(threads, Math.floor(n / 2) || 1);
  return 1;
}

/** Measured speed of the equilibria of one calculation (single-thread ms per equilibrium). */
export interface SolveSpeed {
  msPerEq?: number;
}

/**
 * The scan's equilibria in chunks of about CHUNK_MS, each with a private control block. One native
 * batch cannot return before it has converted all its results, even when cancelled (about 25 us per
 * point: 0.5 s for 20,000 points), and it writes its own 0..1 progress at byte 8 of the block it is
 * given, which would make the task's progress jump backwards between chunks. So the job's cancel
 * flag is checked between chunks (a cancel is seen within about CHUNK_MS) and the overall progress is
 * written here. The first chunk is small to measure the speed of this system.
 */
export function chunkedScan(
  sys: Pick<CalcSystem, 'db' | 'components' | 'phases'>,
  conds: EquilibriumConditions[],
  threads: number,
  control: JobControl,
  derivatives?: string[],
  progressSpan: [number, number] = [0, 0.9],
  speed: SolveSpeed = {},
): EquilibriumResult[] {
  const out: EquilibriumResult[] = [];
  const ctl = new SharedArrayBuffer(CONTROL_BYTES);
  let size = Math.min(conds.length, 2 * threads);
  while (out.length < conds.length) {
    if (control.cancelled) throw new CancelledError();
    const chunk = conds.slice(out.length, out.length + size);
    const used = threadsFor(chunk.length, threads, speed.msPerEq);
    const t0 = performance.now();
    // Neighbouring scan points: warm start (Newton from the previous point; the solver still certifies
    // every answer against its global grid and redoes a failed warm start cold).
    // The first point of a chunk continues from the last point of the chunk before (a cold start
    // costs a multicomponent system about 2.5 warm ones: the hull over every grid point).
    const last = out.length ? out[out.length - 1] : undefined;
    const rs = equilibriumBatch({
      database: sys.db,
      components: sys.components,
      phases: sys.phases,
      conditions: chunk,
      threads: used,
      control: ctl,
      options: {
        warmStart: true,
        ...(derivatives ? { derivatives } : {}),
        ...(last?.converged ? { start: last } : {}),
      },
    });
    for (const r of rs) out.push(r);
    control.setProgress(progressSpan[0] + ((progressSpan[1] - progressSpan[0]) * out.length) / conds.length);
    // single-thread-equivalent time per equilibrium, and the next chunk sized to about CHUNK_MS on all threads
    speed.msPerEq = Math.max(1e-3, ((performance.now() - t0) * used) / chunk.length);
    size = Math.max(threads, Math.min(4096, Math.floor((CHUNK_MS * threads) / speed.msPerEq)));
  }
  if (control.cancelled) throw new CancelledError();
  return out;
}
