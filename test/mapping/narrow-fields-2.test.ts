// Narrow single-phase ranges, pure-element transitions and congruent points next to an element, each on
// the window of the diagram (and its self-audit, worker/mapping/audit.ts) where it was once judged wrong,
// so the test stays short:
//  - Cr-Nb (CrFeNb_Jacob2016): Laves C15 at 335 K is 5e-5 wide with bcc + C15 on both sides; no scan sees
//    its boundaries change a phase set, the equilibrium just inside each drawn field confirms them;
//  - Cu-Mg (cumg_parameters): hcp Mg dissolves ~1e-7 Cu, so a temperature scan 1e-7 from pure Mg meets
//    the hcp solvus at 912.7 K (a trace of liquid at x(Mg) 0.991 appears): not a transition of Mg, which
//    melts at 922.2 K;
//  - Al-Ni (alni_tough_chempot): the fcc liquidus peaks at 1732.1 K, x(Ni) 0.991, 4 K above the melting
//    point of Ni: a real congruent maximum next to the element, closed by a lens on each side;
//  - Al-Cr (issue43): the disordered state of GAMMA_PRIME (an L1_2 phase without a disordered part) has the
//    Gibbs energy of FCC_A1, so the solver splits one state into both at one composition: no field (none
//    traced, none demanded by the audit); and
//    the label of a single-phase field names what the full-sampling point equilibrium there finds, not the
//    seed grid's coarser choice.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { auditBinary } from '../../worker/mapping/audit.js';
import { mapBinary } from '../../worker/mapping/binary.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const db = (file: string) => openDatabase(path.join(SHARED_TDB_DIR, file));

describe('narrow ranges and pure-element edges (2)', () => {
  test('Cr-Nb: the boundaries of a line compound between two fields of one phase pair are confirmed', () => {
    const r = auditBinary({ database: db('CrFeNb_Jacob2016.tdb'), elements: ['CR', 'NB'], T: [300, 400], isotherms: 3, scanPoints: 61, threads: 2 });
    expect(r.regions).toBeGreaterThanOrEqual(2);
    expect(r.failures.completeness).toEqual([]);
  }, 60_000);

  test('Cu-Mg: a solvus crossing next to pure Mg is not a transition of the element', () => {
    const r = auditBinary({ database: db('cumg_parameters.tdb'), elements: ['CU', 'MG'], T: [880, 940], isotherms: 2, scanPoints: 41, threads: 2 });
    expect(r.failures.pureElements).toEqual([]);
    expect(r.failures.completeness).toEqual([]);
  }, 60_000);

  test('Al-Ni: a congruent maximum next to pure Ni with a field on each side is one', () => {
    const r = auditBinary({ database: db('alni_tough_chempot.tdb'), elements: ['AL', 'NI'], T: [1725, 1740], isotherms: 2, scanPoints: 41, threads: 2 });
    expect(r.failures.topology).toEqual([]);
  }, 60_000);

  test('Al-Cr (issue43): labels say what the point equilibrium says; a split at one composition is no field', () => {
    const database = db('issue43.tdb');
    const d = mapBinary({ database, components: ['AL', 'CR'], T: [1100, 1700], threads: 2 });
    // fcc and disordered GAMMA_PRIME are one state: no field between them, no "transition" of pure Al
    expect(d.regions.map((r) => r.phases.join('+'))).toEqual([]);
    expect(d.pureTransitions).toEqual([]);
    const inside = d.singlePhaseLabels.filter((l) => l.x > 2e-3 && l.x < 1 - 2e-3);
    expect(inside.length).toBeGreaterThan(0);
    for (const l of inside) {
      const r = equilibrium({ database, components: ['AL', 'CR', 'VA'], phases: database.phasesFor(['AL', 'CR']), conditions: { T: l.T, X: { CR: l.x } } });
      expect(r.phases.filter((p) => p.NP > 1e-9).map((p) => p.name)).toEqual([l.label]);
    }
    const a = auditBinary({ database, elements: ['AL', 'CR'], T: [500, 600], isotherms: 2, scanPoints: 61, threads: 2 });
    expect(a.failures.completeness).toEqual([]);
  }, 60_000);
});
