// The equilibrium_batch section of `npm run bench:server`: BENCH_SERVER_BATCH_ALLOYS alloys (default 400) of the
// 7-component Al family (bench/alloy-table.ts, COST507) at 700, 750 and 800 K, phases, amounts and compositions, as
// a flow in chunks of PHASEDESK_BATCH_CHUNK_ROWS rows (default here 200) over the lab server's workers, against the
// embedded calculation in this process. The flow's fixed cost is read from the workers' log lines (when each line
// arrived): POST to the first chunk's start (the task's job, the flow added, a chunk job taken), the last chunk stored
// to the merge's start, and the merge (the result files from the stored chunks, storing them); and the time of one
// chunk on its worker.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../main/server.js';
import { validateTaskConfig } from '../main/requests/task-config.js';
import { run as runBatch } from '../worker/calculations/equilibrium_batch.js';
import { CONTROL_BYTES, JobControl, type TaskJob } from '../worker/protocol.js';
import { alloyTable, SOLUTES } from './alloy-table.js';
import { median } from './support.js';

const TEMPERATURES = [700, 750, 800];
export const BATCH_ALLOYS = Math.max(1, Math.floor(Number(process.env.BENCH_SERVER_BATCH_ALLOYS ?? 400)));
export const BATCH_ROWS = BATCH_ALLOYS * TEMPERATURES.length;
export const BATCH_CHUNK_ROWS = process.env.PHASEDESK_BATCH_CHUNK_ROWS ?? '200';

export const BATCH_CONFIG = {
  task_type: 'equilibrium_batch',
  tdb_code: 'COST507',
  condition: {
    components: [...SOLUTES, 'AL'],
    pressure: 101325,
    table: { csv: alloyTable(BATCH_ALLOYS), temperatures: TEMPERATURES },
    thermo_outputs: ['phase_name', 'NP(*)', 'x(*,*)'],
  },
};

/** Seconds of the embedded calculation of the batch in this process. */
export async function embeddedBatch(threads: number): Promise<number> {
  const v = validateTaskConfig('equilibrium_batch', BATCH_CONFIG);
  if (!v.ok) throw new Error(v.error);
  const taskDir = mkdtempSync(join(tmpdir(), 'phasedesk-bench-batch-'));
  try {
    const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
    const t0 = performance.now();
    await runBatch(
      {
        taskUuid: 'bench',
        taskType: 'equilibrium_batch',
        ompThreads: threads,
        taskDir,
        control: control.buffer,
        config: { ...v.value, tdb_file: join(PACKAGE_ROOT, 'databases', 'COST507.tdb') },
      } as unknown as TaskJob<'equilibrium_batch'>,
      control,
    );
    return (performance.now() - t0) / 1000;
  } finally {
    rmSync(taskDir, { recursive: true, force: true });
  }
}

/** A line a worker printed and when it arrived. */
export interface TimedLine {
  at: number;
  text: string;
}

/** The flow's fixed cost of one task, seconds: to the first chunk, from the last chunk to the merge, the merge. */
export interface FlowCost {
  dispatch: number;
  hop: number;
  merge: number;
  /** a chunk on its worker, from its start to its rows stored (the median of the task's chunks) */
  chunk: number;
}

/** Seconds from each chunk's start to its rows stored, by the workers' lines "(chunk k) started" and "... stored". */
function chunkSeconds(mine: TimedLine[]): number[] {
  const started = new Map<string, number>();
  const seconds: number[] = [];
  for (const l of mine) {
    const k = /\(chunk (\d+)\)/.exec(l.text)?.[1];
    if (k === undefined) continue;
    if (/ started /.test(l.text)) started.set(k, l.at);
    else if (/ stored$/.test(l.text) && started.has(k)) seconds.push((l.at - started.get(k)!) / 1000);
  }
  return seconds;
}

export function flowCost(lines: TimedLine[], uuid: string, posted: number, completed: number): FlowCost | undefined {
  const mine = lines.filter((l) => l.text.includes(uuid));
  const first = mine.find((l) => /batch rows .* started/.test(l.text));
  const stored = mine.filter((l) => /batch rows .* stored$/.test(l.text));
  const merge = mine.find((l) => /batch merge started/.test(l.text));
  if (!first || !stored.length || !merge) return undefined;
  const lastStored = Math.max(...stored.map((l) => l.at));
  return {
    dispatch: (first.at - posted) / 1000,
    hop: (merge.at - lastStored) / 1000,
    merge: (completed - merge.at) / 1000,
    chunk: median(chunkSeconds(mine)),
  };
}
