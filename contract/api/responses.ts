// Response bodies of /api/v2 (zod 4), with the types inferred from them: the service's handlers answer in these
// shapes, the OpenAPI document publishes them, and the renderer reads them with the same types.
import { z } from 'zod';
import { TASK_STATES } from '../task-states.js';
import { databasePhaseSelectionSchema } from '../phase-selection.js';

export const errorResponse = z.object({
  error: z.string(),
  details: z.string().optional(),
  current_pending_tasks: z.number().int().optional(),
  max_pending_tasks: z.number().int().optional(),
});
export const keyInfoResponse = z.object({
  id: z.number().int(),
  api_key: z.string(),
  key_name: z.string(),
  is_active: z.boolean(),
  created_at: z.string(),
  last_used_at: z.string().nullable().optional(),
  expires_at: z.string().nullable().optional(),
  user: z.object({
    id: z.string().uuid(),
    username: z.string(),
    email: z.string().nullable(),
    subscription_level: z.string(),
    subscription_expires_at: z.string().nullable().optional(),
  }),
});
export const dbItemResponse = z.object({
  id: z.string().uuid(),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.string(),
  version: z.string(),
  level: z.string(),
  element_list: z.array(z.string()),
  phase_list: z.array(z.string()),
  support_task_list: z.array(z.string()),
  sp_id: z.string().uuid().nullable().optional(),
  price: z.number(),
  user_status: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  // Extensions (spec clients ignore them; docs/api.md): where the file comes from, its licence and the attribution
  // the licence requires, and the recommended phase selection calculations on it start from.
  source: z.string().nullable(),
  license: z.string().nullable(),
  attribution: z.string().nullable(),
  phase_selection: databasePhaseSelectionSchema.nullable(),
});
export const listDbResponse = z.object({
  items: z.array(dbItemResponse),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});
export const taskStatusResponse = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  status: z.enum(TASK_STATES),
  task_type: z.string(),
  result: z.string().nullable().optional(),
  logs: z.string().nullable().optional(),
  user_id: z.string().uuid(),
  tdb_code: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  // Extensions (spec clients ignore them): progress 0..1, what a running task is doing, and the calculation's run
  // time in milliseconds (created_at and updated_at have one-second resolution; null when no calculation ran).
  progress: z.number().min(0).max(1),
  stage: z.string().nullable(),
  duration_ms: z.number().int().min(0).nullable(),
});
export const taskListResponse = z.object({
  data: z.array(taskStatusResponse),
  total: z.number().int(),
  total_pages: z.number().int(),
  page: z.number().int(),
  items_per_page: z.number().int(),
});
export const fileListResponse = z.object({
  task_id: z.string().uuid(),
  files: z.array(z.string()),
  total_count: z.number().int(),
});
export const phasesResponse = z.object({
  phase_list: z.array(z.string()),
  // Extensions: the members of every group among phase_list (key without @) and the database's recommended entries
  // for these elements (what a task without condition.inhibit_phases suppresses).
  phase_groups: z.record(z.string(), z.array(z.string())),
  recommended_inhibit_phases: z.array(z.string()),
  // Extension: the temperature range a new diagram of these elements opens with, K (worker/core/system-range.ts), and
  // the pure elements' melting points it comes from; null when no element has one in the database.
  temperature_range: z
    .object({
      start: z.number(),
      end: z.number(),
      melting_points: z.record(z.string(), z.number().nullable()),
    })
    .nullable(),
  // Extension: the composition range a binary diagram of these elements opens with, as fractions of `element` (the
  // interstitial of a metal-interstitial binary: Fe-C 0-0.25 mole, 0-0.07 mass fraction C); null: the whole range.
  composition_range: z
    .object({
      element: z.string(),
      mole_fraction: z.tuple([z.number(), z.number()]),
      mass_fraction: z.tuple([z.number(), z.number()]),
    })
    .nullable()
    .optional(),
});
export const userStatusResponse = z.object({ status: z.string() });
// Extension: GET and PUT /database/{db_id}/phase-names, the display names of a database's phases
// (contract/plots/phase-names.ts). A client of the specification can ignore it: result files keep the database's names.
export const phaseNamesResponse = z.object({
  db_id: z.string(),
  code: z.string(),
  /** the family whose defaults apply: steel, aluminium or general */
  family: z.enum(['steel', 'aluminium', 'general']),
  /** the names stored for this database (phase or PHASE:STRUCTURE -> name) */
  names: z.record(z.string(), z.string()),
  /** every key a name may be stored under, with its default and the name in use */
  phases: z.array(
    z.object({
      key: z.string(),
      phase: z.string(),
      structure: z.string().nullable(),
      default_name: z.string(),
      name: z.string(),
    }),
  ),
});

export type ErrorResponse = z.output<typeof errorResponse>;
export type KeyInfoResponse = z.output<typeof keyInfoResponse>;
export type DbItemResponse = z.output<typeof dbItemResponse>;
export type ListDbResponse = z.output<typeof listDbResponse>;
export type TaskStatusResponse = z.output<typeof taskStatusResponse>;
export type TaskListResponse = z.output<typeof taskListResponse>;
export type FileListResponse = z.output<typeof fileListResponse>;
export type PhasesResponse = z.output<typeof phasesResponse>;
export type PhaseNamesResponse = z.output<typeof phaseNamesResponse>;
