// The web-console operations of the spec (users, keys, plans, subscriptions, databases) against a data directory.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { resolveSettings } from '../config.js';
import { openStore } from '../db/index.js';
import { createUser, setPlan, setUserPlan } from '../console/users.js';
import { deleteKey, issueKey, nameKey, setKeyActive, listKeys } from '../console/keys.js';
import { setDatabaseState, subscribe } from '../console/databases.js';
import { importUploadedDatabase } from '../console/admin.js';
import { prepareDataDir, protectStoreFiles } from '../service/files.js';
import { parseConsoleArgs, portOption, USAGE } from './options.js';

export async function run(argv: string[]): Promise<number> {
  const { values: o, positionals: p } = parseConsoleArgs(argv);
  const [cmd, sub, a1, a2] = p;
  const settings = resolveSettings({ dataDir: o['data-dir'], port: portOption(o.port) });
  prepareDataDir(settings.dataDir);
  const store = await openStore(settings.dataDir, { databaseUrl: settings.lab.databaseUrl });
  protectStoreFiles(settings.dataDir);
  const need = (v: string | undefined, what: string): string => {
    if (!v) throw new Error(`${what} is required\n${USAGE}`);
    return v;
  };
  try {
    switch (`${cmd} ${sub ?? ''}`.trim()) {
      case 'user create': {
        const id = await createUser(store, {
          username: need(a1, 'NAME'),
          plan: need(o.plan, '--plan'),
          email: o.email ?? null,
        });
        console.log(`user ${a1} created: ${id}`);
        break;
      }
      case 'user plan':
        await setUserPlan(store, need(a1, 'NAME'), need(o.plan, '--plan'));
        console.log('ok');
        break;
      case 'plan set':
        await setPlan(store, need(a1, 'NAME'), Number(need(o.limit, '--limit')));
        console.log('ok');
        break;
      case 'key issue': {
        const k = await issueKey(store, need(a1, 'USER'), { name: o.name, expiresAt: o.expires ?? null });
        console.log(`key id ${k.id} (shown once, store it now):`);
        console.log(`API key: ${k.key}`);
        break;
      }
      case 'key list':
        console.table(await listKeys(store, need(a1, 'USER')));
        break;
      case 'key name':
        await nameKey(store, Number(need(a1, 'ID')), need(a2, 'NAME'));
        console.log('ok');
        break;
      case 'key disable':
        await setKeyActive(store, Number(need(a1, 'ID')), false);
        console.log('ok');
        break;
      case 'key enable':
        await setKeyActive(store, Number(need(a1, 'ID')), true);
        console.log('ok');
        break;
      case 'key delete':
        await deleteKey(store, Number(need(a1, 'ID')));
        console.log('ok');
        break;
      case `subscribe ${sub}`: {
        await subscribe(store, {
          username: need(sub, 'USER'),
          code: need(a1, 'CODE'),
          status: need(o.status, '--status'),
          expiresAt: o.expires ?? null,
          plan: o.plan ?? null,
        });
        console.log('ok');
        break;
      }
      case 'db import': {
        // The console's import (same reader thread, same refusals); the file's bytes are stored as read.
        const file = need(a1, 'FILE');
        let bytes: Buffer;
        try {
          bytes = readFileSync(file);
        } catch (e) {
          throw new Error(`${file}: ${(e as Error).message}`);
        }
        const r = await importUploadedDatabase(store, settings.dataDir, {
          file_name: basename(file),
          tdb: bytes,
          replace: o.replace === true,
          subscribe_user: null,
          code: need(o.code, '--code'),
          name: need(o.name, '--name'),
          level: need(o.level, '--level'),
          type: need(o.type, '--type'),
          version: need(o.version, '--version'),
          description: o.description,
          support_task_list: o['support-tasks']
            ? o['support-tasks']
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean)
            : [],
        });
        for (const w of r.warnings) console.log(`warning: ${w}`);
        for (const ph of r.phases_refused) console.log(`warning: phase ${ph.phase} refused: ${ph.reason}`);
        console.log(`database imported: ${r.id}`);
        break;
      }
      case 'db enable':
        await setDatabaseState(store, need(a1, 'CODE'), 'enable');
        console.log('ok');
        break;
      case 'db disable':
        await setDatabaseState(store, need(a1, 'CODE'), 'disable');
        console.log('ok');
        break;
      case 'db hide':
        await setDatabaseState(store, need(a1, 'CODE'), 'invisible');
        console.log('ok');
        break;
      default:
        console.error(USAGE);
        return 2;
    }
  } finally {
    await store.close();
  }
  return 0;
}
