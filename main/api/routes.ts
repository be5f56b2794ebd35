// Every route of the listener: /api/v2 (its OpenAPI document and result schemas without a key, the rest behind the
// API key), the local console API (/console/v1), the signed downloads and the renderer's files.
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../service/context.js';
import { authHook } from './auth-hook.js';
import { registerKeyRoutes } from './keys.js';
import { registerTaskRoutes } from './tasks.js';
import { registerDatabaseRoutes } from './databases.js';
import { registerDownloadRoutes } from './downloads.js';
import { registerRendererRoutes } from './renderer.js';
import { buildOpenApi, registerResultSchemaRoutes } from './openapi.js';
import { registerConsoleRoutes } from './console.js';

export const API_PREFIX = '/api/v2';

export async function registerRoutes(
  app: FastifyInstance,
  ctx: ServiceContext,
  consoleToken: string,
  packageRoot: string,
  log: (l: string) => void,
): Promise<void> {
  await app.register(
    async (api) => {
      api.get('/openapi.json', async () => buildOpenApi(`${ctx.origin}${API_PREFIX}`));
      registerResultSchemaRoutes(api);
      await api.register(async (authed) => {
        // onRequest: authentication runs before body parsing, so a bad body never masks a 401/403.
        authed.addHook('onRequest', authHook(ctx));
        registerKeyRoutes(authed, ctx);
        registerTaskRoutes(authed, ctx);
        registerDatabaseRoutes(authed, ctx);
      });
    },
    { prefix: API_PREFIX },
  );
  await registerConsoleRoutes(app, ctx, consoleToken);
  registerDownloadRoutes(app, ctx);
  await registerRendererRoutes(app, packageRoot, log);
}
