// Errors that mean "a server of the lab is unreachable right now" (PostgreSQL restarting, Redis away, a cut
// network) rather than "this request is wrong" or "the code is wrong": the API answers them with 503 and
// Retry-After, the lab workers wait and try again instead of failing a task.
import { HttpError } from './errors.js';

/** Seconds a client is asked to wait before trying again (Retry-After of a 503). */
export const RETRY_AFTER_SECONDS = 5;

/** SQLSTATE classes and codes of a server that is going away, starting or full (PostgreSQL appendix A). */
const PG_UNAVAILABLE = /^(08...|57P0[1-4]|53300)$/;
/** Socket errors of a server that is not there. */
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
/** Messages of pg, pg-pool, ioredis and the deadline of main/db/postgres-pool.ts for a lost connection. */
const MESSAGES =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection is closed|max retries per request|the database system is (starting up|shutting down|in recovery mode)|no answer from (PostgreSQL|Redis)|Stream isn't writeable/i;

/** The error (or its cause, or one of an AggregateError's errors) says a server is unreachable. */
export function isUnavailableError(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 4) return false;
  if (e instanceof ServiceUnavailable) return true;
  const { code, message, cause, errors } = e as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (PG_UNAVAILABLE.test(code) || NET_CODES.has(code))) return true;
  if (typeof message === 'string' && MESSAGES.test(message)) return true;
  if (Array.isArray(errors) && errors.some((x) => isUnavailableError(x, depth + 1))) return true;
  return isUnavailableError(cause, depth + 1);
}

/** 503 with Retry-After: `what` (PostgreSQL, Redis) cannot be reached; the request may be sent again shortly. */
export class ServiceUnavailable extends HttpError {
  constructor(what: string) {
    super(
      503,
      `${what} is unreachable at the moment; try again in a few seconds`,
      { retry_after_seconds: RETRY_AFTER_SECONDS },
      { 'retry-after': String(RETRY_AFTER_SECONDS) },
    );
  }
}
