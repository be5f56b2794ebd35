// The requests of /api/v2/database: query parameters and the body of POST /database/{db_id}/phases (zod 4). The
// routes (main/api/databases.ts) validate with them, and main/api/openapi.ts documents the same objects.
import { z } from 'zod';
import { intParam } from './parse.js';
import { DISPLAY_NAME_MAX, DISPLAY_NAMES_MAX, PHASE_KEY_MAX } from '../../contract/plots/phase-names.js';

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

/**
 * PUT /database/{db_id}/phase-names (extension): the display names of the database's phases, phase or
 * PHASE:STRUCTURE -> name, replacing the stored ones ({} goes back to the defaults). Which keys the database has is
 * checked by the service (main/service/phase-names.ts).
 */
const DISPLAY_KEY = new RegExp(`^[A-Za-z0-9_]{1,${PHASE_KEY_MAX}}(:[A-Za-z0-9]{1,16})?$`);
export const phaseNamesRequest = z.object({
  names: z
    .record(
      z.string(),
      z
        .string({ error: 'must be a string' })
        .trim()
        .min(1, { error: `must be 1 to ${DISPLAY_NAME_MAX} characters` })
        .max(DISPLAY_NAME_MAX, { error: `must be 1 to ${DISPLAY_NAME_MAX} characters` })
        .regex(/^[^\p{Cc}<>]*$/u, { error: 'must not hold control characters, < or >' }),
      { error: 'must be an object of phase -> display name' },
    )
    .superRefine((r, ctx) => {
      const keys = Object.keys(r);
      if (keys.length > DISPLAY_NAMES_MAX)
        ctx.addIssue({ code: 'custom', message: `must hold at most ${DISPLAY_NAMES_MAX} names` });
      const bad = keys.find((k) => !DISPLAY_KEY.test(k));
      if (bad !== undefined)
        ctx.addIssue({ code: 'custom', path: [bad], message: 'must be a phase name or PHASE:STRUCTURE' });
    }),
});
