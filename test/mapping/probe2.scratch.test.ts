import { test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium, equilibriumBatch } from '../../worker/core/equilibrium.js';
test('probe2', () => {
  for (const [f, a, b] of [['/work/shared/tdb/cumg.tdb', 'CU', 'MG'], ['/work/shared/tdb/alzn_mey.tdb', 'AL', 'ZN']]) {
    const db = openDatabase(f);
    for (const pdens of [10, 20, 30, 60]) {
      const conds = [];
      for (let i = 0; i < 300; i++) conds.push({ T: 300 + i * 5, X: { [b]: (i * 0.37) % 1 } });
      let t0 = performance.now();
      for (const c of conds) equilibrium({ database: db, components: [a, b, 'VA'], conditions: c, options: { pdens } });
      const t1 = performance.now() - t0;
      t0 = performance.now();
      equilibriumBatch({ database: db, components: [a, b, 'VA'], conditions: conds, options: { pdens }, threads: 2 });
      console.log(f, pdens, 'serial ms/eq', (t1 / 300).toFixed(3), 'batch2 ms/eq', ((performance.now() - t0) / 300).toFixed(3));
    }
  }
});
