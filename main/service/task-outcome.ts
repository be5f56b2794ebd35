// What happens to a task once its calculation returned: running -> uploading -> completed (files recorded, the
// calculation cache filled) or failed. Shared by the embedded scheduler and the lab server's queue workers.
import type { ServiceContext } from './context.js';
import { transition, type TaskRow } from './task-rows.js';
import type { HostOutput, HostProgress } from './calc-host.js';
import { insertTaskFiles } from './task-file-rows.js';
import { rememberCalculation } from './calc-cache.js';

export type OutcomeContext = Pick<ServiceContext, 'store' | 'blobs'>;

/** A calculation that returned (not cancelled) on a task still running: its files and summary make it completed. */
export async function storeOutcome(
  ctx: OutcomeContext,
  row: TaskRow,
  out: HostOutput,
  live: HostProgress,
): Promise<void> {
  if (
    !(await transition(ctx, row.id, 'running', 'uploading', {
      logs: out.logs,
      progress: live.progress,
      stage: 'storing result files',
    }))
  )
    return;
  try {
    const files = ctx.blobs.scan(row.uuid);
    // one INSERT: the rows of a task's files are recorded all or none
    await insertTaskFiles(ctx.store.db, row.id, files);
    const completed = await transition(ctx, row.id, 'uploading', 'completed', {
      result: out.summary,
      logs: [`${files.length} file(s) stored`],
      progress: 1,
      stage: null,
    });
    if (completed && row.cache_key) await rememberCalculation(ctx.store, row.cache_key, row.uuid, out.summary);
  } catch (e) {
    await transition(ctx, row.id, 'uploading', 'failed', {
      logs: [`storing result files failed: ${(e as Error).message}`],
    });
  }
}
