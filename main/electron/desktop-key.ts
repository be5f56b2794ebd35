// The API key of the desktop window. The service keeps only key hashes, so the desktop keeps its own key in
// <dataDir>/desktop-key (mode 0600), next to the console token.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningService } from '../server.js';
import { LOCAL_USER } from '../../contract/api/console.js';
import { issueKey } from '../console/keys.js';
import { hashApiKey } from '../service/keys.js';
import { isPast } from '../util/time.js';

/** The saved key, if it still exists, is active and unexpired. */
async function savedKeyIfValid(s: RunningService, file: string): Promise<string | undefined> {
  if (!existsSync(file)) return undefined;
  const k = readFileSync(file, 'utf8').trim();
  const row = await s.store.db
    .selectFrom('api_keys')
    .select(['is_active', 'expires_at'])
    .where('key_hash', '=', hashApiKey(k))
    .executeTakeFirst();
  return row && row.is_active === 1 && !isPast(row.expires_at) ? k : undefined;
}

/**
 * The API key the window uses: the first-start key, else the one saved in <dataDir>/desktop-key if it still
 * exists, is active and unexpired, else a new key "desktop app" of the local user; null when none could be issued
 * (the key screen then asks for one).
 */
export async function desktopKey(
  s: RunningService,
  dataDir: string,
  log: (line: string) => void,
): Promise<string | null> {
  const file = join(dataDir, 'desktop-key');
  const save = (k: string) => {
    writeFileSync(file, k + '\n', { mode: 0o600 });
    chmodSync(file, 0o600);
    return k;
  };
  if (s.firstKey) return save(s.firstKey);
  const saved = await savedKeyIfValid(s, file);
  if (saved) return saved;
  try {
    return save((await issueKey(s.store, LOCAL_USER, { name: 'desktop app' })).key);
  } catch (e) {
    log(`no API key for the window (${(e as Error).message}); the key screen will ask for one`);
    return null;
  }
}
