// The embedded /api/v2 service: fastify listener on 127.0.0.1, Kysely store, scheduler over calculation processes.
import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { PACKAGE_ROOT } from './util/package-root.js';
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
import { scheduleOrphanSweep, sweepOrphans } from './service/orphans.js';
import { startAdminListener, type AdminListener } from './server/admin-listener.js';
import { labMetrics } from './server/lab-metrics.js';
import { probeAll } from './server/probes.js';

export { PACKAGE_ROOT };

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
  /** The lab server's admin listener (/metrics, /healthz, /readyz), when settings.lab.metricsPort is set. */
  admin?: AdminListener;
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
    queueUnavailable: () => (scheduler instanceof JobQueue ? scheduler.queueUnavailable() : undefined),
    log,
  };
  scheduler = settings.lab.redisUrl
    ? new JobQueue(ctx, settings.lab.redisUrl)
    : new Scheduler(ctx, settings.workerFile ?? defaultWorkerFile());
  return { ctx, scheduler };
}

/**
 * Task folders and upload files no record owns (main/service/orphans.ts): at start (the embedded service holds its
 * data directory, so no task folder can be being written: no grace for them), then on a schedule.
 */
async function sweepAtStartAndOnSchedule(ctx: ServiceContext): Promise<{ stop(): void }> {
  const { settings, store, log } = ctx;
  const graceMs = settings.orphans.graceSeconds * 1000;
  try {
    const removed = await sweepOrphans(store, settings.dataDir, {
      graceMs,
      taskGraceMs: settings.lab.redisUrl ? graceMs : 0,
    });
    if (removed.length) log(`orphan sweep at start: removed ${removed.length} folder(s) or file(s) no record owns`);
  } catch (e) {
    log(`orphan sweep at start failed: ${(e as Error).message}`);
  }
  return scheduleOrphanSweep(store, settings.dataDir, { everyMs: settings.orphans.sweepSeconds * 1000, graceMs, log });
}

/** The lab server's admin listener, when a metrics port is set. */
async function labAdmin(ctx: ServiceContext, queue: JobQueue): Promise<AdminListener | undefined> {
  const { metricsPort, metricsHost } = ctx.settings.lab;
  if (metricsPort === undefined) return undefined;
  const registry = labMetrics(ctx.store, queue);
  return startAdminListener(
    metricsHost,
    metricsPort,
    {
      metrics: async () => ({ contentType: registry.contentType, text: await registry.metrics() }),
      ready: () => probeAll(ctx.store, queue.redis, ctx.settings.dataDir),
    },
    ctx.log,
  );
}

async function startInDataDir(settings: ServiceSettings, log: (l: string) => void): Promise<RunningService> {
  const store = await openStore(settings.dataDir, { databaseUrl: settings.lab.databaseUrl, log });
  protectStoreFiles(settings.dataDir);
  const secret = settings.lab.urlSecret
    ? sharedUrlSecret(settings.lab.urlSecret)
    : loadOrCreateSecret(settings.dataDir);
  const consoleToken = loadOrCreateConsoleToken(settings.dataDir);
  const catalog = settings.catalogFile ?? join(PACKAGE_ROOT, 'databases', 'catalog.json');
  const firstKey = settings.bootstrap ? await bootstrapIfEmpty(store, settings.dataDir, catalog, log) : undefined;
  const { ctx, scheduler } = serviceContext(settings, store, secret, log);
  await scheduler.recover();
  const sweeper = await sweepAtStartAndOnSchedule(ctx);
  const admin = scheduler instanceof JobQueue ? await labAdmin(ctx, scheduler) : undefined;
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
    admin,
    consoleToken: consoleToken.token,
    consoleTokenCreated: consoleToken.created,
    async close() {
      if (closed) return;
      closed = true;
      sweeper.stop();
      await admin?.close();
      await app.close();
      await scheduler.close();
      await store.close();
    },
  };
}
