// The HTTP listener of the service before any route: node's server with the slow-client timers, the Host and NUL
// checks of every request, JSON bodies within their shape bounds, and errors as JSON ({"error": ...}).
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ServiceSettings } from '../config.js';
import { HttpError } from '../util/errors.js';
import { parseJsonBody } from '../requests/json-body.js';
import { hostAllowed } from './host-header.js';
import { isUnavailableError, ServiceUnavailable } from '../util/unavailable.js';

/**
 * Slow clients: a request (headers and body) must arrive within requestTimeoutMs or the connection is closed; node
 * checks at connectionsCheckingInterval. requireHostHeader is off so that a request without Host gets this
 * service's JSON 400 (rejectBadRequest) instead of node's bare one.
 */
function slowClientServer(handler: RequestListener, requestTimeoutMs: number, headersTimeoutMs: number): Server {
  const server = createServer(
    {
      requireHostHeader: false,
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.round(requestTimeoutMs / 4))),
      keepAliveTimeout: 5_000,
    },
    handler,
  );
  // node's request timers do not cover a connection that never sends a byte: the first request's headers must
  // arrive within headersTimeout of the connection, or it is closed. (Listening to the request, not to the
  // socket's data, keeps node's parser on its fast path.)
  const firstRequest = new WeakMap<Socket, NodeJS.Timeout>();
  server.on('connection', (socket: Socket) => {
    const silent = setTimeout(() => socket.destroy(), headersTimeoutMs);
    silent.unref();
    firstRequest.set(socket, silent);
    socket.once('close', () => clearTimeout(silent));
  });
  server.on('request', (req) => {
    clearTimeout(firstRequest.get(req.socket));
  });
  return server;
}

/** A request without Host, with a Host that does not name this service, or with U+0000 in its URL. */
function rejectBadRequest(allowedHosts: readonly string[]) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.headers.host === undefined || req.headers.host === '')
      return reply.code(400).send({ error: 'Host header is required' });
    if (!hostAllowed(req.headers.host, allowedHosts)) return reply.code(403).send({ error: 'Host not allowed' });
    // U+0000 in a path or query value: PostgreSQL's text cannot hold it and no parameter means it (bodies: json-body.ts)
    if (/%00/.test(req.url)) {
      const param = Object.entries((req.query ?? {}) as Record<string, unknown>).find(
        ([k, v]) => k.includes('\u0000') || [v].flat().some((x) => String(x).includes('\u0000')),
      )?.[0];
      return reply.code(400).send({ error: `${param ?? 'URL path'}: must not contain the NUL character (U+0000)` });
    }
  };
}

/** Which server a lost connection belongs to, for the 503's message. */
function unreachableServer(e: Error): string {
  return /redis|Connection is closed|max retries per request/i.test(`${e.message} ${e.stack ?? ''}`)
    ? 'Redis'
    : 'PostgreSQL';
}

/**
 * HttpError and fastify's own 4xx as {"error": message}; a server of the lab out of reach (a restart, a lost
 * network) as 503 with Retry-After; anything else is logged and a bare 500.
 */
function sendError(log: (l: string) => void) {
  return (error: FastifyError | HttpError | Error, _req: FastifyRequest, reply: FastifyReply) => {
    if (!(error instanceof HttpError) && isUnavailableError(error))
      error = new ServiceUnavailable(unreachableServer(error));
    if (error instanceof HttpError) return reply.code(error.status).headers(error.headers).send(error.body());
    const status = (error as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500)
      return reply.code(status).send({ error: error.message });
    log(`internal error: ${error.stack ?? error.message}`);
    return reply.code(500).send({ error: 'Internal server error' });
  };
}

/** JSON bodies: an empty body is "no body" (some clients send Content-Type on DELETE), bad JSON is a 400. */
function acceptJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, parseJsonBody(text));
    } catch (e) {
      done(e as HttpError, undefined);
    }
  });
}

export function createListener(settings: ServiceSettings, log: (l: string) => void): FastifyInstance {
  const requestTimeoutMs = Math.round(settings.requestTimeoutSeconds * 1000);
  const headersTimeoutMs = Math.min(requestTimeoutMs, 20_000);
  const app = Fastify({
    logger: false,
    bodyLimit: 4 * 1024 * 1024,
    serverFactory: (handler) => slowClientServer(handler, requestTimeoutMs, headersTimeoutMs),
  });
  app.addHook('onRequest', rejectBadRequest(settings.lab.allowedHosts));
  app.setErrorHandler(sendError(log));
  acceptJsonBodies(app);
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ error: 'Not found' }));
  return app;
}
