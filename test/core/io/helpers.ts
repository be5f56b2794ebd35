// Shared helpers of the io tests: the shared TDB folder and the addon (PHASEDESK_CORE_ADDON or the
// npm build, see worker/core/native.ts).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { loadCore } from '../../../worker/core/native.js';

export const TDB_DIR = process.env.PHASEDESK_TDB_DIR ?? path.resolve(__dirname, '../../../../shared/tdb');

export function tdbFiles(): string[] {
  return readdirSync(TDB_DIR)
    .filter((f) => f.toLowerCase().endsWith('.tdb'))
    .sort();
}

export function tdbPath(name: string): string {
  return path.join(TDB_DIR, name);
}

export const core = () => loadCore();
