// Request/response schemas of /api/v2 (zod 4). Routes validate with them, and openapi.ts turns the same
// objects into the OpenAPI 3.1 document with z.toJSONSchema.
import { z } from 'zod';
import { HttpError } from '../util/errors.js';
import { TASK_STATES } from '../service/task-state.js';
import { OPEN_TASK_TYPES, TEST_TASK_TYPES, testCalculationsEnabled } from './task-config.js';

const intParam = (msg: string, min: number, max?: number) => {
  let s = z.coerce.number({ error: msg }).int({ error: msg }).min(min, { error: msg });
  if (max !== undefined) s = s.max(max, { error: msg });
  return s;
};

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

/** Database list paging: the spec leaves the maximum open; 100 is this service's cap. */
const dbPaging = {
  page: intParam('must be an integer >= 1', 1).default(1),
  size: intParam('must be an integer between 1 and 100', 1, 100).default(10),
};
export const dbListQuery = z.object({
  type: z.string().optional(),
  level: z.string().optional(),
  search: z.string().optional(),
  ...dbPaging,
});
export const dbByTaskQuery = z.object({
  task_type: z.string({ error: 'is required' }).min(1, { error: 'is required' }),
  ...dbPaging,
});
export const dbUserStatusQuery = z.object({
  user_id: z.string({ error: 'is required' }).min(1, { error: 'is required' }),
  topdb_id: z.string({ error: 'is required' }).min(1, { error: 'is required' }),
});
export const phasesRequest = z.object({
  element_list: z
    .array(z.string().min(1), { error: 'must be an array of strings' })
    .min(1, { error: 'must not be empty' }),
});
export { phasesResponse, userStatusResponse } from '../../contract/api/responses.js';

/** Parses query/body with a schema; the first issue becomes "<param> <message>". */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input ?? {}, { reportInput: true });
  if (r.success) return r.data;
  const iss = r.error.issues[0]!;
  const path = iss.path.map(String).join('.');
  const missing =
    iss.code === 'invalid_type' && iss.path.length > 0 && (iss as { input?: unknown }).input === undefined;
  const msg = missing ? 'is required' : iss.message;
  throw new HttpError(400, path ? `${path} ${msg}` : msg);
}

// Response shapes: in the contract (contract/api/responses.ts), shared with the renderer.
export {
  errorResponse,
  keyInfoResponse,
  dbItemResponse,
  listDbResponse,
  taskStatusResponse,
  taskListResponse,
  fileListResponse,
} from '../../contract/api/responses.js';
// POST /task: the body and its answer are defined in the contract (contract/api/task-request.ts).
export { taskCreateBody as taskCreateRequest, taskCreateResponse } from '../../contract/api/task-request.js';
