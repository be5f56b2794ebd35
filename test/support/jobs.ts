// Jobs for calling a calculation module directly, as the service hands them over: task_config parsed by the
// registry's schema of its type (the calculation receives the schema's output, defaults filled in), with
// tdb_code replaced by the database file.
import { TASK_REGISTRY, type TaskConfig, type TaskType } from '../../contract/tasks/registry.js';
import type { CalculationConfig, CalculationJob, TaskJob } from '../../worker/protocol.js';

export type JobInput = Omit<CalculationJob, 'config' | 'taskType'> & {
  config: Record<string, unknown> & { tdb_file: string };
};

/**
 * The value as JSON carries it: keys set to undefined (a test's way of leaving out a field of its base
 * configuration) are absent, as in the body the service parses; the schemas refuse keys they do not define.
 */
function asSent(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(asSent);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => [k, asSent(x)]),
  );
}

export function parsedConfig<T extends TaskType>(
  type: T,
  config: Record<string, unknown> & { tdb_file: string },
): CalculationConfig<T> {
  // TASK_REGISTRY[type].schema outputs TaskConfig<T>; TypeScript cannot relate the indexed union to the generic T.
  const parsed = TASK_REGISTRY[type].schema.parse(
    asSent({
      task_type: type,
      tdb_code: 'TEST',
      ...config,
    }),
  ) as unknown as TaskConfig<T>;
  const { tdb_code: _code, ...rest } = parsed as TaskConfig<T> & { tdb_code?: string };
  return { ...rest, tdb_file: config.tdb_file } as unknown as CalculationConfig<T>;
}

export function parsedJob<T extends TaskType>(type: T, job: JobInput): TaskJob<T> {
  return { ...job, taskType: type, config: parsedConfig(type, job.config) };
}
