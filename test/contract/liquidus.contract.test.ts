// liquidus_projection over the real listener: bad inputs are 400s naming the field and the bound (too few components,
// a component twice, a held component without its fraction or a fraction for a corner, held fractions that leave
// the corners nothing, a grid or an isotherm step out of bounds, a typo of a key). The whole task runs in
// test/calculations/liquidus-projection.test.ts and, over the service and the renderer, test/e2e/liquidus-view.e2e.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startFixture, type Fixture } from '../service/helpers.js';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(async () => {
  await f?.close();
});

const config = (condition: Record<string, unknown> = {}) => ({
  task_type: 'liquidus_projection',
  tdb_code: 'ALFE',
  condition: { components: ['AL', 'FE', 'NI'], pressure: 101325, ...condition },
});
const post = (task_config: unknown) =>
  api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 'liquidus', task_config } });

describe('liquidus_projection over the API', () => {
  it.each([
    [{ components: ['AL', 'FE'] }, /^task_config\.condition\.components: must hold at least 3 components/],
    [{ components: ['AL', 'FE', 'AL'] }, /^task_config\.condition\.components: must hold different elements/],
    [
      { components: ['AL', 'FE', 'NI', 'CR'] },
      /^task_config\.condition\.fixed_compositions\.CR: is required: CR is not a corner of the triangle/,
    ],
    [
      { fixed_compositions: { FE: 0.1 } },
      /^task_config\.condition\.fixed_compositions\.FE: must be one of the components after the first three \(none: a ternary has no fixed component\)/,
    ],
    [
      { components: ['AL', 'FE', 'NI', 'CR', 'CO'], fixed_compositions: { CR: 0.6, CO: 0.5 } },
      /^task_config\.condition\.fixed_compositions: must sum to less than 1 \(the corners share the rest\), got 1\.1/,
    ],
    [{ grid_divisions: 3 }, /^task_config\.condition\.grid_divisions: must be at least 4/],
    [{ grid_divisions: 61 }, /^task_config\.condition\.grid_divisions: must be at most 60/],
    [{ grid_divisions: 10.5 }, /^task_config\.condition\.grid_divisions: must be an integer/],
    [{ isotherm_step: 0.5 }, /^task_config\.condition\.isotherm_step: must be at least 1 K/],
    [{ isotherm_steps: 25 }, /isotherm_steps.*did you mean isotherm_step/],
  ])('refuses %j', async (condition, message) => {
    const r = await post(config(condition));
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatch(message);
  });
});
