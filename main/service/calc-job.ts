// A task's calculation as a calculation host runs it (worker/protocol.ts HostJob): the task row's configuration
// with the database code replaced by the server-managed file path, the OpenMP threads of one slot, the task's
// directory. The embedded scheduler (main/service/scheduler.ts) and the lab server's workers (main/server/) both
// build their jobs here.
import type { ServiceSettings } from '../config.js';
import type { Store } from '../db/index.js';
import type { HostJob } from '../../worker/protocol.js';
import type { TaskRow } from './task-rows.js';
import type { DatabasePhaseSelection } from '../../contract/phase-selection.js';
import type { PhaseDisplayNames } from '../../contract/plots/phase-names.js';

/** The failure log of a task whose database record went away before its calculation started. */
export const DATABASE_GONE = 'the database file of this task is no longer available';

/** What a task's calculation reads: its configuration (tdb_file, no tdb_code) and its database. */
export interface CalculationInput {
  config: Record<string, unknown>;
  database: HostJob['database'];
}

/** The task's configuration and database for a calculation, or undefined when a database record it names is gone. */
export async function calculationInput(store: Store, row: TaskRow): Promise<CalculationInput | undefined> {
  const db = row.database_id
    ? await store.db
        .selectFrom('databases')
        .select(['file_path', 'code', 'file_sha256'])
        .where('id', '=', row.database_id)
        .executeTakeFirst()
    : undefined;
  if (!db) return undefined;
  const config = JSON.parse(row.task_config) as Record<string, unknown>;
  // The code is replaced by the server-managed file path before the config reaches the worker.
  delete config.tdb_code;
  config.tdb_file = db.file_path;
  // so is the code of a mobility database named beside it (a client's own path is never used)
  delete config.mobility_tdb_file;
  if (typeof config.mobility_tdb_code === 'string') {
    const mobility = await store.db
      .selectFrom('databases')
      .select('file_path')
      .where('code', '=', config.mobility_tdb_code)
      .executeTakeFirst();
    if (!mobility) return undefined;
    config.mobility_tdb_file = mobility.file_path;
  }
  // the database's recommended phase selection as it was when the task was created
  const selection = row.database_selection ? (JSON.parse(row.database_selection) as DatabasePhaseSelection) : null;
  // and its phase display names as they were then (the previews print them)
  const names = row.database_names ? (JSON.parse(row.database_names) as PhaseDisplayNames) : undefined;
  return {
    config,
    database: {
      code: db.code,
      sha256: db.file_sha256,
      phase_selection: selection,
      ...(names ? { phase_names: names } : {}),
    },
  };
}

/** OpenMP threads of one pool slot: threadBudget / poolSize, at least 1. */
export function threadsPerSlot(settings: Pick<ServiceSettings, 'threadBudget' | 'poolSize'>): number {
  return Math.max(1, Math.floor(settings.threadBudget / settings.poolSize));
}

/** OpenMP threads for one job: the request's value bounded by threadBudget / poolSize. */
export function ompThreadsFor(settings: Pick<ServiceSettings, 'threadBudget' | 'poolSize'>, requested: number | null) {
  const perSlot = threadsPerSlot(settings);
  return requested === null ? perSlot : Math.max(1, Math.min(requested, perSlot));
}

/** The job of a task for a calculation host; `taskType` names a stage job instead of the task's own type. */
export function calculationJob(
  row: TaskRow,
  input: CalculationInput,
  o: { ompThreads: number; taskDir: string; taskType?: string },
): HostJob {
  return {
    taskUuid: row.uuid,
    taskType: o.taskType ?? row.task_type,
    config: input.config,
    ompThreads: o.ompThreads,
    taskDir: o.taskDir,
    database: input.database,
  };
}
