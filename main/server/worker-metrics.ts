// A lab worker's own figures for /metrics (prom-client, one registry per worker): how long its tasks waited and
// ran, how busy its slots are, how often a calculation process was replaced, how often a job's lock was lost, and
// whether it reaches PostgreSQL and Redis. The lab-wide figures (tasks by state, queue depth, every worker's
// heartbeat) are the API's (main/server/lab-metrics.ts).
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds, from a quick point calculation to a grid of hours. */
const DURATION_BUCKETS = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 1800, 3600, 7200];

export class WorkerMetrics {
  readonly registry = new Registry();
  readonly taskDuration = new Histogram({
    name: 'phasedesk_task_duration_seconds',
    help: 'Time a job of this worker ran, from its start to its end, by task type and outcome',
    labelNames: ['task_type', 'outcome'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  readonly taskWait = new Histogram({
    name: 'phasedesk_task_wait_seconds',
    help: 'Time a task waited from its creation until a worker started it the first time, by task type',
    labelNames: ['task_type'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  readonly lockLosses = new Counter({
    name: 'phasedesk_job_lock_losses_total',
    help: 'Jobs whose lock could not be renewed: their calculation was stopped and the job handed on',
    registers: [this.registry],
  });
  readonly reachable = new Gauge({
    name: 'phasedesk_server_reachable',
    help: 'Whether this worker reached the server at its last probe (1) or not (0)',
    labelNames: ['server'] as const,
    registers: [this.registry],
  });

  constructor(slots: number, busy: () => number, hostRestarts: () => number) {
    let reported = 0;
    new Counter({
      name: 'phasedesk_calculation_process_restarts_total',
      help: 'Calculation processes replaced (a crash, a kill, a lost lock, or after maxTasks / maxRssMb)',
      registers: [this.registry],
      collect() {
        // the pool counts; a counter has no set(), so it is brought up to the pool's count
        const now = hostRestarts();
        if (now > reported) this.inc(now - reported);
        reported = now;
      },
    });
    new Gauge({
      name: 'phasedesk_worker_slots',
      help: 'Calculation slots of this worker',
      registers: [this.registry],
    }).set(slots);
    new Gauge({
      name: 'phasedesk_worker_busy_slots',
      help: 'Slots of this worker running a calculation',
      registers: [this.registry],
      collect() {
        this.set(busy());
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: 'phasedesk_worker_' });
  }
}
