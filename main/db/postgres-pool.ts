// The PostgreSQL connections of one process (API or worker), made to outlive the server: a restart ends every
// connection with 57P01 ("terminating connection due to administrator command"), a lost network leaves them
// silent. pg-pool reports an idle client's error on the pool and a checked-out client's on the client itself; an
// `error` event nobody listens to ends the process, so both are listened to here and only logged: the query in flight
// fails (the caller answers 503 or tries again, main/util/unavailable.ts), the pool drops the broken client when it is
// released and connects anew for the next query.
import pg from 'pg';

/** Connection pool size of one process. */
export const PG_POOL_SIZE = 10;
/** A new connection (or a free one from a full pool) that takes longer fails the query. */
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * A query without an answer after this long has lost its server (a cut network keeps a TCP connection waiting for
 * the retransmission timeout, about 15 minutes): its connection is destroyed, which fails the query and frees the
 * client. Every query of the service is a short one.
 */
export const QUERY_DEADLINE_MS = 20_000;
/** One log line per this interval at most while connections keep failing. */
const LOG_EVERY_MS = 10_000;

interface StreamOwner {
  connection?: { stream?: { destroy(e?: Error): void } };
}

/** A pg client whose promise queries carry the deadline above. */
class DeadlineClient extends pg.Client {
  override query(...args: unknown[]): any {
    const r = (super.query as (...a: unknown[]) => unknown)(...args);
    if (r && typeof (r as Promise<unknown>).then === 'function') {
      const timer = setTimeout(() => {
        (this as unknown as StreamOwner).connection?.stream?.destroy(
          new Error(`no answer from PostgreSQL within ${QUERY_DEADLINE_MS / 1000} s`),
        );
      }, QUERY_DEADLINE_MS);
      timer.unref();
      (r as Promise<unknown>).then(
        () => clearTimeout(timer),
        () => clearTimeout(timer),
      );
    }
    return r;
  }
}

/** Logs a lost connection, once per LOG_EVERY_MS however many connections report it. */
function connectionLossLog(log: (line: string) => void): (e: Error) => void {
  let last = 0;
  return (e) => {
    if (Date.now() - last < LOG_EVERY_MS) return;
    last = Date.now();
    log(`PostgreSQL connection lost (${(e as { code?: string }).code ?? 'no code'}: ${e.message}); reconnecting`);
  };
}

/**
 * bigint (ids, millisecond times, COUNT(*)) arrives as a JavaScript number, as from SQLite: every such value here
 * stays far below 2^53.
 */
export function postgresPool(url: string, log: (line: string) => void): pg.Pool {
  const INT8_OID = 20;
  const lost = connectionLossLog(log);
  const pool = new pg.Pool({
    connectionString: url,
    max: PG_POOL_SIZE,
    Client: DeadlineClient,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  return pool;
}
