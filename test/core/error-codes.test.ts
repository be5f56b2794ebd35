// The core's codes are listed once, in native-core/src/io/errors.hpp (kErrorCodes): worker/core/
// error-codes.generated.ts is made from that list, and equilibrium results that did not converge carry one of them
// next to their reason's text (EquilibriumResult.reasonCode), which is what code reads to tell "no equilibrium
// exists" from "the solver did not find it".
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, HEADER_FILE, generatedModule, parseErrorCodes } from '../../scripts/error-codes.js';
import { CORE_ERROR_CODES } from '../../worker/core/errors.js';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium, equilibriumBatch, createBatchControl, saysNoEquilibrium } from '../../worker/core/equilibrium.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the list of error codes', () => {
  it(`${GENERATED_FILE} is what ${HEADER_FILE} gives (regenerate: npm run build && node dist/scripts/error-codes.js)`, () => {
    const header = readFileSync(path.join(ROOT, HEADER_FILE), 'utf8');
    expect(readFileSync(path.join(ROOT, GENERATED_FILE), 'utf8')).toBe(generatedModule(parseErrorCodes(header)));
  });

  it('every code of the enum is in the list once, with a meaning', () => {
    const header = readFileSync(path.join(ROOT, HEADER_FILE), 'utf8');
    const enumBody = /enum class ErrorCode \{([^}]*)\}/.exec(header)![1]!;
    const members = enumBody
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const entries = parseErrorCodes(header);
    expect(entries.length).toBe(members.length);
    expect(new Set(entries.map((e) => e.name)).size).toBe(entries.length);
    for (const e of entries) expect(e.meaning.length, e.name).toBeGreaterThan(10);
    expect([...CORE_ERROR_CODES]).toEqual(entries.map((e) => e.name));
  });

  it('a malformed entry is refused, not skipped', () => {
    expect(() => parseErrorCodes('kErrorCodes[] = {\n    {ErrorCode::File, "PD_FILE"},\n};')).toThrow(
      /not of the form/,
    );
  });
});

describe('the reason code of an equilibrium result', () => {
  it('a converged result has none', () => {
    const db = openDatabase(path.join(SHARED_TDB_DIR, 'alzn_mey.tdb'));
    const r = equilibrium({ database: db, components: ['AL', 'ZN'], conditions: { T: 700, X: { ZN: 0.3 } } });
    expect(r.converged, r.reason).toBe(true);
    expect(r.reasonCode).toBeUndefined();
  });

  it('a composition no allowed phase can take: PD_NO_EQUILIBRIUM, the text as before', () => {
    // every phase of this oxide database needs oxygen: Al-Nd has no grid point
    const db = openDatabase(path.join(SHARED_TDB_DIR, 'al2o3_nd2o3_zro2.tdb'));
    const r = equilibrium({ database: db, components: ['AL', 'ND', 'VA'], conditions: { T: 300, X: { ND: 0.5 } } });
    expect(r.converged).toBe(false);
    expect(r.reasonCode).toBe('PD_NO_EQUILIBRIUM');
    expect(r.reason).toMatch(/cannot be reached with the allowed phases/);
    expect(saysNoEquilibrium(r)).toBe(true);
  });

  it('a phase without a lower bound of its Gibbs energy: PD_NO_EQUILIBRIUM, the text as before', () => {
    // V-O with HALITE, as test/core/solver/stoichiometric-convergence.test.ts
    const db = openDatabase(path.join(SHARED_TDB_DIR, 'pycalphad_inline_V_O_gas_halite.tdb'));
    const va = db.info().elements.some((e) => e.name.toUpperCase() === 'VA') ? ['VA'] : [];
    const r = equilibrium({
      database: db,
      components: ['O', 'V', ...va],
      phases: db.phasesFor(['O', 'V']),
      conditions: { T: 335.6, P: 101325, X: { V: 1e-6 } },
    });
    expect(r.converged).toBe(false);
    expect(r.reasonCode).toBe('PD_NO_EQUILIBRIUM');
    expect(r.reason).toMatch(/no equilibrium exists/);
  });

  it("a batch's conditions not reached when it is cancelled: PD_CANCELLED", () => {
    const db = openDatabase(path.join(SHARED_TDB_DIR, 'alzn_mey.tdb'));
    const request = {
      database: db,
      components: ['AL', 'ZN'],
      conditions: [600, 700].map((T) => ({ T, X: { ZN: 0.3 } })),
    };
    // built first (cached per thread): a flag set while the models and grids are built throws PD_CANCELLED instead
    expect(equilibriumBatch(request).every((r) => r.converged && r.reasonCode === undefined)).toBe(true);
    const control = createBatchControl();
    control.cancel();
    const rs = equilibriumBatch({ ...request, control: control.buffer });
    expect(rs.length).toBe(2);
    for (const r of rs) {
      expect(r.reason).toBe('cancelled');
      expect(r.reasonCode).toBe('PD_CANCELLED');
      expect(saysNoEquilibrium(r)).toBe(false);
    }
  });
});
