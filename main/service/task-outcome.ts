// What happens to a task once its calculation returned: running -> uploading -> completed (files recorded, the
// calculation cache filled) or failed. Shared by the embedded scheduler and the lab server's queue workers.
import type { ServiceContext } from './context.js';
import type { Store } from '../db/index.js';
import { transition, type TaskRow } from './tasks.js';
import type { FoundFile } from './files.js';
import type { HostOutput, HostProgress } from './calc-host.js';
import { rfc3339 } from '../util/time.js';

export type OutcomeContext = Pick<ServiceContext, 'store' | 'blobs'>;

/** The files a calculation left in its task directory, as rows of task_files (one transaction). */
export async function recordTaskFiles(store: Store, taskId: number, files: FoundFile[]): Promise<void> {
  if (files.length === 0) return;
  await store.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('task_files')
      .values(
        files.map((f) => ({
          task_id: taskId,
          kind: f.kind,
          rel_path: f.relPath,
          name: f.name,
          size: f.size,
          sha256: f.sha256,
        })),
      )
      .execute();
  });
}

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
    await recordTaskFiles(ctx.store, row.id, files);
    if (
      await transition(ctx, row.id, 'uploading', 'completed', {
        result: out.summary,
        logs: [`${files.length} file(s) stored`],
        progress: 1,
        stage: null,
      })
    ) {
      if (row.cache_key) {
        await ctx.store.db
          .insertInto('calc_cache')
          .values({ cache_key: row.cache_key, task_uuid: row.uuid, result: out.summary, created_at: rfc3339() })
          .onConflict((oc) =>
            oc.column('cache_key').doUpdateSet({ task_uuid: row.uuid, result: out.summary, created_at: rfc3339() }),
          )
          .execute();
      }
    }
  } catch (e) {
    await transition(ctx, row.id, 'uploading', 'failed', {
      logs: [`storing result files failed: ${(e as Error).message}`],
    });
  }
}
