#!/usr/bin/env node
// PhaseDesk service CLI: `start` runs the /api/v2 listener; the other commands are the web-console
// operations of the spec (users, keys, plans, subscriptions, databases) against the same data directory.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { resolveSettings } from './config.js';
import { openStore } from './db/index.js';
import { startService } from './server.js';
import { createUser, setPlan, setUserPlan } from './console/users.js';
import { deleteKey, issueKey, nameKey, setKeyActive, listKeys } from './console/keys.js';
import { setDatabaseState, subscribe } from './console/databases.js';
import { importUploadedDatabase } from './console/admin.js';
import { prepareDataDir, protectStoreFiles } from './service/files.js';

const USAGE = `usage: phasedesk <command> [--data-dir DIR]
  start [--port N]                          start the service (PHASEDESK_PORT, PHASEDESK_DATA_DIR)
  user create NAME --plan PLAN [--email E]  create a user
  plan set NAME --limit N                   create/update a plan (task_using_limit per rolling 24 h)
  user plan NAME --plan PLAN                move a user to a plan
  key issue USER [--name N] [--expires T]   issue a key (printed once)
  key list USER | key name ID NAME | key disable ID | key enable ID | key delete ID
  subscribe USER CODE --status S [--expires T] [--plan P]
  db import FILE --code C --name N --level L --type T --version V [--description D] [--support-tasks a,b] [--replace]
  db enable CODE | db disable CODE | db hide CODE
  calc CONFIG.json --tdb FILE --out DIR [--threads N]   run a task_config without the service (writes result/ and preview/)
  server | worker                           lab server: the API on PostgreSQL + Redis, and its workers (--help)`;

async function main(argv: string[]): Promise<number> {
  // `calc` has its own options (main/console/calc.ts) and needs no data directory.
  if (argv[0] === 'calc') return (await import('./console/calc.js')).calcCommand(argv.slice(1));
  if (argv[0] === 'server') return (await import('./server/commands.js')).serverCommand(argv.slice(1));
  if (argv[0] === 'worker') return (await import('./server/commands.js')).workerCommand(argv.slice(1));
  const { values: o, positionals: p } = parseArgs({
    args: argv, allowPositionals: true, strict: true,
    options: {
      port: { type: 'string' }, 'data-dir': { type: 'string' }, plan: { type: 'string' }, email: { type: 'string' },
      limit: { type: 'string' }, name: { type: 'string' }, expires: { type: 'string' }, status: { type: 'string' },
      code: { type: 'string' }, level: { type: 'string' }, type: { type: 'string' }, version: { type: 'string' },
      description: { type: 'string' }, 'support-tasks': { type: 'string' }, replace: { type: 'boolean' }, help: { type: 'boolean' },
    },
  });
  const [cmd, sub, a1, a2] = p;
  if (o.help || !cmd) { console.log(USAGE); return cmd ? 0 : 2; }
  const port = o.port !== undefined ? Number(o.port) : undefined;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new Error('--port must be an integer 0..65535');
  const settings = resolveSettings({ dataDir: o['data-dir'], port });

  if (cmd === 'start') {
    // Only the flags are passed: resolveSettings records where each value came from (Settings shows it).
    const svc = await startService({ dataDir: o['data-dir'], port });
    if (svc.firstKey) console.log(`API key: ${svc.firstKey}`);
    // The console token guards /console/v1 (keys, databases, settings in the renderer); it stays readable in the file.
    console.log(`Console token: ${svc.consoleToken} (also in ${join(svc.ctx.settings.dataDir, 'console-token')})`);
    console.log(`PhaseDesk listening on ${svc.baseUrl}`);
    console.log(`Open ${svc.ctx.origin}/ in a browser`);
    let stopping = false;
    const stop = () => { if (stopping) return; stopping = true; void svc.close().then(() => process.exit(0)); };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    return -1; // keep running
  }

  prepareDataDir(settings.dataDir);
  const store = await openStore(settings.dataDir, { databaseUrl: settings.lab.databaseUrl });
  protectStoreFiles(settings.dataDir);
  const need = (v: string | undefined, what: string): string => { if (!v) throw new Error(`${what} is required\n${USAGE}`); return v; };
  try {
    switch (`${cmd} ${sub ?? ''}`.trim()) {
      case 'user create': {
        const id = await createUser(store, { username: need(a1, 'NAME'), plan: need(o.plan, '--plan'), email: o.email ?? null });
        console.log(`user ${a1} created: ${id}`); break;
      }
      case 'user plan': await setUserPlan(store, need(a1, 'NAME'), need(o.plan, '--plan')); console.log('ok'); break;
      case 'plan set': await setPlan(store, need(a1, 'NAME'), Number(need(o.limit, '--limit'))); console.log('ok'); break;
      case 'key issue': {
        const k = await issueKey(store, need(a1, 'USER'), { name: o.name, expiresAt: o.expires ?? null });
        console.log(`key id ${k.id} (shown once, store it now):`);
        console.log(`API key: ${k.key}`); break;
      }
      case 'key list': console.table(await listKeys(store, need(a1, 'USER'))); break;
      case 'key name': await nameKey(store, Number(need(a1, 'ID')), need(a2, 'NAME')); console.log('ok'); break;
      case 'key disable': await setKeyActive(store, Number(need(a1, 'ID')), false); console.log('ok'); break;
      case 'key enable': await setKeyActive(store, Number(need(a1, 'ID')), true); console.log('ok'); break;
      case 'key delete': await deleteKey(store, Number(need(a1, 'ID'))); console.log('ok'); break;
      case `subscribe ${sub}`: {
        await subscribe(store, { username: need(sub, 'USER'), code: need(a1, 'CODE'), status: need(o.status, '--status'), expiresAt: o.expires ?? null, plan: o.plan ?? null });
        console.log('ok'); break;
      }
      case 'db import': {
        // The console's import (same reader thread, same refusals); the file's bytes are stored as read.
        const file = need(a1, 'FILE');
        let bytes: Buffer;
        try { bytes = readFileSync(file); } catch (e) { throw new Error(`${file}: ${(e as Error).message}`); }
        const r = await importUploadedDatabase(store, settings.dataDir, {
          file_name: basename(file), tdb: bytes, replace: o.replace === true, subscribe_user: null,
          code: need(o.code, '--code'), name: need(o.name, '--name'), level: need(o.level, '--level'), type: need(o.type, '--type'),
          version: need(o.version, '--version'), description: o.description,
          support_task_list: o['support-tasks'] ? o['support-tasks'].split(',').map((s) => s.trim()).filter(Boolean) : [],
        });
        for (const w of r.warnings) console.log(`warning: ${w}`);
        for (const p of r.phases_refused) console.log(`warning: phase ${p.phase} refused: ${p.reason}`);
        console.log(`database imported: ${r.id}`); break;
      }
      case 'db enable': await setDatabaseState(store, need(a1, 'CODE'), 'enable'); console.log('ok'); break;
      case 'db disable': await setDatabaseState(store, need(a1, 'CODE'), 'disable'); console.log('ok'); break;
      case 'db hide': await setDatabaseState(store, need(a1, 'CODE'), 'invisible'); console.log('ok'); break;
      default: console.error(USAGE); return 2;
    }
  } finally {
    await store.close();
  }
  return 0;
}

main(process.argv.slice(2)).then((code) => { if (code >= 0) process.exitCode = code; }, (e: Error) => {
  console.error(`error: ${e.message}`);
  process.exitCode = 1;
});
