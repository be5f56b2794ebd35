// The core honours cancel inside long native calls: building the models and the sampling grids of a new
// system (the first call on Al-Fe_sundman2009.tdb spends most of its time there), compiling models, and
// batch evaluation. A helper thread sets the flag once the call has started; the call returns early with
// an Error of code PD_CANCELLED, and nothing half-built is kept (the next call works).
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { openDatabase, openDatabaseFromString } from '../../../worker/core/database.js';
import { equilibrium, equilibriumBatch, type EquilibriumRequest } from '../../../worker/core/equilibrium.js';
import { withCancelFlag } from '../../../worker/core/cancel.js';
import { isCoreError } from '../../../worker/core/errors.js';
import { PhaseModel } from '../../../worker/core/models.js';
import { haveTdb, tdbPath } from '../io/helpers.js';

// Waits until Int32 [0] of `sync` becomes 1 (the main thread is about to enter the native call), lets the
// call run for `delayMs`, then sets the cancel flag (Int32 [0] of `control`).
const CANCELLER = `
const { workerData, parentPort } = require('node:worker_threads');
const sync = new Int32Array(workerData.sync), flag = new Int32Array(workerData.control);
parentPort.postMessage('ready');
Atomics.wait(sync, 0, 0);
Atomics.wait(sync, 1, 0, workerData.delayMs);
Atomics.store(flag, 0, 1);
`;

async function cancelDuring<T>(
  delayMs: number,
  call: (control: SharedArrayBuffer) => T,
): Promise<{ error?: unknown; value?: T }> {
  const control = new SharedArrayBuffer(16),
    sync = new SharedArrayBuffer(8);
  const w = new Worker(CANCELLER, { eval: true, workerData: { control, sync, delayMs } });
  await new Promise((resolve) => w.once('message', resolve));
  Atomics.store(new Int32Array(sync), 0, 1);
  Atomics.notify(new Int32Array(sync), 0);
  try {
    return { value: call(control) };
  } catch (error) {
    return { error };
  } finally {
    await w.terminate();
  }
}

const COMPONENTS = ['AL', 'FE', 'VA'];
const AT = { T: 1000, X: { AL: 0.3 } };

describe.skipIf(!haveTdb)('cancel inside long native calls', () => {
  // pdens 500 makes building the grids of this system take seconds, so the flag surely arrives during it
  const slow = { pdens: 500 };

  it('a first equilibrium on Al-Fe_sundman2009 stops while building its grids (PD_CANCELLED)', async () => {
    const database = openDatabase(tdbPath('Al-Fe_sundman2009.tdb'));
    const req = (control?: SharedArrayBuffer): EquilibriumRequest => ({
      database,
      components: COMPONENTS,
      conditions: AT,
      options: slow,
      control,
    });
    const r = await cancelDuring(50, (control) => equilibrium(req(control)));
    expect(r.value).toBeUndefined();
    expect(isCoreError(r.error, 'PD_CANCELLED')).toBe(true);
    expect((r.error as Error).message).toBe('calculation cancelled');
    // nothing half-built was cached: the same system solves afterwards
    expect(equilibrium({ ...req(), options: { pdens: 60 } }).converged).toBe(true);
  });

  it('a batch with a control block stops while building too', async () => {
    const database = openDatabase(tdbPath('Al-Fe_sundman2009.tdb'));
    const r = await cancelDuring(50, (control) =>
      equilibriumBatch({
        database,
        components: COMPONENTS,
        conditions: [AT, { ...AT, T: 1100 }],
        options: slow,
        control,
      }),
    );
    expect(isCoreError(r.error, 'PD_CANCELLED')).toBe(true);
  });

  it("model building and batch evaluation honour the thread's cancel flag", () => {
    const database = openDatabase(tdbPath('Al-Fe_sundman2009.tdb'));
    const control = new SharedArrayBuffer(16);
    Atomics.store(new Int32Array(control), 0, 1);
    const build = () => PhaseModel.build(database, 'BCC_4SL', COMPONENTS);
    expect(() => withCancelFlag(control, build)).toThrow(expect.objectContaining({ code: 'PD_CANCELLED' }));
    const model = build()!; // the flag is cleared again after withCancelFlag
    const y = new Float64Array(model.variables.length * 1000).fill(0.5);
    expect(() => withCancelFlag(control, () => model.evaluateBatch(1000, 101325, y, 2, 2))).toThrow(
      expect.objectContaining({ code: 'PD_CANCELLED' }),
    );
    expect(model.evaluateBatch(1000, 101325, y, 2, 2).length).toBe(1000);
  });
});

describe('withCancelFlag', () => {
  const db = openDatabaseFromString(
    'ELEMENT AL FCC_A1 26.98 0 0 !\nELEMENT ZN HCP_A3 65.38 0 0 !\n' +
      'PHASE LIQUID:L % 1 1 !\nCONSTITUENT LIQUID:L :AL,ZN: !\nPARAMETER G(LIQUID,AL;0) 298.15 -1000; 6000 N !\n' +
      'PARAMETER G(LIQUID,ZN;0) 298.15 -2000; 6000 N !\n',
    'small.tdb',
  );
  const build = () => PhaseModel.build(db, 'LIQUID', ['AL', 'ZN']);

  it('clears the flag after a throw and after an async function settles', async () => {
    const control = new SharedArrayBuffer(16);
    Atomics.store(new Int32Array(control), 0, 1);
    expect(() => withCancelFlag(control, build)).toThrow(expect.objectContaining({ code: 'PD_CANCELLED' }));
    expect(build()).not.toBeNull();
    expect(() =>
      withCancelFlag(control, () => {
        throw new Error('sync');
      }),
    ).toThrow('sync');
    expect(build()).not.toBeNull();
    const pending = withCancelFlag(control, async () => {
      await new Promise((r) => setTimeout(r, 1));
      return build();
    });
    await expect(pending).rejects.toThrow(expect.objectContaining({ code: 'PD_CANCELLED' }));
    expect(build()).not.toBeNull();
  });

  it('a nested call with its own control block restores the outer flag', () => {
    const outer = new SharedArrayBuffer(16),
      inner = new SharedArrayBuffer(16);
    withCancelFlag(outer, () => {
      withCancelFlag(inner, () => expect(build()).not.toBeNull());
      Atomics.store(new Int32Array(outer), 0, 1);
      expect(build).toThrow(expect.objectContaining({ code: 'PD_CANCELLED' }));
    });
    expect(build()).not.toBeNull();
  });
});
