// Jobs for calling a calculation module directly, as the service hands them over: task_config parsed by the
// registry's schema of its type (the calculation receives the schema's output, defaults filled in), with
// tdb_code replaced by the database file.
import { TASK_REGISTRY, type TaskConfig, type TaskType } from '../../contract/tasks/registry.js';
import type { CalculationConfig, CalculationJob, TaskJob } from '../../worker/protocol.js';

export type JobInput = Omit<CalculationJob, 'config' | 'taskType'> & {
  config: Record<string, unknown> & { tdb_file: string };
};

export function parsedConfig<T extends TaskType>(
  type: T,
  config: Record<string, unknown> & { tdb_file: string },
): CalculationConfig<T> {
  // TASK_REGISTRY[type].schema outputs TaskConfig<T>; TypeScript cannot relate the indexed union to the generic T.
  const parsed = TASK_REGISTRY[type].schema.parse({
    task_type: type,
    tdb_code: 'TEST',
    ...config,
  }) as unknown as TaskConfig<T>;
  const { tdb_code: _code, ...rest } = parsed as TaskConfig<T> & { tdb_code?: string };
  return { ...rest, tdb_file: config.tdb_file } as unknown as CalculationConfig<T>;
}

export function parsedJob<T extends TaskType>(type: T, job: JobInput): TaskJob<T> {
  return { ...job, taskType: type, config: parsedConfig(type, job.config) };
}
