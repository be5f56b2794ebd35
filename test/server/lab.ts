// A lab server for tests: PostgreSQL, Redis, `phasedesk server` and `phasedesk worker` processes (dist/main/cli.js),
// all on free loopback ports with one shared temporary directory; every process is stopped by its PID. A worker may
// run inside a network namespace the test made (`ip netns exec`), reaching the servers at an address of that
// namespace's link. Every process is remembered, so a test can ask which ones ended without being killed.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, ROOT, seed, tempDir, until } from '../service/helpers.js';
import { openStore } from '../../main/db/index.js';
import { subscribe } from '../../main/console/databases.js';
import { createDatabase, freePort, startPostgres, startRedis, type RunningServer } from './servers.js';

export interface LabProcess {
  child: ChildProcess;
  pid: number;
  /** What it printed, and when each line arrived (ms since epoch). */
  output(): string;
  lines(): { at: number; text: string }[];
  /** The test killed it (a process that ended otherwise died). */
  killed: boolean;
  /** Its admin listener's port (/metrics, /healthz, /readyz) when the lab was started with metrics. */
  metricsPort?: number;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface WorkerStart {
  args?: string[];
  /** Run inside this network namespace (`ip netns exec NAME`). */
  netns?: string;
  env?: NodeJS.ProcessEnv;
}

export interface Lab {
  pg: RunningServer;
  redis: RunningServer;
  dataDir: string;
  databaseUrl: string;
  port: number;
  keyA: string;
  keyB: string;
  userA: string;
  api: LabProcess;
  workers: LabProcess[];
  /** Every process started, the ones replaced included. */
  processes: LabProcess[];
  env: NodeJS.ProcessEnv;
  startApi(): Promise<LabProcess>;
  startWorker(o?: string[] | WorkerStart): Promise<LabProcess>;
  /** Processes that ended although the test did not kill them. */
  deaths(): LabProcess[];
  stop(): Promise<void>;
}

const URL_SECRET = 'lab-test-url-secret-0123456789abcdef0123456789';

function launch(command: string[], args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<LabProcess> {
  const [exe, ...pre] = command;
  const child = spawn(exe!, [...pre, join(ROOT, 'dist', 'main', 'cli.js'), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const lines: { at: number; text: string }[] = [];
  let partial = '';
  const take = (d: string) => {
    out += d;
    const parts = (partial + d).split('\n');
    partial = parts.pop()!;
    for (const text of parts) lines.push({ at: Date.now(), text });
  };
  child.stdout!.setEncoding('utf8').on('data', take);
  child.stderr!.setEncoding('utf8').on('data', take);
  const proc: LabProcess = {
    child,
    pid: child.pid!,
    output: () => out,
    lines: () => lines,
    killed: false,
    async kill(signal = 'SIGKILL') {
      proc.killed = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const ended = new Promise((r) => child.once('exit', r));
      process.kill(child.pid!, signal);
      await ended;
    },
  };
  return new Promise((resolve, reject) => {
    const check = () => {
      if (ready.test(out)) {
        child.stdout!.off('data', check);
        resolve(proc);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) =>
      reject(new Error(`phasedesk ${args[0]} ended (${code}) before it was ready:\n${out}`)),
    );
  });
}

export interface LabOptions {
  workers?: number;
  env?: NodeJS.ProcessEnv;
  /** Addresses PostgreSQL and Redis listen on besides 127.0.0.1. */
  extraAddresses?: string[];
  /** --lock-seconds of the workers (and PHASEDESK_JOB_LOCK_SECONDS of every process), default 2. */
  lockSeconds?: number;
  /** Every process with an admin listener (--metrics-port) on a free port. */
  metrics?: boolean;
}

export async function startLab(o: LabOptions = {}): Promise<Lab> {
  ensureBuilt();
  const pg = await startPostgres({ extraAddresses: o.extraAddresses });
  const redis = await startRedis({ extraAddresses: o.extraAddresses });
  const databaseUrl = await createDatabase(pg, 'lab');
  const dataDir = tempDir();
  const store = await openStore(dataDir, { databaseUrl });
  const s = await seed(store, dataDir);
  await store.close();
  const port = await freePort();
  const lockSeconds = o.lockSeconds ?? 2;
  const env = {
    ...process.env,
    PHASEDESK_DATABASE_URL: databaseUrl,
    PHASEDESK_REDIS_URL: redis.url,
    PHASEDESK_BLOB_DIR: dataDir,
    PHASEDESK_URL_SECRET: URL_SECRET,
    PHASEDESK_TEST_CALCULATIONS: '1',
    PHASEDESK_JOB_LOCK_SECONDS: String(lockSeconds),
    ...o.env,
  };
  const lab: Lab = {
    pg,
    redis,
    dataDir,
    databaseUrl,
    port,
    keyA: s.keyA,
    keyB: s.keyB,
    userA: s.userA,
    api: undefined as unknown as LabProcess,
    workers: [],
    processes: [],
    env,
    async startApi() {
      const metricsPort = o.metrics ? await freePort() : undefined;
      lab.api = await launch(
        [process.execPath],
        [
          'server',
          '--port',
          String(port),
          '--allowed-hosts',
          'pd.lab.example',
          ...(metricsPort ? ['--metrics-port', String(metricsPort)] : []),
        ],
        env,
        /listening on/,
      );
      lab.api.metricsPort = metricsPort;
      lab.processes.push(lab.api);
      return lab.api;
    },
    async startWorker(opt = []) {
      const w: WorkerStart = Array.isArray(opt) ? { args: opt } : opt;
      const command = w.netns ? ['ip', 'netns', 'exec', w.netns, process.execPath] : [process.execPath];
      const metricsPort = o.metrics && !w.netns ? await freePort() : undefined;
      const p = await launch(
        command,
        [
          'worker',
          '--slots',
          '1',
          '--threads',
          '1',
          '--lock-seconds',
          String(lockSeconds),
          ...(metricsPort ? ['--metrics-port', String(metricsPort)] : []),
          ...(w.args ?? []),
        ],
        { ...env, ...w.env },
        /PhaseDesk worker/,
      );
      p.metricsPort = metricsPort;
      lab.workers.push(p);
      lab.processes.push(p);
      return p;
    },
    deaths: () => lab.processes.filter((p) => !p.killed && (p.child.exitCode !== null || p.child.signalCode !== null)),
    async stop() {
      await Promise.all(lab.processes.map((p) => p.kill()));
      await redis.stop();
      await pg.stop();
    },
  };
  try {
    await lab.startApi();
    for (let i = 0; i < (o.workers ?? 2); i++) await lab.startWorker();
  } catch (e) {
    await lab.stop();
    throw e;
  }
  return lab;
}

/** A small C-P-T grid on the bundled Al-Zn: 11 x 16 x 2 = 352 nodes (22 chunks of 16 with PHASEDESK_CPT_CHUNK_NODES=16). */
export const cptGrid = (condition: Record<string, unknown> = {}) => ({
  task_type: 'binary_cpt_diagram',
  tdb_code: 'ALZN_MEY1993',
  condition: {
    components: ['AL', 'ZN'],
    x_component: 'ZN',
    composition_start: 0,
    composition_end: 1,
    composition_step: 0.1,
    temperature_start: 300,
    temperature_end: 900,
    temperature_step: 40,
    pressure_start: 1e5,
    pressure_end: 1e9,
    pressure_points: 2,
    pressure_scale: 'log',
    ...condition,
  },
});

/** A lab whose user a is subscribed to the bundled Al-Zn database (the API imports it at its start). */
export async function startAlZnLab(o: LabOptions): Promise<Lab> {
  const lab = await startLab(o);
  const store = await openStore(lab.dataDir, { databaseUrl: lab.databaseUrl });
  try {
    await subscribe(store, { username: 'a', code: 'ALZN_MEY1993', status: 'active' });
  } finally {
    await store.close();
  }
  return lab;
}

/** The lines a process printed about a task that match `what`. */
export function taskLines(p: LabProcess, uuid: string, what: RegExp): string[] {
  return p
    .output()
    .split('\n')
    .filter((l) => l.includes(uuid) && what.test(l));
}

/** A task's uuid, from its record. */
export async function taskUuid(lab: Lab, id: number): Promise<string> {
  const store = await openStore(lab.dataDir, { databaseUrl: lab.databaseUrl });
  try {
    return (await store.db.selectFrom('tasks').select('uuid').where('id', '=', id).executeTakeFirstOrThrow()).uuid;
  } finally {
    await store.close();
  }
}

/**
 * A worker in the middle of a chunk of the task's flow (it has started at least two, and this one has not ended), by
 * its log lines: `started` and `ended` match a chunk's lines, `chunkOf` reads the chunk's number from one.
 */
export async function workerMidChunk(
  lab: Lab,
  uuid: string,
  started: RegExp,
  ended: RegExp,
  chunkOf: (line: string) => number,
): Promise<{ worker: LabProcess; chunk: number }> {
  const found = await until(
    async () => {
      for (const worker of lab.workers) {
        const begun = taskLines(worker, uuid, started).map(chunkOf);
        const done = new Set(taskLines(worker, uuid, ended).map(chunkOf));
        const open = begun.find((k) => !done.has(k));
        if (open !== undefined && begun.length >= 2) return { worker, chunk: open };
      }
      return undefined;
    },
    (f) => f !== undefined,
    20,
  );
  return found!;
}
