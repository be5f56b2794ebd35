// The admin listener of the lab's processes (main/server/admin-listener.ts): JSON answers, /readyz 503 with
// Retry-After naming the failing checks, /metrics in the Prometheus text format, nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gauge, Registry } from 'prom-client';
import { http } from '../service/helpers.js';
import { startAdminListener, type AdminListener } from '../../main/server/admin-listener.js';
import type { ProbeReport } from '../../main/server/probes.js';

let report: ProbeReport = { postgresql: null, redis: null, blob_directory: null };
const registry = new Registry();
new Gauge({ name: 'phasedesk_example', help: 'an example', registers: [registry] }).set(3);
let admin: AdminListener;
beforeAll(async () => {
  admin = await startAdminListener(
    '127.0.0.1',
    0,
    {
      metrics: async () => ({ contentType: registry.contentType, text: await registry.metrics() }),
      ready: async () => report,
    },
    () => {},
  );
});
afterAll(() => admin.close());

describe('admin listener', () => {
  it('healthz, readyz (ready and not), metrics, 404 and 405 as JSON', async () => {
    expect((await http(admin.port, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await http(admin.port, 'GET', '/readyz')).status).toBe(200);
    report = { postgresql: null, redis: 'no answer from Redis within 2000 ms', blob_directory: 'EACCES' };
    const r = await http(admin.port, 'GET', '/readyz');
    expect([r.status, r.headers['retry-after'], r.body]).toEqual([
      503,
      '5',
      {
        error: 'not ready: redis: no answer from Redis within 2000 ms; blob_directory: EACCES',
        checks: { postgresql: 'ok', redis: 'no answer from Redis within 2000 ms', blob_directory: 'EACCES' },
      },
    ]);
    const m = await http(admin.port, 'GET', '/metrics');
    expect(m.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(m.text).toContain('phasedesk_example 3');
    expect((await http(admin.port, 'GET', '/api/v2/task/list')).body).toEqual({ error: 'Not found' });
    expect((await http(admin.port, 'POST', '/metrics')).status).toBe(405);
  });
});
