// Validation of task_config, for POST /task (main/requests/tasks.ts) and `phasedesk calc` (main/console/calc.ts).
// The schemas of the open task types are in the contract (contract/tasks/registry.ts, shared with the worker and
// the renderer); this module adds what only the service has: the test-only calculation types behind
// PHASEDESK_TEST_CALCULATIONS.
import { z } from 'zod';
import {
  TASK_REGISTRY,
  TASK_TYPES,
  ANNOUNCED_TASK_TYPES,
  isTaskType,
  type TaskType,
} from '../../contract/tasks/registry.js';
import { common, formatZodError, zodErrorMap } from '../../contract/tasks/common.js';

export { ANNOUNCED_TASK_TYPES, zodErrorMap, formatZodError };
export const OPEN_TASK_TYPES: readonly TaskType[] = TASK_TYPES;
export type OpenTaskType = TaskType;

/**
 * Test-only calculation types, reachable only when PHASEDESK_TEST_CALCULATIONS=1. Their names come with the test
 * hooks (test/support/hooks/task-types.ts), which the test setup alone builds (dist/test/, never packed): a
 * production build has none. The path is a variable so that TypeScript does not follow it into the production build.
 */
const TEST_HOOK_TYPES = '../../test/support/hooks/task-types.js';
export const TEST_TASK_TYPES: readonly string[] = await import(TEST_HOOK_TYPES).then(
  (m: { TEST_TASK_TYPES: readonly string[] }) => m.TEST_TASK_TYPES,
  (e: { code?: string }) => {
    if (e.code === 'ERR_MODULE_NOT_FOUND') return [];
    throw e;
  },
);
export function testCalculationsEnabled(): boolean {
  return process.env.PHASEDESK_TEST_CALCULATIONS === '1' && TEST_TASK_TYPES.length > 0;
}

/** Loose schema for the env-gated test calculations (never reachable in normal runs). */
export const testCalculationSchema = z.looseObject({
  task_type: z.string().refine((t) => TEST_TASK_TYPES.includes(t)),
  ...common,
  seconds: z.number().optional(),
});

/** The configuration schema of each open task type (the registry's, by type). */
export const TASK_CONFIG_SCHEMAS = Object.fromEntries(TASK_TYPES.map((t) => [t, TASK_REGISTRY[t].schema])) as {
  [T in TaskType]: (typeof TASK_REGISTRY)[T]['schema'];
};

export type ValidationResult = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** Validate a task_config whose task_type is already known to be open (or test-enabled). */
export function validateTaskConfig(taskType: string, cfg: unknown): ValidationResult {
  let schema: z.ZodType | undefined = isTaskType(taskType) ? TASK_REGISTRY[taskType].schema : undefined;
  if (!schema && testCalculationsEnabled() && (TEST_TASK_TYPES as readonly string[]).includes(taskType))
    schema = testCalculationSchema;
  if (!schema) return { ok: false, error: `task_config.task_type: unsupported task type '${taskType}'` };
  const r = schema.safeParse(cfg, { error: zodErrorMap as never });
  if (!r.success) return { ok: false, error: formatZodError(r.error, 'task_config') };
  return { ok: true, value: r.data as Record<string, unknown> };
}

export function isRunnableTaskType(t: string): boolean {
  return isTaskType(t) || (testCalculationsEnabled() && (TEST_TASK_TYPES as readonly string[]).includes(t));
}
