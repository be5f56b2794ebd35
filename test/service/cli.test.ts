// The console commands through the real CLI (dist/main/cli.js), checked against the store and the API.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, tempDir, TDB } from './helpers.js';
import { openStore } from '../../main/db/index.js';
import { hashApiKey } from '../../main/service/keys.js';
import { registerDatabase } from '../../main/console/databases.js';

const cli = (dataDir: string, ...args: string[]) =>
  execFileSync(process.execPath, [join(ROOT, 'dist', 'main', 'cli.js'), ...args, '--data-dir', dataDir], {
    encoding: 'utf8',
  });

describe('console CLI', () => {
  it('plan, user, key issue/name/disable/delete, subscribe, db enable/disable/hide', async () => {
    ensureBuilt();
    const d = tempDir();
    cli(d, 'plan', 'set', 'pro', '--limit', '50');
    cli(d, 'user', 'create', 'eve', '--plan', 'pro', '--email', 'eve@example.org');
    const out = cli(d, 'key', 'issue', 'eve', '--name', 'laptop');
    const key = /^API key: (tk_[A-Za-z0-9]{32})$/m.exec(out)?.[1];
    expect(key).toBeDefined();
    let store = await openStore(d);
    const row = await store.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_hash', '=', hashApiKey(key!))
      .executeTakeFirstOrThrow();
    expect(row.key_name).toBe('laptop');
    await registerDatabase(
      store,
      d,
      TDB,
      { code: 'X1', name: 'x', level: 'free', type: 't', version: '1' },
      { element_list: ['AL'], phase_list: ['LIQUID'] },
    );
    await store.close();
    cli(d, 'key', 'name', String(row.id), 'desk');
    cli(d, 'key', 'disable', String(row.id));
    cli(d, 'subscribe', 'eve', 'X1', '--status', 'trail', '--expires', '2999-01-01T00:00:00Z');
    cli(d, 'db', 'hide', 'X1');
    store = await openStore(d);
    const k = await store.db.selectFrom('api_keys').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(k.key_name).toBe('desk');
    expect(k.is_active).toBe(0);
    expect(await store.db.selectFrom('subscriptions').selectAll().executeTakeFirstOrThrow()).toMatchObject({
      status: 'trail',
      expires_at: '2999-01-01T00:00:00Z',
    });
    expect(
      (await store.db.selectFrom('databases').select('state').where('code', '=', 'X1').executeTakeFirstOrThrow()).state,
    ).toBe('invisible');
    await store.close();
    cli(d, 'db', 'disable', 'X1');
    cli(d, 'db', 'enable', 'X1');
    cli(d, 'key', 'delete', String(row.id));
    store = await openStore(d);
    expect(await store.db.selectFrom('api_keys').selectAll().execute()).toHaveLength(0);
    expect(
      (await store.db.selectFrom('databases').select('state').where('code', '=', 'X1').executeTakeFirstOrThrow()).state,
    ).toBe('enable');
    await store.close();
    expect(() => cli(d, 'user', 'create', 'bob', '--plan', 'nope')).toThrow();
  });
});
