// One disordered phase, one name (worker/system/disordered-sets.ts and the solver's candidates,
// native-core/src/napi/solver_napi.cpp): on MF Steel, BCC_A2 is the DIS_PART of both BCC_B2 and BCC_4SL. A line
// through disordered Fe-Si bcc names it one way at every point and reports no transition between names of it, and
// two sets of one phase at one composition are one set.
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { scanLine } from '../../worker/scans/line-scan.js';
import { merged } from '../../worker/system/disordered-sets.js';
import type { CompositionSet } from '../../worker/core/equilibrium.js';
import { JobControl } from '../../worker/protocol.js';
import { parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-disordered-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The Fe-Si line of the audit: 1343.75 K, x(Si) 0 to 0.1 (fcc, fcc + bcc from 0.0275, disordered bcc from 0.0327). */
function feSiLine(inhibit: string[], points: number) {
  const job = parsedJob('line_calculation', {
    taskUuid: 'd',
    ompThreads: 1,
    taskDir: path.join(tmp, `${inhibit.length}-${points}`),
    control: new SharedArrayBuffer(16),
    config: {
      task_type: 'line_calculation',
      tdb_code: 'MF_STEEL',
      tdb_file: path.join(SHARED_TDB_DIR, 'mf-steel.tdb'),
      condition: {
        components: ['FE', 'SI'],
        compositions_start: { SI: 0 },
        compositions_end: { SI: 0.1 },
        temperature_start: 1343.75,
        temperature_end: 1343.75,
        pressure: 101325,
        points,
        inhibit_phases: inhibit,
      },
    },
  });
  return scanLine(job, new JobControl(new SharedArrayBuffer(16)));
}

const bccNames = (scan: ReturnType<typeof feSiLine>) =>
  new Set(scan.results.flatMap((r) => r.phases.map((p) => p.name)).filter((n) => n.startsWith('BCC')));

describe('a disordered phase described by several phases has one name', () => {
  it('BCC_A2 beside its ordered BCC_B2: the disordered bcc is BCC_B2 at every point, two transitions', () => {
    // BCC_4SL (the other phase naming BCC_A2 as its disordered part) left out: BCC_A2 used to stay a candidate of
    // the same Gibbs energy as disordered BCC_B2, and the line swapped between them
    const scan = feSiLine(['BCC_4SL', 'FCC_L10', 'FCC_L12', 'HCP_L12', 'KAPPA_E21', '@gas', '@ionic_liquid'], 200);
    expect([...bccNames(scan)]).toEqual(['BCC_B2']);
    expect(scan.transitions.map((t) => [t.appearing, t.disappearing])).toEqual([
      [['BCC_B2'], []],
      [[], ['FCC_A1']],
    ]);
    expect(scan.transitions[0]!.x.SI).toBeCloseTo(0.0275, 3);
    expect(scan.transitions[1]!.x.SI).toBeCloseTo(0.0327, 3);
  });

  it('BCC_B2 and BCC_4SL: their disordered states are one phase named BCC_B2', () => {
    const scan = feSiLine(['FCC_L10', 'FCC_L12', 'HCP_L12', 'KAPPA_E21', '@gas', '@ionic_liquid'], 41);
    expect([...bccNames(scan)]).toEqual(['BCC_B2']);
    expect(scan.transitions.map((t) => [t.appearing, t.disappearing])).toEqual([
      [['BCC_B2'], []],
      [[], ['FCC_A1']],
    ]);
  });
});

describe('two sets of one phase at one composition', () => {
  const set = (setNumber: number, NP: number, GM: number, si: number): CompositionSet => ({
    name: 'FCC_L12',
    setNumber,
    NP,
    GM,
    x: { FE: 1 - si, SI: si },
    y: new Float64Array([1 - si, si]),
    HM: 0,
    SM: 0,
    CPM: 0,
  });

  it('are one set: the state of least Gibbs energy with both amounts', () => {
    const out = merged([set(1, 0.98, -67944.40305037, 2e-4), set(2, 0.02, -67944.40305093, 2e-4 + 1e-9)]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ setNumber: 1, GM: -67944.40305093 });
    expect(out[0]!.NP).toBeCloseTo(1, 12);
  });

  it('at different compositions stay two (a miscibility gap)', () => {
    const sets = [set(1, 0.5, -1, 0.1), set(2, 0.5, -1, 0.1001)];
    expect(merged(sets)).toBe(sets);
  });
});
