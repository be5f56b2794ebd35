// Client of the local console API (/console/v1, main/api/console.ts): keys, databases, subscriptions, settings.
// It is guarded by the console token (header X-PhaseDesk-Console): the Electron preload exposes it as
// globalThis.phasedesk.consoleToken; in a browser the user pastes it once (printed by `phasedesk start`,
// stored in <dataDir>/console-token) and it is kept in localStorage.
import type {
  ConsoleDb,
  ConsoleKey,
  ConsoleSubscription,
  ConsoleUser,
  CreatedKey,
  DbState,
  ImportReport,
  SettingsView,
} from '../../../contract/api/console.js';
import type { DatabasePhaseSelection } from '../../../contract/phase-selection.js';
import { ApiError } from './api.js';

const TOKEN_STORAGE = 'phasedesk.consoleToken';

function injectedToken(): string | null {
  return (globalThis as { phasedesk?: { consoleToken?: string } }).phasedesk?.consoleToken ?? null;
}
function storedToken(): string | null {
  const t = injectedToken();
  if (t) return t;
  try {
    return localStorage.getItem(TOKEN_STORAGE);
  } catch {
    return null;
  }
}

/** The token in use; `refused` is set when the service answered 401 so the screens ask for it again. */
export const consoleSession = $state<{ token: string | null; refused: string }>({ token: storedToken(), refused: '' });
export const tokenInjected = (): boolean => injectedToken() !== null;

export function saveToken(t: string): void {
  localStorage.setItem(TOKEN_STORAGE, t);
  consoleSession.token = t;
  consoleSession.refused = '';
}
export function forgetToken(): void {
  localStorage.removeItem(TOKEN_STORAGE);
  consoleSession.token = injectedToken();
}

export type {
  ConsoleKey,
  CreatedKey,
  ConsoleUser,
  ConsoleSubscription,
  DbState,
  ConsoleDb,
  ImportReport,
  SettingsView,
};
/** The settings the Settings screen edits. */
export type SettingKey = 'pool_size' | 'thread_budget' | 'port' | 'max_pending_tasks';

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const token = consoleSession.token;
  if (!token) throw new ApiError(401, 'The console token is needed for this screen.');
  const headers: Record<string, string> = { Accept: 'application/json', 'X-PhaseDesk-Console': token };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`./console/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, `The service is not reachable (${(e as Error).message})`);
  }
  const text = await res.text();
  let json: unknown;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  if (!res.ok) {
    const obj = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
    const msg =
      typeof obj.error === 'string' ? obj.error : `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
    if (res.status === 401) consoleSession.refused = msg;
    throw new ApiError(res.status, msg, obj);
  }
  return json as T;
}

export const consoleApi = {
  users: () => request<{ items: ConsoleUser[] }>('GET', '/users'),
  keys: () => request<{ items: ConsoleKey[] }>('GET', '/keys'),
  createKey: (b: { name: string; username?: string; expires_at?: string | null }) =>
    request<CreatedKey>('POST', '/keys', b),
  updateKey: (id: number, b: { name?: string; is_active?: boolean; expires_at?: string | null }) =>
    request<ConsoleKey>('PATCH', `/keys/${id}`, b),
  deleteKey: (id: number) => request<void>('DELETE', `/keys/${id}`),
  databases: () => request<{ items: ConsoleDb[] }>('GET', '/databases'),
  /** code and name absent: the service derives them from file_name (the desktop's one-step import) */
  importDatabase: (b: {
    file_name: string;
    tdb: string;
    code?: string;
    name?: string;
    level?: string;
    type?: string;
    version?: string;
    description?: string;
    support_task_list?: string[];
    replace?: boolean;
    subscribe_user?: string | null;
  }) => request<ImportReport>('POST', '/databases', b),
  setDatabaseState: (code: string, state: DbState) =>
    request<ConsoleDb>('PATCH', `/databases/${encodeURIComponent(code)}`, { state }),
  /** the record's extension fields: source, licence, attribution and the recommended phase selection */
  updateDatabase: (
    code: string,
    b: {
      source?: string | null;
      license?: string | null;
      attribution?: string | null;
      phase_selection?: DatabasePhaseSelection | null;
    },
  ) => request<ConsoleDb>('PATCH', `/databases/${encodeURIComponent(code)}`, b),
  setSubscription: (code: string, username: string, b: { status: string; expires_at?: string | null }) =>
    request<ConsoleDb>(
      'PUT',
      `/databases/${encodeURIComponent(code)}/subscriptions/${encodeURIComponent(username)}`,
      b,
    ),
  settings: () => request<SettingsView>('GET', '/settings'),
  saveSettings: (b: Partial<Record<SettingKey, number | null>>) => request<SettingsView>('PUT', '/settings', b),
};

/** Which request field a console error names ("name must not be empty", "tdb: x.tdb:3: …", "code: …"). */
export function fieldOf(message: string, fields: readonly string[]): string | null {
  const m = /^([a-z_]+)(?::| )/.exec(message);
  return m && fields.includes(m[1]!) ? m[1]! : null;
}

/** Clipboard copy that never throws (the clipboard may be unavailable); returns whether it worked. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
