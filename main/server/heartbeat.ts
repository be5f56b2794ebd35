// Each lab worker writes a heartbeat row (lab_workers, migration 003) every few seconds: its slots, how many are
// busy, its lock time and its calculation-process restarts. The API's /metrics reports every worker from these rows
// (main/server/lab-metrics.ts); a worker whose heartbeat ages has stopped or lost PostgreSQL.
import type { Store } from '../db/index.js';

export const HEARTBEAT_MS = 5000;

export interface HeartbeatSource {
  name: string;
  startedMs: number;
  slots: number;
  lockMs: number;
  busy(): number;
  hostRestarts(): number;
}

async function beat(store: Store, s: HeartbeatSource): Promise<void> {
  const values = {
    heartbeat_ms: Date.now(),
    busy: s.busy(),
    slots: s.slots,
    lock_ms: s.lockMs,
    host_restarts: s.hostRestarts(),
  };
  await store.db
    .insertInto('lab_workers')
    .values({ name: s.name, started_ms: s.startedMs, ...values })
    .onConflict((oc) => oc.column('name').doUpdateSet(values))
    .execute();
}

/** Beats now and every HEARTBEAT_MS (one write at a time; a failed one is simply the next one's to make). */
export function startHeartbeat(store: Store, s: HeartbeatSource): { stop(): Promise<void> } {
  let writing: Promise<void> | undefined;
  const tick = () => {
    if (writing) return;
    writing = beat(store, s)
      .catch(() => {})
      .finally(() => {
        writing = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, HEARTBEAT_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await writing;
      await store.db
        .deleteFrom('lab_workers')
        .where('name', '=', s.name)
        .execute()
        .catch(() => {});
    },
  };
}
