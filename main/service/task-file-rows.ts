// The rows of task_files: what a calculation left (main/service/task-outcome.ts) or what a cache hit copied from an
// identical earlier task (main/service/calc-cache.ts).
import type { Kysely } from 'kysely';
import type { DB } from '../db/index.js';
import type { FileKind } from './files.js';

export interface TaskFileRecord {
  kind: FileKind;
  name: string;
  relPath: string;
  size: number;
  sha256: string;
}

/** Records a task's files (nothing when there are none); `db` may be a transaction. */
export async function insertTaskFiles(db: Kysely<DB>, taskId: number, files: TaskFileRecord[]): Promise<void> {
  if (files.length === 0) return;
  await db
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
}
