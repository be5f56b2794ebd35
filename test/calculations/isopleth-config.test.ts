// POST /task with task_type isopleth over the real listener: every refusal is a 400 naming the field and the bound
// (schema isoplethSchema in contract/tasks/isopleth.ts, grid bound in main/service/task-checks.ts) and creates no task;
// a configuration within the bounds is accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, sqliteOf, startFixture, type Fixture } from '../service/helpers.js';
import { DEFAULT_WORK_BOUNDS } from '../../main/config.js';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(async () => {
  await f?.close();
});

const isopleth = (over: Record<string, unknown> = {}) => ({
  task_type: 'isopleth',
  tdb_code: 'ALFE',
  condition: {
    components: ['AL', 'FE'],
    composition_start: { FE: 0 },
    composition_end: { FE: 0.3 },
    temperature_start: 600,
    temperature_end: 1800,
    pressure: 101325,
    ...over,
  },
});

/** A pseudo-binary section of Al-Fe: end members instead of the two compositions. */
const pseudoBinary = (endMembers: Record<string, unknown>) => {
  const { composition_start: _s, composition_end: _e, ...condition } = isopleth().condition;
  return { ...isopleth(), condition: { ...condition, end_members: endMembers } };
};

const ROWS: [string, Record<string, unknown>, string][] = [
  ['resolution below 5', isopleth({ resolution: 4 }), 'task_config.condition.resolution: must be at least 5'],
  ['resolution above 101', isopleth({ resolution: 102 }), 'task_config.condition.resolution: must be at most 101'],
  ['resolution not an integer', isopleth({ resolution: 10.5 }), 'task_config.condition.resolution: must be an integer'],
  [
    'unknown composition unit',
    isopleth({ composition_unit: 'mass_percent' }),
    'task_config.condition.composition_unit: must be one of: mole_fraction, mass_fraction',
  ],
  [
    'no composition range',
    isopleth({ composition_end: { FE: 0 } }),
    'task_config.condition.composition_end: must differ from composition_start (the section needs a composition range)',
  ],
  [
    'one temperature',
    isopleth({ temperature_end: 600 }),
    'task_config.condition.temperature_end: must differ from temperature_start',
  ],
  [
    'composition of a non-component',
    isopleth({ composition_start: { CU: 0.1 } }),
    'task_config.condition.composition_start.CU: is not one of condition.components (AL, FE)',
  ],
  [
    'fraction above 1',
    isopleth({ composition_end: { FE: 1.5 } }),
    'task_config.condition.composition_end.FE: must be between 0 and 1',
  ],
  [
    'missing composition_end',
    { ...isopleth(), condition: { ...isopleth().condition, composition_end: undefined } },
    'task_config.condition.composition_end: is required unless end_members is given',
  ],
  [
    'end members and compositions both',
    isopleth({ end_members: { start: 'Al', end: 'Fe' } }),
    'task_config.condition.end_members: give either end_members or composition_start and composition_end, not both',
  ],
  [
    'end member with an element that is not a component',
    pseudoBinary({ start: 'Al', end: 'Fx3Al' }),
    'task_config.condition.end_members.end: Fx in "Fx3Al" is not one of the components (AL, FE): did you mean FE?',
  ],
  [
    'the same end member twice',
    pseudoBinary({ start: 'FeAl', end: 'AlFe' }),
    'task_config.condition.end_members.end: must differ from end_members.start (the section needs two compositions)',
  ],
  [
    'a formula that does not read',
    pseudoBinary({ start: 'Fe3(Al', end: 'Al' }),
    'task_config.condition.end_members.start: "Fe3(Al": a "(" without its ")"',
  ],
  [
    'an end member neither formula nor composition',
    pseudoBinary({ start: 3, end: 'Al' }),
    'task_config.condition.end_members.start: must be a compound formula (text such as "Fe3C") or an alloy composition (a map of fractions)',
  ],
  [
    'an alloy end member with a fraction above 1',
    pseudoBinary({ start: { FE: 1.5 }, end: 'Al' }),
    'task_config.condition.end_members.start.FE: must be between 0 and 1',
  ],
  [
    'end_member_axis without end members',
    isopleth({ end_member_axis: 'mass_fraction' }),
    'task_config.condition.end_member_axis: is only read with end_members',
  ],
  [
    'one component',
    isopleth({ components: ['AL'], composition_start: {}, composition_end: { AL: 1 } }),
    'task_config.condition.components: must contain at least 2 elements',
  ],
];

describe('POST /task isopleth: refusals at the door', () => {
  it.each(ROWS)('%s -> 400', async (_name, cfg, error) => {
    const before = sqliteOf(f.svc.store).prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number };
    const r = await api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 'iso', task_config: cfg } });
    expect(r.status, r.text).toBe(400);
    expect(r.body).toEqual({ error });
    expect(sqliteOf(f.svc.store).prepare('SELECT COUNT(*) AS n FROM tasks').get()).toEqual(before);
  });

  it('a grid over max_grid_nodes is refused only when the setting is below resolution squared', async () => {
    // the default bound (1,000,000 nodes) admits the largest resolution; the check is arithmetic on the config
    const { checkTaskConfig } = await import('../../main/service/task-checks.js');
    const db = { code: 'ALFE', elements: ['AL', 'FE', 'VA'], phases: [] };
    expect(checkTaskConfig('isopleth', isopleth({ resolution: 101 }), db, DEFAULT_WORK_BOUNDS)).toBeNull();
    expect(
      checkTaskConfig('isopleth', isopleth({ resolution: 101 }), db, {
        ...DEFAULT_WORK_BOUNDS,
        max_grid_nodes: 10_000,
      }),
    ).toBe('task_config.condition.resolution: a 101 x 101 grid must have at most 10000 nodes (setting max_grid_nodes)');
  });

  it('a configuration within the bounds is accepted', async () => {
    for (const cfg of [
      isopleth({ resolution: 5 }),
      isopleth({
        composition_unit: 'mass_fraction',
        composition_start: { AL: 1, FE: 0 },
        composition_end: { AL: 0.8, FE: 0.2 },
      }),
      pseudoBinary({ start: 'Al', end: 'FeAl' }),
      pseudoBinary({ start: { FE: 0.1 }, end: 'FE3AL' }),
    ]) {
      const r = await api(f.svc.port, 'POST', '/task', {
        key: f.keyA,
        body: { title: 'ok', task_config: cfg, no_cache: true },
      });
      expect(r.status, r.text).toBe(200);
      await api(f.svc.port, 'DELETE', `/task/${r.body.id}`, { key: f.keyA });
    }
  });
});
