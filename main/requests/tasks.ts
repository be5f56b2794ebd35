// The requests of /api/v2/task (zod 4): the body of POST /task and the query of GET /task/list. The routes
// (main/api/tasks.ts) validate with them and hand the typed values to the service (main/service/tasks.ts), and
// main/api/openapi.ts documents the same objects.
import { basename } from 'node:path';
import { z } from 'zod';
import { HttpError } from '../util/errors.js';
import { TASK_STATES } from '../../contract/task-states.js';
import { taskBodyProblem, taskCreateBody, taskTypeProblem } from '../../contract/api/task-request.js';
import { OPEN_TASK_TYPES, TEST_TASK_TYPES, testCalculationsEnabled, validateTaskConfig } from './task-config.js';
import { jsonShapeProblem } from './json-body.js';
import { intParam } from './parse.js';

/** Comma-separated list of known values: "a,b" -> ['a', 'b']; an unknown value is a 400 naming it and the known ones. */
const csvOf = (known: readonly string[]) =>
  z.string({ error: 'must be a comma-separated list' }).transform((s, ctx) => {
    const values = [
      ...new Set(
        s
          .split(',')
          .map((v) => v.trim())
          .filter((v) => v !== ''),
      ),
    ];
    const unknown = values.filter((v) => !known.includes(v));
    if (unknown.length > 0 || values.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `${unknown.length ? `has unknown value(s) ${unknown.join(', ')}` : 'must not be empty'}; known: ${known.join(', ')}`,
      });
      return z.NEVER;
    }
    return values;
  });

export const taskListQuery = z.object({
  page: intParam('must be an integer >= 1', 1).default(1),
  items_per_page: intParam('must be an integer between 1 and 100', 1, 100).default(10),
  sort_order: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).default('asc'),
  // Extension (optional filters, applied in SQL to all of the user's tasks before paging).
  status: csvOf(TASK_STATES).optional(),
  task_type: z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (s === undefined) return undefined;
      const known = [...OPEN_TASK_TYPES, ...(testCalculationsEnabled() ? TEST_TASK_TYPES : [])];
      const r = csvOf(known).safeParse(s);
      if (!r.success) {
        ctx.addIssue({ code: 'custom', message: r.error.issues[0]!.message });
        return z.NEVER;
      }
      return r.data;
    }),
  tdb_code: z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(200, { error: 'must be at most 200 characters' })
    .optional(),
  search: z.string().max(200, { error: 'must be at most 200 characters' }).optional(),
});
export type TaskListQuery = z.output<typeof taskListQuery>;

/** POST /task as the service takes it: the envelope checked, task_config found, the database code derived. */
export interface TaskCreateRequest {
  title: string;
  /** task_config as sent; its type and schema are checked once the database is resolved (validTaskConfig). */
  config: Record<string, unknown>;
  /** The database code: task_config.tdb_code, or (legacy) the file name of task_config.tdb_file. */
  code: string;
  ompThreads: number | null;
  noCache: boolean;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** task_config, or (decision) a description holding the JSON text of an object. */
function configOf(taskConfig: Record<string, unknown> | null | undefined, description: unknown) {
  if (taskConfig !== undefined && taskConfig !== null) return taskConfig;
  let fromDescription: unknown;
  if (typeof description === 'string') {
    const problem = jsonShapeProblem(description, 'description');
    if (problem) throw new HttpError(400, problem);
    try {
      fromDescription = JSON.parse(description);
    } catch {
      fromDescription = undefined;
    }
  }
  if (!isPlainObject(fromDescription)) throw new HttpError(400, 'task_config or description is required');
  return fromDescription;
}

/** Database code; legacy: derived from the file name of tdb_file (the client's path is never used). */
function databaseCodeOf(cfg: Record<string, unknown>): string {
  if (typeof cfg.tdb_code === 'string' && cfg.tdb_code !== '') return cfg.tdb_code;
  if (typeof cfg.tdb_file === 'string' && cfg.tdb_file !== '')
    return basename(cfg.tdb_file.replace(/\\/g, '/')).replace(/\.tdb$/i, '');
  throw new HttpError(400, 'task_config.tdb_code or task_config.tdb_file is required');
}

/** The body of POST /task up to the database code; each problem is a 400 naming the field. */
export function parseTaskCreateRequest(rawBody: unknown): TaskCreateRequest {
  const parsed = taskCreateBody.safeParse(rawBody);
  if (!parsed.success) throw new HttpError(400, taskBodyProblem(parsed.error));
  const body = parsed.data;
  const config = configOf(body.task_config, body.description);
  return {
    title: body.title,
    config,
    code: databaseCodeOf(config),
    ompThreads: body.omp_threads ?? null,
    noCache: body.no_cache === true,
  };
}

/**
 * The task type and the configuration valid under its schema, with the database code in place of tdb_file; a 400
 * naming the field otherwise. Spec POST /task: checked after the database is resolved.
 */
export function validTaskConfig(
  cfg: Record<string, unknown>,
  code: string,
): { taskType: string; config: Record<string, unknown> } {
  const typeProblem = taskTypeProblem(cfg.task_type, testCalculationsEnabled() ? TEST_TASK_TYPES : []);
  if (typeProblem) throw new HttpError(400, typeProblem);
  const taskType = String(cfg.task_type);
  const normalized: Record<string, unknown> = { ...cfg, tdb_code: code };
  delete normalized.tdb_file;
  const v = validateTaskConfig(taskType, normalized);
  if (!v.ok) throw new HttpError(400, v.error);
  return { taskType, config: v.value };
}
