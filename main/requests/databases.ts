// The requests of /api/v2/database: query parameters and the body of POST /database/{db_id}/phases (zod 4). The
// routes (main/api/databases.ts) validate with them, and main/api/openapi.ts documents the same objects.
import { z } from 'zod';
import { intParam } from './parse.js';

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
