// The embedded /api/v2 service: fastify listener on 127.0.0.1, Kysely store, scheduler over calculation processes.
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo, Socket } from 'node:net';
import { createServer } from 'node:http';
import { openStore, type Store } from './db/index.js';
import { resolveSettings, type ServiceSettings, type SettingsOverrides } from './config.js';
import type { ServiceContext } from './service/context.js';
import { loadOrCreateSecret, prepareDataDir, protectStoreFiles } from './service/files.js';
import { Scheduler } from './service/scheduler.js';
import { HttpError } from './util/errors.js';
import { authHook } from './api/auth-hook.js';
import { registerKeyRoutes } from './api/keys.js';
import { registerTaskRoutes } from './api/tasks.js';
import { registerDatabaseRoutes } from './api/databases.js';
import { registerDownloadRoutes } from './api/downloads.js';
import { registerRendererRoutes } from './api/renderer.js';
import { buildOpenApi, registerResultSchemaRoutes } from './api/openapi.js';
import { parseJsonBody } from './requests/json-body.js';
import { bootstrapIfEmpty } from './console/bootstrap.js';
import { registerConsoleRoutes } from './api/console.js';
import { loadOrCreateConsoleToken } from './console/token.js';
import { acquireDataDirLock } from './service/data-dir-lock.js';
import { JobQueue, sharedUrlSecret } from './server/job-queue.js';
import { directoryBlobStore } from './service/blob-store.js';

export const API_PREFIX = '/api/v2';
const here = dirname(fileURLToPath(import.meta.url));
/** Repository (or package) root, whether running from dist/main or from main/ (vitest). */
export const PACKAGE_ROOT = here.split(sep).includes('dist') ? resolve(here, '..', '..') : resolve(here, '..');

/** The calculation hosts need compiled JS: dist/worker/index.js (and host.js beside it) next to the compiled main, or the repo's dist under vitest. */
export function defaultWorkerFile(): string {
  return join(PACKAGE_ROOT, 'dist', 'worker', 'index.js');
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const HOST_RE = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::([0-9]{1,5}))?$/i;

/**
 * Host header (RFC 9110 7.2: uri-host [":" port]) as name and port; null when it is not exactly that shape
 * (`[::1]evil.com`, `localhost:evil.com`, `localhost:`, a port above 65535, userinfo, spaces).
 */
export function parseHost(host: string | undefined): { name: string; port: number | null } | null {
  if (host === undefined) return null;
  const m = HOST_RE.exec(host);
  if (!m) return null;
  const port = m[2] === undefined ? null : Number(m[2]);
  if (port !== null && (port < 1 || port > 65535)) return null;
  return { name: m[1]!.toLowerCase(), port };
}

/**
 * DNS-rebinding guard: the Host header must name the loopback interface (any valid port) or, on a lab server, one
 * of the configured names (PHASEDESK_ALLOWED_HOSTS, lower case).
 */
export function hostAllowed(host: string | undefined, allowed: readonly string[] = []): boolean {
  const h = parseHost(host);
  return h !== null && (LOOPBACK_NAMES.has(h.name) || allowed.includes(h.name));
}

export interface RunningService {
  /** The embedded scheduler, or on a lab server (PHASEDESK_REDIS_URL) the job queue the workers take tasks from. */
  app: FastifyInstance;
  ctx: ServiceContext;
  scheduler: Scheduler | JobQueue;
  store: Store;
  port: number;
  baseUrl: string;
  firstKey?: string;
  /** Token of the local console API (/console/v1), kept in <dataDir>/console-token. */
  consoleToken: string;
  consoleTokenCreated: boolean;
  close(): Promise<void>;
}

export async function startService(
  over: SettingsOverrides = {},
  log: (l: string) => void = (l) => console.log(l),
): Promise<RunningService> {
  const settings = resolveSettings(over);
  prepareDataDir(settings.dataDir);
  // one service per data directory (main/service/data-dir-lock.ts), given back when the service closes or fails to
  // start; the API processes of a lab server share theirs (records in PostgreSQL, tasks run by the workers)
  const release = settings.lab.redisUrl ? () => {} : acquireDataDirLock(settings.dataDir);
  try {
    const svc = await startInDataDir(settings, log);
    const close = svc.close.bind(svc);
    svc.close = async () => {
      try {
        await close();
      } finally {
        release();
      }
    };
    return svc;
  } catch (e) {
    release();
    throw e;
  }
}

async function startInDataDir(settings: ServiceSettings, log: (l: string) => void): Promise<RunningService> {
  const store = await openStore(settings.dataDir, { databaseUrl: settings.lab.databaseUrl });
  protectStoreFiles(settings.dataDir);
  const secret = settings.lab.urlSecret
    ? sharedUrlSecret(settings.lab.urlSecret)
    : loadOrCreateSecret(settings.dataDir);
  const consoleToken = loadOrCreateConsoleToken(settings.dataDir);
  let firstKey: string | undefined;
  if (settings.bootstrap) {
    firstKey = await bootstrapIfEmpty(
      store,
      settings.dataDir,
      settings.catalogFile ?? join(PACKAGE_ROOT, 'databases', 'catalog.json'),
      log,
    );
  }
  let scheduler: Scheduler | JobQueue | undefined;
  const ctx: ServiceContext = {
    store,
    settings,
    secret,
    origin: '',
    blobs: directoryBlobStore(settings.dataDir),
    kick: () => scheduler?.kick(),
    requestStop: (uuid) => scheduler?.requestStop(uuid),
    log,
  };
  scheduler = settings.lab.redisUrl
    ? new JobQueue(ctx, settings.lab.redisUrl)
    : new Scheduler(ctx, settings.workerFile ?? defaultWorkerFile());
  await scheduler.recover();

  // Slow clients: a request (headers and body) must arrive within requestTimeoutSeconds or the connection is
  // closed; node checks at connectionsCheckingInterval. requireHostHeader is off so that a request without Host
  // gets this service's JSON 400 (below) instead of node's bare one.
  const requestTimeoutMs = Math.round(settings.requestTimeoutSeconds * 1000);
  const headersTimeoutMs = Math.min(requestTimeoutMs, 20_000);
  const app = Fastify({
    logger: false,
    bodyLimit: 4 * 1024 * 1024,
    serverFactory: (handler) => {
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
    },
  });
  app.addHook('onRequest', async (req, reply) => {
    if (req.headers.host === undefined || req.headers.host === '')
      return reply.code(400).send({ error: 'Host header is required' });
    if (!hostAllowed(req.headers.host, settings.lab.allowedHosts))
      return reply.code(403).send({ error: 'Host not allowed' });
    // U+0000 in a path or query value: PostgreSQL's text cannot hold it and no parameter means it (bodies: json-body.ts)
    if (/%00/.test(req.url)) {
      const param = Object.entries((req.query ?? {}) as Record<string, unknown>).find(
        ([k, v]) => k.includes('\u0000') || [v].flat().some((x) => String(x).includes('\u0000')),
      )?.[0];
      return reply.code(400).send({ error: `${param ?? 'URL path'}: must not contain the NUL character (U+0000)` });
    }
  });
  app.setErrorHandler((error: FastifyError | HttpError | Error, _req, reply) => {
    if (error instanceof HttpError) return reply.code(error.status).send(error.body());
    const status = (error as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500)
      return reply.code(status).send({ error: error.message });
    log(`internal error: ${error.stack ?? error.message}`);
    return reply.code(500).send({ error: 'Internal server error' });
  });
  // JSON bodies: an empty body is "no body" (some clients send Content-Type on DELETE), bad JSON is a 400.
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
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ error: 'Not found' }));

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
  await registerConsoleRoutes(app, ctx, consoleToken.token);
  registerDownloadRoutes(app, ctx);
  await registerRendererRoutes(app, PACKAGE_ROOT, log);

  await app.listen({ host: settings.host, port: settings.port });
  const port = (app.server.address() as AddressInfo).port;
  ctx.origin = settings.lab.publicUrl ?? `http://127.0.0.1:${port}`;
  scheduler.kick();
  let closed = false;
  return {
    app,
    ctx,
    scheduler,
    store,
    port,
    baseUrl: `${ctx.origin}${API_PREFIX}`,
    firstKey,
    consoleToken: consoleToken.token,
    consoleTokenCreated: consoleToken.created,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await scheduler!.close();
      await store.close();
    },
  };
}
