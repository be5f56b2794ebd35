// A service killed (SIGKILL) with tasks mid-flight loses none on restart: running -> failed with a log
// line, pending/queued are scheduled again. One service per data directory: a second start on a folder a live
// service holds is refused. Runs the real CLI (dist/main/cli.js) in child processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { api, ensureBuilt, ROOT, seed, tempDir, until } from './helpers.js';
import { openStore } from '../../main/db/index.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function startCli(dataDir: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'dist', 'main', 'cli.js'), 'start', '--port', '0', '--data-dir', dataDir],
    {
      env: { ...process.env, PHASEDESK_TEST_CALCULATIONS: '1', PHASEDESK_POOL_SIZE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /PhaseDesk listening on http:\/\/127\.0\.0\.1:(\d+)\/api\/v2/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('exit', (code) => reject(new Error(`service exited (${code}): ${out}`)));
  });
}

describe('restart recovery', () => {
  it('tasks left running or pending by a crash are failed with a log line or run again', async () => {
    ensureBuilt();
    const dataDir = tempDir();
    const store = await openStore(dataDir);
    const { keyA } = await seed(store, dataDir);
    await store.close();

    const first = await startCli(dataDir);
    const post = (port: number, cfg: Record<string, unknown>) =>
      api(port, 'POST', '/task', {
        key: keyA,
        body: { title: 'r', no_cache: true, task_config: { tdb_code: 'ALFE', ...cfg } },
      });
    const running = (await post(first.port, { task_type: '__test_sleep', seconds: 3600 })).body.id as number;
    await until(
      () => api(first.port, 'GET', `/task/${running}`, { key: keyA }),
      (r) => r.body.status === 'running',
    );
    const waiting = [] as number[];
    for (let i = 0; i < 3; i++)
      waiting.push((await post(first.port, { task_type: '__test_write', seconds: i })).body.id);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await startCli(dataDir);
    const r = await api(second.port, 'GET', `/task/${running}`, { key: keyA });
    expect(r.body.status).toBe('failed');
    expect(r.body.logs).toContain('interrupted by a service restart');
    for (const id of waiting) {
      const t = await until(
        () => api(second.port, 'GET', `/task/${id}`, { key: keyA }),
        (x) => ['completed', 'failed'].includes(x.body.status),
      );
      expect(t.body.status).toBe('completed');
    }
    const list = await api(second.port, 'GET', '/task/list?items_per_page=100', { key: keyA });
    expect(list.body.total).toBe(4);
    second.child.kill('SIGTERM');
  });

  it('a second service on the same data directory is refused while the first runs; after a kill -9 the folder is taken over', async () => {
    ensureBuilt();
    const dataDir = tempDir();
    const first = await startCli(dataDir);
    const refused = await startCli(dataDir).then(
      () => 'started',
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/service exited \(1\)/);
    expect(refused).toContain(
      `the data directory ${dataDir} is in use by another PhaseDesk service (process ${first.child.pid}`,
    );
    // the first service still answers
    expect((await api(first.port, 'GET', '/openapi.json')).status).toBe(200);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const second = await startCli(dataDir);
    expect((await api(second.port, 'GET', '/openapi.json')).status).toBe(200);
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
    // a clean stop gives the folder back
    expect(existsSync(join(dataDir, 'service.lock'))).toBe(false);
  });
});
