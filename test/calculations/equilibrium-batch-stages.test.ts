// The stages of an equilibrium_batch on the lab server (worker/calculations/equilibrium_batch/stage.ts), in this
// process: the chunks of rows, each stored once whatever the order they run in and however often, and the merge,
// whose table equals the embedded run's (the liquidus and solidus too, searched again where a chunk begins in the
// middle of an alloy's rows); the merge of a cancelled batch keeps the rows of the chunks stored.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateTaskConfig } from '../../main/requests/task-config.js';
import { run as runEmbedded } from '../../worker/calculations/equilibrium_batch.js';
import {
  batchChunkRanges,
  rowsFileName,
  run as runStage,
  storedRanges,
  type BatchStage,
} from '../../worker/calculations/equilibrium_batch/stage.js';
import { CancelledError, CONTROL_BYTES, JobControl, type CalculationJob } from '../../worker/protocol.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const ALZN = path.join(SHARED_TDB_DIR, 'alzn_mey.tdb');
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-batch-stages-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** `alloys` Al-Zn alloys x 3 temperatures (the temperatures of one alloy follow each other). */
function config(alloys: number, outputs: string[]): Record<string, unknown> {
  const v = validateTaskConfig('equilibrium_batch', {
    task_type: 'equilibrium_batch',
    tdb_code: 'TEST',
    condition: {
      components: ['AL', 'ZN'],
      pressure: 101325,
      product: {
        compositions: Array.from({ length: alloys }, (_, i) => ({ ZN: 0.05 + 0.08 * i })),
        temperatures: [550, 650, 750],
      },
      thermo_outputs: outputs,
    },
  });
  if (!v.ok) throw new Error(v.error);
  return { ...v.value, tdb_file: ALZN };
}

const job = (taskDir: string, cfg: Record<string, unknown>, taskType: string): CalculationJob => {
  const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
  return { taskUuid: 't', taskType, config: cfg, ompThreads: 1, taskDir, control: control.buffer };
};
const control = () => new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
const stageJob = (dir: string, cfg: Record<string, unknown>, stage: BatchStage) =>
  job(dir, { ...cfg, batch_stage: stage }, 'equilibrium_batch_stage');
const csvLines = (dir: string) =>
  readFileSync(path.join(dir, 'result', 'result.csv'), 'utf8')
    .split('\r\n')
    .filter(Boolean);

/** The cells of a CSV line (RFC 4180: a quoted cell may hold commas). */
const cells = (line: string) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1]!).slice(0, -1);

/**
 * The same cell: equal text, or numbers within 1e-9 relative (each row warm-starts from a different neighbour); an
 * alloy's liquidus and solidus within 0.01 K, the bracket their search certifies (a chunk's first alloy is searched
 * by the scan, the others from their neighbour: docs/calculations.md).
 */
function expectSameCell(a: string, b: string, where: string) {
  if (a === b) return;
  const x = Number(a),
    y = Number(b);
  const tol = /T_(liquidus|solidus)/.test(where) ? 0.01 : 1e-12 + 1e-9 * Math.abs(y);
  expect(a !== '' && b !== '' && Math.abs(x - y) <= tol, `${where}: ${a} vs ${b}`).toBe(true);
}

describe('equilibrium_batch stages', () => {
  it('chunks of rows', () => {
    expect(batchChunkRanges(config(4, ['phase_name']), 5)).toEqual([
      [0, 5],
      [5, 10],
      [10, 12],
    ]);
    expect(batchChunkRanges(config(4, ['phase_name']), 12)).toEqual([[0, 12]]);
  });

  it('the chunks, stored once in any order, merge into the embedded table', async () => {
    const cfg = config(10, ['phase_name', 'NP(*)', 'x(*,*)', 'GM', 'T_liquidus', 'T_solidus']);
    // chunks of 7 rows: an alloy's three temperatures split between two chunks, whose liquidus searches start from
    // different rows
    const ranges = batchChunkRanges(cfg, 7);
    expect(ranges).toEqual([
      [0, 7],
      [7, 14],
      [14, 21],
      [21, 28],
      [28, 30],
    ]);
    const dir = path.join(tmp, 'flow');
    const base = { kind: 'chunk' as const, chunks: ranges.length, rows: 30 };
    // the last chunk first; the second one twice (its worker was killed, another took it over)
    for (const k of [4, 1, 0, 3, 2, 1]) {
      const [first, end] = ranges[k]!;
      const file = path.join(dir, 'stages', rowsFileName(first, end));
      const before = existsSync(file) ? statSync(file).mtimeMs : undefined;
      const out = await runStage(stageJob(dir, cfg, { ...base, chunk: k, first, end }), control());
      expect(out.summary).toBe(before === undefined ? 'stored' : 'already stored');
      if (before !== undefined) expect(statSync(file).mtimeMs).toBe(before);
    }
    expect(storedRanges(path.join(dir, 'stages'))).toEqual(ranges);
    const merged = await runStage(stageJob(dir, cfg, { kind: 'merge', chunks: 5, rows: 30, ranges }), control());
    expect(merged.summary).toBe('30 row(s): 30 ok, 0 not converged, 0 failed');

    const embeddedDir = path.join(tmp, 'embedded');
    await runEmbedded(job(embeddedDir, cfg, 'equilibrium_batch') as never, control());
    const flow = csvLines(dir),
      embedded = csvLines(embeddedDir);
    expect(flow[0]).toBe(embedded[0]);
    expect(flow.length).toBe(31);
    const header = cells(flow[0]!);
    flow.forEach((line, i) => {
      const a = cells(line),
        b = cells(embedded[i]!);
      expect(a.length).toBe(header.length);
      expect(b.length).toBe(header.length);
      a.forEach((cell, k) => expectSameCell(cell, b[k]!, `row ${i} ${header[k]}`));
    });
    const doc = JSON.parse(readFileSync(path.join(dir, 'result', 'result.json'), 'utf8'));
    const ref = JSON.parse(readFileSync(path.join(embeddedDir, 'result', 'result.json'), 'utf8'));
    for (const k of ['complete', 'counts', 'columns', 'outputs', 'files', 'reference_states', 'quantity_notes'])
      expect(doc[k], k).toEqual(ref[k]);
    expect(existsSync(path.join(dir, 'result', 'result.xlsx'))).toBe(true);
  });

  it('the merge of a cancelled batch keeps the rows of the chunks stored, in row order', async () => {
    const cfg = config(4, ['phase_name', 'NP(*)']);
    const dir = path.join(tmp, 'kept');
    const base = { kind: 'chunk' as const, chunks: 3, rows: 12 };
    await runStage(stageJob(dir, cfg, { ...base, chunk: 2, first: 10, end: 12 }), control());
    await runStage(stageJob(dir, cfg, { ...base, chunk: 0, first: 0, end: 5 }), control());
    const kept = await runStage(stageJob(dir, cfg, { kind: 'merge', chunks: 3, rows: 12, kept: true }), control()).then(
      () => undefined,
      (e: CancelledError) => e.kept,
    );
    expect(kept?.summary).toBe('stopped after 7 of 12 row(s): 7 ok, 0 not converged, 0 failed');
    expect(
      csvLines(dir)
        .slice(1)
        .map((l) => Number(l.split(',')[0])),
    ).toEqual([1, 2, 3, 4, 5, 11, 12]);
    const doc = JSON.parse(readFileSync(path.join(dir, 'result', 'result.json'), 'utf8'));
    expect(doc.complete).toBe(false);
    expect(doc.counts).toMatchObject({ rows: 12, done: 7 });
  });
});
