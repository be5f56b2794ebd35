// Calculations used only by the service tests (cancel, worker death, cache, files), of the task types in
// task-types.ts. Built by the test setup alone (bin/build.js test-hooks, into dist/test/support/hooks/), never by the
// production build; worker/index.ts dispatches here only when PHASEDESK_TEST_CALCULATIONS=1 and this module is
// there, and the service refuses these task types otherwise.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CancelledError,
  type CalculationJob,
  type CalculationOutput,
  type JobControl,
} from '../../../worker/protocol.js';
import { loadTestingCore } from './testing-core.js';

export { TEST_TASK_TYPES } from './task-types.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function writeBurst(taskDir: string): void {
  const dir = join(taskDir, 'result');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 50; i++) writeFileSync(join(dir, `part-${i}.txt`), 'x'.repeat(1000));
}

export async function run(job: CalculationJob, control: JobControl): Promise<CalculationOutput> {
  switch (job.taskType) {
    case '__test_sleep': {
      // Loops until cancelled (or the given number of seconds elapses), like a native loop polling the flag.
      const seconds = typeof job.config.seconds === 'number' ? job.config.seconds : 3600;
      const end = Date.now() + seconds * 1000;
      control.setStage('sleeping');
      while (Date.now() < end) {
        // ignore_cancel: a calculation stuck where it does not poll the flag (the shutdown must kill it).
        if (control.cancelled && job.config.ignore_cancel !== true) throw new CancelledError();
        control.setProgress(1 - (end - Date.now()) / (seconds * 1000));
        // write_files: keeps writing into its folder, as a calculation does that has not seen its cancel flag yet.
        if (job.config.write_files === true) writeBurst(job.taskDir);
        await sleep(job.config.write_files === true ? 0 : 10);
      }
      return { summary: 'slept', logs: ['test sleep finished'] };
    }
    case '__test_crash': {
      // A real native crash (std::abort in the test-only addon's crashForTest): it ends the whole calculation
      // process, as a crash in the core or in resvg would; the service must fail the task and keep serving.
      control.setStage('about to crash');
      loadTestingCore().crashForTest();
      throw new Error('crashForTest returned');
    }
    case '__test_heap': {
      // Grows the JavaScript heap without bound: the memory guard (worker resourceLimits) must fail the task.
      const hoard: number[][] = [];
      for (;;) {
        hoard.push(new Array<number>(1 << 20).fill(hoard.length));
        if (control.cancelled) throw new CancelledError();
      }
    }
    case '__test_throw':
      throw new Error('test calculation failed on purpose');
    case '__test_write': {
      for (const kind of ['result', 'preview', 'vtk']) {
        const dir = join(job.taskDir, kind);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `${kind}.txt`), `${kind} of ${JSON.stringify(job.config.seconds ?? null)}\n`);
      }
      return { summary: 'written', logs: ['test files written'] };
    }
    default:
      throw new Error(`unknown test calculation ${job.taskType}`);
  }
}
