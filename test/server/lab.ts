// A lab server for tests: PostgreSQL, Redis, `phasedesk server` and `phasedesk worker` processes (dist/main/cli.js),
// all on free loopback ports with one shared temporary directory; every process is stopped by its PID.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, ROOT, seed, tempDir } from '../service/helpers.js';
import { openStore } from '../../main/db/index.js';
import { createDatabase, freePort, startPostgres, startRedis, type RunningServer } from './servers.js';

export interface LabProcess {
  child: ChildProcess;
  pid: number;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
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
  startApi(): Promise<LabProcess>;
  startWorker(args?: string[]): Promise<LabProcess>;
  stop(): Promise<void>;
}

const URL_SECRET = 'lab-test-url-secret-0123456789abcdef0123456789';

function launch(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<LabProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'main', 'cli.js'), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  const proc: LabProcess = {
    child,
    pid: child.pid!,
    output: () => out,
    async kill(signal = 'SIGKILL') {
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

export async function startLab(o: { workers?: number; env?: NodeJS.ProcessEnv } = {}): Promise<Lab> {
  ensureBuilt();
  const pg = await startPostgres();
  const redis = await startRedis();
  const databaseUrl = await createDatabase(pg, 'lab');
  const dataDir = tempDir();
  const store = await openStore(dataDir, { databaseUrl });
  const s = await seed(store, dataDir);
  await store.close();
  const port = await freePort();
  const env = {
    ...process.env,
    PHASEDESK_DATABASE_URL: databaseUrl,
    PHASEDESK_REDIS_URL: redis.url,
    PHASEDESK_BLOB_DIR: dataDir,
    PHASEDESK_URL_SECRET: URL_SECRET,
    PHASEDESK_TEST_CALCULATIONS: '1',
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
    async startApi() {
      lab.api = await launch(
        ['server', '--port', String(port), '--allowed-hosts', 'pd.lab.example'],
        env,
        /listening on/,
      );
      return lab.api;
    },
    async startWorker(args = []) {
      const w = await launch(
        ['worker', '--slots', '1', '--threads', '1', '--lock-seconds', '2', ...args],
        env,
        /PhaseDesk worker/,
      );
      lab.workers.push(w);
      return w;
    },
    async stop() {
      await Promise.all([lab.api, ...lab.workers].filter(Boolean).map((p) => p.kill()));
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
