// Kysely table types. Booleans are stored as 0/1 integers (SQLite has no boolean type);
// JSON arrays/objects are stored as TEXT and parsed at the service layer.
import type { Generated } from 'kysely';

export interface PlansTable {
  id: string;
  name: string;
  task_using_limit: number;
  created_at: string;
}
export interface UsersTable {
  id: string;
  username: string;
  email: string | null;
  plan_id: string;
  subscription_expires_at: string | null;
  created_at: string;
}
export interface ApiKeysTable {
  id: Generated<number>;
  user_id: string;
  key_hash: string;
  key_prefix: string;
  key_name: string;
  is_active: number;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}
export interface DatabasesTable {
  id: string;
  code: string;
  name: string;
  description: string;
  type: string;
  version: string;
  level: string;
  element_list: string;
  phase_list: string;
  support_task_list: string;
  sp_id: string | null;
  price: number;
  state: 'enable' | 'disable' | 'invisible';
  file_path: string;
  file_sha256: string;
  created_at: string;
  updated_at: string;
  /** where the file comes from, its licence and the attribution the licence requires (migration 003) */
  source: string | null;
  license: string | null;
  attribution: string | null;
  /** the recommended phase selection, JSON of contract/phase-selection.ts DatabasePhaseSelection (migration 003) */
  phase_selection: string | null;
  /** display names of its phases, JSON of contract/plots/phase-names.ts PhaseDisplayNames (migration 006) */
  phase_names: string | null;
}
export interface SubscriptionsTable {
  id: string;
  user_id: string;
  database_id: string;
  status: string;
  expires_at: string | null;
  plan_id: string | null;
  created_at: string;
  updated_at: string;
}
export interface TasksTable {
  id: Generated<number>;
  uuid: string;
  title: string;
  task_config: string;
  status: string;
  task_type: string;
  tdb_code: string | null;
  database_id: string | null;
  result: string | null;
  logs: string | null;
  progress: number;
  /** what a running calculation is doing (migration 002) */
  stage: string | null;
  user_id: string;
  engine: string;
  omp_threads: number | null;
  no_cache: number;
  cache_key: string | null;
  created_at: string;
  updated_at: string;
  created_ms: number;
  /** the database's recommended phase selection when the task was created, JSON (migration 003) */
  database_selection: string | null;
  /** the database's phase display names when the task was created, JSON (migration 006) */
  database_names: string | null;
  /** when the task last moved to running, and when it reached a terminal state, ms (migration 005) */
  started_ms: number | null;
  finished_ms: number | null;
}
export interface TaskCreationsTable {
  id: Generated<number>;
  user_id: string;
  created_ms: number;
}
export interface TaskFilesTable {
  id: Generated<number>;
  task_id: number;
  kind: 'result' | 'preview' | 'vtk';
  rel_path: string;
  name: string;
  size: number;
  sha256: string;
}
export interface CalcCacheTable {
  cache_key: string;
  task_uuid: string;
  result: string | null;
  created_at: string;
}
export interface SettingsTable {
  key: string;
  value: string;
}

/** The fencing token of a lab-server job (migration 003, main/server/fence.ts). */
export interface JobAttemptsTable {
  job_id: string;
  task_id: number;
  attempt: number;
  worker: string;
  started_ms: number;
}
/** A lab-server worker's heartbeat (migration 003). */
export interface LabWorkersTable {
  name: string;
  started_ms: number;
  heartbeat_ms: number;
  slots: number;
  busy: number;
  lock_ms: number;
  host_restarts: number;
}

export interface DB {
  plans: PlansTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  databases: DatabasesTable;
  subscriptions: SubscriptionsTable;
  tasks: TasksTable;
  task_creations: TaskCreationsTable;
  task_files: TaskFilesTable;
  calc_cache: CalcCacheTable;
  settings: SettingsTable;
  job_attempts: JobAttemptsTable;
  lab_workers: LabWorkersTable;
}
