// Phases that hold no state of their own (worker/system/duplicate-phases.ts). H_BCC of mc_fe_v2.059 (FE : H,VA) is
// pure bcc Fe without H, with BCC_A2's Gibbs energy for FE:VA; mapped with both, the solver's choice between them
// (5e-8 J/mol apart in C-Fe at 620 K) made an invariant at 672.28 K and a transition of pure Fe on the C-Fe diagram.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { auditBinary } from '../../worker/mapping/audit.js';
import { mapBinary } from '../../worker/mapping/binary.js';
import { duplicatePhases } from '../../worker/system/duplicate-phases.js';
import { selectPhases } from '../../worker/system/phase-selection.js';
import type { DatabasePhaseSelection } from '../../contract/phase-selection.js';
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

test('Al-B of mf-steel with its recommended selection: ALCRFE_O1 (AL : AL,CR,FE), pure fcc Al there, is not mapped', () => {
  const mf = openDatabase(path.join(SHARED_TDB_DIR, 'mf-steel.tdb'));
  const catalog = JSON.parse(readFileSync(path.join(__dirname, '../../databases/catalog.json'), 'utf8')) as {
    file: string;
    phase_selection?: DatabasePhaseSelection;
  }[];
  const selection = catalog.find((r) => r.file.endsWith('mf-steel.tdb'))!.phase_selection!;
  const phases = selectPhases(mf, ['AL', 'B'], { database: selection }, 'mf-steel.tdb').phases!;
  // the selection lists both: a task's explicit phases, which the mapper used to take as they were
  expect(phases).toEqual(expect.arrayContaining(['ALCRFE_O1', 'FCC_A1']));
  expect(duplicatePhases(mf, ['AL', 'B', 'VA'], phases, [300, 900]).get('ALCRFE_O1')).toBe('FCC_A1');
  const d = mapBinary({ database: mf, components: ['AL', 'B'], T: [300, 900], phases, threads: 2 });
  expect(d.regions.some((r) => r.phases.includes('ALCRFE_O1'))).toBe(false);
  expect(d.regions.some((r) => [...r.phases].sort().join('+') === 'ALB12+FCC_A1')).toBe(true);
}, 120_000);
