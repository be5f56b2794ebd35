// potential_diagram over the real listener: a task completes with its result files; bad inputs are 400s
// naming the field and the bound (an axis the wrong way round, an element that is not a component or is held twice,
// a held element given a mole fraction, an isothermal diagram without its temperature, a grid beyond max_grid_nodes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, runTask, startFixture, type Fixture } from '../service/helpers.js';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture({ workBounds: { max_grid_nodes: 10_000 } });
});
afterAll(async () => {
  await f?.close();
});

const config = (condition: Record<string, unknown> = {}) => ({
  task_type: 'potential_diagram',
  tdb_code: 'ALFE',
  condition: {
    components: ['AL', 'FE'],
    pressure: 101325,
    x_axis: { quantity: 'temperature', start: 800, end: 1400 },
    y_axis: { quantity: 'log10_activity', element: 'AL', reference_state: 'FCC_A1', start: -6, end: 0 },
    grid_points: 7,
    ...condition,
  },
});
const post = (task_config: unknown) =>
  api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 'potential', task_config } });
const axis = (quantity: string, element: string, start: number, end: number) => ({ quantity, element, start, end });

describe('potential_diagram over the API', () => {
  it('completes with result.json and result.csv', async () => {
    const r = await runTask(f, config());
    expect(r.status, r.text).toBe('completed');
    expect(r.files).toEqual(expect.arrayContaining(['result.json', 'result.csv']));
  }, 120_000);

  it.each([
    [
      { y_axis: axis('log10_activity', 'AL', 0, -6) },
      /^task_config\.condition\.y_axis\.end: must be greater than start/,
    ],
    [
      { y_axis: axis('log10_activity', 'NI', -6, 0) },
      /^task_config\.condition\.y_axis\.element: must be one of condition\.components \(AL, FE\)/,
    ],
    [
      { y_axis: axis('activity', 'AL', -6, 0) },
      /^task_config\.condition\.y_axis\.quantity: must be one of: log10_activity, chemical_potential/,
    ],
    [
      { x_axis: axis('chemical_potential', 'FE', -1e5, 0), temperature: 1000 },
      /^task_config\.condition\.components: must hold at least one element that no axis holds/,
    ],
    [
      { compositions: { AL: 0.3 } },
      /^task_config\.condition\.compositions\.AL: AL is held by y_axis: give it no mole fraction/,
    ],
    [
      { components: ['AL', 'FE', 'C'], x_axis: axis('chemical_potential', 'FE', -1e5, 0) },
      /^task_config\.condition\.temperature: is required when x_axis is a potential/,
    ],
    [{ temperature: 1000 }, /^task_config\.condition\.temperature: must be absent when x_axis is the temperature/],
    [{ grid_points: 302 }, /^task_config\.condition\.grid_points: must be at most 301/],
    [
      { grid_points: 101 },
      /^task_config\.condition\.grid_points: a 101 x 101 grid must have at most 10000 nodes \(setting max_grid_nodes\)/,
    ],
  ])('%j is a 400 naming the field', async (bad, message) => {
    const r = await post(config(bad));
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatch(message);
  });
});
