import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../service/context.js';
import { keyInfo } from '../service/keys.js';
import { auth } from './auth-hook.js';

export function registerKeyRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/key/info', async (req) => keyInfo(ctx, auth(req)));
}
