// equilibrium_batch through the real listener: POST /task refuses a bad table or list of rows with a 400 naming the
// row, the column and the bound before any task exists, and a good batch runs to a completed task whose files (the
// merged CSV, the rows as JSON Lines and result.json) are listed by GET /task/{id}/result and downloaded by URL.
import { KNOWN_OUTPUT_NAMES } from '../../contract/results/outputs/vocabulary.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, http, startFixture, until, type Fixture } from '../service/helpers.js';
import { DEFAULT_WORK_BOUNDS } from '../../main/config.js';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(async () => {
  await f?.close();
});

const B = DEFAULT_WORK_BOUNDS;
const batch = (over: Record<string, unknown> = {}) => ({
  task_type: 'equilibrium_batch',
  tdb_code: 'ALFE',
  condition: {
    components: ['AL', 'FE'],
    pressure: 101325,
    rows: [{ compositions: { AL: 0.3 }, temperature: 900 }],
    ...over,
  },
});
const table = (csv: string, extra: Record<string, unknown> = {}) =>
  batch({ rows: undefined, table: { csv, ...extra } });
const CSV = 'task_config.condition.table.csv';

const REFUSALS: [string, Record<string, unknown>, string][] = [
  ['a missing composition', table('AL,T\n0.3,900\n,1000\n'), `${CSV}: row 2 (line 3), column AL: is empty`],
  [
    'a negative fraction',
    table('AL,T\n-0.1,900\n'),
    `${CSV}: row 1 (line 2), column AL: must be between 0 and 1 (mole fractions)`,
  ],
  [
    'a percent over 100',
    table('FE,T\n101,900\n', { unit: 'mass_percent' }),
    `${CSV}: row 1 (line 2), column FE: must be between 0 and 100 (mass percents)`,
  ],
  [
    'fractions that sum over 1',
    table('AL,FE,T\n0.5,0.5,900\n0.6,0.6,900\n'),
    `${CSV}: row 2 (line 3): mole fractions of all components must sum to 1 (they sum to 1.2)`,
  ],
  [
    'an unknown element column',
    table('AL,FF,T\n0.3,0.7,900\n'),
    `${CSV}: header (line 1), column 2 'FF': is not one of condition.components (AL, FE), T, pressure or label (nearest: FE)`,
  ],
  [
    'text in a number column',
    table('AL,T\n0.3,900\n0.3,hot\n'),
    `${CSV}: row 2 (line 3), column T: must be a number (got 'hot')`,
  ],
  ['a record of the wrong width', table('AL,T\n0.3,900,1\n'), `${CSV}: row 1 (line 2): has 3 fields, the header 2`],
  [
    'a quote never closed',
    table('AL,T\n"0.3,900\n'),
    `${CSV}: is not valid CSV: line 2: a double-quoted field is never closed`,
  ],
  [
    'neither a T column nor temperatures',
    table('AL\n0.3\n'),
    `${CSV}: has no T column: give one (K) or table.temperatures`,
  ],
  [
    'too many rows',
    batch({
      rows: undefined,
      product: {
        compositions: Array.from({ length: 1001 }, (_, i) => ({ AL: i / 1000 })),
        temperatures: Array.from({ length: 1000 }, (_, i) => 300 + i),
      },
    }),
    `task_config.condition.product: gives 1001000 rows; must give at most ${B.max_batch_rows} rows (setting max_batch_rows)`,
  ],
  [
    'a temperature over the bound in a table',
    table('AL,T\n0.3,900\n0.3,20000\n'),
    `${CSV}: row 2, column T: must be at most ${B.max_temperature} K (setting max_temperature)`,
  ],
  [
    'a negative fraction in a list',
    batch({ rows: [{ compositions: { AL: -0.1 }, temperature: 900 }] }),
    'task_config.condition.rows.0.compositions.AL: must be between 0 and 1',
  ],
  [
    'a list row over 1',
    batch({
      rows: [
        { compositions: { AL: 0.3 }, temperature: 900 },
        { compositions: { AL: 0.9, FE: 0.3 }, temperature: 900 },
      ],
    }),
    'task_config.condition.rows.1.compositions: mole fractions of all components must sum to 1 (they sum to 1.2)',
  ],
  [
    'an unknown phase in the outputs',
    batch({ thermo_outputs: ['NP(FCC_A2)'] }),
    "task_config.condition.thermo_outputs: output 'NP(FCC_A2)': FCC_A2 is not a phase of database 'ALFE' (nearest: FCC_A1)",
  ],
  [
    'an unknown activated phase',
    batch({ activated_phases: ['LIQIUD'] }),
    "task_config.condition.activated_phases: LIQIUD is not a phase of database 'ALFE' (nearest: LIQUID)",
  ],
  [
    'two sources',
    batch({ table: { csv: 'AL,T\n0.3,900\n' } }),
    'task_config.condition.table: give the rows as one of rows, product and table, not rows and table',
  ],
  ['no source', batch({ rows: undefined }), 'task_config.condition: give the rows as one of: rows, product, table'],
  [
    'an unknown second phase of T0',
    batch({ thermo_outputs: ['T0(FCC_A1,BCC_A3)'] }),
    "task_config.condition.thermo_outputs: output 'T0(FCC_A1,BCC_A3)': BCC_A3 is not a phase of database 'ALFE' (nearest: BCC_A2)",
  ],
  [
    'T_solvus of every phase',
    batch({ thermo_outputs: ['T_solvus(*)'] }),
    `task_config.condition.thermo_outputs: unknown output 'T_solvus(*)'; known: ${KNOWN_OUTPUT_NAMES}`,
  ],
  [
    'a misspelled fixed phase',
    batch({ fixed_phases: { LIQIUD: 0 } }),
    "task_config.condition.fixed_phases: LIQIUD is not a phase of database 'ALFE' (nearest: LIQUID)",
  ],
  [
    'two fixed phases',
    batch({ fixed_phases: { LIQUID: 0, FCC_A1: 1 } }),
    'task_config.condition.fixed_phases: must hold one phase (the temperature is the one free condition), not 2',
  ],
];

describe('POST /task equilibrium_batch: refusals at the door', () => {
  it.each(REFUSALS)('%s -> 400', async (_name, cfg, error) => {
    const r = await api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 'bad batch', task_config: cfg } });
    expect(r.status, r.text).toBe(400);
    expect(r.body).toEqual({ error });
  });
});

describe('equilibrium_batch through the service', () => {
  it('a table runs to a completed task whose CSV, JSON Lines and result.json are downloadable', async () => {
    const csv = 'label,AL,T\r\nlow,10,900\r\n"mid, hot",30,1900\r\nhigh,60,900\r\n';
    const cfg = table(csv, { unit: 'mole_percent' });
    (cfg.condition as Record<string, unknown>).thermo_outputs = ['phase_name', 'NP(*)', 'x(*)'];
    const created = await api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: { title: 'batch', task_config: cfg, no_cache: true },
    });
    expect(created.status, created.text).toBe(200);
    const done = await until(
      () => api(f.svc.port, 'GET', `/task/${created.body.id}`, { key: f.keyA }),
      (r) => ['completed', 'failed'].includes(r.body?.status),
    );
    expect(done.body.status, JSON.stringify(done.body.logs)).toBe('completed');
    expect(done.body.result).toBe('3 row(s): 3 ok, 0 not converged, 0 failed');
    const files = await api(f.svc.port, 'GET', `/task/${created.body.id}/result`, { key: f.keyA });
    const get = async (name: string) => {
      const url = new URL((files.body.files as string[]).find((u) => new URL(u).pathname.endsWith(`/${name}`))!);
      const r = await http(f.svc.port, 'GET', url.pathname + url.search);
      expect(r.status).toBe(200);
      return r.text;
    };
    const doc = JSON.parse(await get('result.json'));
    expect(doc.counts).toEqual({ rows: 3, done: 3, ok: 3, not_converged: 0, failed: 0 });
    const lines = (await get('rows.jsonl'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.row, l.label, l.status])).toEqual([
      [1, 'low', 'ok'],
      [2, 'mid, hot', 'ok'],
      [3, 'high', 'ok'],
    ]);
    expect(lines[1].values.phase_name).toBe('LIQUID');
    const rows = (await get('result.csv')).trim().split('\r\n');
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(
      /^row,label,status,reason,input_T \[K\],input_P \[Pa\],input_x\(AL\) \[mol\/mol\],input_x\(FE\) \[mol\/mol\],phase_name,NP\(/,
    );
    expect(rows[2]).toMatch(/^2,"mid, hot",ok,,1900,101325,0\.3,0\.7,LIQUID,/);
  });
});
