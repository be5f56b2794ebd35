// The embedded /api/v2 service: fastify listener on 127.0.0.1, Kysely store, scheduler over calculation processes.
import type { FastifyInstance } from 'fastify';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { openStore, type Store } from './db/index.js';
import { resolveSettings, type ServiceSettings, type SettingsOverrides } from './config.js';
import type { ServiceContext } from './service/context.js';
import { loadOrCreateSecret, prepareDataDir, protectStoreFiles } from './service/files.js';
import { Scheduler } from './service/scheduler.js';
import { createListener } from './api/listener.js';
import { API_PREFIX, registerRoutes } from './api/routes.js';
import { bootstrapIfEmpty } from './console/bootstrap.js';
import { loadOrCreateConsoleToken } from './console/token.js';
import { acquireDataDirLock } from './service/data-dir-lock.js';
import { JobQueue, sharedUrlSecret } from './server/job-queue.js';
import { directoryBlobStore } from './service/blob-store.js';

const here = dirname(fileURLToPath(import.meta.url));
/** Repository (or package) root, whether running from dist/main or from main/ (vitest). */
export const PACKAGE_ROOT = here.split(sep).includes('dist') ? resolve(here, '..', '..') : resolve(here, '..');

/** The calculation hosts need compiled JS: dist/worker/index.js (and host.js beside it) next to the compiled main, or the repo's dist under vitest. */
export function defaultWorkerFile(): string {
  return join(PACKAGE_ROOT, 'dist', 'worker', 'index.js');
}

export interface RunningService {
  app: FastifyInstance;
  ctx: ServiceContext;
  /** The embedded scheduler, or on a lab server (PHASEDESK_REDIS_URL) the job queue the workers take tasks from. */
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

/** The context of every service function; its scheduler (embedded or the lab's job queue) is made from it. */
function serviceContext(
  settings: ServiceSettings,
  store: Store,
  secret: Buffer,
  log: (l: string) => void,
): { ctx: ServiceContext; scheduler: Scheduler | JobQueue } {
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
  return { ctx, scheduler };
}

async function startInDataDir(settings: ServiceSettings, log: (l: string) => void): Promise<RunningService> {
  const store = await openStore(settings.dataDir, { databaseUrl: settings.lab.databaseUrl });
  protectStoreFiles(settings.dataDir);
  const secret = settings.lab.urlSecret
    ? sharedUrlSecret(settings.lab.urlSecret)
    : loadOrCreateSecret(settings.dataDir);
  const consoleToken = loadOrCreateConsoleToken(settings.dataDir);
  const catalog = settings.catalogFile ?? join(PACKAGE_ROOT, 'databases', 'catalog.json');
  const firstKey = settings.bootstrap ? await bootstrapIfEmpty(store, settings.dataDir, catalog, log) : undefined;
  const { ctx, scheduler } = serviceContext(settings, store, secret, log);
  await scheduler.recover();
  const app = createListener(settings, log);
  await registerRoutes(app, ctx, consoleToken.token, PACKAGE_ROOT, log);
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
      await scheduler.close();
      await store.close();
    },
  };
}
