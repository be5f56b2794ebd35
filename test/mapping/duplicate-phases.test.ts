// Phases that hold no state of their own (worker/system/duplicate-phases.ts). H_BCC of mc_fe_v2.059 (FE : H,VA) is
// pure bcc Fe without H, with BCC_A2's Gibbs energy for FE:VA; mapped with both, the solver's choice between them
// (5e-8 J/mol apart in C-Fe at 620 K) made an invariant at 672.28 K and a transition of pure Fe on the C-Fe diagram.
import path from 'node:path';
import { expect, test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { auditBinary } from '../../worker/mapping/audit.js';
import { mapBinary } from '../../worker/mapping/binary.js';
import { duplicatePhases } from '../../worker/system/duplicate-phases.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const mcFe = openDatabase(path.join(SHARED_TDB_DIR, 'mc_fe_v2.059.pycalphad.tdb'));

test('H_BCC duplicates BCC_A2 where H is absent, and holds states of its own where it is present', () => {
  const temperatures = [300, 1000, 1800];
  const cfe = mcFe.phasesFor(['C', 'FE']);
  expect(cfe).toContain('H_BCC');
  expect(duplicatePhases(mcFe, ['C', 'FE', 'VA'], cfe, temperatures)).toEqual(new Map([['H_BCC', 'BCC_A2']]));
  const fecr = mcFe.phasesFor(['CR', 'FE']);
  expect(duplicatePhases(mcFe, ['CR', 'FE', 'VA'], fecr, temperatures).get('H_BCC')).toBe('BCC_A2');
  // with H, H_BCC (FE : H,VA) dissolves it: two states, no duplicate
  const feh = mcFe.phasesFor(['FE', 'H']);
  expect(duplicatePhases(mcFe, ['FE', 'H', 'VA'], feh, temperatures).has('H_BCC')).toBe(false);
});

test('C-Fe: H_BCC, a state of BCC_A2, is not mapped; BCC_DISL + BCC_A2 is one field down to 300 K', () => {
  const d = mapBinary({ database: mcFe, components: ['C', 'FE'], T: [300, 800], threads: 2 });
  expect(d.regions.some((r) => r.phases.includes('H_BCC'))).toBe(false);
  const f = d.regions.filter((r) => r.phases.join('+') === 'BCC_DISL+BCC_A2');
  expect(f).toHaveLength(1);
  expect(f[0].tielines[0].T).toBe(300);
  expect(d.invariants.filter((v) => v.T < 800)).toEqual([]);
  expect(d.pureTransitions).toEqual([]);
  // the scans, with H_BCC, name the state either way: the same state, no boundary
  const a = auditBinary({
    database: mcFe,
    elements: ['C', 'FE'],
    T: [600, 700],
    isotherms: 2,
    scanPoints: 61,
    threads: 2,
    diagram: d,
  });
  expect(a.failures).toMatchObject({ topology: [], completeness: [], pureElements: [] });
}, 120_000);
