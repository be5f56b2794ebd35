// `npm run bench:api`: median and p99 latency of GET /task/{id} and POST /task, 2,000 requests each,
// sequential over one keep-alive loopback connection. A benchmark that prints figures, not a test.
import { Agent, request } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, PACKAGE_ROOT } from '../main/server.js';
import { createUser, setPlan } from '../main/console/users.js';
import { issueKey } from '../main/console/keys.js';
import { registerDatabase, subscribe } from '../main/console/databases.js';

const N = Number(process.env.BENCH_N ?? 2000);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function call(
  port: number,
  method: string,
  path: string,
  key: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
  return { median: q(0.5), p99: q(0.99), max: s[s.length - 1]! };
}

async function timed(
  n: number,
  fn: (i: number) => Promise<{ status: number; text: string }>,
  okStatus: number,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    const r = await fn(i);
    out.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (r.status !== okStatus) throw new Error(`request ${i}: HTTP ${r.status} ${r.text}`);
  }
  return out;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'phasedesk-bench-'));
  const svc = await startService({ dataDir, port: 0, bootstrap: false, maxPendingTasks: 1_000_000 }, () => {});
  try {
    await setPlan(svc.store, 'bench', 1_000_000);
    await createUser(svc.store, { username: 'bench', plan: 'bench' });
    const tdbDir = join(PACKAGE_ROOT, 'databases');
    const tdb = readdirSync(tdbDir).find((n) => n.endsWith('.tdb'));
    if (!tdb) throw new Error(`no .tdb file in ${tdbDir}`);
    // Element/phase lists are irrelevant to request latency; they are not read from the file here.
    await registerDatabase(
      svc.store,
      dataDir,
      join(tdbDir, tdb),
      {
        code: 'BENCH',
        name: 'bench',
        level: 'free',
        type: 'alloy',
        version: '1',
        support_task_list: ['point_calculation'],
      },
      { element_list: ['AG', 'CU'], phase_list: ['LIQUID', 'FCC_A1'] },
    );
    await subscribe(svc.store, { username: 'bench', code: 'BENCH', status: 'active' });
    const { key } = await issueKey(svc.store, 'bench');
    const body = (i: number) => ({
      title: `bench ${i}`,
      task_config: {
        task_type: 'point_calculation',
        tdb_code: 'BENCH',
        condition: {
          components: ['AG', 'CU'],
          temperature: 1000 + (i % 500),
          pressure: 101325,
          compositions: { AG: 0.5, CU: 0.5 },
        },
      },
    });

    await timed(100, (i) => call(svc.port, 'POST', '/api/v2/task', key, body(i)), 200); // warm-up
    const post = await timed(N, (i) => call(svc.port, 'POST', '/api/v2/task', key, body(i)), 200);
    const get = await timed(N, (i) => call(svc.port, 'GET', `/api/v2/task/${1 + (i % (N + 100))}`, key), 200);
    const fmt = (s: { median: number; p99: number; max: number }) =>
      `median ${s.median.toFixed(3)} ms, p99 ${s.p99.toFixed(3)} ms, max ${s.max.toFixed(3)} ms`;
    console.log(
      `PhaseDesk /api/v2 loopback latency, ${N} sequential requests each (keep-alive, Node ${process.version}):`,
    );
    console.log(`  GET  /task/{id}: ${fmt(stats(get))}`);
    console.log(`  POST /task     : ${fmt(stats(post))}`);
  } finally {
    await svc.close();
    agent.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
