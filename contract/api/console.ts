// Response bodies of the local console API (/console/v1, main/api/console.ts): what the service's console
// functions (main/console/admin.ts) return and the renderer's console screens read.
import type { DatabasePhaseSelection } from '../phase-selection.js';

export interface ConsoleUser {
  id: string;
  username: string;
  email: string | null;
  plan: string;
  created_at: string;
}

/** A key as the console lists it: the clear key is never stored, only its display prefix. */
export interface ConsoleKey {
  id: number;
  key_prefix: string;
  key_name: string;
  is_active: boolean;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  expired: boolean;
  username: string;
}
/** The answer of POST /keys: the only time the clear key leaves the service. */
export interface CreatedKey extends ConsoleKey {
  api_key: string;
}

/** A subscription record: `status` is the effective one (an expired record reads "expired"), `stored_status` as stored. */
export interface ConsoleSubscription {
  username: string;
  status: string;
  stored_status: string;
  expires_at: string | null;
}

/** The user a desktop data directory starts with (its first key's owner); the console's default username. */
export const LOCAL_USER = 'local';

export const DB_STATES = ['enable', 'disable', 'invisible'] as const;
export type DbState = (typeof DB_STATES)[number];

/** A database record whatever its enablement state, with every subscription record of it. */
export interface ConsoleDb {
  id: string;
  code: string;
  name: string;
  description: string;
  type: string;
  version: string;
  level: string;
  state: DbState;
  element_list: string[];
  phase_list: string[];
  support_task_list: string[];
  file_sha256: string;
  created_at: string;
  updated_at: string;
  /** where the file comes from, its licence and the attribution it requires (extensions of the record) */
  source: string | null;
  license: string | null;
  attribution: string | null;
  /** the recommended phase selection calculations on this database start from */
  phase_selection: DatabasePhaseSelection | null;
  subscriptions: ConsoleSubscription[];
}

/** What a TDB import loaded and what it refused, phase by phase. */
export interface ImportReport {
  id: string;
  code: string;
  file_name: string;
  replaced: boolean;
  elements: string[];
  phases_loaded: string[];
  phases_refused: { phase: string; reason: string }[];
  warnings: string[];
  parameter_count: number;
  subscribed: string | null;
  /**
   * a file of mobility data alone (MQ, MF, DQ, DF; no ELEMENT or PHASE): elements and phases are the ones its
   * parameters name, the record's type is 'mobility', and tasks name it as mobility_tdb_code beside a thermodynamic
   * database
   */
  mobility_only?: boolean;
}

/** Where a setting in use came from (command-line flag > environment > settings file > default). */
export type SettingSource = 'flag' | 'environment' | 'settings file' | 'default';

/** The Settings screen: what runs now, what is saved, what the next start will use, by setting name. */
export interface SettingsView {
  data_dir: string;
  settings_file: string;
  settings_file_problem: string | null;
  api_base_url: string;
  console_base_url: string;
  host: string;
  cpu_count: number;
  /** [lowest, highest] allowed value (work bounds also carry their default third) */
  bounds: Record<string, readonly number[]>;
  running: Record<string, number>;
  saved: Partial<Record<string, number>>;
  next_start: Record<string, number>;
  /** settings an environment variable fixes, with the variable's name */
  env_overrides: Partial<Record<string, string>>;
  restart_required: string[];
  in_use: { port: { value: number; source: SettingSource }; data_dir: { value: string; source: SettingSource } };
}
