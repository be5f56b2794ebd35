// Connection options of BullMQ (ioredis) from a redis:// or rediss:// URL.
import { createBunRedisClient, type IRedisClient } from 'bullmq';
import { RespClient } from './resp-client.js';

export const TASK_QUEUE = 'phasedesk-tasks';

/** The BullMQ job of a task: one per task, so adding it twice (a restarted API, a retried kick) is harmless. */
export function taskJobId(uuid: string): string { return `task-${uuid}`; }

/**
 * A connection to the lab's Redis for BullMQ: a client of our own (main/server/resp-client.ts) in BullMQ's adapter
 * for Bun's client, so no Redis client package (ioredis) is needed. BullMQ opens its further connections (a worker's
 * blocking one) with `new RespClient(url)`. The caller closes it (quit) after the Queue or Worker using it.
 */
export function redisConnection(url: string): IRedisClient {
  let u: URL;
  try { u = new URL(url); } catch { throw new Error(`PHASEDESK_REDIS_URL '${url}' is not a URL (redis://host:port/db)`); }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error(`PHASEDESK_REDIS_URL must start with redis:// or rediss:// (got ${u.protocol})`);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new Error(`PHASEDESK_REDIS_URL: database '${u.pathname.slice(1)}' must be an integer >= 0`);
  return createBunRedisClient(new RespClient(url));
}
