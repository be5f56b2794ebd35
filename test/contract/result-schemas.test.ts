// The JSON Schema of each task type's result.json: generated from the result-document types (scripts/
// result-schemas.ts), served next to the OpenAPI document, and met by what each calculation really writes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { TASK_TYPES, type TaskType } from '../../contract/tasks/registry.js';
import { RESULT_SCHEMAS } from '../../contract/results/result-schemas.generated.js';
import { GENERATED_FILE, generatedModule, resultSchemas } from '../../scripts/result-schemas.js';
import { validateTaskConfig } from '../../main/requests/task-config.js';
import { loadCalculation } from '../../worker/index.js';
import { CONTROL_BYTES, JobControl } from '../../worker/protocol.js';
import { api, startFixture, type Fixture } from '../service/helpers.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { alZrAgingCondition } from '../support/aging.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ALZN = path.join(SHARED_TDB_DIR, 'alzn_mey.tdb');
const CUNI = path.join(ROOT, 'databases/cuni_mey1992.tdb');
const CRTIV = path.join(SHARED_TDB_DIR, 'crtiv_ghosh.tdb');
const ALSCZR = path.join(SHARED_TDB_DIR, 'kawin_AlScZr.tdb');

/** One small configuration per task type (the registry's list: a new type without one fails below). */
const CONFIGS: Record<TaskType, { tdb: string; config: Record<string, unknown> }> = {
  point_calculation: {
    tdb: ALZN,
    config: { condition: { components: ['AL', 'ZN'], temperature: 700, pressure: 101325, compositions: { ZN: 0.3 } } },
  },
  line_calculation: {
    tdb: ALZN,
    config: {
      condition: {
        components: ['AL', 'ZN'],
        temperature_start: 500,
        temperature_end: 900,
        pressure: 101325,
        points: 9,
        compositions_start: { ZN: 0.3 },
        compositions_end: { ZN: 0.3 },
      },
    },
  },
  thermodynamic_properties_next: {
    tdb: ALZN,
    config: {
      condition: {
        components: ['AL', 'ZN'],
        temperature_start: 500,
        temperature_end: 900,
        pressure: 101325,
        points: 9,
        compositions_start: { ZN: 0.3 },
        compositions_end: { ZN: 0.3 },
      },
    },
  },
  scheil_solidification: {
    tdb: ALZN,
    config: {
      condition: {
        components: ['AL', 'ZN'],
        compositions: { AL: 0.9, ZN: 0.1 },
        start_temperature: 1000,
        temperature_step: 10,
        pressure: 101325,
      },
    },
  },
  binary_equilibrium: {
    tdb: ALZN,
    config: {
      condition: {
        components: ['AL', 'ZN'],
        compositions_start: { ZN: 0.7 },
        compositions_end: { ZN: 1 },
        temperature_start: 600,
        temperature_end: 700,
        pressure: 101325,
      },
    },
  },
  binary_cpt_diagram: {
    tdb: CUNI,
    config: {
      condition: {
        components: ['CU', 'NI'],
        x_component: 'NI',
        composition_start: 0,
        composition_end: 1,
        composition_step: 0.25,
        temperature_start: 1400,
        temperature_end: 1800,
        temperature_step: 100,
        pressure_start: 1e5,
        pressure_end: 1e9,
        pressure_points: 2,
        pressure_scale: 'log',
      },
    },
  },
  isopleth: {
    tdb: CUNI,
    config: {
      condition: {
        components: ['CU', 'NI'],
        composition_start: { NI: 0.2 },
        composition_end: { NI: 0.8 },
        temperature_start: 1400,
        temperature_end: 1800,
        pressure: 101325,
        resolution: 5,
      },
    },
  },
  ternary_isothermal_section: {
    tdb: CRTIV,
    config: {
      condition: {
        components: ['CR', 'TI', 'V'],
        temperature: 1400,
        pressure: 101325,
        composition_unit: 'mass_fraction',
        map_options: { grid_divisions: 6 },
      },
    },
  },
  solidification: {
    tdb: ALZN,
    config: {
      condition: {
        components: ['AL', 'ZN'],
        compositions: { ZN: 0.1 },
        pressure: 101325,
        start_temperature: 950,
        temperature_step: 5,
        cooling_rate: 1,
        solid_diffusivities: { ZN: { D0: 2.45e-5, Q: 120000 } },
        solute_trapping: { interface_velocity: 0.05 },
      },
    },
  },
  potential_diagram: {
    tdb: path.join(SHARED_TDB_DIR, 'cuo.tdb'),
    config: {
      condition: {
        components: ['CU', 'O'],
        activated_phases: ['FCC_A1', 'CU2O', 'CUO', 'IONIC_LIQ'],
        pressure: 101325,
        x_axis: { quantity: 'temperature', start: 800, end: 1600 },
        y_axis: { quantity: 'log10_activity', element: 'O', reference_state: 'GAS', start: -10, end: 0 },
        grid_points: 11,
      },
    },
  },
  liquidus_projection: {
    tdb: path.join(SHARED_TDB_DIR, 'alcrni.tdb'),
    config: { condition: { components: ['NI', 'AL', 'CR'], pressure: 101325, grid_divisions: 4, isotherm_step: 100 } },
  },
  aging: {
    tdb: ALSCZR,
    config: {
      condition: alZrAgingCondition({ from: 623, ramp: 600, hold: 723, end: 3.6e4, output_times: [3.6e3], points: 21 }),
    },
  },
  solution_treatment: {
    tdb: ALZN,
    config: {
      condition: {
        components: ['AL', 'ZN'],
        compositions: { ZN: 0.1 },
        pressure: 101325,
        temperature_start: 400,
        points: 21,
        dissolution: { phase: 'HCP_A3', radius: 1e-6, temperature: 600, diffusivity: { D0: 2e-5, Q: 120000 } },
      },
    },
  },
  spinodal_decomposition: {
    tdb: ALZN,
    config: {
      condition: {
        components: ['AL', 'ZN'],
        phase: 'FCC_A1',
        temperature_start: 400,
        temperature_end: 700,
        pressure: 101325,
        temperature_points: 7,
        composition_points: 51,
        coherent: { c11: 108e9, c12: 62e9, lattice_mismatch: -0.02, molar_volume: 1e-5 },
      },
    },
  },
  gibbs_energy_curves: {
    tdb: ALZN,
    config: {
      condition: {
        components: ['AL', 'ZN'],
        temperature: 600,
        pressure: 101325,
        points: 11,
        compositions_start: { ZN: 0 },
        compositions_end: { ZN: 1 },
      },
    },
  },
  equilibrium_batch: {
    tdb: ALZN,
    config: {
      condition: {
        components: ['AL', 'ZN'],
        pressure: 101325,
        product: { compositions: [{ ZN: 0.1 }, { ZN: 0.6 }], temperatures: [600, 800] },
      },
    },
  },
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-result-schemas-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('result.json schemas', () => {
  it(`${GENERATED_FILE} is what the result types give (regenerate: npm run build && node dist/scripts/result-schemas.js)`, () => {
    expect(readFileSync(path.join(ROOT, GENERATED_FILE), 'utf8')).toBe(generatedModule(resultSchemas(ROOT)));
    expect(Object.keys(RESULT_SCHEMAS)).toEqual(TASK_TYPES);
  }, 60_000);

  for (const t of TASK_TYPES) {
    it(`${t}: the document a calculation writes meets its schema, and one without a required field does not`, async () => {
      const { tdb, config } = CONFIGS[t];
      const v = validateTaskConfig(t, { task_type: t, tdb_code: 'TEST', ...config });
      if (!v.ok) throw new Error(v.error);
      const dir = path.join(tmp, t);
      const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
      const run = (await loadCalculation(t))!;
      await run(
        {
          taskUuid: t,
          taskType: t,
          config: { ...v.value, tdb_file: tdb },
          ompThreads: 1,
          taskDir: dir,
          control: control.buffer,
        },
        control,
      );
      const doc = JSON.parse(readFileSync(path.join(dir, 'result', 'result.json'), 'utf8')) as Record<string, unknown>;
      const validate = ajv.compile(RESULT_SCHEMAS[t]!);
      expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
      const required = (RESULT_SCHEMAS[t]!.required as string[]).filter((k) => k !== 'task_type');
      expect(required.length).toBeGreaterThan(3);
      const { [required[required.length - 1]!]: _dropped, ...incomplete } = doc;
      expect(validate(incomplete)).toBe(false);
      expect(validate({ ...doc, task_type: 'another' })).toBe(false);
    }, 60_000);
  }
});

describe('served next to the OpenAPI document', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  it('GET /api/v2/schemas/results/<task_type>.json without a key; an unknown name is a 404 naming the known ones', async () => {
    const r = await api(f.svc.port, 'GET', '/schemas/results/point_calculation.json');
    expect(r.status).toBe(200);
    expect(r.body).toEqual(RESULT_SCHEMAS.point_calculation);
    const bad = await api(f.svc.port, 'GET', '/schemas/results/isotherm.json');
    expect(bad.status).toBe(404);
    expect(bad.body.error).toBe(
      `no result schema 'isotherm.json'; known: ${TASK_TYPES.map((t) => `${t}.json`).join(', ')}`,
    );
  });

  it("the OpenAPI document lists them, task_config is one of the types' schemas, task status an enum", async () => {
    const doc = (await api(f.svc.port, 'GET', '/openapi.json')).body;
    expect(Object.keys(doc['x-result-schemas'])).toEqual(TASK_TYPES);
    for (const url of Object.values(doc['x-result-schemas']) as string[])
      expect(url).toMatch(/\/api\/v2\/schemas\/results\/[a-z_]+\.json$/);
    const taskConfig = doc.components.schemas.TaskCreateRequest.properties.task_config;
    const oneOf = taskConfig.anyOf[0].oneOf as { $ref: string }[];
    expect(oneOf.map((s) => s.$ref)).toEqual(TASK_TYPES.map((t) => `#/components/schemas/TaskConfig_${t}`));
    for (const s of oneOf) expect(doc.components.schemas[s.$ref.split('/').pop()!]).toBeDefined();
    expect(taskConfig.anyOf[0].discriminator.propertyName).toBe('task_type');
    expect(doc.components.schemas.TaskStatusResponse.properties.status.enum).toEqual([
      'created',
      'pending',
      'queued',
      'running',
      'uploading',
      'completed',
      'failed',
      'aborted',
    ]);
  });
});
