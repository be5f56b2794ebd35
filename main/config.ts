import { homedir, availableParallelism } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Default data directory: the per-OS application-data folder. */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'PhaseDesk');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'PhaseDesk');
  return join(
    env.XDG_DATA_HOME && env.XDG_DATA_HOME.length > 0 ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share'),
    'PhaseDesk',
  );
}

export interface ServiceSettings {
  dataDir: string;
  port: number;
  host: string;
  /** Number of calculation processes (concurrent calculations). */
  poolSize: number;
  /** Total OpenMP thread budget shared by all pool slots. */
  threadBudget: number;
  /** Per-user cap on tasks in state pending (deployment setting). */
  maxPendingTasks: number;
  /** Signed download URL lifetime, seconds. */
  urlExpirySeconds: number;
  /** Absolute path of the compiled worker file (dist/worker/index.js). */
  workerFile?: string;
  /** Lab server (main/server/): records in PostgreSQL, jobs on Redis; see LabServerSettings. */
  lab: LabServerSettings;
  /** catalog.json used on first start; undefined = the bundled databases/catalog.json. */
  catalogFile?: string;
  /** Skip the first-start bootstrap (tests create their own users). */
  bootstrap: boolean;
  /** Why <dataDir>/settings.json was (partly) ignored, if it was. */
  settingsFileProblem?: string;
  /** Work a single task may ask for (POST /task refuses more with a 400 naming the field and the setting). */
  workBounds: WorkBounds;
  /** Seconds a client may take to send one whole request (headers and body); slower connections are closed. */
  requestTimeoutSeconds: number;
  /** Where the port and the data directory in use came from (the console's Settings screen shows it). */
  sources: { port: SettingSource; dataDir: SettingSource };
  /** The calculation processes ("calculation hosts"); see CALC_HOST_SETTING_BOUNDS. */
  calcHost: CalcHostSettings;
  /** The sweep of task folders and upload files no record owns (main/service/orphans.ts). */
  orphans: OrphanSweepSettings;
}

export interface OrphanSweepSettings {
  /** PHASEDESK_ORPHAN_SWEEP_SECONDS, default 600: how often the sweep runs (besides at start). */
  sweepSeconds: number;
  /** PHASEDESK_ORPHAN_GRACE_SECONDS, default 900: a folder or file changed more recently is left alone. */
  graceSeconds: number;
}

export type { SettingSource } from '../contract/api/console.js';
import type { SettingSource } from '../contract/api/console.js';

/**
 * Bounds on the work one task may ask for, enforced at POST /task (main/service/task-checks.ts) before anything
 * is built from the configuration. An administrator raises them in settings.json, by PHASEDESK_<NAME> or on the
 * console's Settings screen. Each entry: [lowest allowed setting, highest allowed setting, default].
 */
export const WORK_BOUND_SETTINGS = {
  /** points of a line_calculation or thermodynamic_properties_next scan */
  max_scan_points: [2, 10_000_000, 100_000],
  /** composition x temperature x pressure nodes of a binary_cpt_diagram (the worker's own limit is 1,000,000) */
  max_grid_nodes: [8, 1_000_000, 1_000_000],
  /** Scheil steps from start_temperature down to 1 K: (start_temperature - 1) / temperature_step */
  max_scheil_steps: [10, 100_000_000, 100_000],
  /** every temperature of a configuration, K */
  max_temperature: [100, 1_000_000, 10_000],
  /** elements in condition.components */
  max_components: [2, 100, 20],
  /** condition.map_options.GLOBAL_MIN_PDENS, the sampling density per phase of the global minimisation */
  max_sampling_density: [60, 100_000, 2_000],
  /** rows of an equilibrium_batch: rows, compositions x temperatures, or a table's records (x temperatures) */
  max_batch_rows: [10, 10_000_000, 1_000_000],
} as const;
export type WorkBoundName = keyof typeof WORK_BOUND_SETTINGS;
export type WorkBounds = Record<WorkBoundName, number>;
export const DEFAULT_WORK_BOUNDS = Object.fromEntries(
  Object.entries(WORK_BOUND_SETTINGS).map(([k, v]) => [k, v[2]]),
) as WorkBounds;
const workBoundRanges = Object.fromEntries(
  Object.entries(WORK_BOUND_SETTINGS).map(([k, v]) => [k, [v[0], v[1]] as const]),
) as { [K in WorkBoundName]: readonly [number, number] };
/** PHASEDESK_MAX_SCAN_POINTS, ... */
export function envNameOf(setting: string): string {
  return `PHASEDESK_${setting.toUpperCase()}`;
}

// ---- Calculation processes ("calculation hosts", main/service/calc-host.ts) ----
/** Limits of the child processes that run calculations and render previews. */
export interface CalcHostSettings {
  /** A host is replaced after this many tasks (bounds native memory that is never returned). */
  maxTasks: number;
  /** A host whose resident size exceeds this after a task is replaced. */
  maxRssMb: number;
  /** V8 heap bound of the calculation thread ("memory guard"): a runaway heap fails the task, not the process. */
  heapMb: number;
  /** Time limit of one preview PNG rendering. */
  previewTimeoutSeconds: number;
}
/** Inclusive bounds of the calculation-host settings (settings.json keys; PHASEDESK_<KEY upper case> in the environment). */
export const CALC_HOST_SETTING_BOUNDS = {
  host_max_tasks: [1, 1_000_000],
  host_max_rss_mb: [128, 1_048_576],
  calc_heap_mb: [64, 1_048_576],
  preview_timeout_seconds: [1, 3600],
} as const;
export const CALC_HOST_DEFAULTS = {
  host_max_tasks: 500,
  host_max_rss_mb: 2048,
  calc_heap_mb: 4096,
  preview_timeout_seconds: 60,
} as const;
type CalcHostKey = keyof typeof CALC_HOST_SETTING_BOUNDS;

function resolveCalcHost(
  over: Partial<CalcHostSettings> | undefined,
  env: NodeJS.ProcessEnv,
  saved: Partial<Record<CalcHostKey, number>>,
): CalcHostSettings {
  const pick = (k: CalcHostKey): number => {
    const fromEnv = intEnv(env[`PHASEDESK_${k.toUpperCase()}`]);
    const b = CALC_HOST_SETTING_BOUNDS[k];
    const v = fromEnv !== undefined && fromEnv >= b[0] && fromEnv <= b[1] ? fromEnv : saved[k];
    return v ?? CALC_HOST_DEFAULTS[k];
  };
  return {
    maxTasks: over?.maxTasks ?? pick('host_max_tasks'),
    maxRssMb: over?.maxRssMb ?? pick('host_max_rss_mb'),
    heapMb: over?.heapMb ?? pick('calc_heap_mb'),
    previewTimeoutSeconds: over?.previewTimeoutSeconds ?? pick('preview_timeout_seconds'),
  };
}
// ---- end of the calculation-host block ----

/** <dataDir>/settings.json, written by the console (PUT /console/v1/settings) and read at start. */
export const SETTINGS_FILE = 'settings.json';
/** Inclusive bounds of the saved settings; the console validates with the same numbers. */
export const SETTING_BOUNDS = {
  pool_size: [1, 64],
  thread_budget: [1, 1024],
  port: [0, 65535],
  max_pending_tasks: [0, 100_000],
  request_timeout_seconds: [1, 3600],
  ...workBoundRanges,
} as const;
export type SavedSettings = Partial<Record<keyof typeof SETTING_BOUNDS, number>>;

/** Reads settings.json; a missing file is {}; a bad file or value is ignored and reported, never fatal. */
export function readSettingsFile(dataDir: string): { saved: SavedSettings; problem?: string } {
  const p = join(dataDir, SETTINGS_FILE);
  if (!existsSync(p)) return { saved: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(p, 'utf8'));
  } catch (e) {
    return { saved: {}, problem: `${p}: ${(e as Error).message}` };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return { saved: {}, problem: `${p}: expected a JSON object` };
  const saved: SavedSettings = {};
  const bad: string[] = [];
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const b = SETTING_BOUNDS[k as keyof typeof SETTING_BOUNDS] ?? CALC_HOST_SETTING_BOUNDS[k as CalcHostKey];
    if (!b) {
      bad.push(`${k}: unknown setting`);
      continue;
    }
    if (typeof v === 'number' && Number.isInteger(v) && v >= b[0] && v <= b[1]) saved[k as keyof SavedSettings] = v;
    else bad.push(`${k}: must be an integer between ${b[0]} and ${b[1]}`);
  }
  return bad.length ? { saved, problem: `${p}: ignored ${bad.join('; ')}` } : { saved };
}

function intEnv(v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** Precedence: explicit option (CLI flag, caller) > environment variable > <dataDir>/settings.json > default. */
/** What a caller (CLI flags, the desktop shell, tests) sets explicitly. */
export type SettingsOverrides = Partial<Omit<ServiceSettings, 'workBounds' | 'sources' | 'lab' | 'orphans'>> & {
  orphans?: Partial<OrphanSweepSettings>;
  workBounds?: Partial<WorkBounds>;
  sources?: Partial<ServiceSettings['sources']>;
  lab?: Partial<LabServerSettings>;
};

// ---- Lab server (`phasedesk server` / `phasedesk worker`, main/server/) ----
export interface LabServerSettings {
  /** PHASEDESK_DATABASE_URL: postgres://... keeps the records in PostgreSQL instead of <dataDir>/phasedesk.sqlite. */
  databaseUrl?: string;
  /** PHASEDESK_REDIS_URL: redis://... runs tasks as BullMQ jobs taken by `phasedesk worker` processes. */
  redisUrl?: string;
  /** PHASEDESK_URL_SECRET: the download-signing secret every API process shares (instead of <dataDir>/secret). */
  urlSecret?: string;
  /** PHASEDESK_ALLOWED_HOSTS: comma-separated host names the Host header may carry besides the loopback names. */
  allowedHosts: string[];
  /** PHASEDESK_PUBLIC_URL: origin of the signed download URLs when a reverse proxy serves the API (https://pd.lab.example). */
  publicUrl?: string;
  /**
   * PHASEDESK_JOB_LOCK_SECONDS (worker: --lock-seconds), default 30: a job's lock on Redis; a worker that cannot renew
   * it stops the calculation within this time, and the API adds again the job of a running task that Redis has lost
   * once it has been missing this long. The same on every process of a lab.
   */
  lockSeconds: number;
  /** PHASEDESK_METRICS_PORT (--metrics-port): the admin listener (/metrics, /healthz, /readyz); off when unset. */
  metricsPort?: number;
  /** PHASEDESK_METRICS_HOST (--metrics-host): its bind address, default 127.0.0.1. */
  metricsHost: string;
}

/** "a.lab, B.lab" (PHASEDESK_ALLOWED_HOSTS, --allowed-hosts) -> ['a.lab', 'b.lab']. */
export function hostNames(list: string): string[] {
  return list
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

function resolveLabServer(over: Partial<LabServerSettings> | undefined, env: NodeJS.ProcessEnv): LabServerSettings {
  const nonEmpty = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);
  return {
    databaseUrl: over?.databaseUrl ?? nonEmpty(env.PHASEDESK_DATABASE_URL),
    redisUrl: over?.redisUrl ?? nonEmpty(env.PHASEDESK_REDIS_URL),
    urlSecret: over?.urlSecret ?? nonEmpty(env.PHASEDESK_URL_SECRET),
    publicUrl: (over?.publicUrl ?? nonEmpty(env.PHASEDESK_PUBLIC_URL))?.replace(/\/+$/, ''),
    allowedHosts: over?.allowedHosts ?? hostNames(env.PHASEDESK_ALLOWED_HOSTS ?? ''),
    lockSeconds: over?.lockSeconds ?? boundedEnv(env.PHASEDESK_JOB_LOCK_SECONDS, 2, 3600) ?? 30,
    metricsPort: over?.metricsPort ?? boundedEnv(env.PHASEDESK_METRICS_PORT, 0, 65535),
    metricsHost: over?.metricsHost ?? nonEmpty(env.PHASEDESK_METRICS_HOST) ?? '127.0.0.1',
  };
}

/** An integer environment value within [lo, hi], else undefined. */
function boundedEnv(v: string | undefined, lo: number, hi: number): number | undefined {
  const n = intEnv(v);
  return n !== undefined && n >= lo && n <= hi ? n : undefined;
}
// ---- end of the lab-server block ----

export function resolveSettings(over: SettingsOverrides = {}, env: NodeJS.ProcessEnv = process.env): ServiceSettings {
  const dataDir = over.dataDir ?? (env.PHASEDESK_DATA_DIR || defaultDataDir(env));
  const dataDirSource: SettingSource =
    over.dataDir !== undefined ? 'flag' : env.PHASEDESK_DATA_DIR ? 'environment' : 'default';
  const file = readSettingsFile(dataDir);
  const envPort = intEnv(env.PHASEDESK_PORT);
  const portSource: SettingSource =
    over.port !== undefined
      ? 'flag'
      : envPort !== undefined
        ? 'environment'
        : file.saved.port !== undefined
          ? 'settings file'
          : 'default';
  const workBounds = { ...DEFAULT_WORK_BOUNDS };
  for (const k of Object.keys(WORK_BOUND_SETTINGS) as WorkBoundName[]) {
    const [lo, hi] = workBoundRanges[k];
    const fromEnv = intEnv(env[envNameOf(k)]);
    const v =
      over.workBounds?.[k] ??
      (fromEnv !== undefined && fromEnv >= lo && fromEnv <= hi ? fromEnv : undefined) ??
      file.saved[k];
    if (v !== undefined) workBounds[k] = v;
  }
  return {
    dataDir,
    workBounds,
    requestTimeoutSeconds:
      over.requestTimeoutSeconds ??
      intEnv(env.PHASEDESK_REQUEST_TIMEOUT_SECONDS) ??
      file.saved.request_timeout_seconds ??
      30,
    sources: { port: over.sources?.port ?? portSource, dataDir: over.sources?.dataDir ?? dataDirSource },
    port: over.port ?? envPort ?? file.saved.port ?? 7431,
    host: over.host ?? '127.0.0.1',
    poolSize: Math.max(1, over.poolSize ?? intEnv(env.PHASEDESK_POOL_SIZE) ?? file.saved.pool_size ?? 1),
    threadBudget: Math.max(
      1,
      over.threadBudget ?? intEnv(env.PHASEDESK_THREAD_BUDGET) ?? file.saved.thread_budget ?? availableParallelism(),
    ),
    maxPendingTasks:
      over.maxPendingTasks ?? intEnv(env.PHASEDESK_MAX_PENDING_TASKS) ?? file.saved.max_pending_tasks ?? 20,
    urlExpirySeconds: over.urlExpirySeconds ?? 15 * 60,
    workerFile: over.workerFile,
    lab: resolveLabServer(over.lab, env),
    catalogFile: over.catalogFile,
    bootstrap: over.bootstrap ?? true,
    calcHost: resolveCalcHost(over.calcHost, env, file.saved as Partial<Record<CalcHostKey, number>>),
    orphans: {
      sweepSeconds: over.orphans?.sweepSeconds ?? boundedEnv(env.PHASEDESK_ORPHAN_SWEEP_SECONDS, 1, 86_400) ?? 600,
      graceSeconds: over.orphans?.graceSeconds ?? boundedEnv(env.PHASEDESK_ORPHAN_GRACE_SECONDS, 0, 604_800) ?? 900,
    },
    ...(file.problem ? { settingsFileProblem: file.problem } : {}),
  };
}
