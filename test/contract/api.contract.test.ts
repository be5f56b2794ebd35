// Table-driven contract test of shared/spec/service-spec.md over the real HTTP listener:
// every endpoint, every row of the Authentication and Errors tables, exact messages.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, http, pointConfig, startFixture, until, TDB, type Fixture } from '../service/helpers.js';
import { issueKey, setKeyActive, setKeyExpiry } from '../../main/console/keys.js';
import { registerDatabase, setDatabaseState, subscribe } from '../../main/console/databases.js';
import { createUser, setPlan } from '../../main/console/users.js';

let f: Fixture;
const ids: Record<string, any> = {};

async function db(code: string, state?: 'disable' | 'invisible') {
  const id = await registerDatabase(
    f.svc.store,
    f.dataDir,
    TDB,
    {
      code,
      name: `${code} name`,
      level: code === 'PREM' ? 'premium' : 'free',
      type: code === 'PREM' ? 'oxide' : 'alloy',
      version: '2',
      support_task_list: ['line_calculation'],
    },
    { element_list: ['CU', 'NI'], phase_list: ['FCC_A1'] },
  );
  if (state) await setDatabaseState(f.svc.store, code, state);
  return id;
}

async function waitStatus(id: number, key: string, statuses: string[]) {
  return until(
    () => api(f.svc.port, 'GET', `/task/${id}`, { key }),
    (r) => statuses.includes(r.body?.status),
  );
}

beforeAll(async () => {
  f = await startFixture();
  const s = f.svc.store;
  ids.disabledKey = await issueKey(s, 'a', { name: 'off' });
  await setKeyActive(s, ids.disabledKey.id, false);
  ids.expiredKey = await issueKey(s, 'a', { name: 'old' });
  await setKeyExpiry(s, ids.expiredKey.id, '2000-01-01T00:00:00.000Z');
  ids.dis = await db('DIS', 'disable');
  ids.hid = await db('HID', 'invisible');
  ids.nosub = await db('NOSUB');
  ids.prem = await db('PREM');
  ids.exp = await db('EXPSUB');
  await subscribe(s, { username: 'a', code: 'EXPSUB', status: 'active', expiresAt: '2001-01-01T00:00:00Z' });
  await subscribe(s, { username: 'a', code: 'PREM', status: 'pending' });
  await subscribe(s, { username: 'a', code: 'DIS', status: 'active' });
  // A completed task (test calculation that writes files), a failed one (a phase the database lacks), an aborted one, one of user b.
  const done = await api(f.svc.port, 'POST', '/task', {
    key: f.keyA,
    body: { title: 'files', task_config: { task_type: '__test_write', tdb_code: 'ALFE' } },
  });
  ids.done = done.body.id;
  await waitStatus(ids.done, f.keyA, ['completed']);
  // A task the worker fails: the record of STALE lists a phase its file does not define (the door checks the record).
  await registerDatabase(
    s,
    f.dataDir,
    TDB,
    { code: 'STALE', name: 'stale record', level: 'free', type: 'alloy', version: '1' },
    { element_list: ['AL', 'FE'], phase_list: ['LIQUID', 'NO_SUCH_PHASE'] },
  );
  await subscribe(s, { username: 'a', code: 'STALE', status: 'active' });
  await subscribe(s, { username: 'b', code: 'STALE', status: 'active' });
  const stale = (over: Record<string, unknown>) => ({ ...pointConfig(over), tdb_code: 'STALE' });
  const failed = await api(f.svc.port, 'POST', '/task', {
    key: f.keyA,
    body: { title: 'point', task_config: stale({ activated_phases: ['NO_SUCH_PHASE'] }) },
  });
  ids.failed = failed.body.id;
  await waitStatus(ids.failed, f.keyA, ['failed']);
  const sleeper = await api(f.svc.port, 'POST', '/task', {
    key: f.keyA,
    body: { title: 'sleep', task_config: { task_type: '__test_sleep', tdb_code: 'ALFE' } },
  });
  ids.aborted = sleeper.body.id;
  await waitStatus(ids.aborted, f.keyA, ['running']);
  ids.cancelResponse = await api(f.svc.port, 'PATCH', `/task/${ids.aborted}/cancel`, { key: f.keyA });
  // States the API never produces by itself here (created) or only briefly (uploading): rows written directly.
  for (const st of ['created', 'uploading']) {
    // through Kysely, so that the same rows are written when this suite runs on the lab server's PostgreSQL
    const row = await f.svc.store.db
      .insertInto('tasks')
      .values({
        uuid: crypto.randomUUID(),
        title: 'x',
        task_config: '{}',
        status: st,
        task_type: 'point_calculation',
        tdb_code: 'ALFE',
        user_id: f.userA,
        engine: 'thermo_next',
        created_at: '2026-01-01 00:00:00 UTC',
        updated_at: '2026-01-01 00:00:00 UTC',
        created_ms: 0,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    ids[st] = Number(row.id);
  }
  const b = await api(f.svc.port, 'POST', '/task', {
    key: f.keyB,
    body: { title: 'b', task_config: stale({ activated_phases: ['NO_SUCH_PHASE'] }) },
  });
  ids.taskB = b.body.id;
  await waitStatus(ids.taskB, f.keyB, ['failed']);
  await setDatabaseState(s, 'STALE', 'disable'); // out of the database lists the table checks
});
afterAll(async () => {
  await f?.close();
});

type Row = {
  name: string;
  method: string;
  path: () => string;
  key?: () => string;
  auth?: string;
  body?: () => unknown;
  raw?: string;
  headers?: Record<string, string>;
  status: number;
  error?: string | RegExp;
  check?: (body: any) => void;
};

const A = () => f.keyA;
const task = (over: Record<string, unknown> = {}) => ({ title: 't', task_config: pointConfig(), ...over });

const AUTH_ROWS: Row[] = [
  {
    name: 'header missing',
    method: 'GET',
    path: () => '/key/info',
    status: 401,
    error: 'Missing Authorization header',
  },
  {
    name: 'not Bearer',
    method: 'GET',
    path: () => '/key/info',
    auth: 'Token tk_abcdefghijkl',
    status: 401,
    error: "Invalid Authorization header format, expected 'Bearer <token>'",
  },
  {
    name: 'Basic scheme',
    method: 'GET',
    path: () => '/key/info',
    auth: 'Basic dXNlcjpwYXNz',
    status: 401,
    error: "Invalid Authorization header format, expected 'Bearer <token>'",
  },
  {
    name: 'wrong prefix',
    method: 'GET',
    path: () => '/key/info',
    auth: 'Bearer sk_abcdefghijklmnop',
    status: 401,
    error: "API key must start with 'tk_' prefix",
  },
  {
    name: 'too short',
    method: 'GET',
    path: () => '/key/info',
    auth: 'Bearer tk_abc',
    status: 401,
    error: 'API key is too short',
  },
  {
    name: 'unknown key',
    method: 'GET',
    path: () => '/key/info',
    auth: 'Bearer tk_00000000000000000000000000000000',
    status: 401,
    error: 'invalid API key',
  },
  {
    name: 'disabled key',
    method: 'GET',
    path: () => '/key/info',
    key: () => ids.disabledKey.key,
    status: 403,
    error: 'API key is disabled',
  },
  {
    name: 'expired key',
    method: 'GET',
    path: () => '/key/info',
    key: () => ids.expiredKey.key,
    status: 403,
    error: 'API key has expired',
  },
  {
    name: 'auth is checked before the body is parsed',
    method: 'POST',
    path: () => '/task',
    raw: '{"broken',
    status: 401,
    error: 'Missing Authorization header',
  },
  {
    name: 'foreign Host header (DNS rebinding)',
    method: 'GET',
    path: () => '/key/info',
    key: A,
    headers: { host: 'evil.example:7431' },
    status: 403,
    error: 'Host not allowed',
  },
];

const ROWS: Row[] = [
  // ---- GET /key/info
  {
    name: 'key info',
    method: 'GET',
    path: () => '/key/info',
    key: A,
    status: 200,
    check: (b) => {
      expect(b.api_key).toBe(f.keyA);
      expect(b.key_name).toBe('key-a');
      expect(b.is_active).toBe(true);
      expect(typeof b.id).toBe('number');
      expect(b.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(b.last_used_at).toMatch(/^\d{4}-/);
      expect(b.expires_at).toBeUndefined();
      expect(b.user).toMatchObject({ id: f.userA, username: 'a', email: 'a@example.org', subscription_level: 'big' });
    },
  },
  {
    name: 'Host localhost accepted',
    method: 'GET',
    path: () => '/key/info',
    key: A,
    headers: { host: 'localhost:1234' },
    status: 200,
  },
  {
    name: 'Host [::1] accepted',
    method: 'GET',
    path: () => '/key/info',
    key: A,
    headers: { host: '[::1]:80' },
    status: 200,
  },
  // ---- POST /task: success and every error / validation row
  {
    name: 'create task (normal -> pending)',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ no_cache: true }),
    status: 200,
    check: (b) => {
      expect(b).toEqual({
        id: expect.any(Number),
        status: 'pending',
        task_type: 'point_calculation',
        tdb_code: 'ALFE',
      });
    },
  },
  {
    name: 'legacy tdb_file derives the code',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: { ...pointConfig(), tdb_code: undefined, tdb_file: 'C:\\Users\\x\\ALFE.tdb' } }),
    status: 200,
    check: (b) => expect(b.tdb_code).toBe('ALFE'),
  },
  {
    name: 'description holds task_config',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => ({ title: 'd', description: JSON.stringify(pointConfig()) }),
    status: 200,
    check: (b) => expect(b.task_type).toBe('point_calculation'),
  },
  {
    name: 'engine thermo_next explicit',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ engine: 'thermo_next' }),
    status: 200,
  },
  {
    name: 'tdb_code and tdb_file absent',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: { ...pointConfig(), tdb_code: undefined } }),
    status: 400,
    error: 'task_config.tdb_code or task_config.tdb_file is required',
  },
  {
    name: 'code unknown',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: pointConfig() && { ...pointConfig(), tdb_code: 'NOPE' } }),
    status: 400,
    error: "Db code 'NOPE' was not found or is disabled",
  },
  {
    name: 'code disabled',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: { ...pointConfig(), tdb_code: 'DIS' } }),
    status: 400,
    error: "Db code 'DIS' was not found or is disabled",
  },
  {
    name: 'code invisible',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: { ...pointConfig(), tdb_code: 'HID' } }),
    status: 400,
    error: "Db code 'HID' was not found or is disabled",
  },
  {
    name: 'no subscription',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: { ...pointConfig(), tdb_code: 'NOSUB' } }),
    status: 403,
    error: "the current subscription does not allow access to Db code 'NOSUB'",
  },
  {
    name: 'expired subscription',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: { ...pointConfig(), tdb_code: 'EXPSUB' } }),
    status: 403,
    error: "the current subscription does not allow access to Db code 'EXPSUB'",
  },
  {
    name: 'pending subscription',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: { ...pointConfig(), tdb_code: 'PREM' } }),
    status: 403,
    error: "the current subscription does not allow access to Db code 'PREM'",
  },
  {
    name: 'task_config absent',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => ({ title: 'x' }),
    status: 400,
    error: 'task_config or description is required',
  },
  {
    name: 'description not JSON',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => ({ title: 'x', description: 'hello' }),
    status: 400,
    error: 'task_config or description is required',
  },
  {
    name: 'task_config not an object',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => ({ title: 'x', task_config: [1, 2] }),
    status: 400,
    error: 'task_config must be a JSON object',
  },
  {
    name: 'task_config a string',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => ({ title: 'x', task_config: 'abc' }),
    status: 400,
    error: 'task_config must be a JSON object',
  },
  {
    name: 'task_type absent',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: { tdb_code: 'ALFE' } }),
    status: 400,
    error: 'task_config.task_type is required',
  },
  {
    name: 'unsupported engine',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ engine: 'other' }),
    status: 400,
    error: "task type 'other' is not supported, supported engines: thermo_next",
  },
  {
    name: 'announced-not-open task type',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: { task_type: 'directional_solidification', tdb_code: 'ALFE' } }),
    status: 400,
    error:
      "task_config.task_type: 'directional_solidification' is announced but not open yet; open task types: point_calculation, line_calculation, binary_equilibrium, thermodynamic_properties_next, scheil_solidification, binary_cpt_diagram, isopleth, ternary_isothermal_section, gibbs_energy_curves, equilibrium_batch, spinodal_decomposition, solution_treatment, solidification, aging, potential_diagram, liquidus_projection",
  },
  {
    name: 'unknown task type',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: { task_type: 'magic', tdb_code: 'ALFE' } }),
    status: 400,
    error: /^task_config\.task_type: 'magic' is not a known task type; open task types: point_calculation, /u,
  },
  {
    name: 'title missing',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => ({ task_config: pointConfig() }),
    status: 400,
    error: 'title is required',
  },
  {
    name: 'invalid JSON body',
    method: 'POST',
    path: () => '/task',
    key: A,
    raw: '{"title":',
    status: 400,
    error: /^Invalid JSON body: /,
  },
  {
    name: 'empty JSON body',
    method: 'POST',
    path: () => '/task',
    key: A,
    raw: '',
    status: 400,
    error: 'request body must be a JSON object',
  },
  {
    name: 'DELETE with an empty JSON body',
    method: 'DELETE',
    path: () => '/task/999998',
    key: A,
    raw: '',
    status: 404,
    error: 'Task not found',
  },
  {
    name: 'omp_threads not integer',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ omp_threads: 1.5 }),
    status: 400,
    error: 'omp_threads: must be a positive integer',
  },
  {
    name: 'pressure 0',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: pointConfig({ pressure: 0 }) }),
    status: 400,
    error: 'task_config.condition.pressure: must be greater than 0',
  },
  {
    name: 'temperature missing',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: pointConfig({ temperature: undefined }) }),
    status: 400,
    error: 'task_config.condition.temperature: is required',
  },
  {
    name: 'compositions wrong type',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: pointConfig({ compositions: 'x' }) }),
    status: 400,
    error: 'task_config.condition.compositions: must be an object',
  },
  {
    name: 'line points 1 with a changing range',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () =>
      task({
        task_config: {
          task_type: 'line_calculation',
          tdb_code: 'ALFE',
          condition: {
            components: ['AL', 'FE'],
            compositions_start: { AL: 0.1 },
            compositions_end: { AL: 0.1 },
            temperature_start: 500,
            temperature_end: 900,
            pressure: 1e5,
            points: 1,
          },
        },
      }),
    status: 400,
    error: "task_config.condition.points: must be at least 2 when a variable's range changes",
  },
  {
    name: 'line points 0',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () =>
      task({
        task_config: {
          task_type: 'line_calculation',
          tdb_code: 'ALFE',
          condition: {
            components: ['AL', 'FE'],
            compositions_start: { AL: 0.1 },
            compositions_end: { AL: 0.1 },
            temperature_start: 500,
            temperature_end: 500,
            pressure: 1e5,
            points: 0,
          },
        },
      }),
    status: 400,
    error: 'task_config.condition.points: must be a positive integer',
  },
  {
    name: 'thermodynamic_properties_next points not integer',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () =>
      task({
        task_config: {
          task_type: 'thermodynamic_properties_next',
          tdb_code: 'ALFE',
          condition: {
            components: ['AL', 'FE'],
            compositions_start: { AL: 0.1 },
            compositions_end: { AL: 0.1 },
            temperature_start: 500,
            temperature_end: 900,
            pressure: 1e5,
            points: 2.5,
          },
        },
      }),
    status: 400,
    error: 'task_config.condition.points: must be an integer',
  },
  {
    name: 'binary_equilibrium activated_elements != components',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () =>
      task({
        task_config: {
          task_type: 'binary_equilibrium',
          tdb_code: 'ALFE',
          activated_elements: ['AL', 'NI'],
          condition: {
            components: ['AL', 'FE'],
            compositions_start: { AL: 0 },
            compositions_end: { AL: 1 },
            temperature_start: 500,
            temperature_end: 1800,
            pressure: 1e5,
          },
        },
      }),
    status: 400,
    error: 'task_config.activated_elements: must equal condition.components and hold 2 elements',
  },
  {
    name: 'binary_equilibrium bad trace_method',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () =>
      task({
        task_config: {
          task_type: 'binary_equilibrium',
          tdb_code: 'ALFE',
          order_disorder: { trace_method: 'grid' },
          condition: {
            components: ['AL', 'FE'],
            compositions_start: { AL: 0 },
            compositions_end: { AL: 1 },
            temperature_start: 500,
            temperature_end: 1800,
            pressure: 1e5,
          },
        },
      }),
    status: 400,
    error: 'task_config.order_disorder.trace_method: only branch_continuation is supported',
  },
  {
    name: 'scheil pressure negative',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () =>
      task({
        task_config: {
          task_type: 'scheil_solidification',
          tdb_code: 'ALFE',
          condition: {
            components: ['AL', 'FE'],
            compositions: { FE: 0.02 },
            start_temperature: 1000,
            temperature_step: 1,
            pressure: -1,
          },
        },
      }),
    status: 400,
    error: 'task_config.condition.pressure: must be greater than 0',
  },
  {
    name: 'binary_cpt composition_end <= start',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: cpt({ composition_start: 0.5, composition_end: 0.5 }) }),
    status: 400,
    error: 'task_config.condition.composition_end: must be greater than composition_start',
  },
  {
    name: 'binary_cpt 3 components',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: cpt({ components: ['AL', 'FE', 'NI'] }) }),
    status: 400,
    error: 'task_config.condition.components: must hold exactly 2 components',
  },
  {
    name: 'binary_cpt pressure_points 1',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: cpt({ pressure_points: 1 }) }),
    status: 400,
    error: 'task_config.condition.pressure_points: must be at least 2',
  },
  {
    name: 'binary_cpt pressure_scale',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () => task({ task_config: cpt({ pressure_scale: 'exp' }) }),
    status: 400,
    error: 'task_config.condition.pressure_scale: must be one of: linear, log',
  },
  {
    name: 'binary_cpt axis composition without component',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () =>
      task({
        task_config: {
          ...cpt(),
          ui_metadata: {
            axis_config: {
              x: { variable: 'composition' },
              y: { variable: 'temperature' },
              z: { variable: 'pressure' },
            },
          },
        },
      }),
    status: 400,
    error: 'task_config.ui_metadata.axis_config.x.component: is required for a composition axis',
  },
  {
    name: 'binary_equilibrium unknown order_disorder key',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () =>
      task({
        task_config: {
          task_type: 'binary_equilibrium',
          tdb_code: 'ALFE',
          order_disorder: { enabled: true, trace_boundary: true },
          condition: {
            components: ['AL', 'FE'],
            compositions_start: { AL: 0 },
            compositions_end: { AL: 1 },
            temperature_start: 500,
            temperature_end: 1800,
            pressure: 1e5,
          },
        },
      }),
    status: 400,
    error: 'task_config.order_disorder: unknown key trace_boundary (did you mean trace_boundaries?)',
  },
  {
    name: 'binary_cpt axis component not a component',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () =>
      task({
        task_config: {
          ...cpt(),
          ui_metadata: {
            axis_config: {
              x: { variable: 'composition', component: 'NI' },
              y: { variable: 'temperature' },
              z: { variable: 'pressure' },
            },
          },
        },
      }),
    status: 400,
    error: 'task_config.ui_metadata.axis_config.x.component: must be one of condition.components',
  },
  {
    name: 'binary_cpt two axes on one variable',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () =>
      task({
        task_config: {
          ...cpt(),
          ui_metadata: {
            axis_config: {
              x: { variable: 'composition', component: 'FE' },
              y: { variable: 'temperature' },
              z: { variable: 'temperature' },
            },
          },
        },
      }),
    status: 400,
    error: 'task_config.ui_metadata.axis_config.z.variable: must differ from axis_config.y.variable',
  },
  {
    name: 'binary_cpt valid',
    method: 'POST',
    path: () => '/task',
    key: A,
    body: () =>
      task({
        task_config: {
          ...cpt({ composition_step: 0.5, temperature_end: 310, pressure_points: 2 }),
          ui_metadata: {
            module: 'cpt',
            axis_config: {
              x: { variable: 'composition', component: 'FE' },
              y: { variable: 'temperature' },
              z: { variable: 'pressure' },
            },
          },
        },
      }),
    status: 200,
    check: (b) => expect(b.status).toBe('pending'),
  },
  // ---- GET /task/list
  {
    name: 'task list defaults',
    method: 'GET',
    path: () => '/task/list',
    key: A,
    status: 200,
    check: (b) => {
      expect(b.page).toBe(1);
      expect(b.items_per_page).toBe(10);
      expect(b.total).toBeGreaterThanOrEqual(3);
      expect(b.total_pages).toBe(Math.ceil(b.total / 10));
      const ids2 = b.data.map((t: any) => t.id);
      expect(ids2).toEqual([...ids2].sort((x: number, y: number) => x - y));
      expect(b.data.every((t: any) => t.user_id === f.userA)).toBe(true);
    },
  },
  {
    name: 'task list desc, 2 per page',
    method: 'GET',
    path: () => '/task/list?sort_order=desc&items_per_page=2&page=1',
    key: A,
    status: 200,
    check: (b) => {
      expect(b.data).toHaveLength(2);
      expect(b.data[0].id).toBeGreaterThan(b.data[1].id);
      expect(b.items_per_page).toBe(2);
    },
  },
  {
    name: 'task list page 0',
    method: 'GET',
    path: () => '/task/list?page=0',
    key: A,
    status: 400,
    error: 'page must be an integer >= 1',
  },
  {
    name: 'task list items_per_page 101',
    method: 'GET',
    path: () => '/task/list?items_per_page=101',
    key: A,
    status: 400,
    error: 'items_per_page must be an integer between 1 and 100',
  },
  {
    name: 'task list items_per_page 0',
    method: 'GET',
    path: () => '/task/list?items_per_page=0',
    key: A,
    status: 400,
    error: 'items_per_page must be an integer between 1 and 100',
  },
  {
    name: 'task list sort_order bad',
    method: 'GET',
    path: () => '/task/list?sort_order=up',
    key: A,
    status: 400,
    error: 'sort_order must be asc or desc',
  },
  // ---- GET /task/{id}
  {
    name: 'get own task',
    method: 'GET',
    path: () => `/task/${ids.failed}`,
    key: A,
    status: 200,
    check: (b) => {
      expect(b).toMatchObject({
        id: ids.failed,
        title: 'point',
        status: 'failed',
        task_type: 'point_calculation',
        user_id: f.userA,
        tdb_code: 'STALE',
      });
      expect(JSON.parse(b.description)).toMatchObject({ task_type: 'point_calculation', tdb_code: 'STALE' });
      expect(b.logs).toContain('condition.activated_phases: NO_SUCH_PHASE not defined in');
      expect(b.result).toBeNull();
      expect(b.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
      expect(b.updated_at).toMatch(/ UTC$/);
    },
  },
  {
    name: 'get task of other user',
    method: 'GET',
    path: () => `/task/${ids.taskB}`,
    key: A,
    status: 403,
    error: 'Access denied',
  },
  { name: 'get missing task', method: 'GET', path: () => '/task/999999', key: A, status: 404, error: 'Task not found' },
  {
    name: 'get task non-integer id',
    method: 'GET',
    path: () => '/task/abc',
    key: A,
    status: 400,
    error: 'id must be an integer',
  },
  // ---- PATCH /task/{id}/cancel
  {
    name: 'cancel completed',
    method: 'PATCH',
    path: () => `/task/${ids.done}/cancel`,
    key: A,
    status: 409,
    error: 'Task cannot be stopped in current status: completed',
  },
  {
    name: 'cancel failed',
    method: 'PATCH',
    path: () => `/task/${ids.failed}/cancel`,
    key: A,
    status: 409,
    error: 'Task cannot be stopped in current status: failed',
  },
  {
    name: 'cancel aborted',
    method: 'PATCH',
    path: () => `/task/${ids.aborted}/cancel`,
    key: A,
    status: 409,
    error: 'Task cannot be stopped in current status: aborted',
  },
  {
    name: 'cancel created',
    method: 'PATCH',
    path: () => `/task/${ids.created}/cancel`,
    key: A,
    status: 409,
    error: 'Task cannot be stopped in current status: created',
  },
  {
    name: 'cancel uploading',
    method: 'PATCH',
    path: () => `/task/${ids.uploading}/cancel`,
    key: A,
    status: 409,
    error: 'Task cannot be stopped in current status: uploading',
  },
  {
    name: 'result of uploading task',
    method: 'GET',
    path: () => `/task/${ids.uploading}/result`,
    key: A,
    status: 409,
    error: 'Task is not completed (status: uploading)',
  },
  {
    name: 'cancel other user',
    method: 'PATCH',
    path: () => `/task/${ids.taskB}/cancel`,
    key: A,
    status: 403,
    error: 'Access denied',
  },
  {
    name: 'cancel missing',
    method: 'PATCH',
    path: () => '/task/999999/cancel',
    key: A,
    status: 404,
    error: 'Task not found',
  },
  // ---- files
  {
    name: 'result files',
    method: 'GET',
    path: () => `/task/${ids.done}/result`,
    key: A,
    status: 200,
    check: (b) => {
      expect(b.task_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(b.total_count).toBe(1);
      expect(b.files).toHaveLength(1);
      expect(b.files[0]).toMatch(
        new RegExp(
          `^http://127\\.0\\.0\\.1:${f.svc.port}/downloads/${b.task_id}/result/result\\.txt\\?expires=\\d+&signature=[0-9a-f]{64}$`,
        ),
      );
    },
  },
  {
    name: 'preview files',
    method: 'GET',
    path: () => `/task/${ids.done}/preview`,
    key: A,
    status: 200,
    check: (b) => expect(b.total_count).toBe(1),
  },
  {
    name: 'vtk files',
    method: 'GET',
    path: () => `/task/${ids.done}/vtk`,
    key: A,
    status: 200,
    check: (b) => expect(b.files[0]).toContain('/vtk/vtk.txt?'),
  },
  {
    name: 'result of failed task',
    method: 'GET',
    path: () => `/task/${ids.failed}/result`,
    key: A,
    status: 409,
    error: 'Task is not completed (status: failed)',
  },
  {
    name: 'preview of other user',
    method: 'GET',
    path: () => `/task/${ids.taskB}/preview`,
    key: A,
    status: 403,
    error: 'Access denied',
  },
  {
    name: 'vtk missing task',
    method: 'GET',
    path: () => '/task/999999/vtk',
    key: A,
    status: 404,
    error: 'Task not found',
  },
  // ---- DELETE /task/{id}
  {
    name: 'delete bad id',
    method: 'DELETE',
    path: () => '/task/not-an-id',
    key: A,
    status: 400,
    error: 'id must be an integer or uuid',
  },
  {
    name: 'delete missing int',
    method: 'DELETE',
    path: () => '/task/999999',
    key: A,
    status: 404,
    error: 'Task not found',
  },
  {
    name: 'delete missing uuid',
    method: 'DELETE',
    path: () => '/task/00000000-0000-4000-8000-000000000000',
    key: A,
    status: 404,
    error: 'Task not found',
  },
  {
    name: 'delete other user',
    method: 'DELETE',
    path: () => `/task/${ids.taskB}`,
    key: A,
    status: 403,
    error: 'Access denied',
  },
  // ---- databases
  {
    name: 'database list: enabled only',
    method: 'GET',
    path: () => '/database',
    key: A,
    status: 200,
    check: (b) => {
      const codes = b.items.map((d: any) => d.code).sort();
      expect(codes).toEqual(['ALFE', 'EXPSUB', 'NOSUB', 'PREM']);
      expect(b).toMatchObject({ total: 4, page: 1, size: 10 });
      const alfe = b.items.find((d: any) => d.code === 'ALFE');
      expect(alfe).toMatchObject({
        id: f.dbId,
        name: 'Al-Fe test',
        description: '',
        type: 'alloy',
        version: '1.0',
        level: 'free',
        element_list: ['AL', 'FE', 'VA'],
        phase_list: ['LIQUID', 'FCC_A1', 'BCC_A2'],
        sp_id: null,
        price: 0,
        user_status: 'active',
      });
      expect(alfe.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
      expect(b.items.find((d: any) => d.code === 'NOSUB').user_status).toBe('inactive');
      expect(b.items.find((d: any) => d.code === 'EXPSUB').user_status).toBe('expired');
    },
  },
  {
    name: 'database filter type',
    method: 'GET',
    path: () => '/database?type=oxide',
    key: A,
    status: 200,
    check: (b) => expect(b.items.map((d: any) => d.code)).toEqual(['PREM']),
  },
  {
    name: 'database filter level',
    method: 'GET',
    path: () => '/database?level=premium',
    key: A,
    status: 200,
    check: (b) => expect(b.total).toBe(1),
  },
  {
    name: 'database search by code',
    method: 'GET',
    path: () => '/database?search=alf',
    key: A,
    status: 200,
    check: (b) => expect(b.items.map((d: any) => d.code)).toEqual(['ALFE']),
  },
  {
    name: 'database search by name',
    method: 'GET',
    path: () => '/database?search=Al-Fe%20te',
    key: A,
    status: 200,
    check: (b) => expect(b.total).toBe(1),
  },
  {
    name: 'database search by element',
    method: 'GET',
    path: () => '/database?search=ni',
    key: A,
    status: 200,
    check: (b) => expect(b.total).toBe(3),
  },
  {
    name: 'database paging',
    method: 'GET',
    path: () => '/database?size=2&page=2',
    key: A,
    status: 200,
    check: (b) => {
      expect(b.items).toHaveLength(2);
      expect(b).toMatchObject({ total: 4, page: 2, size: 2 });
    },
  },
  {
    name: 'database size 0',
    method: 'GET',
    path: () => '/database?size=0',
    key: A,
    status: 400,
    error: 'size must be an integer between 1 and 100',
  },
  {
    name: 'database page -1',
    method: 'GET',
    path: () => '/database?page=-1',
    key: A,
    status: 400,
    error: 'page must be an integer >= 1',
  },
  {
    name: 'by-task',
    method: 'GET',
    path: () => '/database/by-task?task_type=point_calculation',
    key: A,
    status: 200,
    check: (b) => expect(b.items.map((d: any) => d.code)).toEqual(['ALFE']),
  },
  {
    name: 'by-task line',
    method: 'GET',
    path: () => '/database/by-task?task_type=line_calculation&size=1',
    key: A,
    status: 200,
    check: (b) => {
      expect(b.total).toBe(3);
      expect(b.items).toHaveLength(1);
    },
  },
  {
    name: 'by-task missing task_type',
    method: 'GET',
    path: () => '/database/by-task',
    key: A,
    status: 400,
    error: 'task_type is required',
  },
  {
    name: 'users databases',
    method: 'GET',
    path: () => '/database/users',
    key: A,
    status: 200,
    check: (b) => {
      expect(b.items.map((d: any) => `${d.code}:${d.user_status}`).sort()).toEqual([
        'ALFE:active',
        'EXPSUB:expired',
        'PREM:pending',
      ]);
    },
  },
  {
    name: 'users databases filter',
    method: 'GET',
    path: () => '/database/users?level=premium',
    key: A,
    status: 200,
    check: (b) => expect(b.total).toBe(1),
  },
  {
    name: 'get database',
    method: 'GET',
    path: () => `/database/${f.dbId}`,
    key: A,
    status: 200,
    check: (b) => expect(b).toMatchObject({ id: f.dbId, code: 'ALFE', user_status: 'active' }),
  },
  {
    name: 'get database missing',
    method: 'GET',
    path: () => '/database/00000000-0000-4000-8000-000000000000',
    key: A,
    status: 404,
    error: 'Db not found',
  },
  {
    name: 'get database disabled',
    method: 'GET',
    path: () => `/database/${ids.dis}`,
    key: A,
    status: 404,
    error: 'Db not found',
  },
  {
    name: 'get database invisible',
    method: 'GET',
    path: () => `/database/${ids.hid}`,
    key: A,
    status: 404,
    error: 'Db not found',
  },
  {
    name: 'phases missing db',
    method: 'POST',
    path: () => '/database/00000000-0000-4000-8000-000000000000/phases',
    key: A,
    body: () => ({ element_list: ['CU'] }),
    status: 404,
    error: 'Db not found',
  },
  {
    name: 'phases disabled db',
    method: 'POST',
    path: () => `/database/${ids.dis}/phases`,
    key: A,
    body: () => ({ element_list: ['CU'] }),
    status: 404,
    error: 'Db not found',
  },
  {
    name: 'phases without subscription',
    method: 'POST',
    path: () => `/database/${ids.nosub}/phases`,
    key: A,
    body: () => ({ element_list: ['CU'] }),
    status: 403,
    error: 'You do not have access to this Db or your access has expired',
  },
  {
    name: 'phases expired subscription',
    method: 'POST',
    path: () => `/database/${ids.exp}/phases`,
    key: A,
    body: () => ({ element_list: ['CU'] }),
    status: 403,
    error: 'You do not have access to this Db or your access has expired',
  },
  {
    name: 'phases element_list missing',
    method: 'POST',
    path: () => `/database/${f.dbId}/phases`,
    key: A,
    body: () => ({}),
    status: 400,
    error: 'element_list is required',
  },
  {
    name: 'phases unknown element',
    method: 'POST',
    path: () => `/database/${f.dbId}/phases`,
    key: A,
    body: () => ({ element_list: ['XX'] }),
    status: 400,
    error: 'element_list: unknown elements for this Db: XX',
  },
  {
    name: 'user status active',
    method: 'GET',
    path: () => `/database/user/status?user_id=${f.userA}&topdb_id=${f.dbId}`,
    key: A,
    status: 200,
    check: (b) => expect(b).toEqual({ status: 'active' }),
  },
  {
    name: 'user status pending',
    method: 'GET',
    path: () => `/database/user/status?user_id=${f.userA}&topdb_id=${ids.prem}`,
    key: A,
    status: 200,
    check: (b) => expect(b).toEqual({ status: 'pending' }),
  },
  {
    name: 'user status none -> inactive',
    method: 'GET',
    path: () => `/database/user/status?user_id=${f.userA}&topdb_id=${ids.nosub}`,
    key: A,
    status: 200,
    check: (b) => expect(b).toEqual({ status: 'inactive' }),
  },
  {
    name: 'user status other user',
    method: 'GET',
    path: () => `/database/user/status?user_id=${f.userB}&topdb_id=${f.dbId}`,
    key: A,
    status: 403,
    error: "Cannot access other user's Db status",
  },
  {
    name: 'user status missing db',
    method: 'GET',
    path: () => `/database/user/status?user_id=${f.userA}&topdb_id=00000000-0000-4000-8000-000000000000`,
    key: A,
    status: 404,
    error: 'Db not found',
  },
  {
    name: 'user status disabled db',
    method: 'GET',
    path: () => `/database/user/status?user_id=${f.userA}&topdb_id=${ids.dis}`,
    key: A,
    status: 404,
    error: 'Db not found',
  },
  {
    name: 'user status missing user_id',
    method: 'GET',
    path: () => `/database/user/status?topdb_id=${f.dbId}`,
    key: A,
    status: 400,
    error: 'user_id is required',
  },
];

// (the valid row shrinks the grid: the task really runs, on the pool the DELETE test needs later)
function cpt(over: Record<string, unknown> = {}) {
  return {
    task_type: 'binary_cpt_diagram',
    tdb_code: 'ALFE',
    condition: {
      components: ['AL', 'FE'],
      x_component: 'FE',
      composition_start: 0,
      composition_end: 1,
      composition_step: 0.1,
      temperature_start: 300,
      temperature_end: 1800,
      temperature_step: 10,
      pressure_start: 1e5,
      pressure_end: 1e9,
      pressure_points: 5,
      pressure_scale: 'log',
      ...over,
    },
  };
}

async function runRow(r: Row) {
  const res = await api(f.svc.port, r.method, r.path(), {
    key: r.key?.(),
    auth: r.auth,
    body: r.body?.(),
    raw: r.raw,
    headers: r.headers,
  });
  expect(res.status, `${r.name}: ${res.text}`).toBe(r.status);
  expect(res.headers['access-control-allow-origin']).toBeUndefined();
  if (r.error !== undefined) {
    expect(typeof res.body?.error).toBe('string');
    if (typeof r.error === 'string') expect(res.body.error).toBe(r.error);
    else expect(res.body.error).toMatch(r.error);
  }
  r.check?.(res.body);
}

describe('authentication table', () => {
  it.each(AUTH_ROWS.map((r) => [r.name, r] as const))('%s', async (_n, r) => runRow(r));

  it('the unknown-key 401 carries a details field', async () => {
    const r = await api(f.svc.port, 'GET', '/key/info', { auth: 'Bearer tk_00000000000000000000000000000000' });
    expect(typeof r.body.details).toBe('string');
  });

  const ENDPOINTS: [string, () => string][] = [
    ['GET', () => '/key/info'],
    ['POST', () => '/task'],
    ['GET', () => '/task/list'],
    ['GET', () => `/task/${ids.done}`],
    ['PATCH', () => `/task/${ids.done}/cancel`],
    ['DELETE', () => `/task/${ids.done}`],
    ['GET', () => `/task/${ids.done}/result`],
    ['GET', () => `/task/${ids.done}/preview`],
    ['GET', () => `/task/${ids.done}/vtk`],
    ['GET', () => '/database'],
    ['GET', () => '/database/by-task?task_type=x'],
    ['GET', () => '/database/users'],
    ['GET', () => `/database/${f.dbId}`],
    ['POST', () => `/database/${f.dbId}/phases`],
    ['GET', () => `/database/user/status?user_id=${f.userA}&topdb_id=${f.dbId}`],
  ];
  it.each(ENDPOINTS.map(([m, p]) => [m, p] as const))('%s requires the key', async (m, p) => {
    for (const [auth, status, msg] of [
      [undefined, 401, 'Missing Authorization header'],
      ['Bearer tk_short', 401, 'API key is too short'],
      [`Bearer ${ids.disabledKey.key}`, 403, 'API key is disabled'],
    ] as const) {
      const r = await api(f.svc.port, m, p(), { auth, body: m === 'POST' ? {} : undefined });
      expect(r.status).toBe(status);
      expect(r.body.error).toBe(msg);
    }
  });

  it('last_used_at changes on every authenticated request', async () => {
    const k = await issueKey(f.svc.store, 'a', { name: 'fresh' });
    const first = await api(f.svc.port, 'GET', '/key/info', { key: k.key });
    await new Promise((r) => setTimeout(r, 5));
    await api(f.svc.port, 'GET', '/database', { key: k.key });
    const row = await f.svc.store.db
      .selectFrom('api_keys')
      .select('last_used_at')
      .where('id', '=', k.id)
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.last_used_at!)).toBeGreaterThan(Date.parse(first.body.last_used_at));
  });
});

describe('endpoint and error table', () => {
  it.each(ROWS.map((r) => [r.name, r] as const))('%s', async (_n, r) => runRow(r));

  it('cancel response is the task record with status aborted and result null', () => {
    expect(ids.cancelResponse.status).toBe(200);
    expect(ids.cancelResponse.body).toMatchObject({
      id: ids.aborted,
      status: 'aborted',
      result: null,
      task_type: '__test_sleep',
    });
  });

  it('DELETE by integer id and by UUID removes the record', async () => {
    const c1 = await api(f.svc.port, 'POST', '/task', { key: A(), body: task({ no_cache: true, title: 'del1' }) });
    const del1 = await api(f.svc.port, 'DELETE', `/task/${c1.body.id}`, { key: A() });
    expect(del1.status).toBe(200);
    expect(del1.text).toBe('');
    expect((await api(f.svc.port, 'GET', `/task/${c1.body.id}`, { key: A() })).status).toBe(404);
    const c2 = await api(f.svc.port, 'POST', '/task', {
      key: A(),
      body: { title: 'w', task_config: { task_type: '__test_write', tdb_code: 'ALFE', seconds: 42 } },
    });
    await waitStatus(c2.body.id, A(), ['completed']);
    const files = await api(f.svc.port, 'GET', `/task/${c2.body.id}/result`, { key: A() });
    const del2 = await api(f.svc.port, 'DELETE', `/task/${files.body.task_id}`, { key: A() });
    expect(del2.status).toBe(200);
    expect((await api(f.svc.port, 'GET', `/task/${c2.body.id}`, { key: A() })).status).toBe(404);
    const dl = new URL(files.body.files[0]);
    expect((await http(f.svc.port, 'GET', dl.pathname + dl.search)).status).toBe(404);
  });

  it('OpenAPI 3.1 document generated from the zod schemas', async () => {
    const r = await api(f.svc.port, 'GET', '/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    expect(Object.keys(r.body.paths)).toEqual(
      expect.arrayContaining([
        '/key/info',
        '/task',
        '/task/list',
        '/task/{id}',
        '/task/{id}/cancel',
        '/task/{id}/result',
        '/task/{id}/preview',
        '/task/{id}/vtk',
        '/database',
        '/database/by-task',
        '/database/users',
        '/database/{db_id}',
        '/database/{db_id}/phases',
        '/database/user/status',
      ]),
    );
    expect(r.body.components.schemas.TaskConfig_binary_cpt_diagram.properties.condition.required).toContain(
      'pressure_scale',
    );
    expect(
      r.body.components.schemas.TaskListQuery ?? r.body.paths['/task/list'].get.parameters.map((p: any) => p.name),
    ).toEqual(['page', 'items_per_page', 'sort_order', 'status', 'task_type', 'tdb_code', 'search']);
  });

  it('unknown path -> 404 JSON error', async () => {
    const r = await api(f.svc.port, 'GET', '/nope', { key: A() });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'Not found' });
  });
});

describe('limits rows', () => {
  let g: Fixture;
  beforeAll(async () => {
    g = await startFixture({ maxPendingTasks: 2 });
    await setPlan(g.svc.store, 'tiny', 2);
    await createUser(g.svc.store, { username: 'r', plan: 'tiny' });
    await subscribe(g.svc.store, { username: 'r', code: 'ALFE', status: 'active' });
    ids.keyR = (await issueKey(g.svc.store, 'r')).key;
  });
  afterAll(async () => {
    await g?.close();
  });

  it('rolling 24 h creation limit: 403 with the exact text', async () => {
    for (let i = 0; i < 2; i++)
      expect((await api(g.svc.port, 'POST', '/task', { key: ids.keyR, body: task({ no_cache: true }) })).status).toBe(
        200,
      );
    const r = await api(g.svc.port, 'POST', '/task', { key: ids.keyR, body: task({ no_cache: true }) });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: 'Rate limit exceeded: used 2 of 2 requests in the last 24 hours' });
  });

  it('pending limit: 403 with current_pending_tasks and max_pending_tasks', async () => {
    const s = await api(g.svc.port, 'POST', '/task', {
      key: g.keyA,
      body: { title: 's', task_config: { task_type: '__test_sleep', tdb_code: 'ALFE' } },
    });
    await until(
      () => api(g.svc.port, 'GET', `/task/${s.body.id}`, { key: g.keyA }),
      (r) => r.body.status === 'running',
    );
    for (let i = 0; i < 2; i++)
      expect(
        (await api(g.svc.port, 'POST', '/task', { key: g.keyA, body: task({ no_cache: true }) })).body.status,
      ).toBe('pending');
    const r = await api(g.svc.port, 'POST', '/task', { key: g.keyA, body: task({ no_cache: true }) });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      error: 'Pending task limit exceeded. Maximum allowed pending tasks: 2',
      current_pending_tasks: 2,
      max_pending_tasks: 2,
    });
    await api(g.svc.port, 'PATCH', `/task/${s.body.id}/cancel`, { key: g.keyA });
  });
});
