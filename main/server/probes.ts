// Is each server of the lab reachable right now? PostgreSQL (SELECT 1), Redis (PING) and the shared directory
// (its tasks/ folder writable), each with a deadline, for /readyz (main/server/admin-listener.ts) and for the
// workers' pause and resume (main/server/worker.ts). A cut network leaves a request unanswered rather than refused:
// the deadline turns that into a failed probe.
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import type { Store } from '../db/index.js';

/** How long a probe may take. */
export const PROBE_DEADLINE_MS = 2000;

export type ProbeName = 'postgresql' | 'redis' | 'blob_directory';
/** null when reachable, else what went wrong. */
export type ProbeReport = Record<ProbeName, string | null>;

/** `p`, or a rejection naming `what` once `ms` passed without an answer. */
export function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

async function outcome(p: () => Promise<unknown>, what: string): Promise<string | null> {
  try {
    await withDeadline(p(), PROBE_DEADLINE_MS, what);
    return null;
  } catch (e) {
    return (e as Error).message || String(e);
  }
}

export function probePostgres(store: Store): Promise<string | null> {
  return outcome(() => sql`select 1`.execute(store.db), 'PostgreSQL');
}

/** A connection that is not ready fails at once (its commands would wait in ioredis's offline queue). */
export function probeRedis(redis: Redis): Promise<string | null> {
  if (redis.status !== 'ready') return Promise.resolve(`Redis connection ${redis.status}`);
  return outcome(() => redis.ping(), 'Redis');
}

export function probeBlobDir(dataDir: string): Promise<string | null> {
  return outcome(() => access(join(dataDir, 'tasks'), constants.W_OK), 'the shared directory');
}

export async function probeAll(store: Store, redis: Redis, dataDir: string): Promise<ProbeReport> {
  const [postgresql, r, blob_directory] = await Promise.all([
    probePostgres(store),
    probeRedis(redis),
    probeBlobDir(dataDir),
  ]);
  return { postgresql, redis: r, blob_directory };
}
