import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Store } from '../db/index.js';
import { createUser, setPlan } from './users.js';
import { importDatabase, readCatalog, subscribe } from './databases.js';
import { issueKey } from './keys.js';
import { LOCAL_USER } from '../../contract/api/console.js';

/**
 * First start with an empty data directory: user "local" on plan "local" (task_using_limit 100000) and one
 * key, returned so the caller prints it once. The bundled databases are imported by syncCatalog().
 */
export async function bootstrapIfEmpty(
  store: Store,
  dataDir: string,
  catalogFile: string,
  log: (l: string) => void,
): Promise<string | undefined> {
  const any = await store.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (any) {
    await syncCatalog(store, dataDir, catalogFile, log);
    return undefined;
  }
  await setPlan(store, 'local', 100_000);
  await createUser(store, { username: LOCAL_USER, plan: 'local' });
  await syncCatalog(store, dataDir, catalogFile, log);
  const { key } = await issueKey(store, LOCAL_USER, { name: 'local' });
  return key;
}

/**
 * Imports every catalog.json entry not yet in the catalog and subscribes "local" to it (active, no expiry).
 * Runs at every start, so a database whose import failed (e.g. native core not built yet) is retried.
 */
export async function syncCatalog(
  store: Store,
  dataDir: string,
  catalogFile: string,
  log: (l: string) => void,
): Promise<void> {
  const cat = readCatalog(catalogFile);
  if (!cat) {
    log(`no database catalog at ${catalogFile}: no databases imported`);
    return;
  }
  const local = await store.db.selectFrom('users').select('id').where('username', '=', LOCAL_USER).executeTakeFirst();
  for (const e of cat.entries) {
    const known = await store.db.selectFrom('databases').select('id').where('code', '=', e.code).executeTakeFirst();
    if (known) continue;
    const file = resolve(cat.baseDir, e.file);
    if (!existsSync(file)) {
      log(`database ${e.code} not imported: ${file} does not exist`);
      continue;
    }
    try {
      const r = await importDatabase(store, dataDir, file, {
        code: e.code,
        name: e.name,
        description: e.description,
        type: e.type,
        version: e.version,
        level: e.level,
        support_task_list: e.support_task_list,
        source: e.source ?? null,
        license: e.license ?? null,
        attribution: e.attribution ?? null,
        phase_selection: e.phase_selection ?? null,
      });
      if (local) await subscribe(store, { username: LOCAL_USER, code: e.code, status: 'active', expiresAt: null });
      log(`imported database ${e.code}${r.warnings.length ? ` (${r.warnings.length} warning(s))` : ''}`);
    } catch (err) {
      log(`database ${e.code} not imported: ${(err as Error).message}`);
    }
  }
}
