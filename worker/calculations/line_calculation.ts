import type { CalculationJob, CalculationOutput, JobControl } from '../protocol.js';

// The numerical core for this task type is built under other issues (native-core/). Until it is wired
// here the task fails with an explicit log line: no placeholder numbers are ever produced.
export function run(_job: CalculationJob, _control: JobControl): CalculationOutput {
  throw new Error('calculation core for line_calculation is not available in this version');
}
