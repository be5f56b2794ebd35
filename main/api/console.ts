// Local console API (/console/v1): what shared/spec/service-spec.md leaves to the "web console" (keys,
// databases, subscriptions) and the service settings. Deliberately outside /api/v2 so the contract is unchanged.
// Every route requires the console token (header X-PhaseDesk-Console, <dataDir>/console-token, compared in
// constant time); the listener's Host check (listener.ts) runs before it. Every request is zod-validated
// (main/requests/console.ts) and a 4xx names the field: {"error": "<field> <message>"}.
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../service/context.js';
import { HttpError } from '../util/errors.js';
import { parseOrThrow } from '../requests/parse.js';
import {
  codeParams,
  dbImportBody,
  dbPatchBody,
  keyCreateBody,
  keyIdParams,
  keyPatchBody,
  settingsBody,
  subParams,
  subscriptionBody,
} from '../requests/console.js';
import { CONSOLE_HEADER, consoleTokenMatches } from '../console/token.js';
import { deleteKey, issueKey, nameKey, setKeyActive, setKeyExpiry } from '../console/keys.js';
import { subscribe } from '../console/databases.js';
import {
  importUploadedDatabase,
  keyExists,
  listAllDatabases,
  listAllKeys,
  listUsers,
  saveSettings,
  settingsView,
  updateDatabase,
} from '../console/admin.js';

export const CONSOLE_PREFIX = '/console/v1';
/** Largest accepted TDB upload (JSON body holding the file text). Big commercial databases are a few MB. */
export const MAX_UPLOAD_BYTES = 16 * 1024 * 1024;

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
        await wrap(() => updateDatabase(ctx.store, code, b));
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
