// The admin listener of a lab process (`phasedesk server` and `phasedesk worker`, --metrics-port): GET /metrics in
// the Prometheus text format, GET /healthz (the process answers) and GET /readyz (PostgreSQL, Redis and the shared
// directory reachable, main/server/probes.ts; 503 with Retry-After and the failing checks otherwise). A listener of
// its own, off unless a port is given and bound to 127.0.0.1 unless told otherwise, so that the API's reverse proxy
// never exposes it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProbeReport } from './probes.js';
import { RETRY_AFTER_SECONDS } from '../util/unavailable.js';

export interface AdminEndpoints {
  metrics(): Promise<{ contentType: string; text: string }>;
  ready(): Promise<ProbeReport>;
}

export interface AdminListener {
  port: number;
  close(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** /readyz: 200 when every check passed, else 503 naming the ones that failed. */
async function readiness(res: ServerResponse, e: AdminEndpoints): Promise<void> {
  const report = await e.ready();
  const checks = Object.fromEntries(Object.entries(report).map(([k, v]) => [k, v ?? 'ok']));
  const failing = Object.entries(report).filter(([, v]) => v !== null);
  if (failing.length === 0) return json(res, 200, { status: 'ready', checks });
  json(
    res,
    503,
    { error: `not ready: ${failing.map(([k, v]) => `${k}: ${v}`).join('; ')}`, checks },
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  );
}

async function route(req: IncomingMessage, res: ServerResponse, e: AdminEndpoints): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: 'Method not allowed' });
  if (path === '/healthz') return json(res, 200, { status: 'ok' });
  if (path === '/readyz') return readiness(res, e);
  if (path === '/metrics') {
    const m = await e.metrics();
    res.writeHead(200, { 'content-type': m.contentType });
    res.end(m.text);
    return;
  }
  json(res, 404, { error: 'Not found' });
}

export async function startAdminListener(
  host: string,
  port: number,
  e: AdminEndpoints,
  log: (line: string) => void,
): Promise<AdminListener> {
  const server = createServer((req, res) => {
    route(req, res, e).catch((err: unknown) => {
      log(`admin listener: ${(err as Error).message}`);
      if (!res.headersSent) json(res, 500, { error: 'Internal server error' });
      else res.end();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  server.on('error', (err) => log(`admin listener: ${err.message}`));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
