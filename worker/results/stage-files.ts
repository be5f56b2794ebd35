// The stage files of a task spread over a lab server's workers (a C-P-T grid's chunks, an equilibrium_batch's row
// chunks) live in the task's stages/ folder of the shared directory. Each is written once: to a private temporary
// name, then hard-linked to its final name (link fails when the name exists), so a stage that runs twice (its worker
// died, BullMQ gave it to another) stores its results once and a reader never sees half a file.
import { linkSync, unlinkSync, writeFileSync } from 'node:fs';
import type { JobControl } from '../protocol.js';

export const STAGES_FOLDER = 'stages';

/** A private temporary name beside `file` (this process's, never another run's). */
export function privateName(file: string): string {
  return `${file}.${process.pid}.${Date.now()}.tmp`;
}

/** Links the written temporary file `tmp` to `file` once and removes `tmp`; false when `file` existed already. */
export function linkOnce(tmp: string, file: string): boolean {
  try {
    linkSync(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    unlinkSync(tmp);
  }
}

/** Writes a stage file once; false when it existed already. */
export function writeOnce(file: string, text: string): boolean {
  const tmp = privateName(file);
  writeFileSync(tmp, text);
  return linkOnce(tmp, file);
}

/**
 * Test hook: a pause at the end of each stage (PHASEDESK_TEST_CHUNK_MS, only with PHASEDESK_TEST_CALCULATIONS=1), so
 * that a test can kill a worker in the middle of one.
 */
export function testStageDelay(control: JobControl): void {
  const ms = process.env.PHASEDESK_TEST_CALCULATIONS === '1' ? Number(process.env.PHASEDESK_TEST_CHUNK_MS ?? 0) : 0;
  const until = Date.now() + ms;
  while (Date.now() < until && !control.cancelled) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
}
