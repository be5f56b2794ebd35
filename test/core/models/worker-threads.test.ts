// The addon is loaded once per process but used from several Node-API environments (the main thread
// and each piscina worker). Class constructors must be per environment: with a process-wide
// reference, a PhaseModel built in a second thread aborted the whole process ("Entering the V8 API
// without proper locking"). This test builds and evaluates models in two worker threads at once.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { coreAddonPath, loadCore } from '../../../worker/core/native.js';
import { TDB_DIR, haveTdb } from './helpers.js';

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const core = require(workerData.addon);
const db = core.Database.fromFile(workerData.tdb);
// the thread's cancel flag stays set at exit: the environment's teardown must release it cleanly
core.setCancelFlag(new Int32Array(new SharedArrayBuffer(16)));
let sum = 0;
for (let i = 0; i < 200; i++) {
  const m = core.PhaseModel.build(db, 'LIQUID', ['AL', 'ZN', 'VA']);
  sum += m.energies(700 + i, 101325, [0.3, 0.7])[0];
}
parentPort.postMessage(sum);
`;

function run(addon: string, tdb: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const w = new Worker(WORKER, { eval: true, workerData: { addon, tdb } });
    w.once('message', resolve);
    w.once('error', reject);
    w.once('exit', (code) => {
      if (code !== 0) reject(new Error(`worker exited with ${code}`));
    });
  });
}

describe.skipIf(!haveTdb)('addon in several threads', () => {
  it('builds phase models in two workers and the main thread with the same answers', async () => {
    const addon = coreAddonPath();
    const tdb = `${TDB_DIR}/alzn_mey.tdb`;
    const db = loadCore().Database.fromFile(tdb);
    const [a, b] = await Promise.all([run(addon, tdb), run(addon, tdb)]);
    // and again in the main thread after the workers' environments were torn down
    const m = loadCore().PhaseModel.build(db, 'LIQUID', ['AL', 'ZN', 'VA'])!;
    let sum = 0;
    for (let i = 0; i < 200; i++) sum += m.energies(700 + i, 101325, [0.3, 0.7])[0]!;
    expect(a).toBe(sum);
    expect(b).toBe(sum);
  });
});
