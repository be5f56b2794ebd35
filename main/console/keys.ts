import type { Store } from '../db/index.js';
import { generateApiKey, hashApiKey } from '../service/keys.js';
import { rfc3339 } from '../util/time.js';
import { userIdByName } from './users.js';

/** Issues a key; the clear key is returned once and never stored (only its sha256 and a display prefix). */
export async function issueKey(
  store: Store,
  username: string,
  o: { name?: string; expiresAt?: string | null } = {},
): Promise<{ id: number; key: string }> {
  if (o.expiresAt !== undefined && o.expiresAt !== null) {
    const at = Date.parse(o.expiresAt);
    if (!Number.isFinite(at))
      throw new Error(`expiry '${o.expiresAt}' is not a time (use RFC 3339, e.g. 2027-01-31T00:00:00Z)`);
    if (at <= Date.now()) throw new Error(`expiry ${o.expiresAt} is in the past: the key would be expired when issued`);
  }
  const userId = await userIdByName(store, username);
  const key = generateApiKey();
  const r = await store.db
    .insertInto('api_keys')
    .values({
      user_id: userId,
      key_hash: hashApiKey(key),
      key_prefix: key.slice(0, 7),
      key_name: o.name ?? 'default',
      is_active: 1,
      created_at: rfc3339(),
      last_used_at: null,
      expires_at: o.expiresAt ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(r.id), key };
}

async function mustUpdate(p: Promise<{ numUpdatedRows: bigint } | { numDeletedRows: bigint }>, id: number) {
  const r = await p;
  const n = 'numUpdatedRows' in r ? r.numUpdatedRows : r.numDeletedRows;
  if (Number(n) !== 1) throw new Error(`key ${id} does not exist`);
}

export async function nameKey(store: Store, id: number, name: string): Promise<void> {
  await mustUpdate(
    store.db.updateTable('api_keys').set({ key_name: name }).where('id', '=', id).executeTakeFirst(),
    id,
  );
}
export async function setKeyActive(store: Store, id: number, active: boolean): Promise<void> {
  await mustUpdate(
    store.db
      .updateTable('api_keys')
      .set({ is_active: active ? 1 : 0 })
      .where('id', '=', id)
      .executeTakeFirst(),
    id,
  );
}
export async function setKeyExpiry(store: Store, id: number, expiresAt: string | null): Promise<void> {
  await mustUpdate(
    store.db.updateTable('api_keys').set({ expires_at: expiresAt }).where('id', '=', id).executeTakeFirst(),
    id,
  );
}
export async function deleteKey(store: Store, id: number): Promise<void> {
  await mustUpdate(store.db.deleteFrom('api_keys').where('id', '=', id).executeTakeFirst(), id);
}
export async function listKeys(store: Store, username: string) {
  const userId = await userIdByName(store, username);
  return store.db
    .selectFrom('api_keys')
    .select(['id', 'key_prefix', 'key_name', 'is_active', 'created_at', 'last_used_at', 'expires_at'])
    .where('user_id', '=', userId)
    .execute();
}
