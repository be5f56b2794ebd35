// The ranges a new diagram opens with (worker/core/system-range.ts), against hand-checked features of the systems:
// Cu-Ni's liquidus runs from Cu's 1357.8 K to Ni's 1728 K (SGTE unary data, Dinsdale, CALPHAD 15 (1991) 317); Fe-C
// has its eutectic near 1420 K at 4.3 mass % C (0.173 mole fraction) and its eutectoid near 1000 K at 0.77 mass % C
// (Okamoto, J. Phase Equilib. 13 (1992) 543); B2 NiAl melts congruently at 1911 K, above Ni.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { massFraction, suggestedRanges } from '../../worker/core/system-range.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const bundled = (file: string) => openDatabase(path.join(import.meta.dirname, '../../databases', file));

describe('the default ranges of a new diagram', () => {
  it('mass fraction of a binary from its mole fraction', () => {
    // Fe3C: x(C) = 0.25; w = 12.011 / (12.011 + 3 * 55.845) = 12.011 / 179.546 = 0.066896
    expect(massFraction(0.25, 55.845, 12.011)).toBeCloseTo(0.066896, 5);
    expect(massFraction(0, 55.845, 12.011)).toBe(0);
    expect(massFraction(1, 55.845, 12.011)).toBe(1);
  });

  it('Cu-Ni: the whole composition range and the whole liquidus (1358-1728 K) inside the temperature range', () => {
    const r = suggestedRanges(bundled('cuni_mey1992.tdb'), ['CU', 'NI']);
    expect(r.composition).toBeNull();
    expect(r.temperature!.start).toBeLessThan(1358);
    expect(r.temperature!.end).toBeGreaterThan(1728);
    expect(r.temperature).toMatchObject({ start: 300, end: 2000 });
  });

  it('Fe-C on the bundled steel database: the eutectic, the eutectoid and 4.3 mass % C inside, graphite left out', () => {
    const r = suggestedRanges(bundled('mf-steel.tdb'), ['FE', 'C']);
    expect(r.temperature!.start).toBeLessThan(1000);
    expect(r.temperature!.end).toBeGreaterThan(1811);
    expect(r.composition).toEqual({ element: 'C', mole_fraction: [0, 0.25], mass_fraction: [0, 0.07] });
    expect(r.composition!.mass_fraction[1]).toBeGreaterThan(0.043);
    expect(r.composition!.mole_fraction[1]).toBeGreaterThan(0.173);
  });

  it('Al-Ni: the end is raised above B2 NiAl (1911 K); ternaries keep the melting-point range', () => {
    const alni = suggestedRanges(openDatabase(path.join(SHARED_TDB_DIR, 'alni_dupin_2001.tdb')), ['AL', 'NI']);
    expect(alni.temperature!.end).toBeGreaterThan(1911);
    expect(alni.composition).toBeNull();
    const almgzn = suggestedRanges(bundled('COST507.tdb'), ['AL', 'MG', 'ZN']);
    expect(almgzn).toMatchObject({ temperature: { start: 300, end: 1100 }, composition: null });
  });
});
