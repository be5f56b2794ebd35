import { test } from 'vitest';
import { mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../../worker/calculations/binary_cpt_diagram.js';
import { readTdbInfo } from '../../worker/core/database.js';
import { JobControl, CONTROL_BYTES } from '../../worker/protocol.js';
test('probe', () => {
  const dirs = ['/work/shared/tdb', '/work/main/databases'];
  for (const d of dirs) for (const f of readdirSync(d).filter((f) => f.endsWith('.tdb'))) {
    let info; try { info = readTdbInfo(join(d, f)); } catch (e) { console.log(f, 'READ FAIL', String(e).slice(0, 80)); continue; }
    if (info.elements.length !== 2) continue;
    const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
    const t0 = performance.now();
    try {
      const out = run({ taskUuid: 'x', taskType: 'binary_cpt_diagram', ompThreads: 1, taskDir: mkdtempSync('/tmp/cptB/all-'), control: control.buffer,
        config: { task_type: 'binary_cpt_diagram', tdb_file: join(d, f), condition: {
          components: info.elements, x_component: info.elements[1], composition_start: 0, composition_end: 1, composition_step: 0.1,
          temperature_start: 400, temperature_end: 2000, temperature_step: 100, pressure_start: 1e5, pressure_end: 1e8, pressure_points: 2,
          pressure_scale: 'log', include_tielines: true } } }, control);
      console.log(f, ((performance.now() - t0) / 1000).toFixed(2), 's', out.summary);
    } catch (e) { console.log(f, 'FAIL', String(e).slice(0, 200)); }
  }
}, 600_000);
