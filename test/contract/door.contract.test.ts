// POST /task refuses at the door what the worker would refuse or could not finish: work beyond the bounds
// (main/config.ts WORK_BOUND_SETTINGS), compositions that do not sum to 1, components and phases the database does
// not have, grids over the node limit. Each row: the configuration, the 400 and its exact message. A refused
// configuration creates no task.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, pointConfig, startFixture, type Fixture } from '../service/helpers.js';
import { DEFAULT_WORK_BOUNDS, resolveSettings } from '../../main/config.js';
import { stepAxisCount } from '../../main/service/task-checks.js';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(async () => {
  await f?.close();
});

const scan = (type: string, over: Record<string, unknown> = {}) => ({
  task_type: type,
  tdb_code: 'ALFE',
  condition: {
    components: ['AL', 'FE'],
    compositions_start: { AL: 0.3 },
    compositions_end: { AL: 0.3 },
    temperature_start: 500,
    temperature_end: 1500,
    pressure: 101325,
    points: 11,
    ...over,
  },
});
const scheil = (over: Record<string, unknown> = {}) => ({
  task_type: 'scheil_solidification',
  tdb_code: 'ALFE',
  condition: {
    components: ['AL', 'FE'],
    compositions: { AL: 0.9, FE: 0.1 },
    start_temperature: 1200,
    temperature_step: 1,
    pressure: 101325,
    ...over,
  },
});
const cpt = (over: Record<string, unknown> = {}) => ({
  task_type: 'binary_cpt_diagram',
  tdb_code: 'ALFE',
  condition: {
    components: ['AL', 'FE'],
    x_component: 'AL',
    composition_start: 0,
    composition_end: 1,
    composition_step: 0.1,
    temperature_start: 500,
    temperature_end: 1500,
    temperature_step: 100,
    pressure_start: 1e5,
    pressure_end: 1e9,
    pressure_points: 3,
    pressure_scale: 'log',
    ...over,
  },
});
const binary = (over: Record<string, unknown> = {}) => ({
  task_type: 'binary_equilibrium',
  tdb_code: 'ALFE',
  condition: {
    components: ['AL', 'FE'],
    compositions_start: { AL: 0 },
    compositions_end: { AL: 1 },
    temperature_start: 300,
    temperature_end: 2000,
    pressure: 101325,
    ...over,
  },
});

const B = DEFAULT_WORK_BOUNDS;
const ROWS: [string, Record<string, unknown>, string][] = [
  // ---- every huge configuration of the hardening probes
  [
    'line points 1e9',
    scan('line_calculation', { points: 1e9 }),
    `task_config.condition.points: must be at most ${B.max_scan_points} (setting max_scan_points)`,
  ],
  [
    'line points 1e6',
    scan('line_calculation', { points: 1e6 }),
    `task_config.condition.points: must be at most ${B.max_scan_points} (setting max_scan_points)`,
  ],
  [
    'properties points 1e9',
    scan('thermodynamic_properties_next', { points: 1e9 }),
    `task_config.condition.points: must be at most ${B.max_scan_points} (setting max_scan_points)`,
  ],
  [
    'cpt pressure_points 1e9',
    cpt({ pressure_points: 1e9 }),
    `task_config.condition.pressure_points: must be at most ${B.max_grid_nodes} (setting max_grid_nodes)`,
  ],
  [
    'Scheil temperature_step 1e-6',
    scheil({ temperature_step: 1e-6 }),
    `task_config.condition.temperature_step: gives 1199000000 steps from start_temperature down to 1 K; must give at most ${B.max_scheil_steps} steps (setting max_scheil_steps)`,
  ],
  [
    'Scheil start_temperature 1e9',
    scheil({ start_temperature: 1e9 }),
    `task_config.condition.start_temperature: must be at most ${B.max_temperature} K (setting max_temperature)`,
  ],
  // ---- the other bounds
  [
    'cpt grid over the node limit',
    cpt({ composition_step: 0.001, temperature_step: 0.1 }),
    `task_config.condition.temperature_step: the grid of 1001 x 10001 x 3 = 30033003 composition x temperature x pressure nodes must have at most ${B.max_grid_nodes} nodes (setting max_grid_nodes)`,
  ],
  [
    'cpt composition_step 1e-300 (no axis is built)',
    cpt({ composition_step: 1e-300 }),
    `task_config.condition.composition_step: the grid of 1e+300 x 11 x 3 = 3.3e+301 composition x temperature x pressure nodes must have at most ${B.max_grid_nodes} nodes (setting max_grid_nodes)`,
  ],
  [
    'point temperature 1e5 K',
    { ...pointConfig({ temperature: 1e5 }) },
    `task_config.condition.temperature: must be at most ${B.max_temperature} K (setting max_temperature)`,
  ],
  [
    'binary temperature_end 20000 K',
    binary({ temperature_end: 20000 }),
    `task_config.condition.temperature_end: must be at most ${B.max_temperature} K (setting max_temperature)`,
  ],
  [
    'line temperature_start 1e308',
    scan('line_calculation', { temperature_start: 1e308 }),
    `task_config.condition.temperature_start: must be at most ${B.max_temperature} K (setting max_temperature)`,
  ],
  [
    'GLOBAL_MIN_PDENS 1e9',
    cpt({ map_options: { GLOBAL_MIN_PDENS: 1e9 } }),
    `task_config.condition.map_options.GLOBAL_MIN_PDENS: must be at most ${B.max_sampling_density} (setting max_sampling_density)`,
  ],
  // ---- what the worker would refuse
  [
    'GLOBAL_MIN_PDENS 0',
    cpt({ map_options: { GLOBAL_MIN_PDENS: 0 } }),
    'task_config.condition.map_options.GLOBAL_MIN_PDENS: must be greater than 0',
  ],
  [
    'GLOBAL_MIN_PDENS -5',
    cpt({ map_options: { GLOBAL_MIN_PDENS: -5 } }),
    'task_config.condition.map_options.GLOBAL_MIN_PDENS: must be greater than 0',
  ],
  [
    'compositions that do not sum to 1',
    pointConfig({ compositions: { AL: 0.3, FE: 0.3 } }),
    'task_config.condition.compositions: mole fractions of all components must sum to 1 (they sum to 0.6)',
  ],
  [
    'compositions above 1 with one left out',
    scan('line_calculation', { components: ['AL', 'FE', 'CU'], compositions_start: { AL: 0.7, FE: 0.6 } }),
    'task_config.condition.compositions_start: mole fractions must sum to at most 1 when CU is left out (they sum to 1.3)',
  ],
  [
    'composition of a non-component',
    pointConfig({ compositions: { AL: 0.3, CU: 0.7 } }),
    'task_config.condition.compositions.CU: is not one of condition.components (AL, FE)',
  ],
  [
    'two components left out',
    scan('line_calculation', { components: ['AL', 'FE', 'CU'] }),
    'task_config.condition.compositions_start: must give the mole fractions of all components or of all but one (missing FE, CU)',
  ],
  [
    'start and end leave out different components',
    scan('line_calculation', { compositions_start: { AL: 0.3 }, compositions_end: { FE: 0.3 } }),
    'task_config.condition.compositions_end: compositions_start and compositions_end leave out different components (FE, AL): leave out the same one',
  ],
  [
    'Scheil compositions above 1',
    scheil({ compositions: { AL: 0.9, FE: 0.2 } }),
    'task_config.condition.compositions: mole fractions of all components must sum to 1 (they sum to 1.1)',
  ],
  [
    'a component that is not an element of the database',
    pointConfig({ components: ['AL', 'ZN'], compositions: { AL: 0.5 } }),
    "task_config.condition.components: ZN is not an element of database 'ALFE' (elements: AL, FE)",
  ],
  [
    'an activated phase the database does not define',
    pointConfig({ activated_phases: ['LIQUID', 'NO_SUCH_PHASE'] }),
    "task_config.condition.activated_phases: NO_SUCH_PHASE is not a phase of database 'ALFE' (nearest: FCC_A1)",
  ],
  [
    'a fixed phase the database does not define',
    pointConfig({ fixed_phases: { LIQIUD: 1 } }),
    "task_config.condition.fixed_phases: LIQIUD is not a phase of database 'ALFE' (nearest: LIQUID)",
  ],
  [
    'two fixed phases',
    pointConfig({ fixed_phases: { LIQUID: 1, FCC_A1: 0 } }),
    'task_config.condition.fixed_phases: must hold one phase (the temperature is the one free condition), not 2',
  ],
  [
    'a fixed phase amount over 1',
    pointConfig({ fixed_phases: { LIQUID: 1.5 } }),
    'task_config.condition.fixed_phases.LIQUID: must be between 0 and 1',
  ],
  [
    'a chemical potential of vacancies',
    pointConfig({ compositions: {}, chemical_potentials: { VA: 0 } }),
    'task_config.condition.chemical_potentials.VA: is not one of condition.components (AL, FE)',
  ],
  [
    'an activity of an element that is not a component',
    pointConfig({ compositions: {}, activities: { ZN: 0.5 } }),
    'task_config.condition.activities.ZN: is not one of condition.components (AL, FE)',
  ],
  // line_calculation's extensions: an element held along the line, a phase held along a composition line
  [
    'a line with an element both in the compositions and in the activities',
    scan('line_calculation', { activities: { AL: 0.01 } }),
    'task_config.condition.activities.AL: AL is also given in compositions_start: give one condition per element',
  ],
  [
    'a line with a fixed phase and a temperature range',
    scan('line_calculation', { fixed_phases: { LIQUID: 0 } }),
    'task_config.condition.fixed_phases: cannot be combined with a temperature line (temperature_start 500 K, ' +
      'temperature_end 1500 K): the temperature is the free variable of a fixed phase; give temperature_start = ' +
      'temperature_end (where each point’s search starts) and vary the compositions',
  ],
  [
    'a line with a fixed phase the database does not define',
    scan('line_calculation', {
      temperature_end: 500,
      compositions_end: { AL: 0.6 },
      fixed_phases: { LIQIUD: 1 },
    }),
    "task_config.condition.fixed_phases: LIQIUD is not a phase of database 'ALFE' (nearest: LIQUID)",
  ],
  [
    'a line with a fixed phase and an activity',
    scan('line_calculation', {
      temperature_end: 500,
      compositions_start: {},
      compositions_end: {},
      points: 1,
      activities: { AL: 0.01 },
      fixed_phases: { LIQUID: 1 },
    }),
    'task_config.condition.fixed_phases: cannot be combined with chemical_potentials or activities (the composition must be fixed)',
  ],
  [
    'a Scheil inhibited phase the database does not define',
    scheil({ inhibit_phases: ['SIGMA'] }),
    "task_config.condition.inhibit_phases: SIGMA is not a phase of database 'ALFE' (nearest: LIQUID)",
  ],
  // inhibit_phases in every task type: a misspelled name, group or pattern is named with the nearest known name
  [
    'a misspelled suppressed phase (point)',
    pointConfig({ inhibit_phases: ['BCC_2A'] }),
    "task_config.condition.inhibit_phases: BCC_2A is not a phase of database 'ALFE' (nearest: BCC_A2)",
  ],
  [
    'a misspelled group (line)',
    scan('line_calculation', { inhibit_phases: ['@ordred'] }),
    "task_config.condition.inhibit_phases: @ordred is not a group of database 'ALFE' (nearest: @ordered)",
  ],
  [
    'a pattern that matches nothing (properties)',
    scan('thermodynamic_properties_next', { inhibit_phases: ['*_L12'] }),
    "task_config.condition.inhibit_phases: *_L12 matches no phase of database 'ALFE' (nearest: FCC_A1)",
  ],
  [
    'a group of another database (binary)',
    binary({ inhibit_phases: ['@carbides'] }),
    "task_config.condition.inhibit_phases: @carbides is not a group of database 'ALFE' (nearest: @ordered)",
  ],
  [
    'an empty entry (C-P-T)',
    cpt({ inhibit_phases: [''] }),
    'task_config.condition.inhibit_phases.0: must not be empty',
  ],
  [
    'scan where nothing changes with points > 1',
    scan('line_calculation', { temperature_end: 500 }),
    'task_config.condition.temperature_end: equals temperature_start and compositions_end equals compositions_start: nothing changes along the 11 points (change a range or set points to 1)',
  ],
  [
    'binary diagram over one temperature',
    binary({ temperature_end: 300 }),
    'task_config.condition.temperature_end: must differ from temperature_start',
  ],
  [
    'more components than max_components',
    pointConfig({
      components: Array.from({ length: 21 }, (_, i) => `E${i}`),
      compositions: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`E${i}`, 0.01])),
    }),
    `task_config.condition.components: must hold at most ${B.max_components} elements (setting max_components)`,
  ],
];

describe('POST /task: refusals at the door', () => {
  it.each(ROWS)('%s -> 400', async (_name, cfg, error) => {
    const taskCount = async () =>
      Number(
        (
          await f.svc.store.db
            .selectFrom('tasks')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await taskCount();
    const r = await api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 'big', task_config: cfg } });
    expect(r.status, r.text).toBe(400);
    expect(r.body).toEqual({ error });
    expect(await taskCount()).toBe(before);
  });

  it('the database is resolved before the configuration is validated (spec POST /task step 1)', async () => {
    for (const cfg of [
      { task_type: 'line_calculation', tdb_code: 'NOPE' },
      { task_type: 'point_calculation', tdb_code: 'NOPE', condition: {} },
      { tdb_code: 'NOPE' },
    ]) {
      const r = await api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 'x', task_config: cfg } });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: "Db code 'NOPE' was not found or is disabled" });
    }
  });

  it('configurations within the bounds are accepted (each refusal above has a neighbour that passes)', async () => {
    for (const cfg of [
      scan('line_calculation', { points: B.max_scan_points }),
      scan('line_calculation', { temperature_end: 500, points: 1 }),
      scheil({ temperature_step: (1200 - 1) / B.max_scheil_steps }),
      cpt({ map_options: { GLOBAL_MIN_PDENS: 100 } }),
      binary({ compositions_start: { AL: 0.5, FE: 0.5 }, compositions_end: { AL: 0.5, FE: 0.5 } }),
      pointConfig({ components: ['al', 'fe', 'VA'], compositions: { al: 0.3 }, activated_phases: ['liquid'] }),
      // names, patterns and groups of every kind, in every task type
      pointConfig({ inhibit_phases: ['@ordered', 'fcc*', '@gas', '@ionic_liquid', '@foreign', 'liquid'] }),
      scan('line_calculation', { inhibit_phases: ['BCC_?2'] }),
      scan('thermodynamic_properties_next', { inhibit_phases: [] }),
      scheil({ inhibit_phases: ['@ORDERED'] }),
      cpt({ inhibit_phases: ['*_A1'] }),
      binary({ inhibit_phases: ['@ordered', 'FCC_A1'] }),
    ]) {
      const r = await api(f.svc.port, 'POST', '/task', {
        key: f.keyA,
        body: { title: 'ok', task_config: cfg, no_cache: true },
      });
      expect(r.status, r.text).toBe(200);
      await api(f.svc.port, 'DELETE', `/task/${r.body.id}`, { key: f.keyA });
    }
  });

  it("the cpt node count is the worker's axis: start to end by step, the end always a node", () => {
    expect(stepAxisCount(0, 1, 0.1)).toBe(11);
    expect(stepAxisCount(0, 1, 0.3)).toBe(5); // 0, 0.3, 0.6, 0.9, 1
    expect(stepAxisCount(500, 1500, 100)).toBe(11);
  });
});

describe('work bounds are settings an administrator raises', () => {
  it('settings.json, PHASEDESK_* and the caller set them; out-of-range values keep the default', () => {
    const env = {
      PHASEDESK_MAX_SCAN_POINTS: '2000000',
      PHASEDESK_MAX_TEMPERATURE: '1',
      PHASEDESK_DATA_DIR: '/nonexistent-phasedesk',
    };
    const s = resolveSettings({ workBounds: { max_grid_nodes: 500 } }, env);
    expect(s.workBounds).toMatchObject({
      max_scan_points: 2_000_000,
      max_temperature: B.max_temperature,
      max_grid_nodes: 500,
    });
  });

  it('a raised bound lets the configuration through', async () => {
    const g = await startFixture({ workBounds: { max_scan_points: 2_000_000, max_temperature: 100_000 } });
    try {
      const r = await api(g.svc.port, 'POST', '/task', {
        key: g.keyA,
        body: { title: 'big', task_config: scan('line_calculation', { points: 1_000_000 }) },
      });
      expect(r.status, r.text).toBe(200);
      await api(g.svc.port, 'DELETE', `/task/${r.body.id}`, { key: g.keyA });
      const hot = await api(g.svc.port, 'POST', '/task', {
        key: g.keyA,
        body: { title: 'hot', task_config: pointConfig({ temperature: 50_000 }) },
      });
      expect(hot.status, hot.text).toBe(200);
      await api(g.svc.port, 'DELETE', `/task/${hot.body.id}`, { key: g.keyA });
    } finally {
      await g.close();
    }
  });
});
