// The requests of the local console API (/console/v1, main/api/console.ts), zod 4: every body and path parameter,
// each message naming the bound.
import { z } from 'zod';
import { TASK_TYPES } from '../../contract/tasks/registry.js';
import { DB_STATES, LOCAL_USER } from '../../contract/api/console.js';
import { SETTING_BOUNDS } from '../config.js';
import { databaseCodeProblem } from '../../contract/database-code.js';
import { databasePhaseSelectionSchema } from '../../contract/phase-selection.js';

const isoTime = z
  .string()
  .refine(
    (s) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && Number.isFinite(Date.parse(s)),
    { error: 'must be an RFC 3339 time such as 2027-01-31T00:00:00Z' },
  );
const futureTime = isoTime.refine((s) => Date.parse(s) > Date.now(), { error: 'must be in the future' });
const keyName = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(100, { error: 'must be at most 100 characters' });
const username = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(100, { error: 'must be at most 100 characters' });

export const keyCreateBody = z.strictObject({
  name: keyName,
  username: username.default(LOCAL_USER),
  expires_at: futureTime.nullable().default(null),
});
export const keyPatchBody = z
  .strictObject({
    name: keyName.optional(),
    is_active: z.boolean({ error: 'must be true or false' }).optional(),
    expires_at: isoTime.nullable().optional(),
  })
  .refine((b) => b.name !== undefined || b.is_active !== undefined || b.expires_at !== undefined, {
    error: 'name, is_active or expires_at is required',
  });
export const keyIdParams = z.object({
  id: z.coerce
    .number({ error: 'must be a positive integer' })
    .int({ error: 'must be a positive integer' })
    .min(1, { error: 'must be a positive integer' }),
});

const CODE_RE = /^[A-Za-z0-9_.-]{1,64}$/;
export const codeParams = z.object({
  code: z.string().regex(CODE_RE, { error: 'may only contain letters, digits, _ . - (at most 64)' }),
});
const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` });

/** A code for a new record: the rules of contract/database-code.ts (length, characters, Windows device names). */
const newCode = z.string({ error: 'must be a string' }).superRefine((c, ctx) => {
  const problem = databaseCodeProblem(c);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const optionalText = (max: number) =>
  z
    .string({ error: 'must be a string or null' })
    .trim()
    .max(max, { error: `must be at most ${max} characters` })
    .transform((s) => (s === '' ? null : s))
    .nullable()
    .optional();
/** The record's extension fields: null clears one, absent keeps it. */
const setupFields = {
  source: optionalText(2000),
  license: optionalText(200),
  attribution: optionalText(4000),
  phase_selection: databasePhaseSelectionSchema.nullable().optional(),
};

export const dbImportBody = z.strictObject({
  file_name: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(255, { error: 'must be at most 255 characters' })
    .regex(/^[^/\\\0]+$/, { error: 'must be a file name without a directory' }),
  tdb: z.string({ error: 'must be the text of the TDB file' }).min(1, { error: 'must not be empty' }),
  // absent: derived from file_name (contract/database-code.ts codeFromFileName), as the desktop's "Open" does
  code: newCode.optional(),
  name: text(200).optional(),
  level: text(50).default('free'),
  type: text(50).default('alloy'),
  version: text(50).default('1.0'),
  description: z
    .string({ error: 'must be a string' })
    .max(4000, { error: 'must be at most 4000 characters' })
    .default(''),
  support_task_list: z
    .array(z.string().regex(/^[a-z_]{1,64}$/, { error: 'must be task type names' }), {
      error: 'must be an array of task types',
    })
    .max(32, { error: 'must list at most 32 task types' })
    .default([...TASK_TYPES]),
  replace: z.boolean({ error: 'must be true or false' }).default(false),
  subscribe_user: username.nullable().default(LOCAL_USER),
  ...setupFields,
});
export const dbPatchBody = z
  .strictObject({
    state: z.enum(DB_STATES, { error: 'must be enable, disable or invisible' }).optional(),
    ...setupFields,
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    error: 'state, source, license, attribution or phase_selection is required',
  });
export const subscriptionBody = z.strictObject({
  // The spec's known values; the store keeps free text, but the console only writes these.
  status: z.enum(['trail', 'active', 'inactive', 'expired', 'pending'], {
    error: 'must be trail, active, inactive, expired or pending',
  }),
  expires_at: isoTime.nullable().default(null),
});
export const subParams = codeParams.extend({ username });

const setting = (k: keyof typeof SETTING_BOUNDS) => {
  const [lo, hi] = SETTING_BOUNDS[k];
  const msg = `must be an integer between ${lo} and ${hi} (or null for the default)`;
  return z
    .number({ error: msg })
    .int({ error: msg })
    .min(lo, { error: msg })
    .max(hi, { error: msg })
    .nullable()
    .optional();
};
export const settingsBody = z.strictObject(
  Object.fromEntries(
    (Object.keys(SETTING_BOUNDS) as (keyof typeof SETTING_BOUNDS)[]).map((k) => [k, setting(k)]),
  ) as Record<keyof typeof SETTING_BOUNDS, ReturnType<typeof setting>>,
);
