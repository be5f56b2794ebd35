// A disordered phase named as the DIS_PART of an ordered phase is not a separate candidate when the ordered
// phase contains it (its states are the ordered phase's disordered ones). COST507's BCC_B2,
// (...)0.5(...)0.5(VA)3, does not contain BCC_A2, (...)1(B,C,N,VA)3: left out, the bcc solution lost its
// interstitials, and beta-Ti dissolved no carbon or nitrogen (Ti-0.5C at 1500 K: TiC + carbon-free bcc, 142 J/mol
// above the single bcc solution the database describes).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibrium } from '../../../worker/core/equilibrium.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';

const db = openDatabase(path.join(SHARED_TDB_DIR, 'COST507.tdb'));
const solve = (els: [string, string], T: number, X: Record<string, number>) =>
  equilibrium({ database: db, components: [...els, 'VA'], phases: db.phasesFor(els), conditions: { T, P: 101325, X } });

describe('DIS_PART phases as candidates (COST507 bcc)', () => {
  it.each([
    [['C', 'TI'], 1500, 'C', 0.005],
    [['C', 'TI'], 1900, 'C', 0.01],
    [['N', 'TI'], 1800, 'N', 0.02],
  ] as const)('%j at %s K: the bcc solution holds the interstitial (X(%s)=%s)', (els, T, el, x) => {
    const r = solve([...els] as [string, string], T, { [el]: x });
    expect(r.converged, r.reason).toBe(true);
    expect(r.phases.map((p) => p.name)).toEqual(['BCC_A2']);
    expect(r.phases[0].x[el]).toBeCloseTo(x, 9);
  });

  it('where the ordered phase contains it (Al-Fe), the disordered phase is not offered separately', () => {
    const r = solve(['AL', 'FE'], 1200, { AL: 0.1 });
    expect(r.converged, r.reason).toBe(true);
    const names = [...r.phases, ...r.metastable].map((p) => p.name);
    expect(names).toContain('BCC_B2');
    expect(names).not.toContain('BCC_A2');
  });
});
