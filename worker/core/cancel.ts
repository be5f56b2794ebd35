// Cancellation of native calls. Calls that take a control block (equilibriumBatch) poll its cancel flag;
// every other native call (equilibrium, PhaseModel.build, evaluateBatch, and the model and grid building
// inside any of them) polls the flag set for its thread with setCancelFlag. A call that sees the flag set
// stops and throws an Error with code PD_CANCELLED (a batch returns 'cancelled' placeholders for the
// conditions it did not reach instead, as before).
import { NATIVE_CONTROL_BYTES } from '../../contract/control-block.js';
import { loadCore } from './native.js';

/** The control block whose flag this thread's native calls poll (null = none). */
let current: SharedArrayBuffer | null = null;

function apply(control: SharedArrayBuffer | null): void {
  loadCore().setCancelFlag(control ? new Int32Array(control, 0, NATIVE_CONTROL_BYTES / 4) : null);
  current = control;
}

/**
 * Runs `fn` with the cancel flag of `control` (Int32 at byte 0 of a SharedArrayBuffer of at least 16 bytes,
 * the job control block of worker/protocol.ts) polled by every native call on this thread, and restores the
 * previous flag afterwards (when a returned Promise settles: a worker thread runs one job at a time).
 */
export function withCancelFlag<T>(control: SharedArrayBuffer | undefined, fn: () => T): T {
  if (!control) return fn();
  const previous = current;
  apply(control);
  let out: T;
  try {
    out = fn();
  } catch (e) {
    apply(previous);
    throw e;
  }
  if (out instanceof Promise) return out.finally(() => apply(previous)) as T;
  apply(previous);
  return out;
}

/** Sets (or with null clears) the cancel flag polled by the native calls of this thread. */
export function setNativeCancelFlag(control: SharedArrayBuffer | null): void {
  apply(control);
}
