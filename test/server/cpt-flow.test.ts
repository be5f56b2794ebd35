// A binary_cpt_diagram grid as a BullMQ flow over three `phasedesk worker` processes: 22 chunks, the bisection in
// parts, a kill -9 of the worker in the middle of a chunk and a replacement started; the task completes, the killed
// chunk ran again, every stage's results were stored once, and result.json equals the embedded run's (provenance's creation time aside).
// Then cancel: every chunk job ends within 2 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, http, until } from '../service/helpers.js';
import { serversMissing } from './servers.js';
import { cptGrid, startAlZnLab, taskLines, taskUuid, workerMidChunk, type Lab } from './lab.js';
import { redisConnection, TASK_QUEUE } from '../../main/server/redis.js';
import { run as runEmbedded } from '../../worker/calculations/binary_cpt_diagram.js';
import { CONTROL_BYTES, JobControl } from '../../worker/protocol.js';

const CHUNK_NODES = 16;
let lab: Lab | undefined;
beforeAll(async () => {
  if (serversMissing) return;
  // Al-Zn (bundled, imported by the API at its start): a few milliseconds per equilibrium
  lab = await startAlZnLab({
    workers: 3,
    env: { PHASEDESK_CPT_CHUNK_NODES: String(CHUNK_NODES), PHASEDESK_TEST_CHUNK_MS: '500' },
  });
}, 120_000);
afterAll(async () => {
  if (process.env.PHASEDESK_LAB_DEBUG) console.log(lab?.api.output(), lab?.workers.map((w) => w.output()).join('\n'));
  await lab?.stop();
});

const config = (over: Record<string, unknown> = {}) => cptGrid({ include_tielines: true, ...over });
const status = (id: number) =>
  api(lab!.port, 'GET', `/task/${id}`, { key: lab!.keyA }).catch(() => ({ status: 0, body: {} as any }));
const lines = taskLines;

describe.skipIf(serversMissing)('binary_cpt_diagram as a flow over workers', () => {
  it('a worker killed in the middle of a chunk: the chunk runs again, the task completes with the embedded result', async () => {
    const l = lab!;
    const created = await api(l.port, 'POST', '/task', {
      key: l.keyA,
      body: { title: 'grid', no_cache: true, task_config: config() },
    });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    const row = await until(
      () => status(id),
      (r) => /in 22 chunk\(s\)/.test(r.body?.logs ?? ''),
      50,
    );
    expect(row.body.status).toBe('running');
    const uuid = await taskUuid(l, id);

    // The victim: a worker that has started a chunk and not finished it.
    const grid = (l: string) => Number(/chunk (\d+)/.exec(l)![1]);
    const mid = await workerMidChunk(l, uuid, /grid chunk \d+ started/, /grid chunk \d+ (stored|already)/, grid);
    const victim = mid.worker,
      killedChunk = mid.chunk;
    await victim.kill('SIGKILL');
    expect(lines(victim, uuid, new RegExp(`grid chunk ${killedChunk} (stored|already)`))).toEqual([]);
    await l.startWorker();

    const done = await until(
      () => status(id),
      (r) => ['completed', 'failed', 'aborted'].includes(r.body?.status),
      100,
    );
    expect(done.body.status, done.body.logs).toBe('completed');
    expect(done.body.progress).toBe(1);
    const all = l.workers.filter((w) => w !== victim);
    const stored = all
      .flatMap((w) => lines(w, uuid, /grid chunk \d+ stored/))
      .map((s) => Number(/chunk (\d+)/.exec(s)![1]));
    const victimStored = lines(victim, uuid, /grid chunk \d+ stored/).map((s) => Number(/chunk (\d+)/.exec(s)![1]));
    // every chunk stored exactly once over all workers; the killed one by another worker, on a later attempt
    expect([...stored, ...victimStored].sort((a, b) => a - b)).toEqual(Array.from({ length: 22 }, (_, k) => k));
    expect(stored).toContain(killedChunk);
    expect(
      all.flatMap((w) => lines(w, uuid, new RegExp(`grid chunk ${killedChunk} started \\(attempt [2-9]`))),
    ).toHaveLength(1);
    expect(all.flatMap((w) => lines(w, uuid, /already stored/))).toEqual([]);
    expect(all.flatMap((w) => lines(w, uuid, /grid merge 11x16x2 grid: /))).toHaveLength(1);
    // the bisection ran in parts over the workers, each part stored once
    const plan = all
      .flatMap((w) => lines(w, uuid, /grid bisection in \d+ part/))
      .map((x) => Number(/in (\d+) part/.exec(x)![1]));
    expect(plan).toHaveLength(1);
    expect(plan[0]).toBeGreaterThan(1);
    const parts = all
      .flatMap((w) => lines(w, uuid, /grid bisection part \d+ stored/))
      .map((x) => Number(/part (\d+)/.exec(x)![1]));
    expect(parts.sort((a, b) => a - b)).toEqual(Array.from({ length: plan[0]! }, (_, k) => k));

    const files = await api(l.port, 'GET', `/task/${id}/result`, { key: l.keyA });
    const names = (files.body.files as string[]).map((u) => new URL(u).pathname.split('/').pop());
    expect(new Set(names).size).toBe(names.length);
    const url = new URL((files.body.files as string[]).find((u) => new URL(u).pathname.endsWith('/result.json'))!);
    const lab_doc = JSON.parse((await http(l.port, 'GET', `${url.pathname}${url.search}`)).text);

    // The embedded run of the same configuration (the task's stored config, the same database file).
    const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
    const taskDir = mkdtempSync(join(tmpdir(), 'cpt-embedded-'));
    runEmbedded(
      {
        taskUuid: 'e',
        taskType: 'binary_cpt_diagram',
        config: lab_doc.config,
        ompThreads: 1,
        taskDir,
        control: control.buffer,
        database: { code: 'ALZN_MEY1993', sha256: lab_doc.provenance.database.sha256 },
      },
      control,
    );
    const embedded = JSON.parse(readFileSync(join(taskDir, 'result', 'result.json'), 'utf8'));
    rmSync(taskDir, { recursive: true, force: true });
    const untimed = (d: any) => ({ ...d, provenance: { ...d.provenance, created_at: undefined } });
    expect(lab_doc.labels.length).toBe(352);
    expect(lab_doc.boundary_points.length).toBeGreaterThan(0);
    expect(untimed(lab_doc)).toEqual(untimed(embedded));
    // The embedded run held this process's event loop: the closes of idle keep-alive sockets are handled first.
    await new Promise((r) => setTimeout(r, 200));
  }, 120_000);

  it('cancel: every chunk job ends within 2 s, the workers stay healthy', async () => {
    const l = lab!;
    const redis = redisConnection(l.redis.url);
    const queue = new Queue(TASK_QUEUE, { connection: redis });
    try {
      const created = await api(l.port, 'POST', '/task', {
        key: l.keyA,
        body: { title: 'grid', no_cache: true, task_config: config({ temperature_step: 20 }) },
      });
      const id = created.body.id as number;
      await until(
        () => status(id),
        (r) => /chunks/.test(r.body?.stage ?? '') && r.body.progress > 0,
        50,
      );
      expect(await queue.getActiveCount()).toBeGreaterThan(0);
      const at = Date.now();
      expect((await api(l.port, 'PATCH', `/task/${id}/cancel`, { key: l.keyA })).body.status).toBe('aborted');
      await until(
        async () => (await queue.getActiveCount()) + (await queue.getWaitingCount()),
        (n) => n === 0,
        20,
      );
      const ms = Date.now() - at;
      console.log(`cancel of a grid flow: every chunk job ended ${ms} ms after PATCH cancel`);
      expect(ms).toBeLessThan(2000);
      // the workers take new work
      const next = await api(l.port, 'POST', '/task', {
        key: l.keyA,
        body: {
          title: 's',
          no_cache: true,
          task_config: { task_type: '__test_sleep', tdb_code: 'ALFE', seconds: 0.2 },
        },
      });
      expect(
        (
          await until(
            () => status(next.body.id),
            (r) => ['completed', 'failed'].includes(r.body?.status),
            50,
          )
        ).body.status,
      ).toBe('completed');
      expect((await status(id)).body.status).toBe('aborted');
    } finally {
      await queue.close();
      await redis.quit();
    }
  }, 60_000);
});
