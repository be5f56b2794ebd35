// Melting points of pure elements from a database's own Gibbs energies (worker/core/melting.ts), against the SGTE
// unary data the databases take them from (Dinsdale, CALPHAD 15 (1991) 317: Al 933.47 K, Zn 692.68 K, Fe 1811 K,
// Ni 1728 K, Cr 2180 K), and the default temperature range of a new diagram built from them.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { meltingPoint, suggestedTemperatureRange } from '../../worker/core/melting.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const db = (file: string) => openDatabase(path.join(SHARED_TDB_DIR, file));

describe('melting points and the default range of a diagram', () => {
  it('are the SGTE melting points of the pure elements (within the 0.5 K of the search)', () => {
    const alzn = db('alzn_mey.tdb');
    expect(meltingPoint(alzn, 'AL')).toBeCloseTo(933.47, 0);
    expect(meltingPoint(alzn, 'ZN')).toBeCloseTo(692.68, 0);
    const steel = db('mf-steel.tdb');
    expect(meltingPoint(steel, 'FE')).toBeCloseTo(1811, 0);
    expect(meltingPoint(steel, 'NI')).toBeCloseTo(1728, 0);
    expect(meltingPoint(steel, 'CR')).toBeCloseTo(2180, 0);
    // a phase that runs into its pure-vacancy configuration at 6000 K (BCC_B2) does not hide nickel's melting point
    expect(meltingPoint(db('alni_dupin_2001.tdb'), 'NI')).toBeCloseTo(1728, 0);
  });

  it('opens a diagram 15 % above the highest melting point, from 300 K; interstitials beside a metal do not count', () => {
    expect(suggestedTemperatureRange(db('alzn_mey.tdb'), ['AL', 'ZN'])).toMatchObject({ start: 300, end: 1100 });
    expect(suggestedTemperatureRange(db('alni_dupin_2001.tdb'), ['AL', 'NI'])).toMatchObject({ start: 300, end: 2000 });
    const fec = suggestedTemperatureRange(db('cfe_broshe.tdb'), ['FE', 'C'])!;
    expect(fec.melting_points.C).toBeGreaterThan(4000);
    expect(fec).toMatchObject({ start: 300, end: 2100 });
  });
});
