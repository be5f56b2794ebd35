// Local console API (/console/v1): what shared/spec/service-spec.md leaves to the "web console" (keys,
// databases, subscriptions) and the service settings. Deliberately outside /api/v2 so the contract is unchanged.
// Every route requires the console token (header X-PhaseDesk-Console, <dataDir>/console-token, compared in
// constant time); the listener's Host check (server.ts) runs before it. Every request is zod-validated and a
// 4xx names the field: {"error": "<field> <message>"}.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { TASK_TYPES } from '../../contract/tasks/registry.js';
import { DB_STATES } from '../../contract/api/console.js';
import type { ServiceContext } from '../service/context.js';
import { HttpError } from '../util/errors.js';
import { parseOrThrow } from '../requests/parse.js';
import { CONSOLE_HEADER, consoleTokenMatches } from '../console/token.js';
import { deleteKey, issueKey, nameKey, setKeyActive, setKeyExpiry } from '../console/keys.js';
import { setDatabaseState, subscribe } from '../console/databases.js';
import { LOCAL_USER } from '../console/bootstrap.js';
import {
  importUploadedDatabase,
  keyExists,
  listAllDatabases,
  listAllKeys,
  listUsers,
  saveSettings,
  settingsView,
} from '../console/admin.js';
import { SETTING_BOUNDS } from '../config.js';

export const CONSOLE_PREFIX = '/console/v1';
/** Largest accepted TDB upload (JSON body holding the file text). Big commercial databases are a few MB. */
export const MAX_UPLOAD_BYTES = 16 * 1024 * 1024;

const isoTime = z
  .string()
  .refine(
    (s) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && Number.isFinite(Date.parse(s)),
    { error: 'must be an RFC 3339 time such as 2027-01-31T00:00:00Z' },
  );
const futureTime = isoTime.refine((s) => Date.parse(s) > Date.now(), { error: 'must be in the future' });
const keyName = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(100, { error: 'must be at most 100 characters' });
const username = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(100, { error: 'must be at most 100 characters' });

export const keyCreateBody = z.strictObject({
  name: keyName,
  username: username.default(LOCAL_USER),
  expires_at: futureTime.nullable().default(null),
});
export const keyPatchBody = z
  .strictObject({
    name: keyName.optional(),
    is_active: z.boolean({ error: 'must be true or false' }).optional(),
    expires_at: isoTime.nullable().optional(),
  })
  .refine((b) => b.name !== undefined || b.is_active !== undefined || b.expires_at !== undefined, {
    error: 'name, is_active or expires_at is required',
  });
const keyIdParams = z.object({
  id: z.coerce
    .number({ error: 'must be a positive integer' })
    .int({ error: 'must be a positive integer' })
    .min(1, { error: 'must be a positive integer' }),
});

const CODE_RE = /^[A-Za-z0-9_.-]{1,64}$/;
const codeParams = z.object({
  code: z.string().regex(CODE_RE, { error: 'may only contain letters, digits, _ . - (at most 64)' }),
});
const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` });

export const dbImportBody = z.strictObject({
  file_name: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(255, { error: 'must be at most 255 characters' })
    .regex(/^[^/\\\0]+$/, { error: 'must be a file name without a directory' }),
  tdb: z.string({ error: 'must be the text of the TDB file' }).min(1, { error: 'must not be empty' }),
  code: z
    .string({ error: 'must be a string' })
    .regex(CODE_RE, { error: 'may only contain letters, digits, _ . - (at most 64)' }),
  name: text(200),
  level: text(50).default('free'),
  type: text(50).default('alloy'),
  version: text(50).default('1.0'),
  description: z
    .string({ error: 'must be a string' })
    .max(4000, { error: 'must be at most 4000 characters' })
    .default(''),
  support_task_list: z
    .array(z.string().regex(/^[a-z_]{1,64}$/, { error: 'must be task type names' }), {
      error: 'must be an array of task types',
    })
    .max(32, { error: 'must list at most 32 task types' })
    .default([...TASK_TYPES]),
  replace: z.boolean({ error: 'must be true or false' }).default(false),
  subscribe_user: username.nullable().default(LOCAL_USER),
});
export const dbPatchBody = z.strictObject({
  state: z.enum(DB_STATES, { error: 'must be enable, disable or invisible' }),
});
export const subscriptionBody = z.strictObject({
  // The spec's known values; the store keeps free text, but the console only writes these.
  status: z.enum(['trail', 'active', 'inactive', 'expired', 'pending'], {
    error: 'must be trail, active, inactive, expired or pending',
  }),
  expires_at: isoTime.nullable().default(null),
});
const subParams = codeParams.extend({ username });

const setting = (k: keyof typeof SETTING_BOUNDS) => {
  const [lo, hi] = SETTING_BOUNDS[k];
  const msg = `must be an integer between ${lo} and ${hi} (or null for the default)`;
  return z
    .number({ error: msg })
    .int({ error: msg })
    .min(lo, { error: msg })
    .max(hi, { error: msg })
    .nullable()
    .optional();
};
export const settingsBody = z.strictObject(
  Object.fromEntries(
    (Object.keys(SETTING_BOUNDS) as (keyof typeof SETTING_BOUNDS)[]).map((k) => [k, setting(k)]),
  ) as Record<keyof typeof SETTING_BOUNDS, ReturnType<typeof setting>>,
);

/** Routes that change a record answer with 404 naming what is missing; errors of the console helpers become 400s. */
async function wrap<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof HttpError) throw e;
    const msg = (e as Error).message;
    throw new HttpError(/does not exist/.test(msg) ? 404 : 400, msg);
  }
}

export async function registerConsoleRoutes(app: FastifyInstance, ctx: ServiceContext, token: string): Promise<void> {
  await app.register(
    async (c) => {
      // onRequest: the token is checked before any body is read, so an unauthenticated upload is refused unread.
      c.addHook('onRequest', async (req) => {
        const presented = req.headers[CONSOLE_HEADER];
        if (presented === undefined || presented === '')
          throw new HttpError(401, 'Missing X-PhaseDesk-Console header (the console token)');
        if (!consoleTokenMatches(token, presented)) throw new HttpError(401, 'invalid console token');
      });
      // The console is never cached (keys, settings).
      c.addHook('onSend', async (_req, reply) => {
        reply.header('Cache-Control', 'no-store');
      });

      c.get('/users', async () => ({ items: await listUsers(ctx.store) }));

      c.get('/keys', async () => ({ items: await listAllKeys(ctx.store) }));
      c.post('/keys', async (req, reply) => {
        const b = parseOrThrow(keyCreateBody, req.body);
        if (
          !(await ctx.store.db.selectFrom('users').select('id').where('username', '=', b.username).executeTakeFirst())
        ) {
          throw new HttpError(400, `username: user '${b.username}' does not exist`);
        }
        const k = await wrap(() => issueKey(ctx.store, b.username, { name: b.name, expiresAt: b.expires_at }));
        const row = (await listAllKeys(ctx.store)).find((r) => r.id === k.id)!;
        // The only time the clear key leaves the service: it is stored as a hash.
        return reply.code(201).send({ ...row, api_key: k.key });
      });
      c.patch('/keys/:id', async (req) => {
        const { id } = parseOrThrow(keyIdParams, req.params);
        const b = parseOrThrow(keyPatchBody, req.body);
        if (!(await keyExists(ctx.store, id))) throw new HttpError(404, `id: key ${id} does not exist`);
        if (b.name !== undefined) await nameKey(ctx.store, id, b.name);
        if (b.is_active !== undefined) await setKeyActive(ctx.store, id, b.is_active);
        if (b.expires_at !== undefined) await setKeyExpiry(ctx.store, id, b.expires_at);
        return (await listAllKeys(ctx.store)).find((r) => r.id === id);
      });
      c.delete('/keys/:id', async (req, reply) => {
        const { id } = parseOrThrow(keyIdParams, req.params);
        if (!(await keyExists(ctx.store, id))) throw new HttpError(404, `id: key ${id} does not exist`);
        await deleteKey(ctx.store, id);
        return reply.code(204).send();
      });

      c.get('/databases', async () => ({ items: await listAllDatabases(ctx.store) }));
      c.post('/databases', { bodyLimit: MAX_UPLOAD_BYTES }, async (req, reply) => {
        const b = parseOrThrow(dbImportBody, req.body);
        const report = await importUploadedDatabase(ctx.store, ctx.settings.dataDir, b);
        return reply.code(report.replaced ? 200 : 201).send(report);
      });
      c.patch('/databases/:code', async (req) => {
        const { code } = parseOrThrow(codeParams, req.params);
        const b = parseOrThrow(dbPatchBody, req.body);
        await wrap(() => setDatabaseState(ctx.store, code, b.state));
        return (await listAllDatabases(ctx.store)).find((d) => d.code === code);
      });
      c.put('/databases/:code/subscriptions/:username', async (req) => {
        const p = parseOrThrow(subParams, req.params);
        const b = parseOrThrow(subscriptionBody, req.body);
        await wrap(() =>
          subscribe(ctx.store, { username: p.username, code: p.code, status: b.status, expiresAt: b.expires_at }),
        );
        return (await listAllDatabases(ctx.store)).find((d) => d.code === p.code);
      });

      c.get('/settings', async () => settingsView(ctx.settings, portOf(ctx), ctx.origin));
      c.put('/settings', async (req) => {
        const b = parseOrThrow(settingsBody, req.body);
        saveSettings(ctx.settings.dataDir, b);
        return settingsView(ctx.settings, portOf(ctx), ctx.origin);
      });
    },
    { prefix: CONSOLE_PREFIX },
  );
}

function portOf(ctx: ServiceContext): number {
  const m = /:(\d+)$/.exec(ctx.origin);
  return m ? Number(m[1]) : ctx.settings.port;
}
