// Shared helpers of the io tests: the shared TDB folder and the addon (PHASEDESK_CORE_ADDON or the
// npm build, see worker/core/native.ts).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { loadCore } from '../../../worker/core/native.js';

export const TDB_DIR = process.env.PHASEDESK_TDB_DIR ?? path.resolve(__dirname, '../../../../shared/tdb');

// The shared databases are test material outside the repository (they must not be copied in). CI
// provides them through PHASEDESK_TDB_DIR; where they are absent the file-based suites are skipped
// (vitest reports them as skipped), the string-based tests still run.
export const haveTdb = existsSync(TDB_DIR);

export function tdbFiles(): string[] {
  if (!haveTdb) return [];
  return readdirSync(TDB_DIR)
    .filter((f) => f.toLowerCase().endsWith('.tdb'))
    .sort();
}

export function tdbPath(name: string): string {
  return path.join(TDB_DIR, name);
}

export const core = () => loadCore();
