// Memory stays flat over hundreds of tasks: point calculations with their previews (SVG + PNG) run in a
// calculation host whose PNGs are rendered in a renderer process that collects after every image. The
// resident sizes of the service process and of the calculation processes after a warm-up are compared
// with those at the end (PNG rendering once kept about 3.2 MB per task).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { api, pointConfig, startFixture, until, embeddedScheduler } from './helpers.js';

/** Resident size in MB of a process and all its descendants (Linux /proc). */
function treeRssMb(pid: number): number {
  let kb = 0;
  try {
    kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    /* none */
  }
  return kb / 1024 + children.reduce((a, c) => a + treeRssMb(c), 0);
}

const WARM_UP = 50;
const TASKS = 200;

describe.runIf(process.platform === 'linux')('memory over many tasks', () => {
  it(`${TASKS} point calculations with previews: resident sizes stay bounded`, async () => {
    const f = await startFixture({ poolSize: 2, threadBudget: 2, maxPendingTasks: 100_000 });
    try {
      let next = 0;
      const runBatch = async (n: number) => {
        const ids: number[] = [];
        for (let i = 0; i < n; i++, next++) {
          // A different temperature each time: no task is answered from the calculation cache.
          const r = await api(f.svc.port, 'POST', '/task', {
            key: f.keyA,
            body: { title: `m${next}`, task_config: pointConfig({ temperature: 900 + next * 0.5 }) },
          });
          expect(r.status).toBe(200);
          ids.push(r.body.id);
        }
        // every task, not only the last: with two calculation slots the one before it may still be running
        for (const id of ids)
          await until(
            () => api(f.svc.port, 'GET', `/task/${id}`, { key: f.keyA }),
            (r) => r.body.status === 'completed' || r.body.status === 'failed',
            100,
          );
        const failed = await f.svc.store.db
          .selectFrom('tasks')
          .select(['id', 'logs'])
          .where('status', '!=', 'completed')
          .execute();
        expect(failed).toEqual([]);
      };
      const sample = () => ({
        service: process.memoryUsage.rss() / 2 ** 20,
        hosts: embeddedScheduler(f.svc)
          .hostPids()
          .reduce((a, p) => a + treeRssMb(p), 0),
      });
      await runBatch(WARM_UP);
      const warm = sample();
      await runBatch(TASKS - WARM_UP);
      const end = sample();
      const previews = await f.svc.store.db
        .selectFrom('task_files')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('name', '=', 'point.png')
        .executeTakeFirstOrThrow();
      expect(Number(previews.n)).toBe(TASKS);
      console.log(
        `resident MB after ${WARM_UP} tasks: service ${warm.service.toFixed(0)}, calculation processes ${warm.hosts.toFixed(0)}; after ${TASKS}: ${end.service.toFixed(0)}, ${end.hosts.toFixed(0)}`,
      );
      // 150 more tasks at the old 3.2 MB per task would add ~480 MB; allow a sixth of that per side.
      expect(end.service - warm.service).toBeLessThan(80);
      expect(end.hosts - warm.hosts).toBeLessThan(80);
    } finally {
      await f.close();
    }
  }, 240_000); // a few seconds on an idle 2-core machine; the bound is for a loaded one
});
