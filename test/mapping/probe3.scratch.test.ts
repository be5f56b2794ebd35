import { test } from 'vitest';
import { appendFileSync } from 'node:fs';
import { mapBinary } from '../../worker/mapping/binary.js';
import { binarySystems } from './systems.js';
const out = (s: string) => appendFileSync('/tmp/mapA/systems.log', s + '\n');
test('probe3', () => {
  const { systems, unreadable } = binarySystems();
  out('unreadable ' + JSON.stringify(unreadable));
  const only = process.env.ONLY;
  for (const s of systems) {
    if (only && !s.name.includes(only)) continue;
    if (/Al-Fe_sundman|FeNi_deep|alni_|alnifcc4sl|agcu|alzn_mey1993|cuni|pycalphad|cuo/.test(s.name)) continue;
    out('start ' + s.name + ' ' + s.elements.join('-'));
    try {
      const d = mapBinary({ database: s.db, components: s.elements, T: [300, 2000], threads: 2, maxEquilibria: 6000 });
      out([s.name, s.elements.join('-'), d.stats.seconds.toFixed(2), 's', d.stats.equilibria, 'eq', d.stats.notConverged, 'nc', d.regions.length, 'regions', d.invariants.map(v => `${v.kind}@${v.T.toFixed(1)}`).join(','), 'crit', d.criticalPoints.length, 'cong', d.congruentPoints.length, 'unres', d.regions.filter(r => r.ends.low === 'unresolved' || r.ends.high === 'unresolved').length, 'od', d.orderDisorder.phases.length, JSON.stringify(d.orderDisorder.secondOrderLines.map(l=>l.points.length))].join(' '));
      for (const l of d.logs.slice(0, 4)) out('    ' + l);
      for (const v of d.invariants) out('    inv ' + v.kind + ' ' + v.T.toFixed(2) + ' ' + v.reaction + ' ' + JSON.stringify(v.phases));
      for (const r of d.regions) out('    reg ' + r.phases.join('+') + ' ' + r.tielines[0].T.toFixed(2) + '-' + r.tielines[r.tielines.length-1].T.toFixed(2) + ' ' + JSON.stringify(r.ends));
    } catch (e) { out(s.name + ' FAILED ' + (e as Error).message); }
  }
}, 900000);
