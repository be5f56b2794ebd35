import { test } from 'vitest';
import { mapBinary } from '../../worker/mapping/binary.js';
import { binarySystems } from './systems.js';
test('probe3', () => {
  const { systems, unreadable } = binarySystems();
  console.log('unreadable', unreadable);
  for (const s of systems) {
    try {
      const d = mapBinary({ database: s.db, components: s.elements, T: [300, 2000], threads: 2 });
      console.log(s.name, s.elements.join('-'), d.stats.seconds.toFixed(2), 's', d.stats.equilibria, 'eq', d.stats.notConverged, 'nc', d.regions.length, 'regions', d.invariants.map(v => `${v.kind}@${v.T.toFixed(1)}`).join(','), 'crit', d.criticalPoints.length, 'cong', d.congruentPoints.length, 'unres', d.regions.filter(r => r.ends.low === 'unresolved' || r.ends.high === 'unresolved').length, 'od', d.orderDisorder.phases.length, d.orderDisorder.secondOrderLines.map(l=>l.points.length));
      for (const l of d.logs.slice(0, 3)) console.log('   ', l);
    } catch (e) { console.log(s.name, 'FAILED', (e as Error).message); }
  }
}, 900000);
