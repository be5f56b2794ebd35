// Each attempt of a lab-server job that writes result files does so in a folder of its own inside the task's
// folder (tasks/<uuid>/run-<attempt>/, tasks/<uuid>/merge-<attempt>/), and the task's file records point into it. Two
// workers running the same task (one of them cut off and not yet stopped) therefore never write into one folder, and
// the files recorded are exactly the ones the winning attempt wrote and hashed. A folder no record points to is
// removed by the orphan sweep (main/service/orphans.ts) or by its own attempt when it ends without storing.
import { existsSync, linkSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BlobStore } from '../service/blob-store.js';

/** Removes an attempt's folder (the attempt ended without storing its files). */
export function removeAttempt(blobs: BlobStore, uuid: string, attempt: string): void {
  rmSync(blobs.taskDir(uuid, attempt), { recursive: true, force: true });
}

/**
 * The merge reads the grid's stages from <its folder>/stages: hard links to the task's stages (each written once and
 * never changed; the shared directory already needs hard links for that, worker/calculations/binary_cpt_diagram/stage.ts).
 */
export function linkStages(blobs: BlobStore, uuid: string, attempt: string): void {
  const from = join(blobs.taskDir(uuid), 'stages');
  const to = join(blobs.taskDir(uuid, attempt), 'stages');
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true, mode: 0o700 });
  if (!existsSync(from)) return;
  for (const f of readdirSync(from)) if (f.endsWith('.json')) linkSync(join(from, f), join(to, f));
}

/** The merge's links to the stages go once it returned (its result files stay). */
export function unlinkStages(blobs: BlobStore, uuid: string, attempt: string): void {
  rmSync(join(blobs.taskDir(uuid, attempt), 'stages'), { recursive: true, force: true });
}
