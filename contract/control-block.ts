// Byte layout of the per-job SharedArrayBuffer control block, shared by the scheduler's calculation hosts, the
// calculations and the native core (which reads the first NATIVE_CONTROL_BYTES: the cancel flag and the progress).

/** Size of a job's control block. */
export const CONTROL_BYTES = 128;
/** The part of the block the native core reads and writes: cancel flag (Int32 @0) and progress (Float64 @8). */
export const NATIVE_CONTROL_BYTES = 16;
/** Int32 index 0: cancel flag, set to 1 by main with Atomics.store; polled by the calculation / native code. */
export const CANCEL_INDEX = 0;
/** Int32 index 1: byte length of the stage text (0 = no stage yet). */
export const STAGE_LENGTH_INDEX = 1;
/** Float64 at byte offset 8: progress 0..1 written by the calculation. */
export const PROGRESS_BYTE_OFFSET = 8;
/** UTF-8 stage text ("mapping two-phase regions") from byte 16 to the end of the block. */
export const STAGE_BYTE_OFFSET = 16;
export const STAGE_MAX_BYTES = CONTROL_BYTES - STAGE_BYTE_OFFSET;
