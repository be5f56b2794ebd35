// `phasedesk server` and `phasedesk worker`: the lab server's API process and its calculation workers.
// Configuration by flags or environment (flag > environment > settings.json > default), see docs/lab-server.md.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { hostNames, resolveSettings, type SettingsOverrides } from '../config.js';
import { runUntilSignal } from './until-signal.js';

const SERVER_USAGE = `usage: phasedesk server [--host ADDR] [--port N] [--data-dir DIR] [--database-url URL] [--redis-url URL]
                        [--allowed-hosts a,b] [--public-url URL] [--metrics-port N] [--metrics-host ADDR]
  the /api/v2 service of a lab: records in PostgreSQL (PHASEDESK_DATABASE_URL), tasks as jobs on Redis
  (PHASEDESK_REDIS_URL) for \`phasedesk worker\` processes, files in the shared directory (PHASEDESK_BLOB_DIR).
  Binds 127.0.0.1 unless --host / PHASEDESK_HOST says otherwise; Host names besides loopback: PHASEDESK_ALLOWED_HOSTS.
  --metrics-port (PHASEDESK_METRICS_PORT): /metrics, /healthz and /readyz on a listener of their own (off by
  default), bound to --metrics-host (PHASEDESK_METRICS_HOST, default 127.0.0.1).`;
const WORKER_USAGE = `usage: phasedesk worker [--data-dir DIR] [--database-url URL] [--redis-url URL] [--slots N] [--threads N] [--lock-seconds S]
                        [--metrics-port N] [--metrics-host ADDR]
  runs the lab server's tasks: N calculations at a time (PHASEDESK_POOL_SIZE), sharing --threads OpenMP threads
  (PHASEDESK_THREAD_BUDGET); a job whose worker died goes to another worker after --lock-seconds (default 30,
  PHASEDESK_JOB_LOCK_SECONDS); --metrics-port as for \`phasedesk server\`.`;

function common(argv: string[], extra: Record<string, { type: 'string' | 'boolean' }>) {
  const { values } = parseArgs({
    args: argv,
    allowPositionals: false,
    strict: true,
    options: {
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      'redis-url': { type: 'string' },
      'metrics-port': { type: 'string' },
      'metrics-host': { type: 'string' },
      help: { type: 'boolean' },
      ...extra,
    },
  });
  return values as Record<string, string | boolean | undefined>;
}

function intFlag(v: unknown, name: string, lo: number, hi: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < lo || n > hi) throw new Error(`${name} must be an integer between ${lo} and ${hi}`);
  return n;
}

/** The shared directory (databases/, tasks/): --data-dir, else PHASEDESK_BLOB_DIR, else the data directory. */
function labOverrides(o: Record<string, string | boolean | undefined>): SettingsOverrides {
  const dataDir = (o['data-dir'] as string | undefined) ?? (process.env.PHASEDESK_BLOB_DIR || undefined);
  return {
    ...(dataDir ? { dataDir } : {}),
    lab: {
      ...(o['database-url'] ? { databaseUrl: o['database-url'] as string } : {}),
      ...(o['redis-url'] ? { redisUrl: o['redis-url'] as string } : {}),
      ...(o['metrics-port'] !== undefined
        ? { metricsPort: intFlag(o['metrics-port'], '--metrics-port', 0, 65535) }
        : {}),
      ...(o['metrics-host'] ? { metricsHost: o['metrics-host'] as string } : {}),
    },
  };
}

function requireLab(s: ReturnType<typeof resolveSettings>, cmd: string): void {
  if (!s.lab.databaseUrl)
    throw new Error(
      `phasedesk ${cmd} needs PHASEDESK_DATABASE_URL or --database-url (postgres://user@host:5432/phasedesk)`,
    );
  if (!s.lab.redisUrl) throw new Error(`phasedesk ${cmd} needs PHASEDESK_REDIS_URL or --redis-url (redis://host:6379)`);
}

export async function serverCommand(argv: string[]): Promise<number> {
  const o = common(argv, {
    host: { type: 'string' },
    port: { type: 'string' },
    'allowed-hosts': { type: 'string' },
    'public-url': { type: 'string' },
  });
  if (o.help) {
    console.log(SERVER_USAGE);
    return 0;
  }
  const base = labOverrides(o);
  const over: SettingsOverrides = {
    ...base,
    host: (o.host as string | undefined) ?? (process.env.PHASEDESK_HOST || '127.0.0.1'),
    ...(o.port !== undefined ? { port: intFlag(o.port, '--port', 0, 65535) } : {}),
    lab: {
      ...base.lab,
      ...(o['allowed-hosts'] !== undefined ? { allowedHosts: hostNames(String(o['allowed-hosts'])) } : {}),
      ...(o['public-url'] !== undefined ? { publicUrl: String(o['public-url']).replace(/\/+$/, '') } : {}),
    },
  };
  requireLab(resolveSettings(over), 'server');
  const { startService } = await import('../server.js');
  const svc = await startService(over);
  if (svc.firstKey) console.log(`API key: ${svc.firstKey}`);
  console.log(`Console token: ${svc.consoleToken} (also in ${join(svc.ctx.settings.dataDir, 'console-token')})`);
  console.log(`PhaseDesk lab server listening on ${svc.ctx.settings.host}:${svc.port} (${svc.baseUrl})`);
  return runUntilSignal(() => svc.close());
}

export async function workerCommand(argv: string[]): Promise<number> {
  const o = common(argv, {
    slots: { type: 'string' },
    threads: { type: 'string' },
    'lock-seconds': { type: 'string' },
  });
  if (o.help) {
    console.log(WORKER_USAGE);
    return 0;
  }
  const base = labOverrides(o);
  const lockSeconds = intFlag(o['lock-seconds'], '--lock-seconds', 2, 3600);
  const over: SettingsOverrides = {
    ...base,
    ...(o.slots !== undefined ? { poolSize: intFlag(o.slots, '--slots', 1, 64) } : {}),
    ...(o.threads !== undefined ? { threadBudget: intFlag(o.threads, '--threads', 1, 1024) } : {}),
    lab: { ...base.lab, ...(lockSeconds !== undefined ? { lockSeconds } : {}) },
  };
  const settings = resolveSettings(over);
  requireLab(settings, 'worker');
  const { startQueueWorker } = await import('../server/worker.js');
  const { defaultWorkerFile } = await import('../server.js');
  const w = await startQueueWorker(settings, defaultWorkerFile(), (l) => console.log(l));
  return runUntilSignal(() => w.close());
}
