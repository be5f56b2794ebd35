// solidification over the real listener: a task completes with its result files; the bad inputs are 400s naming the
// field and the bound (a cooling rate of 0 or below, a negative arm spacing or front velocity, a fast diffuser or a
// diffusivity of an element that is not a component, a misspelled primary phase with the nearest name).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, runTask, startFixture, type Fixture } from '../service/helpers.js';
import { conditionFields } from '../../renderer/src/lib/taskforms.js';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(async () => {
  await f?.close();
});

const config = (condition: Record<string, unknown> = {}) => ({
  task_type: 'solidification',
  tdb_code: 'ALFE',
  condition: {
    components: ['AL', 'FE'],
    compositions: { AL: 0.05 },
    pressure: 101325,
    start_temperature: 1900,
    temperature_step: 5,
    cooling_rate: 10,
    solid_diffusivities: { AL: { D0: 1e-4, Q: 250000 } },
    ...condition,
  },
});

describe('solidification over the API', () => {
  it('completes with result.json and result.csv', async () => {
    const r = await runTask(f, config());
    expect(r.status, r.text).toBe('completed');
    expect(r.files).toEqual(expect.arrayContaining(['result.json', 'result.csv']));
  }, 120_000);

  it.each([
    [{ cooling_rate: 0 }, /^task_config\.condition\.cooling_rate: must be greater than 0/],
    [{ cooling_rate: -5 }, /^task_config\.condition\.cooling_rate: must be greater than 0/],
    [{ secondary_arm_spacing: -1e-5 }, /^task_config\.condition\.secondary_arm_spacing: must be greater than 0/],
    [
      { solute_trapping: { interface_velocity: -0.5 } },
      /^task_config\.condition\.solute_trapping\.interface_velocity: must be at least 0 m\/s/,
    ],
    [{ fast_diffusers: ['C'] }, /^task_config\.condition\.fast_diffusers\.0: C is not one of the components/],
    [
      { solid_diffusivities: { NI: { D0: 1e-4, Q: 2e5 } } },
      /^task_config\.condition\.solid_diffusivities\.NI: NI is not one of the components/,
    ],
    [
      { primary_phase: 'BCC_A3' },
      /^task_config\.condition\.primary_phase: BCC_A3 is not a phase of database 'ALFE' \(nearest: BCC_A2\)/,
    ],
  ])('%j is a 400 naming the field', async (bad, message) => {
    const r = await api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 'bad', task_config: config(bad) } });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatch(message);
  });
});

describe("the forms explain the models' inputs", () => {
  it.each([
    ['solidification', 'cooling_rate', /K\/s/],
    ['solidification', 'secondary_arm_spacing', /Flemings/],
    ['solution_treatment', 'safety_margin', /default 10 K/],
    ['solution_treatment', 'dissolution.radius', /particle radius/],
    ['spinodal_decomposition', 'coherent.c11', /aluminium 108e9/],
  ] as const)('%s: %s', (type, key, help) => {
    const field = conditionFields(type).find((f) => f.key === key);
    expect(field?.help).toMatch(help);
  });
});
