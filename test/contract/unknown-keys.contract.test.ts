// A key that task_config or its condition does not define is a 400 naming the key and the known key it is close
// to, for every task type, over the real listener (an unknown element likewise); every optional field of the
// specification and every documented extension (docs/api.md "Extensions to the specification") stays accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, pointConfig, startFixture, type Fixture } from '../service/helpers.js';
import { validateTaskConfig } from '../../main/requests/task-config.js';
import { TASK_TYPES, type TaskType } from '../../contract/tasks/registry.js';
import { FERRITE_STRENGTH } from '../support/aging.js';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(async () => {
  await f?.close();
});

const AL_FE = ['AL', 'FE'];
const scan = {
  components: AL_FE,
  compositions_start: { AL: 0.1, FE: 0.9 },
  compositions_end: { AL: 0.4, FE: 0.6 },
  temperature_start: 800,
  temperature_end: 1200,
  pressure: 101325,
  points: 5,
};

/**
 * A configuration of each type carrying every optional field the specification gives it and every extension this
 * service documents for it.
 */
const FULL: Record<TaskType, Record<string, unknown>> = {
  point_calculation: {
    ...pointConfig({
      activated_phases: ['FCC_A1', 'BCC_A2', 'LIQUID'],
      inhibit_phases: ['@gas'],
      thermo_outputs: ['G'],
      outputs_list_template: ['T', 'x(*)'],
      composition_unit: 'mole_fraction',
      reference_states: { AL: 'SER' },
    }),
    task_path: 'out/p',
    tdb_file: 'ALFE.tdb',
    preview_temperature_unit: 'celsius',
  },
  line_calculation: {
    task_type: 'line_calculation',
    tdb_code: 'ALFE',
    task_path: 'out/l',
    preview_temperature_unit: 'kelvin',
    condition: {
      ...scan,
      activated_phases: [],
      inhibit_phases: ['@ordered'],
      thermo_outputs: ['NP(*)'],
      outputs_list_template: ['T'],
      composition_unit: 'mole_fraction',
      reference_states: { FE: 'BCC_A2' },
    },
  },
  binary_equilibrium: {
    task_type: 'binary_equilibrium',
    tdb_code: 'ALFE',
    task_path: 'out/b',
    activated_elements: AL_FE,
    spinodal: true,
    order_disorder: {
      enabled: true,
      trace_boundaries: true,
      stability_filter: true,
      plot_boundaries: true,
      phase_scope: 'all',
      trace_method: 'branch_continuation',
    },
    condition: {
      components: AL_FE,
      compositions_start: { AL: 0 },
      compositions_end: { AL: 1 },
      temperature_start: 300,
      temperature_end: 2000,
      pressure: 101325,
      activated_phases: ['FCC_A1'],
      inhibit_phases: ['GAS'],
      composition_unit: 'mass_fraction',
    },
  },
  thermodynamic_properties_next: {
    task_type: 'thermodynamic_properties_next',
    tdb_code: 'ALFE',
    task_path: 'out/t',
    condition: { ...scan, activated_phases: ['FCC_A1'], thermo_outputs: ['Cp', 'mu(*)'], outputs_list_template: [] },
  },
  scheil_solidification: {
    task_type: 'scheil_solidification',
    tdb_code: 'ALFE',
    task_path: 'out/s',
    condition: {
      components: AL_FE,
      compositions: { AL: 0.9, FE: 0.1 },
      start_temperature: 1200,
      temperature_step: 1,
      pressure: 101325,
      activated_phases: ['LIQUID', 'FCC_A1'],
      inhibit_phases: ['BCC_A2'],
      composition_unit: 'mole_fraction',
    },
  },
  binary_cpt_diagram: {
    task_type: 'binary_cpt_diagram',
    tdb_code: 'ALFE',
    task_path: 'out/c',
    condition: {
      components: AL_FE,
      activated_phases: ['FCC_A1'],
      inhibit_phases: [],
      x_component: 'AL',
      composition_start: 0,
      composition_end: 1,
      composition_step: 0.1,
      composition_unit: 'mole_fraction',
      temperature_start: 500,
      temperature_end: 1500,
      temperature_step: 100,
      pressure_start: 1e5,
      pressure_end: 1e9,
      pressure_points: 3,
      pressure_scale: 'log',
      include_tielines: true,
      tieline_stride: 2,
      map_options: { GLOBAL_MIN_PDENS: 60 },
    },
    ui_metadata: {
      module: 'cpt',
      backend_task_type: 'binary_cpt_diagram',
      axis_config: {
        x: { variable: 'composition', component: 'AL' },
        y: { variable: 'temperature' },
        z: { variable: 'pressure' },
      },
    },
  },
  isopleth: {
    task_type: 'isopleth',
    tdb_code: 'ALFE',
    condition: {
      components: AL_FE,
      activated_phases: ['FCC_A1'],
      inhibit_phases: ['@gas'],
      temperature_start: 500,
      temperature_end: 1500,
      pressure: 101325,
      composition_start: { AL: 0.1 },
      composition_end: { AL: 0.5 },
      composition_unit: 'mass_fraction',
      resolution: 21,
    },
  },
  ternary_isothermal_section: {
    task_type: 'ternary_isothermal_section',
    tdb_code: 'ALFE',
    spinodal: true,
    coherent: { c11: 108e9, c12: 62e9, molar_volume: 1e-5, lattice_mismatch: { FE: -0.05, NI: -0.03 } },
    condition: {
      components: ['AL', 'FE', 'NI'],
      temperature: 1000,
      pressure: 101325,
      activated_phases: ['FCC_A1'],
      inhibit_phases: ['@gas'],
      composition_window: [{ component: 'AL', min: 0, max: 0.5 }],
      composition_unit: 'mole_fraction',
      map_options: { GLOBAL_MIN_PDENS: 60, grid_divisions: 10 },
    },
  },
  solidification: {
    task_type: 'solidification',
    tdb_code: 'ALFE',
    task_path: 'out/solidification',
    mobility_tdb_code: 'ALFE',
    condition: {
      components: AL_FE,
      compositions: { AL: 0.05 },
      pressure: 101325,
      start_temperature: 1900,
      temperature_step: 2,
      cooling_rate: 10,
      secondary_arm_spacing: 3e-5,
      solute_trapping: { thermal_gradient: 1e5, diffusive_speed: 5 },
      fast_diffusers: [],
      solid_diffusivities: { AL: { D0: 1e-4, Q: 250000 } },
      primary_phase: 'BCC_A2',
      activated_phases: ['FCC_A1', 'BCC_A2', 'LIQUID'],
      inhibit_phases: ['@gas'],
      composition_unit: 'mole_fraction',
    },
  },
  potential_diagram: {
    task_type: 'potential_diagram',
    tdb_code: 'ALFE',
    task_path: 'out/potential',
    mobility_tdb_code: 'ALFE',
    preview_temperature_unit: 'celsius',
    condition: {
      components: AL_FE,
      activated_phases: ['FCC_A1', 'BCC_A2', 'LIQUID'],
      inhibit_phases: ['@gas'],
      pressure: 101325,
      x_axis: { quantity: 'temperature', start: 800, end: 1200 },
      y_axis: { quantity: 'log10_activity', element: 'AL', reference_state: 'FCC_A1', start: -4, end: 0 },
      compositions: { FE: 1 },
      grid_points: 7,
    },
  },
  liquidus_projection: {
    task_type: 'liquidus_projection',
    tdb_code: 'ALFE',
    task_path: 'out/liquidus',
    mobility_tdb_code: 'ALFE',
    preview_temperature_unit: 'celsius',
    condition: {
      components: ['AL', 'FE', 'NI', 'CR'],
      activated_phases: ['FCC_A1', 'BCC_A2', 'LIQUID'],
      inhibit_phases: ['@gas'],
      pressure: 101325,
      fixed_compositions: { CR: 0.05 },
      grid_divisions: 10,
      isotherm_step: 25,
    },
  },
  aging: {
    task_type: 'aging',
    tdb_code: 'ALFE',
    task_path: 'out/aging',
    mobility_tdb_code: 'ALFE',
    preview_temperature_unit: 'celsius',
    condition: {
      components: AL_FE,
      compositions: { AL: 0.05 },
      pressure: 101325,
      matrix_phase: 'BCC_A2',
      matrix_molar_volume: 7.1e-6,
      matrix_lattice_parameter: 2.87e-10,
      matrix_atoms_per_cell: 2,
      temperature: 800,
      end_time: 3600,
      precipitates: [
        {
          phase: 'FCC_A1',
          interfacial_energy: 0.5,
          molar_volume: 7e-6,
          atoms_per_cell: 4,
          nucleation_site: 'grain_boundaries',
          site_density: 1e20,
          shape: { kind: 'needle', aspect_ratio: 10 },
        },
      ],
      dislocation_density: 1e13,
      grain_size: 3e-5,
      diffusivities: { AL: { D0: 1e-4, Q: 250000 } },
      output_times: [60, 3600],
      points: 41,
      strength: FERRITE_STRENGTH,
      activated_phases: ['FCC_A1', 'BCC_A2'],
      inhibit_phases: ['@gas'],
      composition_unit: 'mole_fraction',
    },
  },
  solution_treatment: {
    task_type: 'solution_treatment',
    tdb_code: 'ALFE',
    task_path: 'out/solution',
    condition: {
      components: AL_FE,
      compositions: { AL: 0.05 },
      pressure: 101325,
      temperature_start: 600,
      temperature_end: 1900,
      points: 51,
      matrix_phase: 'BCC_A2',
      precipitates: ['FCC_A1'],
      safety_margin: 5,
      dissolution: { phase: 'FCC_A1', radius: 1e-6, temperature: 1200, diffusivity: { D0: 1e-4, Q: 250000 } },
      activated_phases: ['FCC_A1', 'BCC_A2', 'LIQUID'],
      inhibit_phases: ['@gas'],
      composition_unit: 'mole_fraction',
    },
  },
  spinodal_decomposition: {
    task_type: 'spinodal_decomposition',
    tdb_code: 'ALFE',
    mobility_tdb_code: 'ALFE',
    preview_temperature_unit: 'celsius',
    condition: {
      components: AL_FE,
      phase: 'BCC_A2',
      x_component: 'AL',
      temperature_start: 500,
      temperature_end: 1000,
      pressure: 101325,
      temperature_points: 11,
      composition_points: 101,
      coherent: { c11: 230e9, c12: 135e9, lattice_mismatch: 0.01, molar_volume: 7.1e-6 },
    },
  },
  gibbs_energy_curves: {
    task_type: 'gibbs_energy_curves',
    tdb_code: 'ALFE',
    condition: {
      components: AL_FE,
      temperature: 1000,
      pressure: 101325,
      compositions_start: { AL: 0 },
      compositions_end: { AL: 1 },
      points: 51,
      activated_phases: ['FCC_A1'],
      inhibit_phases: ['@gas'],
      composition_unit: 'mole_fraction',
      reference_states: { AL: 'SER' },
    },
  },
  equilibrium_batch: {
    task_type: 'equilibrium_batch',
    tdb_code: 'ALFE',
    task_path: 'out/batch',
    condition: {
      components: AL_FE,
      pressure: 101325,
      rows: [{ compositions: { AL: 0.2 }, temperature: 1000, pressure: 101325, label: 'a' }],
      activated_phases: ['FCC_A1', 'BCC_A2'],
      inhibit_phases: ['@gas'],
      thermo_outputs: ['G'],
      outputs_list_template: ['T'],
      composition_unit: 'mole_fraction',
      reference_states: { AL: 'SER' },
    },
  },
};

const withCondition = (cfg: Record<string, unknown>, extra: Record<string, unknown>) => ({
  ...cfg,
  condition: { ...(cfg.condition as Record<string, unknown>), ...extra },
});

async function post(cfg: Record<string, unknown>) {
  return api(f.svc.port, 'POST', '/task', { key: f.keyA, body: { title: 'typo', task_config: cfg } });
}

describe('unknown keys in task_config', () => {
  it('covers every open task type', () => {
    expect(Object.keys(FULL).sort()).toEqual([...TASK_TYPES].sort());
  });

  it.each(TASK_TYPES)('%s: every optional field of the specification and every extension is accepted', (t) => {
    expect(validateTaskConfig(t, FULL[t])).toMatchObject({ ok: true });
  });

  it.each(TASK_TYPES)('%s: a misspelled condition key is a 400 naming it and the nearest known key', async (t) => {
    const r = await post(withCondition(FULL[t], { inhibit_phase: ['GAS'] }));
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('task_config.condition: unknown key inhibit_phase (did you mean inhibit_phases?)');
  });

  it.each(TASK_TYPES)('%s: a misspelled top-level key is a 400 naming it', async (t) => {
    const r = await post({ ...FULL[t], task_pth: 'x' });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('task_config: unknown key task_pth (did you mean task_path?)');
  });

  it('a line knows its extensions chemical_potentials, activities and fixed_phases', async () => {
    const open = { compositions_start: {}, compositions_end: {} };
    expect(
      validateTaskConfig(
        'line_calculation',
        withCondition(FULL.line_calculation, { ...open, activities: { AL: 0.1 } }),
      ),
    ).toMatchObject({ ok: true });
    for (const [typo, known] of [
      ['activites', 'activities'],
      ['chemical_potential', 'chemical_potentials'],
      ['fixed_phase', 'fixed_phases'],
    ]) {
      const r = await post(withCondition(FULL.line_calculation, { [typo]: {} }));
      expect(r.body.error).toBe(`task_config.condition: unknown key ${typo} (did you mean ${known}?)`);
    }
  });

  it('a misspelled required key is named rather than the field it left out', async () => {
    const { temperature, ...rest } = pointConfig().condition;
    const r = await post({ ...pointConfig(), condition: { ...rest, temprature: temperature } });
    expect(r.body.error).toBe('task_config.condition: unknown key temprature (did you mean temperature?)');
  });

  it('a key close to none is listed with the known keys; several unknown keys are named together', async () => {
    const r = await post(withCondition(pointConfig(), { colour: 'red', activated_phase: ['FCC_A1'] }));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(
      /^task_config\.condition: unknown keys colour, activated_phase \(did you mean activated_phases\?\); known keys: components, activated_phases, inhibit_phases, temperature, /,
    );
  });

  it('keys of nested objects: map_options and ui_metadata', async () => {
    const cpt = FULL.binary_cpt_diagram;
    const r = await post(withCondition(cpt, { map_options: { GLOBAL_MIN_PDEN: 60 } }));
    expect(r.body.error).toBe(
      'task_config.condition.map_options: unknown key GLOBAL_MIN_PDEN (did you mean GLOBAL_MIN_PDENS?)',
    );
    const u = await post({ ...cpt, ui_metadata: { modul: 'cpt' } });
    expect(u.body.error).toBe('task_config.ui_metadata: unknown key modul (did you mean module?)');
  });

  it('an unknown element is named with the element close to it', async () => {
    const r = await post(pointConfig({ components: ['AL', 'FF'], compositions: { AL: 0.3, FF: 0.7 } }));
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(
      "task_config.condition.components: FF is not an element of database 'ALFE' (elements: AL, FE; did you mean FE?)",
    );
  });

  it('the same check on a task_config sent as the description', async () => {
    const cfg = withCondition(pointConfig(), { inhibit_phase: [] });
    const r = await api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: { title: 'typo', description: JSON.stringify(cfg) },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('unknown key inhibit_phase (did you mean inhibit_phases?)');
  });
});
