// `npm run bench:server`: wall time of a 40 x 50 x 10 C-P-T grid (Al-Zn, binary_cpt_diagram) on the lab server
// with 1, 2 and 3 `phasedesk worker` processes (one slot, one OpenMP thread each), from POST /task to completed,
// against the embedded calculation of the same grid in this process (1 and 2 threads). Real PostgreSQL and Redis
// (bench/lab-servers.ts). A benchmark that prints medians, not a test.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../main/server.js';
import { run as runEmbedded } from '../worker/calculations/binary_cpt_diagram.js';
import { TASK_REGISTRY } from '../contract/tasks/registry.js';
import { CONTROL_BYTES, JobControl } from '../worker/protocol.js';
import { createDatabase, freePort, serversMissing, startPostgres, startRedis } from './lab-servers.js';
import { median } from './support.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CODE = 'ALZN_MEY1993';
// 40 compositions x 50 temperatures x 10 pressures = 20,000 nodes
const CONFIG = {
  task_type: 'binary_cpt_diagram',
  tdb_code: CODE,
  condition: {
    components: ['AL', 'ZN'],
    x_component: 'ZN',
    composition_start: 0,
    composition_end: 0.975,
    composition_step: 0.025,
    temperature_start: 300,
    temperature_end: 790,
    temperature_step: 10,
    pressure_start: 1e5,
    pressure_end: 1e9,
    pressure_points: 10,
    pressure_scale: 'log',
  },
};

function call(port: number, method: string, path: string, key: string, body?: unknown): Promise<any> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `/api/v2${path}`,
        headers: {
          authorization: `Bearer ${key}`,
          connection: 'close',
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (c: string) => {
            text += c;
          })
          .on('end', () => {
            if ((res.statusCode ?? 0) >= 300) reject(new Error(`${method} ${path}: HTTP ${res.statusCode} ${text}`));
            else resolve(JSON.parse(text));
          });
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

function launch(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'dist', 'main', 'cli.js'), ...args], {
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
  return new Promise((resolve, reject) => {
    const check = () => {
      if (ready.test(out)) {
        child.stdout!.off('data', check);
        resolve({ child, out: () => out });
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`phasedesk ${args[0]} ended (${code}):\n${out}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await ended;
}

function embedded(threads: number): number {
  const taskDir = mkdtempSync(join(tmpdir(), 'phasedesk-bench-cpt-'));
  try {
    const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
    const t0 = performance.now();
    runEmbedded(
      {
        taskUuid: 'bench',
        taskType: 'binary_cpt_diagram',
        ompThreads: threads,
        taskDir,
        control: control.buffer,
        config: {
          ...TASK_REGISTRY.binary_cpt_diagram.schema.parse(CONFIG),
          tdb_file: join(PACKAGE_ROOT, 'databases', 'alzn_mey1993.tdb'),
        },
      },
      control,
    );
    return (performance.now() - t0) / 1000;
  } finally {
    rmSync(taskDir, { recursive: true, force: true });
  }
}

async function main() {
  if (serversMissing) throw new Error(`bench:server needs PostgreSQL and Redis: ${serversMissing}`);
  const rows: [string, number][] = [];
  for (const threads of [1, 2]) {
    const times = Array.from({ length: RUNS }, () => embedded(threads));
    rows.push([`embedded, in one process, ${threads} thread(s)`, median(times)]);
    console.log(`${rows.at(-1)![0]}: ${rows.at(-1)![1].toFixed(2)} s`);
  }
  const pg = await startPostgres();
  const redis = await startRedis();
  const dataDir = mkdtempSync(join(tmpdir(), 'phasedesk-bench-lab-'));
  const env = {
    ...process.env,
    PHASEDESK_DATABASE_URL: await createDatabase(pg, 'bench'),
    PHASEDESK_REDIS_URL: redis.url,
    PHASEDESK_BLOB_DIR: dataDir,
    PHASEDESK_URL_SECRET: 'bench-server-url-secret-0123456789abcdef',
  };
  const port = await freePort();
  const workers: ChildProcess[] = [];
  const api = await launch(['server', '--port', String(port)], env, /listening on/);
  try {
    const key = /API key: (\S+)/.exec(api.out())?.[1];
    if (!key) throw new Error(`the lab server printed no API key:\n${api.out()}`);
    for (const n of [1, 2, 3]) {
      while (workers.length < n)
        workers.push((await launch(['worker', '--slots', '1', '--threads', '1'], env, /PhaseDesk worker/)).child);
      const times: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const t0 = performance.now();
        const { id } = await call(port, 'POST', '/task', key, { title: 'bench', no_cache: true, task_config: CONFIG });
        for (;;) {
          const t = await call(port, 'GET', `/task/${id}`, key);
          if (t.status === 'completed') break;
          if (t.status === 'failed' || t.status === 'aborted') throw new Error(`task ${id} ${t.status}: ${t.logs}`);
          await new Promise((res) => setTimeout(res, 50));
        }
        times.push((performance.now() - t0) / 1000);
      }
      rows.push([`lab server, ${n} worker process(es) x 1 thread`, median(times)]);
      console.log(`${rows.at(-1)![0]}: ${rows.at(-1)![1].toFixed(2)} s`);
    }
  } finally {
    await Promise.all(workers.map(stop));
    await stop(api.child);
    await redis.stop();
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    `\nC-P-T grid 40 x 50 x 10 (Al-Zn, ${CODE}, 20,000 nodes; chunks of ${process.env.PHASEDESK_CPT_CHUNK_NODES ?? 1000} nodes), median of ${RUNS}:`,
  );
  const base = rows[0]![1];
  for (const [what, s] of rows)
    console.log(`  ${what.padEnd(48)} ${s.toFixed(2).padStart(7)} s   ${(base / s).toFixed(2)}x`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
