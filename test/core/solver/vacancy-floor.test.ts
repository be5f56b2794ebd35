// A phase that can be emptied of atoms (a pure-vacancy end member, G(VA:...:VA) = 0) has a Gibbs energy per
// mole of atoms without lower bound next to that configuration: the solver keeps such a phase at no fewer
// atoms than half its emptiest end member (PhaseGrid::nf_floor). alcocrni's BCC_B2 (Dupin-type B2 with
// vacancies on both sublattices) ran there in every Co-containing liquid above about 1800 K.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibrium, equilibriumBatch } from '../../../worker/core/equilibrium.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';

const db = openDatabase(path.join(SHARED_TDB_DIR, 'alcocrni.tdb'));

describe('vacancy floor', () => {
  it('Co-30Cr at 1900 K is liquid, not BCC_B2 running into its pure-vacancy configuration', () => {
    const r = equilibrium({ database: db, components: ['CO', 'CR', 'VA'], conditions: { T: 1900, X: { CR: 0.3 } } });
    expect(r.converged, r.reason).toBe(true);
    expect(r.phases.map((p) => p.name)).toEqual(['LIQUID']);
  });

  it('isotherms of the Co binaries at 2100 K and the quaternary liquid converge everywhere', () => {
    for (const [a, b] of [
      ['AL', 'CO'],
      ['CO', 'CR'],
      ['CO', 'NI'],
    ]) {
      const conds = Array.from({ length: 41 }, (_, i) => ({ T: 2100, X: { [b]: 0.001 + (0.998 * i) / 40 } }));
      const rs = equilibriumBatch({ database: db, components: [a, b, 'VA'], conditions: conds });
      expect(rs.filter((r) => !r.converged).map((r) => `${a}-${b} X=${r.x[b]}: ${r.reason}`)).toEqual([]);
    }
    const quaternary = equilibrium({
      database: db,
      components: ['AL', 'CO', 'CR', 'NI', 'VA'],
      conditions: { T: 1850, X: { AL: 0.25, CO: 0.25, CR: 0.25 } },
    });
    expect(quaternary.converged, quaternary.reason).toBe(true);
  });

  it('B2 with constitutional vacancies (above the floor) stays available (Al-rich NiAl at 1400 K)', () => {
    const r = equilibrium({ database: db, components: ['AL', 'NI', 'VA'], conditions: { T: 1400, X: { NI: 0.45 } } });
    expect(r.converged, r.reason).toBe(true);
    expect(r.phases.map((p) => p.name)).toContain('BCC_B2');
  });
});
