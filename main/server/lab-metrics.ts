// The lab-wide figures on the API's /metrics (prom-client), read at each scrape: tasks by state and type and how
// long the oldest waiting task has waited (PostgreSQL), the queue's jobs by state (Redis), every worker's heartbeat,
// slots, busy slots and calculation-process restarts (lab_workers, main/server/heartbeat.ts), and whether PostgreSQL
// and Redis answered. A server out of reach leaves its figures out of that scrape. Each worker's own histograms
// (task duration, wait) are on that worker's /metrics (main/server/worker-metrics.ts).
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Store } from '../db/index.js';
import type { JobQueue } from './job-queue.js';
import { PROBE_DEADLINE_MS, probePostgres, probeRedis, withDeadline } from './probes.js';

/** Workers whose heartbeat is older than this are no longer reported. */
const WORKER_FORGET_MS = 10 * 60_000;
const JOB_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed'] as const;

/** A gauge whose values are read at each scrape; a read that fails leaves the gauge empty for that scrape. */
function readGauge(
  registry: Registry,
  name: string,
  help: string,
  labelNames: string[],
  read: (g: Gauge<string>) => Promise<void>,
): Gauge<string> {
  return new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      await withDeadline(read(this), PROBE_DEADLINE_MS, name).catch(() => this.reset());
    },
  });
}

async function readTasks(store: Store, g: Gauge<string>): Promise<void> {
  const rows = await store.db
    .selectFrom('tasks')
    .select(['status', 'task_type', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['status', 'task_type'])
    .execute();
  for (const r of rows) g.set({ state: r.status, task_type: r.task_type }, Number(r.n));
}

async function readOldestWait(store: Store, g: Gauge<string>): Promise<void> {
  const first = await store.db
    .selectFrom('tasks')
    .select((eb) => eb.fn.min<number>('created_ms').as('t'))
    .where('status', 'in', ['pending', 'queued'])
    .executeTakeFirst();
  g.set(first?.t ? Math.max(0, (Date.now() - Number(first.t)) / 1000) : 0);
}

type WorkerColumn = 'heartbeat_ms' | 'slots' | 'busy' | 'host_restarts';

/** One gauge per column of lab_workers, labelled by worker. */
function workerGauge(registry: Registry, store: Store, name: string, help: string, column: WorkerColumn) {
  readGauge(registry, name, help, ['worker'], async (g) => {
    const now = Date.now();
    const rows = await store.db
      .selectFrom('lab_workers')
      .selectAll()
      .where('heartbeat_ms', '>', now - WORKER_FORGET_MS)
      .execute();
    for (const r of rows)
      g.set({ worker: r.name }, column === 'heartbeat_ms' ? (now - Number(r.heartbeat_ms)) / 1000 : Number(r[column]));
  });
}

export function labMetrics(store: Store, queue: JobQueue): Registry {
  const registry = new Registry();
  readGauge(registry, 'phasedesk_tasks', 'Tasks by state and task type', ['state', 'task_type'], (g) =>
    readTasks(store, g),
  );
  readGauge(registry, 'phasedesk_queue_oldest_wait_seconds', 'Age of the oldest task still waiting', [], (g) =>
    readOldestWait(store, g),
  );
  readGauge(registry, 'phasedesk_queue_jobs', 'Jobs on the Redis queue by BullMQ state', ['state'], async (g) => {
    const counts = await queue.queue.getJobCounts(...JOB_STATES);
    for (const s of JOB_STATES) g.set({ state: s }, counts[s] ?? 0);
  });
  readGauge(
    registry,
    'phasedesk_server_reachable',
    'Whether the API reached the server (1) or not (0)',
    ['server'],
    async (g) => {
      const [pg, redis] = await Promise.all([probePostgres(store), probeRedis(queue.redis)]);
      g.set({ server: 'postgresql' }, pg ? 0 : 1);
      g.set({ server: 'redis' }, redis ? 0 : 1);
    },
  );
  workerGauge(
    registry,
    store,
    'phasedesk_worker_heartbeat_age_seconds',
    'Seconds since the worker last wrote its heartbeat',
    'heartbeat_ms',
  );
  workerGauge(registry, store, 'phasedesk_worker_slots', 'Calculation slots of the worker', 'slots');
  workerGauge(registry, store, 'phasedesk_worker_busy_slots', 'Slots of the worker running a calculation', 'busy');
  workerGauge(
    registry,
    store,
    'phasedesk_worker_calculation_process_restarts',
    'Calculation processes the worker replaced since it started',
    'host_restarts',
  );
  collectDefaultMetrics({ register: registry, prefix: 'phasedesk_api_' });
  return registry;
}
