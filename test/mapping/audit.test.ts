// The diagram self-audit (worker/mapping/audit.ts) on every binary system at hand: the binary files of
// databases/ and ../shared/tdb and the assessed binary subsystems of the multicomponent files
// (worker/mapping/audit-systems.ts). A disagreement fails the test unless docs/diagram-audit.md lists it
// with its cause (table "Known disagreements": system, check, a regular expression matched against the
// disagreement's text); known entries that no longer occur are printed so the list shrinks as causes are
// fixed.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { auditBinary } from '../../worker/mapping/audit.js';
import { auditSystems } from '../../worker/mapping/audit-systems.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { knownDisagreements, type Known } from './audit-known.js';

const ROOT = path.resolve(__dirname, '../..');

const { systems, unreadable, separately } = auditSystems([path.join(ROOT, 'databases'), SHARED_TDB_DIR], {
  scope: 'tests',
  catalog: path.join(ROOT, 'databases', 'catalog.json'),
});
const known = knownDisagreements(ROOT);

describe('diagram self-audit', () => {
  test('every database is readable and the systems are found', () => {
    expect(unreadable).toEqual([]);
    expect(systems.length).toBeGreaterThanOrEqual(46);
    for (const s of separately) console.log(`${path.basename(s.file)}: a few pairs in the test suite: ${s.why}`);
    // MF Steel's pairs with its recommended selection: no ordered phase of an order-disorder pair (BCC_B2 of Fe-Si)
    const feSi = systems.find((s) => s.name === 'tdb/mf-steel.tdb:FE-SI');
    expect(feSi?.phases).toContain('BCC_A2');
    expect(feSi?.phases).not.toContain('BCC_B2');
  });

  test.each(systems.map((s) => [s.name, s] as const))(
    '%s',
    (name, s) => {
      const r = auditBinary({ database: s.db, elements: s.elements, phases: s.phases, threads: 2 });
      const unexplained: string[] = [];
      const used = new Set<Known>();
      for (const [check, lines] of Object.entries(r.failures)) {
        for (const l of lines) {
          const k = known.find((e) => e.system === name && e.check === check && e.pattern.test(l));
          if (k) used.add(k);
          else unexplained.push(`[${check}] ${l}`);
        }
      }
      const stale = known.filter((k) => k.system === name && !used.has(k));
      console.log(
        `${name}: ${r.regions} regions, ${r.invariants} invariants, ${r.isotherms} isotherms, ${r.transitionsCompared} transitions, ` +
          `${r.pointsChecked} points, ${used.size} known disagreement(s), ${r.seconds.toFixed(1)} s` +
          (stale.length ? `; no longer seen: ${stale.map((k) => k.pattern.source).join(', ')}` : ''),
      );
      expect(unexplained, `${name}: disagreements not listed in docs/diagram-audit.md`).toEqual([]);
    },
    900_000,
  );
});
