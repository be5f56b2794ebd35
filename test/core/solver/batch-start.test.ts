// options.start of equilibriumBatch (with warmStart): a scan cut into batches continues each batch from the
// last result of the one before, so only the scan's first point starts from the convex hull. The first
// condition of the batch must then be solved exactly as equilibrium() solves it from the same start (the
// same code path, so the same numbers bit for bit), and that answer is still the certified cold one.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibrium, equilibriumBatch, type EquilibriumResult } from '../../../worker/core/equilibrium.js';

const TDB = path.resolve(__dirname, '../../../../shared/tdb');

const state = (r: EquilibriumResult) => JSON.stringify(r.phases.map((p) => [p.name, p.NP, p.y]));

describe('equilibriumBatch options.start', () => {
  const db = openDatabase(path.join(TDB, 'alzn_mey.tdb'));
  const components = ['AL', 'ZN', 'VA'];
  const previous = equilibrium({ database: db, components, conditions: { T: 600, X: { ZN: 0.4 } } });

  it('the first condition continues from the given result (as equilibrium() does), the rest follow it', () => {
    // in the FCC miscibility gap and out of it: warm and cold Newton paths end at different round-off
    for (const T of [602, 640]) {
      const c = { T, X: { ZN: 0.4 } };
      const cold = equilibrium({ database: db, components, conditions: c });
      const single = equilibrium({ database: db, components, conditions: c, options: { start: previous } });
      const [first, second] = equilibriumBatch({
        database: db,
        components,
        conditions: [c, { T: T + 2, X: { ZN: 0.4 } }],
        options: { warmStart: true, start: previous },
      });
      expect(state(first), `T=${T}`).toBe(state(single));
      expect(first.phases.map((p) => p.name)).toEqual(cold.phases.map((p) => p.name));
      expect(Math.abs(first.GM - cold.GM)).toBeLessThan(1e-6);
      expect(second.converged).toBe(true);
    }
  });

  it('is ignored without warmStart, and a start that does not fit falls back to the cold start', () => {
    const c = { T: 602, X: { ZN: 0.4 } };
    const cold = equilibrium({ database: db, components, conditions: c });
    const [plain] = equilibriumBatch({ database: db, components, conditions: [c], options: { start: previous } });
    expect(state(plain)).toBe(state(cold));
    const [unfit] = equilibriumBatch({
      database: db,
      components,
      conditions: [c],
      options: { warmStart: true, start: { ...previous, converged: false } },
    });
    expect(state(unfit)).toBe(state(cold));
  });

  it('options.starts: each condition starts from its own result, as equilibrium() from that start solves it', () => {
    // two searches side by side (worker/scans/liquidus-batch.ts): conditions of different alloys, each continuing from
    // a state of its own; undefined = the cold start. Four conditions on two threads: each thread's block of two
    const alloys = [0.1, 0.4, 0.6, 0.8];
    const starts = alloys.map((x, i) =>
      i === 2 ? undefined : equilibrium({ database: db, components, conditions: { T: 600, X: { ZN: x } } }),
    );
    const conditions = alloys.map((x) => ({ T: 604, X: { ZN: x } }));
    const batch = equilibriumBatch({ database: db, components, conditions, options: { starts }, threads: 2 });
    conditions.forEach((c, i) => {
      const start = starts[i];
      const single = equilibrium({ database: db, components, conditions: c, options: start ? { start } : undefined });
      expect(state(batch[i]!), `ZN=${alloys[i]}`).toBe(state(single));
    });
  });

  it('options.starts: a thread done with its block solves the rest of the other block, each condition once', () => {
    // the first block's conditions start cold (several times the work of a warm start), the second block's warm: the
    // second thread finishes first and takes the first block's last conditions (native-core/src/solver/batch.cpp)
    const xs = Array.from({ length: 24 }, (_, i) => 0.05 + (0.85 * i) / 23);
    const conditions = xs.map((x) => ({ T: 606, X: { ZN: x } }));
    const starts = xs.map((x, i) =>
      i < 12 ? undefined : equilibrium({ database: db, components, conditions: { T: 600, X: { ZN: x } } }),
    );
    const batch = equilibriumBatch({ database: db, components, conditions, options: { starts }, threads: 2 });
    expect(batch).toHaveLength(conditions.length);
    conditions.forEach((c, i) => {
      const start = starts[i];
      const single = equilibrium({ database: db, components, conditions: c, options: start ? { start } : undefined });
      expect(batch[i]!.converged, `ZN=${xs[i]}`).toBe(true);
      expect(state(batch[i]!), `ZN=${xs[i]}`).toBe(state(single));
    });
  });
});
