import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Store } from '../db/index.js';
import { createUser, setPlan } from './users.js';
import { importDatabase, readCatalog, subscribe } from './databases.js';
import { issueKey } from './keys.js';

/**
 * First start with an empty data directory: user "local" on plan "local" (generous limits), every bundled
 * database of catalog.json imported and subscribed (active, no expiry), one key issued and returned.
 */
export async function bootstrapIfEmpty(store: Store, dataDir: string, catalogFile: string, log: (l: string) => void): Promise<string | undefined> {
  const any = await store.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (any) return undefined;
  await setPlan(store, 'local', 100_000);
  await createUser(store, { username: 'local', plan: 'local' });
  const cat = readCatalog(catalogFile);
  if (!cat) {
    log(`no database catalog at ${catalogFile}: no databases imported`);
  } else {
    for (const e of cat.entries) {
      const file = existsSync(resolve(cat.baseDir, e.file)) ? resolve(cat.baseDir, e.file) : join(resolve(catalogFile, '..'), e.file);
      try {
        const r = await importDatabase(store, dataDir, file, {
          code: e.code, name: e.name, description: e.description, type: e.type, version: e.version, level: e.level,
          support_task_list: e.support_task_list,
        });
        await subscribe(store, { username: 'local', code: e.code, status: 'active', expiresAt: null });
        log(`imported database ${e.code}${r.warnings.length ? ` (${r.warnings.length} warning(s))` : ''}`);
      } catch (err) {
        log(`database ${e.code} not imported: ${(err as Error).message}`);
      }
    }
  }
  const { key } = await issueKey(store, 'local', { name: 'local' });
  return key;
}
