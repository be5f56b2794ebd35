// Shared helpers of the benchmark scripts.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CoreAddon } from '../worker/core/native.js';

/**
 * Folder of the shared test databases: $PHASEDESK_BENCH_TDB_DIR, else shared/tdb found by walking up from
 * this file (the shared material sits beside the repository; it is never copied into it).
 */
export function tdbDir(): string {
  if (process.env.PHASEDESK_BENCH_TDB_DIR) return process.env.PHASEDESK_BENCH_TDB_DIR;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const c = path.join(dir, 'shared', 'tdb');
    if (existsSync(c)) return c;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('shared/tdb not found beside the repository; set PHASEDESK_BENCH_TDB_DIR');
    dir = parent;
  }
}

/** Median (upper middle for an even count): benchmark figures are medians, the machines are noisy. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** The addon named by PHASEDESK_BENCH_BEFORE (an addon built from an earlier revision: the "before" figures), or null. */
export function beforeCore(): CoreAddon | null {
  const file = process.env.PHASEDESK_BENCH_BEFORE;
  if (!file) return null;
  return createRequire(import.meta.url)(path.resolve(file)) as CoreAddon;
}
