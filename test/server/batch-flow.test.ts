// An equilibrium_batch as a BullMQ flow over `phasedesk worker` processes: 300 Al-Zn rows in 12 chunks of 25 rows,
// a kill -9 of a worker in the middle of a chunk and a replacement started; the task completes, the killed chunk ran
// again on another worker, every chunk's rows were stored once, every row is in result.csv once and in input order,
// and the table equals the embedded run's row for row. Then cancel: the rows of the chunks stored are kept; and a
// batch of one chunk, run as one job, keeps its rows done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, http, until } from '../service/helpers.js';
import { serversMissing } from './servers.js';
import { startAlZnLab, taskLines, taskUuid, workerMidChunk, type Lab } from './lab.js';
import { openStore } from '../../main/db/index.js';
import { run as runEmbedded } from '../../worker/calculations/equilibrium_batch.js';
import { CONTROL_BYTES, JobControl } from '../../worker/protocol.js';

const CHUNK_ROWS = 25;
let lab: Lab | undefined;
beforeAll(async () => {
  if (serversMissing) return;
  lab = await startAlZnLab({
    workers: 2,
    env: { PHASEDESK_BATCH_CHUNK_ROWS: String(CHUNK_ROWS), PHASEDESK_TEST_CHUNK_MS: '400' },
  });
}, 120_000);
afterAll(async () => {
  if (process.env.PHASEDESK_LAB_DEBUG) console.log(lab?.api.output(), lab?.workers.map((w) => w.output()).join('\n'));
  await lab?.stop();
});

/** Al-Zn alloys (60: 300 rows) x 5 temperatures (the temperatures of one alloy follow each other). */
const batch = (alloys = 60) => ({
  task_type: 'equilibrium_batch',
  tdb_code: 'ALZN_MEY1993',
  condition: {
    components: ['AL', 'ZN'],
    pressure: 101325,
    product: {
      compositions: Array.from({ length: alloys }, (_, i) => ({ ZN: Number((0.01 + (0.9 * i) / alloys).toFixed(6)) })),
      temperatures: [500, 600, 700, 800, 900],
    },
    thermo_outputs: ['phase_name', 'NP(*)', 'x(*,*)', 'GM', 'HM', 'CPM'],
  },
});
const status = (id: number) =>
  api(lab!.port, 'GET', `/task/${id}`, { key: lab!.keyA }).catch(() => ({ status: 0, body: {} as any }));
const lines = taskLines;
const chunkOf = (l: string) => Number(/\(chunk (\d+)\)/.exec(l)![1]);

/** The database file the lab's tasks read (the embedded run reads the same). */
async function databaseFile(l: Lab, code: string): Promise<string> {
  const store = await openStore(l.dataDir, { databaseUrl: l.databaseUrl });
  try {
    return (
      await store.db.selectFrom('databases').select('file_path').where('code', '=', code).executeTakeFirstOrThrow()
    ).file_path;
  } finally {
    await store.close();
  }
}

async function download(l: Lab, id: number, name: string): Promise<string> {
  const files = await api(l.port, 'GET', `/task/${id}/result`, { key: l.keyA });
  const url = new URL((files.body.files as string[]).find((u) => new URL(u).pathname.endsWith(`/${name}`))!);
  return (await http(l.port, 'GET', `${url.pathname}${url.search}`)).text;
}

/** The same number: equal, or (the warm starts of the rows differ) within 1e-9 relative, 1e-12 absolute. */
function sameCell(a: string, b: string): boolean {
  if (a === b) return true;
  const x = Number(a),
    y = Number(b);
  return (
    a !== '' && b !== '' && Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) <= 1e-12 + 1e-9 * Math.abs(y)
  );
}

describe.skipIf(serversMissing)('equilibrium_batch as a flow over workers', () => {
  it('a worker killed in the middle of a chunk: every row stored once, the result is the embedded table', async () => {
    const l = lab!;
    const created = await api(l.port, 'POST', '/task', {
      key: l.keyA,
      body: { title: 'batch', no_cache: true, task_config: batch() },
    });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    await until(
      () => status(id),
      (r) => /in 12 chunk\(s\)/.test(r.body?.logs ?? ''),
      50,
    );
    const uuid = await taskUuid(l, id);

    // The victim: a worker that has started a chunk and not finished it.
    const mid = await workerMidChunk(
      l,
      uuid,
      /batch rows .* started/,
      /batch rows .* (stored|already stored)$/,
      chunkOf,
    );
    const victim = mid.worker,
      killed = mid.chunk;
    await victim.kill('SIGKILL');
    await l.startWorker();
    const done = await until(
      () => status(id),
      (r) => ['completed', 'failed', 'aborted'].includes(r.body?.status),
      100,
    );
    expect(done.body.status, done.body.logs).toBe('completed');
    expect(done.body.progress).toBe(1);

    const others = l.workers.filter((w) => w !== victim);
    const stored = [victim, ...others].flatMap((w) => lines(w, uuid, /batch rows .* stored$/)).map(chunkOf);
    expect(stored.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, k) => k));
    expect(
      others.flatMap((w) => lines(w, uuid, new RegExp(`\\(chunk ${killed}\\) started \\(attempt [2-9]`))),
    ).toHaveLength(1);
    expect(others.flatMap((w) => lines(w, uuid, /already stored/))).toEqual([]);
    expect(others.flatMap((w) => lines(w, uuid, /batch merge 300 row\(s\)/))).toHaveLength(1);

    const csv = (await download(l, id, 'result.csv')).split('\r\n').filter(Boolean);
    const doc = JSON.parse(await download(l, id, 'result.json'));
    // every row once, in input order
    expect(csv.slice(1).map((r) => Number(r.split(',')[0]))).toEqual(Array.from({ length: 300 }, (_, k) => k + 1));

    // The embedded run of the same configuration (the task's stored config, the same database file).
    const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
    const taskDir = mkdtempSync(join(tmpdir(), 'batch-embedded-'));
    await runEmbedded(
      {
        taskUuid: 'e',
        taskType: 'equilibrium_batch',
        config: { ...doc.config, tdb_file: await databaseFile(l, 'ALZN_MEY1993') },
        ompThreads: 1,
        taskDir,
        control: control.buffer,
        database: { code: 'ALZN_MEY1993', sha256: doc.provenance.database.sha256 },
      } as never,
      control,
    );
    const embeddedCsv = readFileSync(join(taskDir, 'result', 'result.csv'), 'utf8')
      .split('\r\n')
      .filter(Boolean);
    const embedded = JSON.parse(readFileSync(join(taskDir, 'result', 'result.json'), 'utf8'));
    rmSync(taskDir, { recursive: true, force: true });
    expect(csv[0]).toBe(embeddedCsv[0]);
    expect(csv.length).toBe(embeddedCsv.length);
    let identical = 0,
      cells = 0,
      worst = 0;
    csv.forEach((line, i) => {
      const a = line.split(','),
        b = embeddedCsv[i]!.split(',');
      expect(a.length).toBe(b.length);
      a.forEach((cell, k) => {
        cells++;
        if (cell === b[k]) identical++;
        else {
          expect(sameCell(cell, b[k]!), `row ${i} column ${csv[0]!.split(',')[k]}: ${cell} vs ${b[k]}`).toBe(true);
          worst = Math.max(worst, Math.abs(Number(cell) - Number(b[k])) / Math.max(Math.abs(Number(b[k])), 1e-12));
        }
      });
    });
    console.log(
      `batch flow vs embedded: ${identical} of ${cells} cells byte-identical, the rest within ${worst.toExponential(1)} relative`,
    );
    const shape = (d: any) => ({
      complete: d.complete,
      counts: d.counts,
      columns: d.columns,
      outputs: d.outputs,
      files: d.files,
      reference_states: d.reference_states,
      quantity_notes: d.quantity_notes,
      config: d.config,
      rows: d.preview_rows.map((r: any) => [r.row, r.status, Object.keys(r.values ?? {})]),
    });
    expect(shape(doc)).toEqual(shape(embedded));
    await new Promise((r) => setTimeout(r, 200));
  }, 180_000);

  it('cancel: the rows of the chunks stored are kept on the aborted task', async () => {
    const l = lab!;
    const created = await api(l.port, 'POST', '/task', {
      key: l.keyA,
      body: { title: 'batch', no_cache: true, task_config: batch(40) },
    });
    const id = created.body.id as number;
    await until(
      () => status(id),
      (r) => /computing the rows: [1-9]\d* of 200 done/.test(r.body?.stage ?? ''),
      50,
    );
    expect((await api(l.port, 'PATCH', `/task/${id}/cancel`, { key: l.keyA })).body.status).toBe('aborted');
    const uuid = await taskUuid(l, id);
    await until(
      async () => l.workers.some((w) => lines(w, uuid, /cancelled batch: .* kept/).length > 0),
      (ok) => ok,
      30,
    );
    const doc = JSON.parse(await download(l, id, 'result.json'));
    expect(doc.complete).toBe(false);
    expect(doc.counts.rows).toBe(200);
    expect(doc.counts.done % CHUNK_ROWS).toBe(0);
    expect(doc.counts.done).toBeGreaterThan(0);
    const csv = (await download(l, id, 'result.csv')).split('\r\n').filter(Boolean);
    const rows = csv.slice(1).map((r) => Number(r.split(',')[0]));
    expect(rows.length).toBe(doc.counts.done);
    expect([...rows].sort((a, b) => a - b)).toEqual(rows);
    expect((await status(id)).body.status).toBe('aborted');
  }, 90_000);

  it('a batch of one chunk runs as one job, and its cancel keeps the rows done', async () => {
    const l = lab!;
    // one worker whose chunks hold the whole batch takes the others' place
    for (const w of [...l.workers]) await w.kill('SIGTERM');
    await l.startWorker({ env: { PHASEDESK_BATCH_CHUNK_ROWS: '1000000' } });
    const created = await api(l.port, 'POST', '/task', {
      key: l.keyA,
      body: { title: 'batch', no_cache: true, task_config: batch(6000) },
    });
    const id = created.body.id as number;
    await until(
      () => status(id),
      (r) => r.body?.progress > 0 || ['completed', 'failed', 'aborted'].includes(r.body?.status),
      100,
    );
    expect((await status(id)).body.status, 'the batch ended before its cancel').toBe('running');
    expect((await api(l.port, 'PATCH', `/task/${id}/cancel`, { key: l.keyA })).body.status).toBe('aborted');
    const uuid = await taskUuid(l, id);
    const last = l.workers.at(-1)!;
    await until(
      async () => lines(last, uuid, /cancelled: .* kept/).length > 0,
      (ok) => ok,
      30,
    );
    expect(lines(last, uuid, /chunk/)).toEqual([]);
    const doc = JSON.parse(await download(l, id, 'result.json'));
    expect(doc.complete).toBe(false);
    expect(doc.counts.rows).toBe(30_000);
    expect(doc.counts.done).toBeGreaterThan(0);
    expect(doc.counts.done).toBeLessThan(30_000);
    const rows = (await download(l, id, 'result.csv'))
      .split('\r\n')
      .filter(Boolean)
      .slice(1)
      .map((r) => Number(r.split(',')[0]));
    expect(rows).toEqual(Array.from({ length: doc.counts.done }, (_, k) => k + 1));
    expect((await status(id)).body.status).toBe('aborted');
  }, 90_000);
});
