// A phase whose Gibbs energy per mole of atoms has no lower bound towards its pure-vacancy configuration (G(VA:VA) = 0
// and the configurational entropy of a few atoms on a vacant lattice) does not make the equilibrium fail: the solve
// is repeated with the phase left out of the stable assemblage, and the equilibrium of the other phases is the answer
// (its reason names the phase) when the other phases hold every element of the conditions
// (native-core/src/solver/equilibrium.cpp, without_vacant_phases). alcocrni's BCC_B2 (the B2 of Dupin's Al-Ni with
// constitutional vacancies) in Co-Cr above 2150 K: its hull vertex with three quarters of its sites vacant lay below
// the liquid, and Newton took it to N_f -> 0 ("no equilibrium exists"), or the grid re-scan kept finding its points
// below the liquid's tangent while their relaxations ran to the vacancy floor.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { convergedNote, equilibrium, saysNoEquilibrium } from '../../../worker/core/equilibrium.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';

const alcocrni = openDatabase(path.join(SHARED_TDB_DIR, 'alcocrni.tdb'));
const coCr = (T: number, xCr: number, pdens?: number) =>
  equilibrium({
    database: alcocrni,
    components: ['CO', 'CR', 'VA'],
    phases: alcocrni.phasesFor(['CO', 'CR']),
    conditions: { T, P: 101325, X: { CR: xCr } },
    options: pdens ? { pdens } : undefined,
  });
const stable = (r: ReturnType<typeof coCr>) => r.phases.filter((p) => p.NP > 1e-9).map((p) => p.name);

describe('a phase running into its pure-vacancy configuration is left out of the equilibrium', () => {
  it('Co-Cr at 2159.71 K, x(Cr) = 0.0823: the liquid, BCC_B2 left out and named', () => {
    const r = coCr(2159.71, 0.0823);
    expect(r.converged, r.reason).toBe(true);
    expect(stable(r)).toEqual(['LIQUID']);
    expect(r.phases[0]!.x.CR).toBeCloseTo(0.0823, 9);
    expect(r.reason).toMatch(/^converged; left out: BCC_B2 \(runs into its pure-vacancy configuration/);
    expect(r.metastable.map((p) => p.name)).toContain('BCC_B2');
    // the note a point's result and a batch row keep in their reason
    expect(convergedNote(r)).toMatch(/^left out: BCC_B2 /);
  });

  it('... also where the grid re-scan found its points below the tangent (2255.56 K, x(Cr) = 0.3, the map grid)', () => {
    const r = coCr(2255.56, 0.3, 30);
    expect(r.converged, r.reason).toBe(true);
    expect(stable(r)).toEqual(['LIQUID']);
    expect(r.reason).toMatch(/left out: BCC_B2/);
  });

  it('an equilibrium that converged before is the same, and says converged alone', () => {
    const r = coCr(1400, 0.15);
    expect(r.converged, r.reason).toBe(true);
    expect(r.reason).toBe('converged');
    expect(convergedNote(r)).toBe('');
    expect(stable(r)).toEqual(['L12_FCC']); // its disordered state
  });

  it('without the phase that alone takes an element there is still no equilibrium (V-O, HALITE)', () => {
    const db = openDatabase(path.join(SHARED_TDB_DIR, 'pycalphad_inline_V_O_gas_halite.tdb'));
    for (const xV of [1e-6, 1e-9]) {
      const r = equilibrium({
        database: db,
        components: ['O', 'V', 'VA'],
        phases: db.phasesFor(['O', 'V']),
        conditions: { T: 900, P: 101325, X: { V: xV } },
      });
      expect(saysNoEquilibrium(r), r.reason).toBe(true);
      expect(r.reason).toMatch(/HALITE runs into its pure-vacancy configuration/);
    }
  });
});
