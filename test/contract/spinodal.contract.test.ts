// spinodal_decomposition over the real listener: a task completes with its result files; the bad inputs are 400s
// naming the field and the bound (an unknown phase with the nearest name, a third component, c12 >= c11, a
// temperature range the wrong way round, a grid beyond max_grid_nodes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, runTask, startFixture, type Fixture } from '../service/helpers.js';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(async () => {
  await f?.close();
});

const config = (condition: Record<string, unknown> = {}) => ({
  task_type: 'spinodal_decomposition',
  tdb_code: 'ALFE',
  condition: {
    components: ['AL', 'FE'],
    phase: 'BCC_A2',
    temperature_start: 500,
    temperature_end: 1200,
    pressure: 101325,
    temperature_points: 8,
    composition_points: 51,
    ...condition,
  },
});
const post = (task_config: unknown) =>
  api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 'spinodal', task_config } });

describe('spinodal_decomposition over the API', () => {
  it('completes with result.json and result.csv', async () => {
    const r = await runTask(f, config());
    expect(r.status, r.text).toBe('completed');
    expect(r.files).toEqual(expect.arrayContaining(['result.json', 'result.csv']));
  }, 120_000);

  it.each([
    [
      { phase: 'BCC_A3' },
      /^task_config\.condition\.phase: BCC_A3 is not a phase of database 'ALFE' \(nearest: BCC_A2\)/,
    ],
    [{ components: ['AL', 'FE', 'NI'] }, /^task_config\.condition\.components: must contain exactly 2 elements/],
    [
      { coherent: { c11: 100e9, c12: 120e9, lattice_mismatch: 0.01, molar_volume: 1e-5 } },
      /^task_config\.condition\.coherent\.c12: must be less than c11/,
    ],
    [{ temperature_end: 400 }, /^task_config\.condition\.temperature_end: must be greater than temperature_start/],
    [
      { temperature_points: 2001, composition_points: 20001 },
      /^task_config\.condition\.composition_points: temperature_points x composition_points is 40,?\d+; must be at most 1000000 \(setting max_grid_nodes\)/,
    ],
  ])('%j is a 400 naming the field', async (bad, message) => {
    const r = await post(config(bad));
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatch(message);
  });
});
