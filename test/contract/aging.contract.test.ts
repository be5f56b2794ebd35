// aging over the real listener: Al-0.4Zr held 100 h at 723 K (Al3Zr on dislocations in fcc, kawin's Al-Sc-Zr
// database with its mobility data) completes with its result files, the precipitate near its equilibrium amount and
// the matrix depleted, the strength increment asked for in result.json and result.csv; an alloy undersaturated for its
// precipitate completes with a note saying so; the bad inputs are 400s naming the field (an interfacial energy or a
// time of 0 or below, a schedule going back in time, a precipitate phase the database does not define with the
// nearest name, a diffusivity of an element not a component, an aspect ratio below 1, a shear modulus of 0...); the
// form's fields for the precipitates and the strength.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conditionFields, validateConfig } from '../../renderer/src/lib/taskforms.js';
import { buildTaskConfig, copyOfTask, freshValues } from '../../renderer/src/lib/task-form-values.js';
import type { AgingDocument } from '../../contract/results/aging.js';
import { agingExample } from '../../contract/tasks/aging-examples.js';
import { api, http, startFixture, submitAndWait, type Fixture } from '../service/helpers.js';
import { importAlScZr } from '../support/kawin-databases.js';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
  await importAlScZr(f);
});
afterAll(async () => {
  await f?.close();
});

const ALUMINIUM_STRENGTH = { shear_modulus: 26.9e9, burgers_vector: 2.86e-10, transition_radius: 3e-9 };
const strength = (bad: Record<string, unknown>) => ({ strength: { ...ALUMINIUM_STRENGTH, ...bad } });
const shaped = (shape: unknown) => ({ precipitates: [{ phase: 'AL3ZR', interfacial_energy: 0.1, shape }] });

const config = (condition: Record<string, unknown> = {}) => ({
  task_type: 'aging',
  tdb_code: 'ALSCZR',
  condition: {
    ...agingExample('alzr').config.condition,
    end_time: 3.6e5,
    output_times: [3.6e3, 3.6e5],
    points: 25,
    ...condition,
  },
});

/** Runs a task to its end and reads its result.json. */
async function resultOf(
  taskConfig: unknown,
): Promise<{ status: string; text: string; files: string[]; doc?: AgingDocument }> {
  const done = await submitAndWait(f, taskConfig, 'aging');
  if (done.status !== 'completed') return { status: done.status, text: done.text, files: [] };
  const listing = await api(f.svc.port, 'GET', `/task/${done.id}/result`, { key: f.keyA });
  const previews = await api(f.svc.port, 'GET', `/task/${done.id}/preview`, { key: f.keyA });
  const urls = [...listing.body.files, ...previews.body.files].map((u: string) => new URL(u));
  const json = urls.find((u) => u.pathname.endsWith('/result.json'))!;
  const doc = await http(f.svc.port, 'GET', json.pathname + json.search);
  const files = urls.map((u) => u.pathname.split('/').pop()!);
  return { status: 'completed', text: done.text, files, doc: JSON.parse(doc.text) as AgingDocument };
}

describe('aging over the API', () => {
  it('Al-0.4Zr, 100 h at 723 K: result.json, result.csv and the preview; Al3Zr forms and the matrix loses Zr', async () => {
    const r = await resultOf(config({ strength: ALUMINIUM_STRENGTH }));
    expect(r.status, r.text).toBe('completed');
    expect(r.files).toEqual(expect.arrayContaining(['result.json', 'result.csv', 'aging.svg', 'aging.png']));
    const doc = r.doc!;
    expect(doc.task_type).toBe('aging');
    expect(doc.time).toHaveLength(25);
    expect(doc.time.at(-1)).toBeCloseTo(3.6e5, 3);
    const p = doc.precipitates[0]!;
    expect(p.phase).toBe('AL3ZR');
    expect(p.number_density).toHaveLength(25);
    expect(p.volume_fraction.at(-1)!).toBeGreaterThan(0.01);
    expect(p.mean_radius.at(-1)!).toBeGreaterThan(1e-9);
    expect(doc.matrix_composition.ZR!.at(-1)!).toBeLessThan(0.004);
    expect(doc.size_distributions.map((d) => d.time)).toEqual([3.6e3, 3.6e5]);
    expect(doc.diffusivity_source.ZR).toMatch(/mobility data/);
    expect(doc.mass_balance_error).toBeLessThan(1e-6);
    expect(doc.table.columns.map((c) => c.name)).toEqual(
      expect.arrayContaining(['time', 'N(AL3ZR)', 'x(FCC_A1,ZR)', 'dsigma(AL3ZR)', 'dsigma_precipitates']),
    );
    expect(p.shape).toEqual({ kind: 'sphere', aspect_ratio: 1 });
    expect(p.strength!.total).toHaveLength(25);
    expect(doc.strength!.total.at(-1)!).toBeGreaterThan(1e8);
    expect(doc.strength).toMatchObject({ taylor_factor: 3.06, combination: 'quadrature' });
  }, 180_000);

  it('an alloy undersaturated for its precipitate completes with a note saying so', async () => {
    const r = await resultOf(
      config({
        components: ['AL', 'SC'],
        compositions: { SC: 1e-6 },
        precipitates: [{ phase: 'AL3SC', interfacial_energy: 0.1 }],
        // Fujikawa's D(Sc in Al): the database has no mobility data of Sc
        diffusivities: { SC: { D0: 5.31e-4, Q: 173000 } },
        end_time: 100,
        output_times: undefined,
      }),
    );
    expect(r.status, r.text).toBe('completed');
    expect(r.doc!.notes.join('\n')).toMatch(/nothing precipitated/);
    expect(r.doc!.notes.join('\n')).toMatch(/AL3SC: the alloy is undersaturated/);
    expect(r.doc!.precipitates[0]!.volume_fraction.every((v) => v === 0)).toBe(true);
  }, 120_000);

  const schedule = [
    { time: 0, temperature: 573 },
    { time: 3600, temperature: 723 },
    { time: 1800, temperature: 723 },
  ];
  it.each([
    [
      { precipitates: [{ phase: 'AL3ZR', interfacial_energy: 0 }] },
      /^task_config\.condition\.precipitates\.0\.interfacial_energy: must be greater than 0/,
    ],
    [
      { precipitates: [{ phase: 'AL3ZR', interfacial_energy: -0.1 }] },
      /^task_config\.condition\.precipitates\.0\.interfacial_energy: must be greater than 0/,
    ],
    [{ end_time: 0 }, /^task_config\.condition\.end_time: must be greater than 0/],
    [{ end_time: -5 }, /^task_config\.condition\.end_time: must be greater than 0/],
    [
      { temperature: undefined, end_time: undefined, schedule },
      /^task_config\.condition\.schedule\.2\.time: goes back in time: 1800 s after 3600 s/,
    ],
    [
      {
        schedule: [
          { time: 0, temperature: 723 },
          { time: 10, temperature: 723 },
        ],
      },
      /^task_config\.condition\.temperature: give temperature or schedule, not both/,
    ],
    [{ temperature: undefined }, /^task_config\.condition\.temperature: give temperature and end_time, or a schedule/],
    [{ output_times: [1e9] }, /^task_config\.condition\.output_times\.0: must be at most the end of the treatment/],
    [
      { diffusivities: { SC: { D0: 1e-4, Q: 2e5 } } },
      /^task_config\.condition\.diffusivities\.SC: SC is not one of the components/,
    ],
    [{ matrix_lattice_parameter: undefined }, /^task_config\.condition\.matrix_molar_volume: give matrix_molar_volume/],
    [
      { precipitates: [{ phase: 'AL3ZZ', interfacial_energy: 0.1 }] },
      /^task_config\.condition\.precipitates\.0\.phase: AL3ZZ is not a phase of database 'ALSCZR' \(nearest: AL3ZR\)/,
    ],
    [
      shaped({ kind: 'needle', aspect_ratio: -2 }),
      /^task_config\.condition\.precipitates\.0\.shape\.aspect_ratio: must be at least 1/,
    ],
    [
      shaped({ kind: 'cube', aspect_ratio: 2 }),
      /^task_config\.condition\.precipitates\.0\.shape\.kind: must be one of: sphere, needle, plate/,
    ],
    [
      shaped({ kind: 'plate' }),
      /^task_config\.condition\.precipitates\.0\.shape\.aspect_ratio: give the plate's aspect ratio/,
    ],
    [
      shaped({ kind: 'sphere', aspect_ratio: 3 }),
      /^task_config\.condition\.precipitates\.0\.shape\.aspect_ratio: a sphere has aspect_ratio 1/,
    ],
    [strength({ shear_modulus: 0 }), /^task_config\.condition\.strength\.shear_modulus: must be greater than 0/],
    [strength({ burgers_vector: -1e-10 }), /^task_config\.condition\.strength\.burgers_vector: must be greater than 0/],
    [
      strength({ transition_radius: 1e-3 }),
      /^task_config\.condition\.strength\.transition_radius: must be at most 1e-6 m/,
    ],
    [strength({ taylor_factor: 0 }), /^task_config\.condition\.strength\.taylor_factor: must be greater than 0/],
    [
      strength({ transition_radii: { AL3SC: 2e-9 } }),
      /^task_config\.condition\.strength\.transition_radii\.AL3SC: AL3SC is not one of the precipitates/,
    ],
    [
      strength({ combination: 'cubic' }),
      /^task_config\.condition\.strength\.combination: must be one of: quadrature, linear/,
    ],
    [{ strength: { shear_modulus: 26.9e9 } }, /^task_config\.condition\.strength\.burgers_vector: /],
    [
      { matrix_phase: 'FCC_A2' },
      /^task_config\.condition\.matrix_phase: FCC_A2 is not a phase of database 'ALSCZR' \(nearest: FCC_A1\)/,
    ],
  ])('%j is a 400 naming the field', async (bad, message) => {
    const r = await api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 'bad', task_config: config(bad) } });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatch(message);
  });

  /** The form's values of Al-0.4Zr in fcc aluminium, before the treatment and the precipitates. */
  const formValues = () => ({
    ...freshValues('aging'),
    components: ['AL', 'ZR'],
    compositions: { AL: 0.996, ZR: 0.004 },
    matrix_phase: 'FCC_A1',
    matrix_lattice_parameter: 4.05e-10,
  });

  it('the form takes the precipitates and the schedule as rows and makes a configuration the API accepts', async () => {
    const kinds = Object.fromEntries(conditionFields('aging').map((x) => [x.key, x.kind]));
    expect([kinds.precipitates, kinds.schedule, kinds.diffusivities]).toEqual(['rows', 'rows', 'rows']);
    const values = {
      ...formValues(),
      schedule: [
        { time: 0, temperature: 573 },
        { time: 3600, temperature: 723 },
      ],
      precipitates: [{ phase: 'AL3ZR', interfacial_energy: 0.1 }],
      output_times: '5, 10',
    };
    const cfg = buildTaskConfig('aging', values, { tdbCode: 'ALSCZR', previewUnit: undefined, components: [] });
    expect(validateConfig('aging', cfg)).toEqual([]);
    expect(cfg.condition).toMatchObject({ precipitates: [{ phase: 'AL3ZR' }], output_times: [5, 10] });
    const copy = copyOfTask(JSON.stringify(cfg), 1, new URLSearchParams());
    expect('values' in copy && copy.values.precipitates).toEqual([{ phase: 'AL3ZR', interfacial_energy: 0.1 }]);
    const bad = buildTaskConfig(
      'aging',
      { ...values, precipitates: [{ phase: 'AL3ZR', interfacial_energy: 'a tenth' }] },
      { tdbCode: 'X', previewUnit: undefined, components: [] },
    );
    expect(validateConfig('aging', bad).map((i) => i.path)).toContain('condition.precipitates.0.interfacial_energy');
    const r = await api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 'form', task_config: cfg } });
    expect(r.status, r.text).toBe(200);
  });

  it('the form takes the strength as fields (its per-phase transition radii by the API only), left out when empty', () => {
    const keys = conditionFields('aging').map((x) => x.key);
    expect(keys).toEqual(expect.arrayContaining(['strength.shear_modulus', 'strength.combination']));
    expect(keys).not.toContain('strength.transition_radii');
    const values = {
      ...formValues(),
      temperature: 723,
      end_time: 3600,
      precipitates: [{ phase: 'AL3ZR', interfacial_energy: 0.1, shape: { kind: 'needle', aspect_ratio: 8 } }],
    };
    const opts = { tdbCode: 'ALSCZR', previewUnit: undefined, components: [] };
    const without = buildTaskConfig('aging', values, opts);
    expect(validateConfig('aging', without)).toEqual([]);
    expect(without.condition).not.toHaveProperty('strength');
    const withStrength = buildTaskConfig(
      'aging',
      {
        ...values,
        'strength.shear_modulus': 26.9e9,
        'strength.burgers_vector': 2.86e-10,
        'strength.transition_radius': 3e-9,
      },
      opts,
    );
    expect(validateConfig('aging', withStrength)).toEqual([]);
    expect(withStrength.condition).toMatchObject({ strength: ALUMINIUM_STRENGTH });
  });

  it.each([
    ['precipitates', /interfacial_energy \(J\/m\^2/],
    ['matrix_lattice_parameter', /aluminium 4.05e-10/],
    ['dislocation_density', /default 1e12/],
    ['end_time', /s:/],
    ['strength.shear_modulus', /aluminium 26.9e9/],
    ['strength.transition_radius', /Al alloys 2e-9 to 5e-9/],
    ['strength.taylor_factor', /fcc 3.06/],
  ] as const)('the form explains %s', (key, help) => {
    const field = conditionFields('aging').find((x) => x.key === key);
    expect(field?.help).toMatch(help);
  });
});
