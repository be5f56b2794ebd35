import { test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { mapBinary } from '../../worker/mapping/binary.js';
const sys: [string, string, string][] = [
  ['/work/shared/tdb/alzn_mey.tdb', 'AL', 'ZN'],
  ['/work/shared/tdb/pbsn.tdb', 'PB', 'SN'],
  ['/work/shared/tdb/cumg.tdb', 'CU', 'MG'],
];
test('probe', () => {
  for (const [f, a, b] of sys) {
    const db = openDatabase(f);
    const d = mapBinary({ database: db, components: [a, b], T: [300, 2000], threads: 2, pdens: Number(process.env.PD ?? 60), gridPdens: Number(process.env.GPD ?? 60) });
    console.log(f, JSON.stringify(d.stats));
    for (const r of d.regions) console.log(' region', r.phases.join('+'), r.tielines.length, r.tielines[0].T.toFixed(2), r.tielines[r.tielines.length-1].T.toFixed(2), JSON.stringify(r.ends));
    for (const v of d.invariants) console.log(' inv', v.kind, v.T.toFixed(3), v.reaction, JSON.stringify(v.phases));
    console.log(' crit', JSON.stringify(d.criticalPoints), 'cong', JSON.stringify(d.congruentPoints), 'pure', JSON.stringify(d.pureTransitions));
    console.log(' labels', JSON.stringify(d.singlePhaseLabels));
    console.log(d.logs.slice(0, 10).join('\n'));
  }
}, 600000);
