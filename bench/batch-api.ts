// `npm run bench:batch-api`: the rows of the bench:batch phases section through the API of a service started as
// `npm start` starts it (bundled databases, the first key, default settings), end to end as a script sees them:
//   points  one point_calculation task per row (the way before equilibrium_batch): the script keeps as many tasks
//           pending as the pending cap allows (max_pending_tasks, default 20), polls each task every POLL_MS and
//           fetches its result.json (GET /task/{id}, GET /task/{id}/result, the signed URL), all through the
//           TypeScript client (clients/typescript) as a script would
//   batch   one equilibrium_batch task of the same rows (paired rows), polled as often, and its rows.jsonl: with
//           the outputs asked of the point tasks, and with T_liquidus and T_solidus as well (a point task's result
//           holds the alloy's liquidus and solidus too: the like-for-like figure, which the goal is read from)
// BENCH_BATCH_API_ALLOYS alloys (default 100, bench/alloy-table.ts) at 700, 750 and 800 K; prints each way's wall
// time, rows/s and the ratio (goal: the batch at least 20x faster). Both ways poll every POLL_MS, shorter than a
// script's usual half second, so that the polling does not make the ratio.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startService } from '../main/server.js';
import { PhaseDeskApiError, PhaseDeskClient, type TaskCreateRequest } from '../clients/typescript/src/index.js';
import { alloyTable, SOLUTES } from './alloy-table.js';

const TEMPERATURES = [700, 750, 800];
const ALLOYS = Math.max(1, Math.floor(Number(process.env.BENCH_BATCH_API_ALLOYS ?? 100)));
const POLL_MS = 20;
const GOAL_RATIO = 20;
const COMPONENTS = [...SOLUTES, 'AL'];
const OUTPUTS = ['phase_name', 'NP(*)', 'x(*,*)'];
const WITH_ALLOY_TEMPERATURES = [...OUTPUTS, 'T_liquidus', 'T_solidus'];

interface Row {
  compositions: Record<string, number>;
  temperature: number;
}

/** The bench's rows: each alloy of alloyTable at each temperature. */
function benchRows(): Row[] {
  const [header, ...lines] = alloyTable(ALLOYS).trim().split('\n');
  const names = header!.split(',');
  const rows: Row[] = [];
  for (const line of lines) {
    const values = line.split(',').map(Number);
    const compositions = Object.fromEntries(names.map((n, i) => [n, values[i]!]));
    for (const temperature of TEMPERATURES) rows.push({ compositions, temperature });
  }
  return rows;
}

/** The task's id once the pending cap admits it: POST /task again every POLL_MS while the cap refuses (a 403). */
async function createWhenAdmitted(client: PhaseDeskClient, request: TaskCreateRequest): Promise<number> {
  for (;;) {
    try {
      return (await client.createTask(request)).id;
    } catch (e) {
      if (!(e instanceof PhaseDeskApiError && e.status === 403 && /pending task limit/i.test(e.message))) throw e;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

/** Waits for the task; throws unless it completed. */
async function completed(client: PhaseDeskClient, id: number): Promise<void> {
  const task = await client.waitForTask(id, { intervalMs: POLL_MS });
  if (task.status !== 'completed') throw new Error(`task ${id} ${task.status}: ${task.logs ?? ''}`);
}

/** Seconds to run every row as its own point task, `inFlight` scripts' loops at once (the pending cap). */
async function asPointTasks(client: PhaseDeskClient, rows: Row[], inFlight: number): Promise<number> {
  let next = 0;
  const loop = async () => {
    while (next < rows.length) {
      const row = rows[next++]!;
      const id = await createWhenAdmitted(client, {
        title: `row ${next}`,
        task_config: {
          task_type: 'point_calculation',
          tdb_code: 'COST507',
          condition: { components: COMPONENTS, pressure: 101325, thermo_outputs: OUTPUTS, ...row },
        },
      });
      await completed(client, id);
      await client.taskFile(id, 'result.json');
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: inFlight }, loop));
  return (performance.now() - t0) / 1000;
}

/** Seconds to run the rows as one equilibrium_batch task and fetch its rows. */
async function asBatch(client: PhaseDeskClient, rows: Row[], outputs: string[]): Promise<number> {
  const t0 = performance.now();
  const condition = { components: COMPONENTS, pressure: 101325, thermo_outputs: outputs, rows };
  const got = await client.batch('COST507', condition, { intervalMs: POLL_MS });
  if (got.length !== rows.length) throw new Error(`the batch gave ${got.length} rows of ${rows.length}`);
  return (performance.now() - t0) / 1000;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'phasedesk-bench-batch-api-'));
  const svc = await startService({ dataDir, port: 0 }, () => {});
  try {
    if (!svc.firstKey) throw new Error('the service made no first key');
    const client = new PhaseDeskClient({ baseUrl: svc.baseUrl, apiKey: svc.firstKey });
    const rows = benchRows();
    const cap = svc.ctx.settings.maxPendingTasks;
    console.log(
      `${ALLOYS} alloy7 alloys x ${TEMPERATURES.length} T (COST507, ${rows.length} rows; phases, amounts, ` +
        `compositions) through /api/v2 of a service with default settings, polling every ${POLL_MS} ms:`,
    );
    await asBatch(client, rows.slice(0, 3), OUTPUTS); // warm-up: the database's models and grids
    const batch = await asBatch(client, rows, OUTPUTS);
    const likeForLike = await asBatch(client, rows, WITH_ALLOY_TEMPERATURES);
    const points = await asPointTasks(client, rows, cap);
    const line = (name: string, s: number) =>
      `  ${name.padEnd(44)} ${s.toFixed(2).padStart(7)} s ${(rows.length / s).toFixed(1).padStart(8)} rows/s`;
    console.log(line(`one point_calculation task per row (${cap} pending)`, points));
    console.log(line('one equilibrium_batch task', batch));
    console.log(line('the same, with T_liquidus and T_solidus', likeForLike));
    console.log(
      `  ratio ${(points / likeForLike).toFixed(1)}x with the alloy temperatures a point task gives too ` +
        `(goal >= ${GOAL_RATIO}x); ${(points / batch).toFixed(1)}x without`,
    );
  } finally {
    await svc.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: Error) => {
  console.error(`bench:batch-api: ${e.message}`);
  process.exitCode = 1;
});
