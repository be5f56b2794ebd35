// solution_treatment over the real listener: a task completes with its result files; the bad inputs are 400s naming
// the field (a misspelled matrix, precipitate or dissolving phase with the nearest name, a radius of 0, a negative
// margin, a temperature range the wrong way round).
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
  task_type: 'solution_treatment',
  tdb_code: 'ALFE',
  condition: {
    components: ['AL', 'FE'],
    compositions: { AL: 0.05 },
    pressure: 101325,
    temperature_start: 700,
    points: 21,
    ...condition,
  },
});
const post = (task_config: unknown) =>
  api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 'solution', task_config } });

describe('solution_treatment over the API', () => {
  it('completes with result.json and result.csv', async () => {
    const r = await runTask(f, config());
    expect(r.status, r.text).toBe('completed');
    expect(r.files).toEqual(expect.arrayContaining(['result.json', 'result.csv']));
  }, 120_000);

  it.each([
    [
      { matrix_phase: 'BCC_A3' },
      /^task_config\.condition\.matrix_phase: BCC_A3 is not a phase of database 'ALFE' \(nearest: BCC_A2\)/,
    ],
    [
      { precipitates: ['FCC_A1', 'FCC_A2'] },
      /^task_config\.condition\.precipitates\.1: FCC_A2 is not a phase of database 'ALFE'/,
    ],
    [
      { dissolution: { phase: 'FCC_A', radius: 1e-6 } },
      /^task_config\.condition\.dissolution\.phase: FCC_A is not a phase of database 'ALFE' \(nearest: FCC_A1\)/,
    ],
    [
      { dissolution: { phase: 'FCC_A1', radius: 0 } },
      /^task_config\.condition\.dissolution\.radius: must be greater than 0/,
    ],
    [{ safety_margin: -1 }, /^task_config\.condition\.safety_margin: must be at least 0/],
    [{ temperature_end: 600 }, /^task_config\.condition\.temperature_end: must be greater than temperature_start/],
  ])('%j is a 400 naming the field', async (bad, message) => {
    const r = await post(config(bad));
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatch(message);
  });
});
