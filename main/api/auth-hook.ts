import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../service/context.js';
import { authenticate, type AuthContext } from '../service/keys.js';

const authOf = new WeakMap<FastifyRequest, AuthContext>();

/** onRequest hook running the spec's seven authentication checks. */
export function authHook(ctx: ServiceContext) {
  return async (req: FastifyRequest, _reply: FastifyReply) => {
    authOf.set(req, await authenticate(ctx, req.headers.authorization));
  };
}

export function auth(req: FastifyRequest): AuthContext {
  const a = authOf.get(req);
  if (!a) throw new Error('route registered without the auth hook');
  return a;
}
