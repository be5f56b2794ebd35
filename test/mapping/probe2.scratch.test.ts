import { test } from 'vitest';
import path from 'node:path';
import { run } from '../../worker/calculations/binary_equilibrium.js';
import { JobControl } from '../../worker/protocol.js';
test('probe2', async () => {
  for (const [f, a, b] of [['cumg.tdb', 'CU', 'MG'], ['alfe.tdb', 'AL', 'FE']]) {
  const j = { taskUuid: 't', taskType: 'binary_equilibrium', ompThreads: 2, taskDir: '/tmp/mapA/out-' + a + b, control: new SharedArrayBuffer(16),
    config: { task_type: 'binary_equilibrium', tdb_file: path.join('/work/shared/tdb', f),
      condition: { components: [a, b], compositions_start: { [b]: 0 }, compositions_end: { [b]: 1 }, temperature_start: 300, temperature_end: 2000, pressure: 101325 } } };
  const out = await run(j, new JobControl(j.control));
  console.log(out.summary, out.logs.slice(0, 8));
  }
}, 120000);
