// Nothing a client sends takes the service down or gets a 5xx: JSON shape bounds (depth, entries) checked before
// parsing, a strict Host parser, a JSON 400 without Host, slow bodies cut off, and a seeded fuzz of POST /task.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, http, pointConfig, startFixture, type Fixture, type Res } from '../service/helpers.js';
import { hostAllowed, parseHost } from '../../main/api/host-header.js';
import { jsonShapeProblem, MAX_JSON_DEPTH, MAX_JSON_ENTRIES } from '../../main/requests/json-body.js';
import { seededRandom } from '../support/random.js';
import { FERRITE_STRENGTH } from '../support/aging.js';

let f: Fixture;
// Nothing the fuzz sends may start a calculation: the pending cap is 0, so a valid body ends in a 403 after
// every validation step has run.
beforeAll(async () => {
  f = await startFixture({ maxPendingTasks: 0, requestTimeoutSeconds: 1 });
});
afterAll(async () => {
  await f?.close();
});

const post = (raw: string): Promise<Res> => http(f.svc.port, 'POST', '/api/v2/task', { key: f.keyA, raw });
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('Host header', () => {
  it.each([
    ['localhost', true],
    ['LOCALHOST:7431', true],
    ['127.0.0.1', true],
    ['127.0.0.1:1', true],
    ['[::1]', true],
    ['[::1]:65535', true],
    ['[::1]evil.com', false],
    ['localhost:evil.com', false],
    ['localhost:65536', false],
    ['localhost:99999', false],
    ['localhost:0', false],
    ['localhost:', false],
    ['localhost:80:80', false],
    ['localhost.', false],
    ['localhost.evil.com', false],
    ['evil.com', false],
    ['127.0.0.1.nip.io', false],
    ['user@localhost', false],
    ['localhost ', false],
    [' localhost', false],
    ['[::1', false],
    ['[::2]', false],
    ['', false],
    ['localhost:+80', false],
    ['localhost:8 0', false],
    ['127.0.0.1:123456', false],
  ] as const)('%j -> %s', (host, ok) => {
    expect(hostAllowed(host)).toBe(ok);
  });

  it('parseHost gives name and port', () => {
    expect(parseHost('LocalHost:8080')).toEqual({ name: 'localhost', port: 8080 });
    expect(parseHost('[::1]')).toEqual({ name: '[::1]', port: null });
    expect(parseHost(undefined)).toBeNull();
  });

  it('a request without Host gets a JSON 400', async () => {
    for (const line of ['GET /api/v2/key/info HTTP/1.1', 'GET /api/v2/key/info HTTP/1.0']) {
      const text = await rawRequest(`${line}\r\nConnection: close\r\n\r\n`);
      expect(text).toMatch(/^HTTP\/1\.[01] 400 /);
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'Host header is required' });
    }
  });
});

function rawRequest(data: string): Promise<string> {
  return new Promise((resolveP, reject) => {
    const s = connect(f.svc.port, '127.0.0.1', () => s.write(data));
    const chunks: Buffer[] = [];
    s.on('data', (c) => chunks.push(c));
    s.on('end', () => resolveP(Buffer.concat(chunks).toString('utf8')));
    s.on('error', reject);
  });
}

describe('the NUL character (U+0000): no field means it, and PostgreSQL text cannot hold it', () => {
  it('in a body string or key, a query value or the path: a 400 naming where', async () => {
    const nul = '\u0000';
    const r1 = await post(JSON.stringify({ title: 'x', task_config: { ...pointConfig(), tdb_code: `AL${nul}FE` } }));
    expect([r1.status, r1.body]).toEqual([
      400,
      { error: 'task_config.tdb_code: must not contain the NUL character (U+0000)' },
    ]);
    const r2 = await post(JSON.stringify({ title: `a${nul}`, task_config: pointConfig() }));
    expect([r2.status, r2.body]).toEqual([400, { error: 'title: must not contain the NUL character (U+0000)' }]);
    const r3 = await post(JSON.stringify({ title: 'x', task_config: { ...pointConfig(), [`k${nul}`]: 1 } }));
    expect(r3.status).toBe(400);
    expect(r3.body.error).toMatch(/^task_config\.k\\u0000 \(a key\): must not contain the NUL character/);
    const r4 = await http(f.svc.port, 'GET', '/api/v2/task/list?search=a%00b', { key: f.keyA });
    expect([r4.status, r4.body]).toEqual([400, { error: 'search: must not contain the NUL character (U+0000)' }]);
    const r5 = await http(f.svc.port, 'GET', '/api/v2/task/%00', { key: f.keyA });
    expect([r5.status, r5.body]).toEqual([400, { error: 'URL path: must not contain the NUL character (U+0000)' }]);
    // the escaped backslash "\\u0000" is six ordinary characters, not U+0000
    const r6 = await post(JSON.stringify({ title: 'back\\u0000slash', task_config: pointConfig() }));
    expect(r6.status).not.toBe(400);
  });
});

describe('JSON shape bounds (before any walk of the parsed value)', () => {
  it('the scanner: depth, entries, strings skipped, no recursion', () => {
    expect(jsonShapeProblem(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonShapeProblem(nested(MAX_JSON_DEPTH + 1))).toBe(
      `request body: JSON nested more than ${MAX_JSON_DEPTH} levels deep`,
    );
    expect(jsonShapeProblem(nested(1_000_000))).toBe(
      `request body: JSON nested more than ${MAX_JSON_DEPTH} levels deep`,
    );
    expect(jsonShapeProblem(JSON.stringify({ s: '['.repeat(10_000) + '"\\"' }))).toBeNull();
    expect(jsonShapeProblem(JSON.stringify(new Array(MAX_JSON_ENTRIES).fill(0)))).toBeNull();
    expect(jsonShapeProblem(JSON.stringify(new Array(MAX_JSON_ENTRIES + 1).fill(0)))).toBe(
      `request body: an array or object with more than ${MAX_JSON_ENTRIES} entries`,
    );
  });

  it('3,000 levels of nesting -> 400 (the cache key walk is never reached)', async () => {
    const cfg = JSON.stringify({ title: 't', task_config: { ...pointConfig(), extra: '@' } }).replace(
      '"@"',
      nested(3000),
    );
    const r = await post(cfg);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: `request body: JSON nested more than ${MAX_JSON_DEPTH} levels deep` });
  });

  it('a 3 MB body with 200,000 entries -> 400', async () => {
    const entries = Array.from({ length: 200_000 }, (_, i) => `"k${i}":${i}`).join(',');
    const raw = `{"title":"t","task_config":{"task_type":"point_calculation","tdb_code":"ALFE","condition":{${entries}}}}`;
    expect(raw.length).toBeGreaterThan(3_000_000);
    const r = await post(raw);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: `request body: an array or object with more than ${MAX_JSON_ENTRIES} entries` });
  });

  it('a description holding deeply nested JSON -> 400 naming description', async () => {
    const r = await api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 't', description: nested(5000) } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: `description: JSON nested more than ${MAX_JSON_DEPTH} levels deep` });
  });

  it('the console API has the same bounds', async () => {
    const r = await http(f.svc.port, 'PUT', '/console/v1/settings', {
      headers: { 'x-phasedesk-console': f.svc.consoleToken },
      raw: nested(100),
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/nested more than/);
  });
});

describe('slow clients', () => {
  it('a body trickled slower than the request timeout is cut off, and the service keeps answering', async () => {
    const declared = 200;
    const { sent, closed, response } = await new Promise<{ sent: number; closed: boolean; response: string }>(
      (resolveP) => {
        const s = connect(f.svc.port, '127.0.0.1');
        let sent = 0;
        let response = '';
        let timer: NodeJS.Timeout | undefined;
        s.on('connect', () => {
          s.write(
            `POST /api/v2/task HTTP/1.1\r\nHost: 127.0.0.1:${f.svc.port}\r\nAuthorization: Bearer ${f.keyA}\r\n` +
              `Content-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`,
          );
          timer = setInterval(() => {
            // One byte every 100 ms: the whole body would take 20 s; the request timeout of the fixture is 1 s.
            if (sent < declared && !s.destroyed) {
              s.write(' ');
              sent++;
            }
          }, 100);
        });
        s.on('data', (c) => {
          response += c.toString('utf8');
        });
        const done = () => {
          clearInterval(timer);
          resolveP({ sent, closed: true, response });
        };
        s.on('close', done);
        s.on('error', () => {
          /* reset by the server: closed */
        });
      },
    );
    expect(closed).toBe(true);
    expect(sent).toBeLessThan(declared);
    if (response) expect(response).toMatch(/^HTTP\/1\.1 408 /);
    const ok = await api(f.svc.port, 'GET', '/key/info', { key: f.keyA });
    expect(ok.status).toBe(200);
  });

  it('a connection that never sends a request is closed', async () => {
    const closed = await new Promise<boolean>((resolveP) => {
      const s = connect(f.svc.port, '127.0.0.1');
      s.on('close', () => resolveP(true));
      s.on('error', () => {
        /* reset: closed */
      });
    });
    expect(closed).toBe(true);
  });
});

describe('content types and methods', () => {
  it.each([
    ['text/plain', '{"title":"t"}'],
    ['multipart/form-data; boundary=x', '--x--'],
    ['application/x-www-form-urlencoded', 'a=1'],
    ['application/json; charset=utf-16', '{}'],
    ['application/json', '\ufeff{}'],
    ['application/octet-stream', '\u0000\u0001'],
  ])('POST /task with %s answers a JSON 4xx', async (type, raw) => {
    const r = await http(f.svc.port, 'POST', '/api/v2/task', { key: f.keyA, raw, headers: { 'content-type': type } });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(() => JSON.parse(r.text)).not.toThrow();
  });
});

// ------------------------------------------------------------------------------------------------
// Seeded fuzz of POST /task

/** A seeded generator, so a failure is reproducible from the seed. */
const rng = seededRandom;

const VALID: Record<string, unknown>[] = [
  pointConfig(),
  // a mobility database beside the task's (here one without mobility data: a 400 naming mobility_tdb_code)
  {
    ...pointConfig({ thermo_outputs: ['MOB(*,*)', 'DT(BCC_A2,AL)', 'DC(BCC_A2,AL,FE)', 'DI(*,*,*)'] }),
    mobility_tdb_code: 'ALFE',
  },
  {
    task_type: 'line_calculation',
    tdb_code: 'ALFE',
    condition: {
      components: ['AL', 'FE'],
      compositions_start: { AL: 0.3 },
      compositions_end: { AL: 0.3 },
      temperature_start: 500,
      temperature_end: 1500,
      pressure: 101325,
      points: 11,
      thermo_outputs: ['NP(*)', 'GM'],
    },
  },
  {
    task_type: 'line_calculation',
    tdb_code: 'ALFE',
    condition: {
      components: ['AL', 'FE'],
      compositions_start: {},
      compositions_end: {},
      activities: { AL: 0.01 },
      temperature_start: 900,
      temperature_end: 1200,
      pressure: 101325,
      points: 4,
    },
  },
  {
    task_type: 'line_calculation',
    tdb_code: 'ALFE',
    condition: {
      components: ['AL', 'FE'],
      compositions_start: { AL: 0.1 },
      compositions_end: { AL: 0.3 },
      fixed_phases: { LIQUID: 1 },
      temperature_start: 1800,
      temperature_end: 1800,
      pressure: 101325,
      points: 3,
    },
  },
  {
    task_type: 'thermodynamic_properties_next',
    tdb_code: 'ALFE',
    condition: {
      components: ['AL', 'FE'],
      compositions_start: { AL: 0.1, FE: 0.9 },
      compositions_end: { AL: 0.4, FE: 0.6 },
      temperature_start: 800,
      temperature_end: 800,
      pressure: 101325,
      points: 5,
    },
  },
  {
    task_type: 'scheil_solidification',
    tdb_code: 'ALFE',
    condition: {
      components: ['AL', 'FE'],
      compositions: { AL: 0.9, FE: 0.1 },
      start_temperature: 1200,
      temperature_step: 1,
      pressure: 101325,
      inhibit_phases: [],
    },
  },
  {
    task_type: 'binary_equilibrium',
    tdb_code: 'ALFE',
    activated_elements: ['AL', 'FE'],
    order_disorder: { enabled: true },
    condition: {
      components: ['AL', 'FE'],
      compositions_start: { AL: 0 },
      compositions_end: { AL: 1 },
      temperature_start: 300,
      temperature_end: 2000,
      pressure: 101325,
    },
  },
  {
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
      map_options: { GLOBAL_MIN_PDENS: 60 },
    },
    ui_metadata: {
      axis_config: {
        x: { variable: 'composition', component: 'AL' },
        y: { variable: 'temperature' },
        z: { variable: 'pressure' },
      },
    },
  },
  {
    task_type: 'equilibrium_batch',
    tdb_code: 'ALFE',
    condition: {
      components: ['AL', 'FE'],
      pressure: 101325,
      rows: [
        { compositions: { AL: 0.3 }, temperature: 900 },
        { compositions: { AL: 0.4, FE: 0.6 }, temperature: 1000, pressure: 1e6, label: 'b' },
      ],
      thermo_outputs: ['NP(*)', 'x(*,*)'],
    },
  },
  {
    task_type: 'solidification',
    tdb_code: 'ALFE',
    condition: {
      components: ['AL', 'FE'],
      compositions: { AL: 0.05 },
      pressure: 101325,
      start_temperature: 1900,
      temperature_step: 5,
      cooling_rate: 10,
      secondary_arm_spacing: 5e-5,
      solid_diffusivities: { AL: { D0: 1e-4, Q: 250000 } },
    },
  },
  {
    task_type: 'aging',
    tdb_code: 'ALFE',
    condition: {
      components: ['AL', 'FE'],
      compositions: { AL: 0.05 },
      pressure: 101325,
      matrix_phase: 'BCC_A2',
      matrix_lattice_parameter: 2.87e-10,
      matrix_atoms_per_cell: 2,
      schedule: [
        { time: 0, temperature: 700 },
        { time: 100, temperature: 800 },
      ],
      precipitates: [
        {
          phase: 'FCC_A1',
          interfacial_energy: 0.5,
          nucleation_site: 'dislocations',
          shape: { kind: 'plate', aspect_ratio: 5 },
        },
      ],
      diffusivities: { AL: { D0: 1e-4, Q: 250000 } },
      output_times: [10],
      strength: FERRITE_STRENGTH,
    },
  },
  {
    task_type: 'solution_treatment',
    tdb_code: 'ALFE',
    condition: {
      components: ['AL', 'FE'],
      compositions: { AL: 0.05 },
      pressure: 101325,
      temperature_start: 600,
      points: 21,
      precipitates: ['FCC_A1'],
      dissolution: { phase: 'FCC_A1', radius: 1e-6, diffusivity: { D0: 1e-4, Q: 250000 } },
    },
  },
  {
    task_type: 'potential_diagram',
    tdb_code: 'ALFE',
    condition: {
      components: ['AL', 'FE'],
      pressure: 101325,
      x_axis: { quantity: 'temperature', start: 800, end: 1400 },
      y_axis: { quantity: 'log10_activity', element: 'AL', reference_state: 'FCC_A1', start: -6, end: 0 },
      grid_points: 7,
    },
  },
  {
    task_type: 'liquidus_projection',
    tdb_code: 'ALFE',
    condition: { components: ['AL', 'FE', 'NI'], pressure: 101325, grid_divisions: 6 },
  },
  {
    task_type: 'spinodal_decomposition',
    tdb_code: 'ALFE',
    condition: {
      components: ['AL', 'FE'],
      phase: 'BCC_A2',
      temperature_start: 500,
      temperature_end: 1200,
      pressure: 101325,
      temperature_points: 5,
      composition_points: 41,
      coherent: { c11: 230e9, c12: 135e9, lattice_mismatch: 0.01, molar_volume: 7.1e-6 },
    },
  },
  {
    task_type: 'equilibrium_batch',
    tdb_code: 'ALFE',
    condition: {
      components: ['AL', 'FE'],
      pressure: 101325,
      table: { csv: 'label,AL,T\r\na,30,900\r\n"b, c",40.5,1000\r\n', unit: 'mass_percent' },
    },
  },
];

const DEEP = '\u0001DEEP\u0001';
function randomValue(r: () => number): unknown {
  const pick = Math.floor(r() * 24);
  switch (pick) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return -1;
    case 3:
      return 0;
    case 4:
      return 1e308;
    case 5:
      return -1e308;
    case 6:
      return 5e-324;
    case 7:
      return ['NaN', 'Infinity', '-Infinity', '1e999', '0x10', ' 1 '][Math.floor(r() * 6)];
    case 8:
      return '';
    case 9:
      return '\u0000\u202e\ud83d\udca5 Ω ä 漢字';
    case 10:
      return 'x'.repeat(Math.floor(r() * 20_000));
    case 11:
      return [];
    case 12:
      return {};
    case 13:
      return DEEP;
    case 14:
      return new Array(Math.floor(r() * 12_000)).fill(r() < 0.5 ? 1 : 'AL');
    case 15:
      return Math.floor(r() * 2e9) - 1e9;
    case 16:
      return r() * 1e6;
    case 17:
      return ['AL', 'FE', 'VA', 'al', 'ZN', '/-', '*'][Math.floor(r() * 7)];
    case 18:
      return { AL: r(), FE: r(), VA: r() };
    case 19:
      return Object.fromEntries(Array.from({ length: Math.floor(r() * 50) }, (_, i) => [`k${i}\u00e9`, i]));
    case 20:
      return 2 ** 53 + 1;
    case 21:
      return '__proto__';
    case 22:
      return [
        'point_calculation',
        'line_calculation',
        'binary_cpt_diagram',
        'scheil_solidification',
        '__test_sleep',
        'aging',
      ][Math.floor(r() * 6)];
    default:
      return [r(), 'LIQUID', null];
  }
}

/** One mutation at a random place of the value (walked iteratively; the configurations are shallow). */
function mutate(root: Record<string, unknown>, r: () => number): void {
  let node: Record<string, unknown> | unknown[] = root;
  for (let depth = 0; depth < 6; depth++) {
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const k = keys[Math.floor(r() * keys.length)]!;
    const child = (node as Record<string, unknown>)[k];
    const action = r();
    if (child !== null && typeof child === 'object' && action < 0.55) {
      node = child as Record<string, unknown>;
      continue;
    }
    if (action < 0.7 && !Array.isArray(node)) delete (node as Record<string, unknown>)[k];
    else if (action < 0.8 && !Array.isArray(node))
      (node as Record<string, unknown>)[k.toUpperCase() + (r() < 0.5 ? '' : '\u00df')] = randomValue(r);
    else (node as Record<string, unknown>)[k] = randomValue(r);
    return;
  }
}

function fuzzBody(r: () => number): string {
  const kind = r();
  if (kind < 0.04)
    return ['[]', '"x"', '42', 'null', 'true', '{', '{"title":', '\u00ff\u00fe', '{"a":1}{"b":2}', ''][
      Math.floor(r() * 10)
    ]!;
  const cfg = structuredClone(VALID[Math.floor(r() * VALID.length)]!);
  const body: Record<string, unknown> = { title: 'fuzz', task_config: cfg };
  if (r() < 0.1) {
    delete body.task_config;
    body.description = JSON.stringify(cfg);
  }
  if (r() < 0.1) body.omp_threads = randomValue(r);
  if (r() < 0.05) body.no_cache = randomValue(r);
  if (r() < 0.05) body.engine = randomValue(r);
  const mutations = 1 + Math.floor(r() * 3);
  for (let i = 0; i < mutations; i++) mutate(r() < 0.1 ? body : cfg, r);
  let text = JSON.stringify(body).replace(JSON.stringify(DEEP), nested(1 + Math.floor(r() * 5000)));
  if (r() < 0.05) text = text.slice(0, Math.floor(r() * text.length)); // truncated JSON
  if (r() < 0.03) {
    const i = Math.floor(r() * text.length);
    text = text.slice(0, i) + '\u0000' + text.slice(i + 1);
  }
  return text;
}

describe('fuzz', () => {
  it('3,000 seeded POST /task bodies: no 5xx, every answer JSON', async () => {
    const seed = 12;
    const r = rng(seed);
    const bodies = Array.from({ length: 3000 }, () => fuzzBody(r));
    const statuses = new Map<number, number>();
    const bad: string[] = [];
    const t0 = performance.now();
    let next = 0;
    // Four requests in flight, as a busy client would send them.
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < bodies.length) {
          const i = next++;
          const res = await post(bodies[i]!);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          let json = true;
          try {
            JSON.parse(res.text);
          } catch {
            json = false;
          }
          if (res.status >= 500 || !json)
            bad.push(
              `body #${i} (seed ${seed}): ${res.status} ${res.text.slice(0, 200)} <- ${bodies[i]!.slice(0, 300)}`,
            );
        }
      }),
    );
    expect(bad).toEqual([]);
    // The fuzz reaches past validation too (403: the pending cap of 0), not only the JSON parser.
    expect(statuses.get(403) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(1000);
    console.log(
      `fuzz: ${bodies.length} bodies in ${((performance.now() - t0) / 1000).toFixed(1)} s, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
  }, 120_000);
});
