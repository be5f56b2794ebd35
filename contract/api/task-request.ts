// The body of POST /task (service spec "POST /task"). Validation runs in the spec's order: this envelope first,
// then the database named by task_config (the service's step: an unknown code is named whatever else is wrong),
// then task_config.task_type, then the type's own schema from the registry. Every message names the field and
// the bound, as the 400 answers quote them.
import { z } from 'zod';
import { ANNOUNCED_TASK_TYPES, TASK_TYPES, isTaskType } from '../tasks/registry.js';
import { TASK_STATES } from '../task-states.js';

/** Calculation engines a task may name in `engine` (absent or null = the default). */
export const ENGINES = ['thermo_next'] as const;

const unsupportedEngine = (input: unknown) =>
  `task type '${String(input)}' is not supported, supported engines: ${ENGINES.join(', ')}`;

export const taskCreateBody = z.object(
  {
    title: z.string({
      error: (iss) => (iss.input === undefined || iss.input === null ? 'title is required' : 'title: must be a string'),
    }),
    // absent or null: a description holding the JSON text of an object is used instead (README decision)
    task_config: z
      .record(z.string(), z.unknown(), { error: 'task_config must be a JSON object' })
      .nullable()
      .optional(),
    description: z.string({ error: 'description: must be a string' }).nullable().optional(),
    engine: z
      .enum(ENGINES, { error: (iss) => unsupportedEngine(iss.input) })
      .nullable()
      .optional(),
    omp_threads: z
      .number({ error: 'omp_threads: must be a positive integer' })
      .int({ error: 'omp_threads: must be a positive integer' })
      .min(1, { error: 'omp_threads: must be a positive integer' })
      .nullable()
      .optional(),
    no_cache: z.boolean({ error: 'no_cache: must be a boolean' }).nullable().optional(),
  },
  { error: 'request body must be a JSON object' },
);
export type TaskCreateBody = z.output<typeof taskCreateBody>;

/** The answer of POST /task. */
export const taskCreateResponse = z.object({
  id: z.number().int(),
  status: z.enum(TASK_STATES),
  task_type: z.string(),
  tdb_code: z.string().nullable(),
});
export type TaskCreateResponse = z.output<typeof taskCreateResponse>;

/** The 400 text of a failed parse of the body: the first issue's message (each one names its field). */
export function taskBodyProblem(err: z.ZodError): string {
  return err.issues[0]?.message ?? 'request body is invalid';
}

/**
 * Why task_config.task_type cannot run (null when it is an open type). `extra`: further runnable types (the
 * service's test-only ones when enabled).
 */
export function taskTypeProblem(taskType: unknown, extra: readonly string[] = []): string | null {
  if (taskType === undefined || taskType === null || taskType === '') return 'task_config.task_type is required';
  const t = String(taskType);
  if (isTaskType(t) || extra.includes(t)) return null;
  const why = (ANNOUNCED_TASK_TYPES as readonly string[]).includes(t)
    ? 'is announced but not open yet'
    : 'is not a known task type';
  return `task_config.task_type: '${t}' ${why}; open task types: ${TASK_TYPES.join(', ')}`;
}
