import type { KeyInfoResponse } from '../../contract/api/responses.js';
import { createHash, randomInt } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { ApiKeysTable, UsersTable } from '../db/types.js';
import type { ServiceContext } from './context.js';
import { HttpError } from '../util/errors.js';
import { isPast, rfc3339 } from '../util/time.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** tk_ + 32 alphanumerics drawn with crypto.randomInt (uniform, no modulo bias). */
export function generateApiKey(): string {
  let s = 'tk_';
  for (let i = 0; i < 32; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

/** Keys are stored only as this hash (plus a short display prefix). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export interface AuthContext {
  key: Selectable<ApiKeysTable>;
  user: Selectable<UsersTable>;
  presentedKey: string;
}

/** The seven ordered checks of the spec's Authentication section, first failure wins. */
export async function authenticate(ctx: ServiceContext, header: string | undefined): Promise<AuthContext> {
  if (header === undefined || header === '') throw new HttpError(401, 'Missing Authorization header');
  const m = /^Bearer (.*)$/.exec(header);
  if (!m) throw new HttpError(401, "Invalid Authorization header format, expected 'Bearer <token>'");
  const key = m[1]!.trim();
  if (!key.startsWith('tk_')) throw new HttpError(401, "API key must start with 'tk_' prefix");
  if (key.length < 10) throw new HttpError(401, 'API key is too short');
  const row = await ctx.store.db
    .selectFrom('api_keys')
    .selectAll()
    .where('key_hash', '=', hashApiKey(key))
    .executeTakeFirst();
  if (!row) throw new HttpError(401, 'invalid API key', { details: 'no key with this value exists' });
  if (!row.is_active) throw new HttpError(403, 'API key is disabled');
  if (isPast(row.expires_at)) throw new HttpError(403, 'API key has expired');
  const now = rfc3339();
  await ctx.store.db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', row.id).execute();
  const user = await ctx.store.db.selectFrom('users').selectAll().where('id', '=', row.user_id).executeTakeFirst();
  if (!user) throw new HttpError(401, 'invalid API key', { details: 'the key owner no longer exists' });
  return { key: { ...row, last_used_at: now }, user, presentedKey: key };
}

/** GET /key/info body. Optional null fields are omitted ("absent means never used / no expiry"). */
export async function keyInfo(ctx: ServiceContext, auth: AuthContext): Promise<KeyInfoResponse> {
  const plan = await ctx.store.db
    .selectFrom('plans')
    .select('name')
    .where('id', '=', auth.user.plan_id)
    .executeTakeFirst();
  const user: KeyInfoResponse['user'] = {
    id: auth.user.id,
    username: auth.user.username,
    email: auth.user.email,
    subscription_level: plan?.name ?? 'none',
  };
  if (auth.user.subscription_expires_at) user.subscription_expires_at = auth.user.subscription_expires_at;
  return {
    id: auth.key.id,
    api_key: auth.presentedKey,
    key_name: auth.key.key_name,
    is_active: auth.key.is_active === 1,
    created_at: auth.key.created_at,
    ...(auth.key.last_used_at ? { last_used_at: auth.key.last_used_at } : {}),
    ...(auth.key.expires_at ? { expires_at: auth.key.expires_at } : {}),
    user,
  };
}
