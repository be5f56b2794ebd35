import { homedir, availableParallelism } from 'node:os';
import { join } from 'node:path';

/** Default data directory: the per-OS application-data folder. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'PhaseDesk');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'PhaseDesk');
  return join(env.XDG_DATA_HOME && env.XDG_DATA_HOME.length > 0 ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share'), 'PhaseDesk');
}

export interface ServiceSettings {
  dataDir: string;
  port: number;
  host: string;
  /** Piscina pool size (concurrent calculations). */
  poolSize: number;
  /** Total OpenMP thread budget shared by all pool slots. */
  threadBudget: number;
  /** Per-user cap on tasks in state pending (deployment setting). */
  maxPendingTasks: number;
  /** Signed download URL lifetime, seconds. */
  urlExpirySeconds: number;
  /** Absolute path of the compiled worker file (dist/worker/index.js). */
  workerFile?: string;
  /** catalog.json used on first start; undefined = the bundled databases/catalog.json. */
  catalogFile?: string;
  /** Skip the first-start bootstrap (tests create their own users). */
  bootstrap: boolean;
}

function intEnv(v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

export function resolveSettings(over: Partial<ServiceSettings> = {}, env: NodeJS.ProcessEnv = process.env): ServiceSettings {
  return {
    dataDir: over.dataDir ?? (env.PHASEDESK_DATA_DIR || defaultDataDir(env)),
    port: over.port ?? intEnv(env.PHASEDESK_PORT) ?? 7431,
    host: over.host ?? '127.0.0.1',
    poolSize: Math.max(1, over.poolSize ?? intEnv(env.PHASEDESK_POOL_SIZE) ?? 1),
    threadBudget: Math.max(1, over.threadBudget ?? intEnv(env.PHASEDESK_THREAD_BUDGET) ?? availableParallelism()),
    maxPendingTasks: over.maxPendingTasks ?? intEnv(env.PHASEDESK_MAX_PENDING_TASKS) ?? 20,
    urlExpirySeconds: over.urlExpirySeconds ?? 15 * 60,
    workerFile: over.workerFile,
    catalogFile: over.catalogFile,
    bootstrap: over.bootstrap ?? true,
  };
}
