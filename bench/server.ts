// `npm run bench:server`: wall time of a 40 x 50 x 10 C-P-T grid (Al-Zn, binary_cpt_diagram) and of an
// equilibrium_batch (bench/server-batch.ts) on the lab server with 1, 2 and 3 `phasedesk worker` processes (one slot,
// one OpenMP thread each), from POST /task to completed, against the embedded calculation of the same task in this
// process (1 and 2 threads). BENCH_SERVER=cpt or =batch runs one of them. Real PostgreSQL and Redis
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
import {
  BATCH_ALLOYS,
  BATCH_CHUNK_ROWS,
  BATCH_CONFIG,
  BATCH_ROWS,
  embeddedBatch,
  flowCost,
  type FlowCost,
  type TimedLine,
} from './server-batch.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECTIONS = (process.env.BENCH_SERVER ?? 'cpt,batch').split(',');
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
  /** every line printed, with when it arrived, goes here too */
  sink: TimedLine[] = [],
): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'dist', 'main', 'cli.js'), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '',
    partial = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    const parts = (partial + d).split('\n');
    partial = parts.pop()!;
    for (const text of parts) sink.push({ at: Date.now(), text });
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

/** Seconds from POST /task to completed; the task's uuid (from its result's logs) and when it was posted. */
async function timeTask(
  port: number,
  key: string,
  config: unknown,
): Promise<{ seconds: number; id: number; posted: number; completed: number }> {
  const posted = Date.now();
  const { id } = await call(port, 'POST', '/task', key, { title: 'bench', no_cache: true, task_config: config });
  for (;;) {
    const t = await call(port, 'GET', `/task/${id}`, key);
    if (t.status === 'completed') break;
    if (t.status === 'failed' || t.status === 'aborted') throw new Error(`task ${id} ${t.status}: ${t.logs}`);
    await new Promise((res) => setTimeout(res, 50));
  }
  const completed = Date.now();
  return { seconds: (completed - posted) / 1000, id, posted, completed };
}

interface Figures {
  cpt: [string, number][];
  batch: [string, number][];
  costs: [number, FlowCost[]][];
}

async function embeddedFigures(f: Figures): Promise<void> {
  if (SECTIONS.includes('cpt'))
    for (const threads of [1, 2]) {
      f.cpt.push([
        `embedded, in one process, ${threads} thread(s)`,
        median(Array.from({ length: RUNS }, () => embedded(threads))),
      ]);
      console.log(`grid: ${f.cpt.at(-1)![0]}: ${f.cpt.at(-1)![1].toFixed(2)} s`);
    }
  if (SECTIONS.includes('batch')) {
    await embeddedBatch(1); // the first run of a process builds the phase models and sampling grids
    for (const threads of [1, 2]) {
      const times: number[] = [];
      for (let r = 0; r < RUNS; r++) times.push(await embeddedBatch(threads));
      f.batch.push([`embedded, in one process, ${threads} thread(s)`, median(times)]);
      console.log(`batch: ${f.batch.at(-1)![0]}: ${f.batch.at(-1)![1].toFixed(2)} s`);
    }
  }
}

/** The lab's figures with `n` workers. */
async function labFigures(f: Figures, n: number, port: number, key: string, lines: TimedLine[]): Promise<void> {
  if (SECTIONS.includes('cpt')) {
    const times: number[] = [];
    for (let r = 0; r < RUNS; r++) times.push((await timeTask(port, key, CONFIG)).seconds);
    f.cpt.push([`lab server, ${n} worker process(es) x 1 thread`, median(times)]);
    console.log(`grid: ${f.cpt.at(-1)![0]}: ${f.cpt.at(-1)![1].toFixed(2)} s`);
  }
  if (SECTIONS.includes('batch')) {
    const times: number[] = [],
      costs: FlowCost[] = [];
    for (let r = 0; r < RUNS; r++) {
      const t = await timeTask(port, key, BATCH_CONFIG);
      times.push(t.seconds);
      const logs: string = (await call(port, 'GET', `/task/${t.id}`, key)).logs ?? '';
      const uuid = lines
        .find((l) => /batch merge started/.test(l.text) && l.at >= t.posted)
        ?.text.match(/task (\S+):/)?.[1];
      const cost = uuid ? flowCost(lines, uuid, t.posted, t.completed) : undefined;
      if (cost) costs.push(cost);
      else console.log(`batch: no flow found in the workers' logs (${logs.split('\n').at(-1)})`);
    }
    f.batch.push([`lab server, ${n} worker process(es) x 1 thread`, median(times)]);
    f.costs.push([n, costs]);
    console.log(`batch: ${f.batch.at(-1)![0]}: ${f.batch.at(-1)![1].toFixed(2)} s`);
  }
}

function report(f: Figures): void {
  if (f.cpt.length) {
    console.log(
      `\nC-P-T grid 40 x 50 x 10 (Al-Zn, ${CODE}, 20,000 nodes; chunks of ${process.env.PHASEDESK_CPT_CHUNK_NODES ?? 1000} nodes), median of ${RUNS}:`,
    );
    const base = f.cpt[0]![1];
    for (const [what, s] of f.cpt)
      console.log(`  ${what.padEnd(48)} ${s.toFixed(2).padStart(7)} s   ${(base / s).toFixed(2)}x`);
  }
  if (!f.batch.length) return;
  console.log(
    `\nequilibrium_batch of ${BATCH_ALLOYS} alloy7 alloys x 3 T (COST507, ${BATCH_ROWS} rows; chunks of ${BATCH_CHUNK_ROWS} rows), median of ${RUNS}:`,
  );
  const one = BATCH_ROWS / f.batch[0]![1];
  for (const [what, s] of f.batch) {
    const n = Number(/(\d+) worker/.exec(what)?.[1] ?? /(\d+) thread/.exec(what)![1]);
    const perWorker = BATCH_ROWS / s / n;
    console.log(
      `  ${what.padEnd(48)} ${s.toFixed(2).padStart(7)} s  ${(BATCH_ROWS / s).toFixed(1).padStart(7)} rows/s  ` +
        `${perWorker.toFixed(1).padStart(6)} rows/s per worker or thread (${(perWorker / one).toFixed(2)} of one embedded thread)`,
    );
  }
  for (const [n, costs] of f.costs) {
    if (!costs.length) continue;
    const m = (k: keyof FlowCost) => median(costs.map((c) => c[k])).toFixed(2);
    console.log(
      `  flow's fixed cost, ${n} worker(s): POST to the first chunk ${m('dispatch')} s, last chunk to the merge ${m('hop')} s, merge ${m('merge')} s; a chunk of ${BATCH_CHUNK_ROWS} rows ${m('chunk')} s on its worker`,
    );
  }
}

async function main() {
  if (serversMissing) throw new Error(`bench:server needs PostgreSQL and Redis: ${serversMissing}`);
  const f: Figures = { cpt: [], batch: [], costs: [] };
  await embeddedFigures(f);
  const pg = await startPostgres();
  const redis = await startRedis();
  const dataDir = mkdtempSync(join(tmpdir(), 'phasedesk-bench-lab-'));
  const env = {
    ...process.env,
    PHASEDESK_DATABASE_URL: await createDatabase(pg, 'bench'),
    PHASEDESK_REDIS_URL: redis.url,
    PHASEDESK_BLOB_DIR: dataDir,
    PHASEDESK_URL_SECRET: 'bench-server-url-secret-0123456789abcdef',
    PHASEDESK_BATCH_CHUNK_ROWS: BATCH_CHUNK_ROWS,
  };
  const port = await freePort();
  const workers: ChildProcess[] = [];
  const lines: TimedLine[] = [];
  const api = await launch(['server', '--port', String(port)], env, /listening on/);
  try {
    const key = /API key: (\S+)/.exec(api.out())?.[1];
    if (!key) throw new Error(`the lab server printed no API key:\n${api.out()}`);
    for (const n of [1, 2, 3]) {
      while (workers.length < n)
        workers.push(
          (await launch(['worker', '--slots', '1', '--threads', '1'], env, /PhaseDesk worker/, lines)).child,
        );
      await labFigures(f, n, port, key, lines);
    }
  } finally {
    await Promise.all(workers.map(stop));
    await stop(api.child);
    await redis.stop();
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  report(f);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
