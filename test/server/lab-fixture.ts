// The standard test world (test/service/helpers.ts seed) on a lab server: the API in this process on PostgreSQL
// with the BullMQ queue, one queue worker (one calculation slot) in this process, real PostgreSQL and Redis.
import { startService, defaultWorkerFile } from '../../main/server.js';
import { resolveSettings, type SettingsOverrides } from '../../main/config.js';
import { startQueueWorker } from '../../main/server/worker.js';
import { seed, tempDir, type Fixture } from '../service/helpers.js';
import { createDatabase, startPostgres, startRedis } from './servers.js';

let fixtures = 0;
/** How many lab fixtures were started (test/server/contract.test.ts checks the suites really ran on one). */
export function labFixturesStarted(): number {
  return fixtures;
}

export async function startLabFixture(over: SettingsOverrides = {}): Promise<Fixture> {
  const pg = await startPostgres();
  const redis = await startRedis();
  try {
    const lab = {
      databaseUrl: await createDatabase(pg, `contract${++fixtures}`),
      redisUrl: redis.url,
      urlSecret: 'contract-suite-url-secret-0123456789abcdef',
    };
    const dataDir = over.dataDir ?? tempDir();
    const base: SettingsOverrides = {
      dataDir,
      port: 0,
      bootstrap: false,
      poolSize: 1,
      threadBudget: 2,
      ...over,
      lab: { ...lab, ...over.lab },
    };
    const svc = await startService(base, () => {});
    const worker = await startQueueWorker(resolveSettings(base), defaultWorkerFile(), () => {}, { lockSeconds: 5 });
    const s = await seed(svc.store, dataDir);
    return {
      svc,
      dataDir,
      ...s,
      async close() {
        await svc.close();
        await worker.close(false);
        await redis.stop();
        await pg.stop();
      },
    };
  } catch (e) {
    await redis.stop();
    await pg.stop();
    throw e;
  }
}
