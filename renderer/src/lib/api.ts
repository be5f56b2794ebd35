// Thin client for the /api/v2 contract of shared/spec/service-spec.md. Relative URLs: the renderer is served
// by the same listener as the API (or by a proxy in development), so no origin or CORS handling is needed.
import {
  CANCELLABLE as CANCELLABLE_STATES,
  TASK_STATES,
  TERMINAL as TERMINAL_STATES,
} from '../../../contract/task-states.js';
import type {
  DbItemResponse,
  FileListResponse,
  KeyInfoResponse,
  ListDbResponse,
  PhaseNamesResponse,
  PhasesResponse,
  TaskListResponse,
  TaskStatusResponse,
} from '../../../contract/api/responses.js';
import type { TaskCreateResponse } from '../../../contract/api/task-request.js';

// Response types are the contract's (contract/api/responses.ts), inferred from the schemas the service documents.
export type KeyInfo = KeyInfoResponse;
export type DbItem = DbItemResponse;
export type DbList = ListDbResponse;
/**
 * A task record. progress, stage and duration_ms are extensions (README): 0..1, a short text such as "mapping
 * two-phase regions" and the run time in ms; a service without them leaves them out, and the renderer then shows the
 * elapsed time only.
 */
export type Task = Omit<TaskStatusResponse, 'progress' | 'stage' | 'duration_ms'> &
  Partial<Pick<TaskStatusResponse, 'progress' | 'stage' | 'duration_ms'>>;
export type TaskList = Omit<TaskListResponse, 'data'> & { data: Task[] };
export type TaskCreated = TaskCreateResponse;
export type PhasesList = Pick<PhasesResponse, 'phase_list'> &
  Partial<
    Pick<PhasesResponse, 'phase_groups' | 'recommended_inhibit_phases' | 'temperature_range' | 'composition_range'>
  >;
export type FileList = FileListResponse;
export type PhaseNames = PhaseNamesResponse;
/** Optional GET /task/list filters (an extension: applied by the service to all of the user's tasks before paging). */
export interface TaskFilters {
  status?: string[];
  task_type?: string[];
  tdb_code?: string;
  search?: string;
}

export { TASK_STATES };
export const TERMINAL = new Set<string>(TERMINAL_STATES);
export const CANCELLABLE = new Set<string>(CANCELLABLE_STATES);

export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    public body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const KEY_STORAGE = 'phasedesk.apiKey';

/** The Electron preload may expose the key of the embedded service; the browser keeps it in localStorage. */
export function storedKey(): string | null {
  const injected = (globalThis as { phasedesk?: { apiKey?: string } }).phasedesk?.apiKey;
  if (injected) return injected;
  try {
    return localStorage.getItem(KEY_STORAGE);
  } catch {
    return null;
  }
}
export function saveKey(key: string): void {
  localStorage.setItem(KEY_STORAGE, key);
}
export function forgetKey(): void {
  localStorage.removeItem(KEY_STORAGE);
}

/** Spec "Authentication": same client-side checks the server runs first, so a typo never costs a request. */
export function keyFormatProblem(key: string): string | null {
  if (!key.startsWith('tk_')) return "API key must start with 'tk_' prefix";
  if (key.length < 10) return 'API key is too short';
  return null;
}

async function request<T>(method: string, path: string, body?: unknown, key = storedKey()): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`./api/v2${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, `The service is not reachable (${(e as Error).message})`);
  }
  const text = await res.text();
  let json: unknown = undefined;
  if (text.length > 0) {
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
    throw new ApiError(res.status, msg, obj);
  }
  return json as T;
}

function qs(params: Record<string, string | number | undefined>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
}

export const api = {
  keyInfo: (key?: string) => request<KeyInfo>('GET', '/key/info', undefined, key ?? storedKey()),
  databases: (p: { search?: string; page?: number; size?: number; level?: string; type?: string }) =>
    request<DbList>('GET', `/database${qs(p)}`),
  databasesByTask: (task_type: string, page = 1, size = 100) =>
    request<DbList>('GET', `/database/by-task${qs({ task_type, page, size })}`),
  database: (id: string) => request<DbItem>('GET', `/database/${encodeURIComponent(id)}`),
  // phase_groups and recommended_inhibit_phases are extensions: a service without them leaves them out
  phases: (id: string, element_list: string[]) =>
    request<PhasesList>('POST', `/database/${encodeURIComponent(id)}/phases`, { element_list }),
  // extension: display names of a database's phases (docs/api.md)
  phaseNames: (id: string) => request<PhaseNames>('GET', `/database/${encodeURIComponent(id)}/phase-names`),
  setPhaseNames: (id: string, names: Record<string, string>) =>
    request<PhaseNames>('PUT', `/database/${encodeURIComponent(id)}/phase-names`, { names }),
  taskList: (page: number, items_per_page: number, sort_order: 'asc' | 'desc', f: TaskFilters = {}) =>
    request<TaskList>(
      'GET',
      `/task/list${qs({
        page,
        items_per_page,
        sort_order,
        status: f.status?.join(','),
        task_type: f.task_type?.join(','),
        // "#42" as typed in the list means task 42; the service matches a bare id
        tdb_code: f.tdb_code?.trim(),
        search: f.search?.trim().replace(/^#(?=\d+$)/, ''),
      })}`,
    ),
  task: (id: number) => request<Task>('GET', `/task/${id}`),
  createTask: (body: {
    title: string;
    task_config: Record<string, unknown>;
    omp_threads?: number;
    no_cache?: boolean;
  }) => request<TaskCreated>('POST', '/task', body),
  cancelTask: (id: number) => request<Task>('PATCH', `/task/${id}/cancel`),
  deleteTask: (id: number) => request<void>('DELETE', `/task/${id}`),
  files: (id: number, kind: 'result' | 'preview' | 'vtk') => request<FileList>('GET', `/task/${id}/${kind}`),
};

export function fmtTime(s: string | null | undefined): string {
  if (!s) return '—';
  const d = new Date(s.replace(' UTC', 'Z').replace(' ', 'T'));
  return Number.isNaN(d.getTime()) ? s : d.toLocaleString();
}

/** Whether a task matches the list filters, as the service applies them (used to notice a service that ignores them). */
export function matchesFilters(t: Task, f: TaskFilters): boolean {
  if (f.status?.length && !f.status.includes(t.status)) return false;
  if (f.task_type?.length && !f.task_type.includes(t.task_type)) return false;
  if (f.tdb_code?.trim() && t.tdb_code !== f.tdb_code.trim()) return false;
  const q = f.search?.trim().toLowerCase();
  if (q && !t.title.toLowerCase().includes(q) && String(t.id) !== q.replace(/^#/, '')) return false;
  return true;
}

/** Milliseconds of a task timestamp ('YYYY-MM-DD HH:MM:SS UTC' or RFC 3339), NaN when unreadable. */
export function taskMs(s: string | null | undefined): number {
  if (!s) return Number.NaN;
  return new Date(s.replace(' UTC', 'Z').replace(' ', 'T')).getTime();
}

export interface TaskTiming {
  /** when the calculation started ("started with" log line), else when the task was created */
  startMs: number;
  /** run time so far (live tasks) or in all (finished ones); NaN when unknown */
  elapsedMs: number;
  /** the result was reused from the calculation cache: no calculation ran */
  cached: boolean;
  /** still waiting for a worker (pending, queued): elapsedMs counts the wait */
  waiting: boolean;
}

/**
 * Run time of a task from its record: a finished task's duration_ms (milliseconds, where the service sends it),
 * else the log's start line to the last update (one-second times) or to now while it runs.
 */
export function taskTiming(t: Task, now = Date.now()): TaskTiming {
  const logs = t.logs ?? '';
  const started = /\[([^\]]+)\] started with/.exec(logs);
  const cached = /calculation cache hit/.test(logs);
  const waiting = t.status === 'pending' || t.status === 'queued' || t.status === 'created';
  const startMs = started ? taskMs(started[1]) : taskMs(t.created_at);
  const finished = TERMINAL.has(t.status);
  if (finished && typeof t.duration_ms === 'number') return { startMs, elapsedMs: t.duration_ms, cached, waiting };
  const endMs = finished ? taskMs(t.updated_at) : now;
  return { startMs, elapsedMs: cached ? 0 : Math.max(0, endMs - startMs), cached, waiting };
}

/** 0.4 s, 12 s, 3 min 05 s, 1 h 02 min. */
export function fmtDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(2)} s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** Download name of a task's file: task-42-result.csv, task-42-preview.png; the file's own name is kept
 * (task-42-preview-cp.png) only where one kind holds several files of the same extension. */
export function taskFileName(taskId: number, kind: string, file: string, siblings: string[] = [file]): string {
  const extOf = (f: string) => {
    const d = f.lastIndexOf('.');
    return d > 0 ? f.slice(d) : '';
  };
  const ext = extOf(file);
  const stem = ext ? file.slice(0, -ext.length) : file;
  const alone = siblings.filter((f) => extOf(f) === ext).length <= 1;
  return alone ? `task-${taskId}-${kind}${ext}` : `task-${taskId}-${kind}-${stem}${ext}`;
}
