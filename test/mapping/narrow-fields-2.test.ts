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
    const r = auditBinary({
      database: db('CrFeNb_Jacob2016.tdb'),
      elements: ['CR', 'NB'],
      T: [300, 400],
      isotherms: 3,
      scanPoints: 61,
      threads: 2,
    });
    expect(r.regions).toBeGreaterThanOrEqual(2);
    expect(r.failures.completeness).toEqual([]);
  }, 60_000);

  test('Cu-Mg: a solvus crossing next to pure Mg is not a transition of the element', () => {
    const r = auditBinary({
      database: db('cumg_parameters.tdb'),
      elements: ['CU', 'MG'],
      T: [880, 940],
      isotherms: 2,
      scanPoints: 41,
      threads: 2,
    });
    expect(r.failures.pureElements).toEqual([]);
    expect(r.failures.completeness).toEqual([]);
  }, 60_000);

  test('Al-Ni: a congruent maximum next to pure Ni with a field on each side is one', () => {
    const r = auditBinary({
      database: db('alni_tough_chempot.tdb'),
      elements: ['AL', 'NI'],
      T: [1725, 1740],
      isotherms: 2,
      scanPoints: 41,
      threads: 2,
    });
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
      const r = equilibrium({
        database,
        components: ['AL', 'CR', 'VA'],
        phases: database.phasesFor(['AL', 'CR']),
        conditions: { T: l.T, X: { CR: l.x } },
      });
      expect(r.phases.filter((p) => p.NP > 1e-9).map((p) => p.name)).toEqual([l.label]);
    }
    const a = auditBinary({
      database,
      elements: ['AL', 'CR'],
      T: [500, 600],
      isotherms: 2,
      scanPoints: 61,
      threads: 2,
    });
    expect(a.failures.completeness).toEqual([]);
  }, 60_000);

  test("C-Si and Cu-Li (COST507): an invariant with two phases at the element is the element's transition too", () => {
    const csi = mapBinary({ database: db('COST507.tdb'), components: ['C', 'SI'], T: [1600, 1750], threads: 2 });
    expect(csi.invariants.map((v) => Math.round(v.T))).toEqual([1687]);
    expect(csi.pureTransitions.filter((p) => p.x === 1).map((p) => Math.round(p.T))).toEqual([1687]);
    const culi = mapBinary({ database: db('COST507.tdb'), components: ['CU', 'LI'], T: [400, 500], threads: 2 });
    expect(culi.pureTransitions.filter((p) => p.x === 1).map((p) => p.T.toFixed(1))).toEqual(['453.6']);
  }, 60_000);

  test('Mg-Zn (COST507): L + Mg7Zn3 between invariants 0.04 K apart is traced', () => {
    const d = mapBinary({ database: db('COST507.tdb'), components: ['MG', 'ZN'], T: [600, 630], threads: 2 });
    const f = d.regions.filter((r) => r.phases.includes('LIQUID') && r.phases.includes('MG7ZN3'));
    expect(f).toHaveLength(1);
    expect(f[0].ends).toEqual({ low: 'invariant', high: 'invariant' });
    const near = d.invariants
      .filter((v) => v.T > 614 && v.T < 614.3)
      .map((v) => v.T)
      .sort();
    expect(near).toHaveLength(2);
    expect(f[0].tielines[0].T).toBeCloseTo(near[0], 1);
    expect(f[0].tielines[f[0].tielines.length - 1].T).toBeCloseTo(near[1], 1);
  }, 60_000);

  test('Ni-V (COST507): the lens under a liquidus maximum 0.02 K above the melting point of Ni is traced', () => {
    const d = mapBinary({ database: db('COST507.tdb'), components: ['V', 'NI'], T: [1700, 1750], threads: 2 });
    expect(d.congruentPoints).toHaveLength(1);
    const lens = d.regions.filter(
      (r) => r.ends.low === 'pure_element' && r.phases.includes('LIQUID') && r.phases.includes('FCC_A1'),
    );
    expect(lens).toHaveLength(1);
    expect(d.pureTransitions.filter((p) => p.x === 1).length).toBe(1);
  }, 60_000);
});
