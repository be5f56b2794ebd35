// A lab worker's job waits out a PostgreSQL that is restarting or out of reach: the job keeps its lock (renewed
// through Redis) and goes on once the store answers, rather than failing its task. A lost lock or the worker's
// close ends the wait.
import type { JobContext, JobRun } from './job-context.js';
import { LockLostError } from './lock-watch.js';
import { isUnavailableError } from '../util/unavailable.js';

/** Longest wait between two tries of a store that is out of reach. */
const MAX_RETRY_MS = 5000;

function sleep(ms: number, signals: AbortSignal[]): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      for (const s of signals) s.removeEventListener('abort', done);
      resolve();
    }
    for (const s of signals) s.addEventListener('abort', done);
  });
}

/**
 * `fn` until it succeeds, waiting out errors that say PostgreSQL is unreachable (0.5 s, doubling to 5 s); a lost
 * lock or the worker's close ends the wait with LockLostError.
 */
export async function untilAvailable<T>(w: JobContext, run: JobRun, what: string, fn: () => Promise<T>): Promise<T> {
  for (let delay = 500, logged = false; ; delay = Math.min(delay * 2, MAX_RETRY_MS)) {
    try {
      return await fn();
    } catch (e) {
      if (!isUnavailableError(e)) throw e;
      if (run.lockLost.aborted || w.closing.aborted) throw new LockLostError(run.job.id ?? '?');
      if (!logged) w.log(`job ${run.job.id}: ${what} waits for the store (${(e as Error).message})`);
      logged = true;
      await sleep(delay, [run.lockLost, w.closing]);
    }
  }
}
