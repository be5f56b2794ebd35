// Narrow single-phase ranges, pure-element transitions and congruent points next to an element, each on
// the window of the diagram (and its self-audit, worker/mapping/audit.ts) where it was once judged wrong,
// so the test stays short:
//  - Cr-Nb (CrFeNb_Jacob2016): Laves C15 at 335 K is 5e-5 wide with bcc + C15 on both sides; no scan sees
//    its boundaries change a phase set, the equilibrium just inside each drawn field confirms them;
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { auditBinary } from '../../worker/mapping/audit.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const db = (file: string) => openDatabase(path.join(SHARED_TDB_DIR, file));

describe('narrow ranges and pure-element edges (2)', () => {
  test('Cr-Nb: the boundaries of a line compound between two fields of one phase pair are confirmed', () => {
    const r = auditBinary({ database: db('CrFeNb_Jacob2016.tdb'), elements: ['CR', 'NB'], T: [300, 400], isotherms: 3, scanPoints: 61, threads: 2 });
    expect(r.regions).toBeGreaterThanOrEqual(2);
    expect(r.failures.completeness).toEqual([]);
  }, 60_000);
});
