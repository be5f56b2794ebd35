// The web-console operations of the spec (users, keys, plans, subscriptions, databases) against a data directory.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { resolveSettings } from '../config.js';
import { openStore, type Store } from '../db/index.js';
import { createUser, setPlan, setUserPlan } from '../console/users.js';
import { deleteKey, issueKey, nameKey, setKeyActive, listKeys } from '../console/keys.js';
import { setDatabaseState, subscribe } from '../console/databases.js';
import { importUploadedDatabase } from '../console/admin.js';
import { prepareDataDir, protectStoreFiles } from '../service/files.js';
import { parseConsoleArgs, portOption, USAGE } from './options.js';

/** One console command's input: the open store, the flags and the positional words after the command's name. */
interface ConsoleCall {
  store: Store;
  dataDir: string;
  o: ReturnType<typeof parseConsoleArgs>['values'];
  /** The word after the command's name (the user of `subscribe USER CODE`). */
  sub: string | undefined;
  a1: string | undefined;
  a2: string | undefined;
}

function need(v: string | undefined, what: string): string {
  if (!v) throw new Error(`${what} is required\n${USAGE}`);
  return v;
}

/** A command that prints "ok" once it has run. */
const ok =
  (fn: (c: ConsoleCall) => Promise<unknown>) =>
  async (c: ConsoleCall): Promise<void> => {
    await fn(c);
    console.log('ok');
  };

/** `db import`: the console's import (same reader thread, same refusals); the file's bytes are stored as read. */
async function importDatabaseFile({ store, dataDir, o, a1 }: ConsoleCall): Promise<void> {
  const file = need(a1, 'FILE');
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
  const r = await importUploadedDatabase(store, dataDir, {
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
}

/** "<command> <subcommand>" -> what it does; `subscribe USER` stands for `subscribe` with any user. */
const COMMANDS: Record<string, (c: ConsoleCall) => Promise<void>> = {
  'user create': async ({ store, o, a1 }) => {
    const id = await createUser(store, {
      username: need(a1, 'NAME'),
      plan: need(o.plan, '--plan'),
      email: o.email ?? null,
    });
    console.log(`user ${a1} created: ${id}`);
  },
  'user plan': ok(({ store, o, a1 }) => setUserPlan(store, need(a1, 'NAME'), need(o.plan, '--plan'))),
  'plan set': ok(({ store, o, a1 }) => setPlan(store, need(a1, 'NAME'), Number(need(o.limit, '--limit')))),
  'key issue': async ({ store, o, a1 }) => {
    const k = await issueKey(store, need(a1, 'USER'), { name: o.name, expiresAt: o.expires ?? null });
    console.log(`key id ${k.id} (shown once, store it now):`);
    console.log(`API key: ${k.key}`);
  },
  'key list': async ({ store, a1 }) => console.table(await listKeys(store, need(a1, 'USER'))),
  'key name': ok(({ store, a1, a2 }) => nameKey(store, Number(need(a1, 'ID')), need(a2, 'NAME'))),
  'key disable': ok(({ store, a1 }) => setKeyActive(store, Number(need(a1, 'ID')), false)),
  'key enable': ok(({ store, a1 }) => setKeyActive(store, Number(need(a1, 'ID')), true)),
  'key delete': ok(({ store, a1 }) => deleteKey(store, Number(need(a1, 'ID')))),
  'subscribe USER': ok(({ store, o, sub, a1 }) =>
    subscribe(store, {
      username: need(sub, 'USER'),
      code: need(a1, 'CODE'),
      status: need(o.status, '--status'),
      expiresAt: o.expires ?? null,
      plan: o.plan ?? null,
    }),
  ),
  'db import': importDatabaseFile,
  'db enable': ok(({ store, a1 }) => setDatabaseState(store, need(a1, 'CODE'), 'enable')),
  'db disable': ok(({ store, a1 }) => setDatabaseState(store, need(a1, 'CODE'), 'disable')),
  'db hide': ok(({ store, a1 }) => setDatabaseState(store, need(a1, 'CODE'), 'invisible')),
};

function commandOf(cmd: string | undefined, sub: string | undefined): ((c: ConsoleCall) => Promise<void>) | undefined {
  const key = cmd === 'subscribe' ? (sub ? 'subscribe USER' : undefined) : `${cmd} ${sub ?? ''}`.trim();
  return key !== undefined && Object.hasOwn(COMMANDS, key) ? COMMANDS[key] : undefined;
}

export async function run(argv: string[]): Promise<number> {
  const { values: o, positionals: p } = parseConsoleArgs(argv);
  const [cmd, sub, a1, a2] = p;
  const settings = resolveSettings({ dataDir: o['data-dir'], port: portOption(o.port) });
  prepareDataDir(settings.dataDir);
  const store = await openStore(settings.dataDir, { databaseUrl: settings.lab.databaseUrl });
  protectStoreFiles(settings.dataDir);
  try {
    const command = commandOf(cmd, sub);
    if (!command) {
      console.error(USAGE);
      return 2;
    }
    await command({ store, dataDir: settings.dataDir, o, sub, a1, a2 });
  } catch (e) {
    if (!isRefusal(e)) throw e;
    console.error(`error: ${e.message}`);
    return 2;
  } finally {
    await store.close();
  }
  return 0;
}

/**
 * What the console operations throw for input they refuse (a missing argument, an unknown user, plan, key or
 * database, a code or time they do not take): exit code 2. A failure of the store itself (an error with a system or
 * SQLite code, a 5xx) stays exit code 1.
 */
function isRefusal(e: unknown): e is Error {
  if (!(e instanceof Error)) return false;
  const { code, status } = e as Error & { code?: unknown; status?: unknown };
  if (typeof status === 'number') return status >= 400 && status < 500;
  return code === undefined;
}
