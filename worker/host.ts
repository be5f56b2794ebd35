// A calculation host: a child process of the service (forked by main/service/calc-host.ts) that runs one
// calculation at a time in a piscina worker thread (worker/index.ts). Native code (our core, resvg) that
// crashes takes down this process only; the service fails the task and starts a new host. The host's
// main thread stays free while the calculation runs, so a cancel message sets the job's cancel flag at
// once, and progress and stage are relayed to the service from the shared control block.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import {
  CONTROL_BYTES,
  JobControl,
  type CalculationJob,
  type JobOutput,
  type HostJob,
  type HostReport,
  type HostRequest,
  type HostSettings,
} from './protocol.js';
import { preferSleepingOpenMpThreads } from './core/native.js';
import { PreviewRenderer } from './host-png.js';
import { PREVIEW_PNG_WIDTH } from './plots/png.js';

const here = dirname(fileURLToPath(import.meta.url));
const settings = JSON.parse(process.env.PHASEDESK_HOST_SETTINGS ?? '{}') as Partial<HostSettings>;
const heapMb = settings.heapMb ?? 4096;
/** The calculation thread's young generation, MB: two semi-spaces of 1 MB and V8's allowance beside them. */
const YOUNG_GENERATION_MB = 3;
/** How often progress and stage are copied from the control block to the service. */
const PROGRESS_INTERVAL_MS = 200;

// The calculation writes preview SVGs only; this host renders their PNGs in its renderer process.
process.env.PHASEDESK_PREVIEW_PNG = 'host';
// before the calculation thread loads the core (a worker thread cannot set the process's environment)
preferSleepingOpenMpThreads();
const pool = new Piscina<CalculationJob, JobOutput>({
  filename: join(here, 'index.js'),
  minThreads: 1,
  maxThreads: 1,
  idleTimeout: Infinity,
  // Memory guard: a calculation whose heap outgrows the bound fails with ERR_WORKER_OUT_OF_MEMORY
  // instead of V8 aborting the process. The young generation is held at its first size, semi-spaces of 1 MB
  // (V8 counts three semi-spaces in it), as `phasedesk calc` holds it (main/cli.ts keepYoungGenerationSmall): by
  // default it grows to 48 MB, 32 MB of them resident, beside the core's grids.
  resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
});
pool.on('error', () => {
  /* a dead thread rejects its job, reported below */
});
const renderer = new PreviewRenderer((settings.previewTimeoutSeconds ?? 60) * 1000);
let control: JobControl | undefined;

function send(r: HostReport): void {
  if (process.connected) process.send!(r);
}
const rssMb = () => process.memoryUsage.rss() / 2 ** 20;

function failureText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory/i.test(err?.message ?? '')) {
    return `the calculation ran out of memory (memory guard: JavaScript heap limit ${heapMb} MB, setting calc_heap_mb)`;
  }
  return err?.message ?? String(e);
}

async function run(job: HostJob): Promise<void> {
  const c = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
  control = c;
  let last = '';
  const relay = () => {
    const progress = c.getProgress(),
      stage = c.getStage();
    const key = `${progress}\u0000${stage}`;
    if (key !== last) {
      last = key;
      send({ type: 'progress', progress, stage });
    }
  };
  const timer = setInterval(relay, PROGRESS_INTERVAL_MS);
  try {
    c.setStage('starting');
    const output = await pool.run({ ...job, control: c.buffer });
    if (!output.cancelled && !c.cancelled) {
      c.setStage('writing previews');
      relay();
      const problems = await renderer.renderMissing(job.taskDir, PREVIEW_PNG_WIDTH);
      output.logs = [...output.logs, ...problems];
    }
    relay();
    send({ type: 'done', output, rssMb: rssMb() });
  } catch (e) {
    send({ type: 'failed', message: failureText(e), rssMb: rssMb() });
  } finally {
    clearInterval(timer);
    control = undefined;
  }
}

process.on('message', (m: HostRequest) => {
  if (m.type === 'run') void run(m.job);
  else if (m.type === 'cancel') control?.cancel();
  else if (m.type === 'stop') {
    renderer.close();
    void pool.destroy().finally(() => process.exit(0));
  }
});
// The service went away (even by kill -9): stop, so no host outlives it.
process.on('disconnect', () => {
  renderer.close();
  process.exit(0);
});
send({ type: 'ready' });
