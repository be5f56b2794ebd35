// Connections of BullMQ to the lab's Redis: ioredis clients from a redis:// or rediss:// URL.
import { Redis } from 'ioredis';

export const TASK_QUEUE = 'phasedesk-tasks';

/** The BullMQ job of a task: one per task, so adding it twice (a restarted API, a retried kick) is harmless. */
export function taskJobId(uuid: string): string {
  return `task-${uuid}`;
}

/**
 * An ioredis connection for BullMQ. The URL's user name and password become AUTH, its path the database (SELECT),
 * rediss:// a TLS connection. A worker's connection (`blocking`) retries a command for as long as Redis is away
 * (maxRetriesPerRequest: null, which BullMQ requires of a Worker's connection); a queue's fails a command after the
 * default retries, so an API request never hangs on a lost Redis. The caller closes it (quit) after the Queue or
 * Worker using it; BullMQ opens its further connections (a worker's blocking one) as duplicates of it.
 */
export function redisConnection(url: string, o: { blocking?: boolean } = {}): Redis {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`PHASEDESK_REDIS_URL '${url}' is not a URL (redis://host:port/db)`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    throw new Error(`PHASEDESK_REDIS_URL must start with redis:// or rediss:// (got ${u.protocol})`);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0)
    throw new Error(`PHASEDESK_REDIS_URL: database '${u.pathname.slice(1)}' must be an integer >= 0`);
  return new Redis({
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : 6379,
    db,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: { servername: u.hostname } } : {}),
    maxRetriesPerRequest: o.blocking ? null : 20,
    lazyConnect: false,
  });
}
