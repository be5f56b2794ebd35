// One stage of an equilibrium_batch spread over the lab server's workers (main/server/batch-flow.ts):
//  - chunk: the rows [first, end) computed as the embedded calculation computes them (equilibrium_batch.ts
//           solveRows), stored as stages/rows-<first>-<end>.json: one line per row as in result/rows.jsonl, then one
//           line with the shape of the points met and the notes of the further quantities. Written once
//           (worker/results/stage-files.ts), so the rows of a chunk that runs twice are stored once: the file is keyed
//           by its rows.
//  - merge: the embedded calculation's result files (result.csv, rows.jsonl, result.xlsx, result.json) from the
//           stored chunks in row order. `kept`: the task was cancelled; the files hold the rows of the chunks stored
//           (result.json complete: false), as the embedded run keeps the rows done.
import { appendFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { batchRowCount } from '../../../contract/tasks/batch-rows.js';
import type { BatchRowRecord } from '../../../contract/results/equilibrium_batch.js';
import type { TablePoint } from '../../../contract/results/outputs/columns.js';
import { BatchTableWriter, forEachLine } from '../../results/batch-table.js';
import { linkOnce, privateName, STAGES_FOLDER, testStageDelay } from '../../results/stage-files.js';
import {
  CancelledError,
  type CalculationJob,
  type CalculationOutput,
  type JobControl,
  type TaskJob,
} from '../../protocol.js';
import { isCancel, prepareBatch, solveRows, writeBatchResult } from '../equilibrium_batch.js';

export interface BatchStage {
  kind: 'chunk' | 'merge';
  /** number of row chunks of the batch */
  chunks: number;
  /** rows of the batch */
  rows: number;
  /** a chunk: its index and its rows [first, end) (0-based) */
  chunk?: number;
  first?: number;
  end?: number;
  /** the merge: every chunk's rows [first, end), in row order */
  ranges?: [number, number][];
  /** the merge of a cancelled task: the rows of the chunks stored */
  kept?: boolean;
  /** the worker running the stage, kept in the chunk's file */
  worker?: string;
}

/** The last line of a chunk's file. */
interface ChunkTrailer {
  chunk: number;
  worker?: string;
  /** the union of what the chunk's points show (PointShapes.point): the merged columns are resolved from it */
  shapes: TablePoint;
  /** the further quantities' notes (phases without volume data, met in the chunk's rows) */
  notes: string[];
}

const ROWS_FILE = /^rows-(\d+)-(\d+)\.json$/;

export function rowsFileName(first: number, end: number): string {
  return `rows-${first}-${end}.json`;
}

/** The row ranges [first, end) of the chunks stored in a stages folder, in row order. */
export function storedRanges(stagesDir: string): [number, number][] {
  if (!existsSync(stagesDir)) return [];
  return readdirSync(stagesDir)
    .map((f) => ROWS_FILE.exec(f))
    .filter((m) => m !== null)
    .map((m): [number, number] => [Number(m[1]), Number(m[2])])
    .sort((a, b) => a[0] - b[0]);
}

/** The batch's rows in chunks of `perChunk` rows: [first, end) each. */
export function batchChunkRanges(config: Record<string, unknown>, perChunk: number): [number, number][] {
  const total = batchRowCount((config as TaskJob<'equilibrium_batch'>['config']).condition);
  const ranges: [number, number][] = [];
  for (let first = 0; first < total; first += perChunk) ranges.push([first, Math.min(total, first + perChunk)]);
  return ranges;
}

export async function run(job: CalculationJob, control: JobControl): Promise<CalculationOutput> {
  const { batch_stage: raw, ...config } = job.config;
  const stage = raw as BatchStage;
  const dir = join(job.taskDir, STAGES_FOLDER);
  mkdirSync(dir, { recursive: true });
  // a stage job carries its task's configuration as the schema parsed it when the task was created, plus batch_stage
  const batchJob = { ...job, taskType: 'equilibrium_batch', config } as unknown as TaskJob<'equilibrium_batch'>;
  if (stage.kind === 'chunk') return runChunk(batchJob, control, stage, dir);
  return runMerge(batchJob, control, stage, dir);
}

/** The chunk's rows as the embedded run computes them, stored once. */
function runChunk(
  job: TaskJob<'equilibrium_batch'>,
  control: JobControl,
  stage: BatchStage,
  dir: string,
): CalculationOutput {
  const first = stage.first!,
    end = stage.end!;
  const name = `rows ${first + 1}-${end} (chunk ${stage.chunk} of ${stage.chunks})`;
  const own = join(dir, rowsFileName(first, end));
  if (existsSync(own)) return { summary: 'already stored', logs: [`${name}: already stored`] };
  const batch = prepareBatch(job, control);
  const { b, cond } = batch;
  const tmp = privateName(own);
  const writer = new BatchTableWriter(job.taskDir, b.names, b.ctx, end - first, tmp);
  try {
    try {
      solveRows(b, cond, writer, { first, end });
    } finally {
      writer.close();
    }
    testStageDelay(control);
    if (control.cancelled) throw new CancelledError();
  } catch (e) {
    rmSync(tmp, { force: true });
    if (isCancel(e, control)) throw new CancelledError();
    throw e;
  }
  const trailer: ChunkTrailer = {
    chunk: stage.chunk!,
    worker: stage.worker,
    shapes: writer.shapesPoint(),
    notes: b.extras.notes,
  };
  appendFileSync(tmp, JSON.stringify(trailer) + '\n');
  const fresh = linkOnce(tmp, own);
  const c = writer.counts;
  return {
    summary: fresh ? 'stored' : 'already stored',
    logs: [
      `${name}: ${c.ok} ok, ${c.not_converged} not converged, ${c.failed} failed; ${fresh ? 'stored' : 'already stored by another run'}`,
    ],
  };
}

/** The rows of one stored chunk into the merge's writer; its notes not yet met join `notes`. */
function replayChunk(file: string, writer: BatchTableWriter, notes: string[]): void {
  forEachLine(file, (line) => {
    const v = JSON.parse(line) as BatchRowRecord | ChunkTrailer;
    if (!('shapes' in v)) {
      writer.add(v);
      return;
    }
    writer.addStored([], v.shapes);
    for (const n of v.notes) if (!notes.includes(n)) notes.push(n);
  });
}

/** The embedded calculation's result files from the stored chunks, in row order. */
async function runMerge(
  job: TaskJob<'equilibrium_batch'>,
  control: JobControl,
  stage: BatchStage,
  dir: string,
): Promise<CalculationOutput> {
  const batch = prepareBatch(job, control);
  const writer = new BatchTableWriter(job.taskDir, batch.b.names, batch.b.ctx, batch.total);
  const ranges = stage.kept ? storedRanges(dir) : stage.ranges!;
  for (const [first, end] of ranges) {
    const file = join(dir, rowsFileName(first, end));
    if (!existsSync(file)) throw new Error(`rows ${first + 1}-${end} of the batch have no stored results`);
    replayChunk(file, writer, batch.b.extras.notes);
  }
  const merged = `${ranges.length} chunk(s) of rows merged`;
  try {
    const out = await writeBatchResult(job, batch, writer, stage.kept === true);
    return { ...out, logs: [merged, ...out.logs] };
  } catch (e) {
    if (e instanceof CancelledError && e.kept) throw new CancelledError({ ...e.kept, logs: [merged, ...e.kept.logs] });
    throw e;
  }
}
