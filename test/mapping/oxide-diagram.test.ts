// Fe-O (alfeo.tdb): the Fe-rich metal is bcc iron, and the alpha/gamma transition of Fe opens a lens that an
// invariant with wustite (FCC + BCC + HALITE) cuts short 0.1 K above it. BCC_B2 (AL,FE)(AL,FE)(O,VA) holds only
// Fe on its ordering sublattices in this system, so it can only be disordered and is drawn as BCC_A2, as every
// result names it; the lens is found by the search 0.02 K from the transition (0.2 K lies beyond the invariant).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { mapBinary } from '../../worker/mapping/binary.js';
import { mapTernary } from '../../worker/mapping/ternary.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

describe('Fe-O diagram next to pure Fe (alfeo.tdb)', () => {
  const db = openDatabase(path.join(SHARED_TDB_DIR, 'alfeo.tdb'));
  const d = mapBinary({ database: db, components: ['FE', 'O'], xComponent: 'O', T: [1000, 1400], threads: 2 });

  it('labels the disordered-only BCC_B2 as BCC_A2', () => {
    const labels = d.regions.flatMap((r) => r.phases);
    expect(labels).toContain('BCC_A2');
    expect(labels.filter((l) => l.startsWith('BCC_B2'))).toEqual([]);
  });

  it('draws the alpha/gamma transition of Fe and its lens up to the FCC + BCC + HALITE invariant', () => {
    const alphaGamma = d.pureTransitions.find((p) => p.x === 0 && Math.abs(p.T - 1184.81) < 0.05);
    expect(alphaGamma, JSON.stringify(d.pureTransitions)).toBeDefined();
    expect([...alphaGamma!.phases].sort()).toEqual(['BCC_A2', 'FCC_A1']);
    const lens = d.regions.find((r) => [...r.phases].sort().join('+') === 'BCC_A2+FCC_A1');
    expect(lens).toBeDefined();
    const Ts = lens!.tielines.map((t) => t.T);
    expect(Math.min(...Ts)).toBeCloseTo(1184.81, 1);
    expect(Math.max(...Ts)).toBeCloseTo(1184.91, 1);
  });
});

describe('Al-Fe-O section with CORUNDUM next to the metals (alfeo.tdb, 1473 K)', () => {
  it('converges every point equilibrium and finds the corundum + intermetallic triangles', () => {
    // with corundum's Fe defects at 1e-14 a fifth of the section's equilibria ran to the Newton iteration limit,
    // and the triangles of corundum with AL5FE2 were lost (test/core/solver/oxide-convergence.test.ts)
    const db = openDatabase(path.join(SHARED_TDB_DIR, 'alfeo.tdb'));
    const s = mapTernary({ database: db, components: ['AL', 'FE', 'O'], T: 1473, threads: 2, gridDivisions: 8 });
    expect(s.stats.notConverged).toBe(0);
    const triangles = s.triangles.map((t) => [...t.phases].sort().join('+'));
    expect(triangles).toContain('AL13FE4+AL5FE2+CORUNDUM');
    expect(triangles).toContain('AL5FE2+AL5FE4+CORUNDUM');
  });
});
