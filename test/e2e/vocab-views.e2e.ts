// The quantities of docs/calculations.md "Further quantities" where a researcher looks, end to end: a real service
// computes small tasks on the bundled databases and the production renderer shows them in headless Chromium.
//  - point: mass fractions beside mole fractions, liquidus and solidus with °C, activities against the chosen
//    reference states, the phase-properties table (TC/BMAGN of magnetic FCC, formation energy);
//  - line: liquidus/solidus and the invariants crossed with their phase compositions, the activity chart;
//  - Scheil: liquidus, Scheil end and equilibrium solidus side by side, the alloy in x and w;
//  - gibbs_energy_curves: the curves, the envelope and the common tangents, the tangent table;
//  - spinodal_decomposition: the Al-Zn fcc gap, its chemical and coherent spinodals and the critical points;
//  - solution_treatment: Al-10Zn's amounts against T, solvus, incipient melting, window, a particle's dissolution;
//  - solidification: Al-10Zn with back diffusion beside Scheil and the lever rule;
//  - aging: Al-0.4Zr ramped to 723 K and held 100 h on kawin's Al-Sc-Zr database (imported with its mobility data):
//    Al3Zr's number density, radii, volume fraction and strength increment against log time, the end state, the size
//    distributions;
//  - a line of a task whose previews are in degrees Celsius opens in degrees Celsius;
//  - a point on kawin's Fe-Cr-Ni database (imported with its mobility data): the phase's mobilities and diffusivities;
//  - binary_equilibrium in mass fractions: the diagram's composition axis in w (switchable to x), the invariants in w;
//    the New task form with composition_unit.
// Screenshots go to docs/screenshots/result-*.png. Any console error fails the run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { SHARED_TDB_DIR } from '../support/shared.js';
import {
  SCREENSHOTS,
  apiCall,
  consoleCommand,
  launch,
  openResultView,
  postTasks,
  waitCompleted,
  serveRenderer,
  startService,
  signedInPage,
  type Served,
  type Service,
} from './harness.js';
import { alZrAgingCondition } from '../support/aging.js';

const AZ = ['AL', 'ZN'];
const TASKS: Record<string, { tdb: string; type: string; condition: Record<string, unknown> }> = {
  point: {
    tdb: 'CUNI_MEY1992',
    type: 'point_calculation',
    condition: {
      components: ['CU', 'NI'],
      temperature: 1000,
      pressure: 1e5,
      compositions: { NI: 0.5 },
      composition_unit: 'mass_fraction',
      reference_states: { CU: 'LIQUID', NI: 'FCC_A1' },
    },
  },
  line: {
    tdb: 'ALZN_MEY1993',
    type: 'line_calculation',
    condition: {
      components: AZ,
      compositions_start: { ZN: 0.8 },
      compositions_end: { ZN: 0.8 },
      temperature_start: 500,
      temperature_end: 900,
      pressure: 1e5,
      points: 41,
    },
  },
  scheil: {
    tdb: 'ALZN_MEY1993',
    type: 'scheil_solidification',
    condition: {
      components: AZ,
      compositions: { ZN: 0.3 },
      start_temperature: 950,
      temperature_step: 5,
      pressure: 1e5,
    },
  },
  binary_mass: {
    tdb: 'ALZN_MEY1993',
    type: 'binary_equilibrium',
    condition: {
      components: AZ,
      compositions_start: { ZN: 0 },
      compositions_end: { ZN: 1 },
      composition_unit: 'mass_fraction',
      temperature_start: 400,
      temperature_end: 1000,
      pressure: 1e5,
    },
  },
  cpt_mass: {
    tdb: 'ALZN_MEY1993',
    type: 'binary_cpt_diagram',
    condition: {
      components: AZ,
      x_component: 'ZN',
      composition_unit: 'mass_fraction',
      composition_start: 0,
      composition_end: 1,
      composition_step: 0.1,
      temperature_start: 500,
      temperature_end: 900,
      temperature_step: 50,
      pressure_start: 1e5,
      pressure_end: 2e5,
      pressure_points: 2,
      pressure_scale: 'linear',
    },
  },
  curves: {
    tdb: 'ALZN_MEY1993',
    type: 'gibbs_energy_curves',
    condition: {
      components: AZ,
      temperature: 600,
      pressure: 1e5,
      compositions_start: { ZN: 0 },
      compositions_end: { ZN: 1 },
      points: 101,
      activated_phases: ['LIQUID', 'FCC_A1', 'HCP_A3'],
    },
  },
  spinodal: {
    tdb: 'ALZN_MEY1993',
    type: 'spinodal_decomposition',
    condition: {
      components: AZ,
      phase: 'FCC_A1',
      temperature_start: 300,
      temperature_end: 700,
      pressure: 1e5,
      temperature_points: 41,
      coherent: { c11: 108e9, c12: 62e9, lattice_mismatch: -0.02, molar_volume: 1e-5 },
    },
  },
  solidification: {
    tdb: 'ALZN_MEY1993',
    type: 'solidification',
    condition: {
      components: AZ,
      compositions: { ZN: 0.1 },
      pressure: 1e5,
      start_temperature: 950,
      temperature_step: 1,
      cooling_rate: 1,
      solid_diffusivities: { ZN: { D0: 2.45e-5, Q: 120000 } },
    },
  },
  solution: {
    tdb: 'ALZN_MEY1993',
    type: 'solution_treatment',
    condition: {
      components: AZ,
      compositions: { ZN: 0.1 },
      pressure: 1e5,
      temperature_start: 350,
      points: 61,
      dissolution: { phase: 'HCP_A3', radius: 1e-6, temperature: 560, diffusivity: { D0: 2.45e-5, Q: 120000 } },
    },
  },
};

let svc: Service;
let served: Served;
let browser: Browser;
let page: Page;
let errors: string[];
const ids: Record<string, number> = {};

async function openView(key: string) {
  await waitCompleted(svc, ids[key]!, key);
  await openResultView(page, served.url, ids[key]!);
}
const shot = (name: string) => page.getByTestId('result-view').screenshot({ path: join(SCREENSHOTS, `${name}.png`) });

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  svc = await startService({ PHASEDESK_POOL_SIZE: '1' });
  served = await serveRenderer(svc);
  Object.assign(ids, await postTasks(svc, TASKS, 'Vocabulary'));
  // a task whose previews are in degrees Celsius: its view opens in them too
  const celsius = await apiCall<{ id: number }>(svc, 'POST', '/task', {
    title: 'Vocabulary: line in Celsius',
    task_config: {
      task_type: 'line_calculation',
      tdb_code: 'ALZN_MEY1993',
      preview_temperature_unit: 'celsius',
      condition: TASKS.line!.condition,
    },
  });
  ids.celsiusLine = celsius.json.id;
  // a database with mobility data, imported as a user would
  const kawin = join(SHARED_TDB_DIR, 'kawin_FeCrNi.tdb');
  consoleCommand(svc, [
    'db',
    'import',
    kawin,
    '--code',
    'KAWIN_FECRNI',
    '--name',
    'Fe-Cr-Ni (kawin)',
    '--level',
    'free',
    '--type',
    'alloy',
    '--version',
    '1',
  ]);
  consoleCommand(svc, ['subscribe', 'local', 'KAWIN_FECRNI', '--status', 'active']);
  consoleCommand(svc, [
    'db',
    'import',
    join(SHARED_TDB_DIR, 'kawin_AlScZr.tdb'),
    '--code',
    'KAWIN_ALSCZR',
    '--name',
    'Al-Sc-Zr (kawin)',
    '--level',
    'free',
    '--type',
    'alloy',
    '--version',
    '1',
    '--support-tasks',
    'point_calculation,aging',
  ]);
  consoleCommand(svc, ['subscribe', 'local', 'KAWIN_ALSCZR', '--status', 'active']);
  Object.assign(
    ids,
    await postTasks(
      svc,
      {
        mobility: {
          tdb: 'KAWIN_FECRNI',
          type: 'point_calculation',
          condition: {
            components: ['CR', 'FE', 'NI', 'VA'],
            temperature: 1373,
            pressure: 1e5,
            compositions: { CR: 0.18, NI: 0.1 },
            thermo_outputs: ['MOB(*,*)', 'DC(FCC_A1,*,*)'],
          },
        },
        aging: {
          tdb: 'KAWIN_ALSCZR',
          type: 'aging',
          condition: {
            ...alZrAgingCondition({
              from: 573,
              ramp: 3600,
              end: 3.6e5,
              output_times: [3600, 3.6e4, 3.6e5],
              pressure: 1e5,
            }),
            strength: { shear_modulus: 26.9e9, burgers_vector: 2.86e-10, transition_radius: 3e-9 },
          },
        },
      },
      'Vocabulary',
    ),
  );
  browser = await launch();
  ({ page, errors } = await signedInPage(browser, svc, { viewport: { width: 1360, height: 1500 } }));
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await svc?.stop();
});

describe('the New task form', () => {
  it('gibbs_energy_curves: the generated form runs x(B) 0 -> 1 by default and the API accepts it', async () => {
    const list = await apiCall<{ items: { id: string }[] }>(svc, 'GET', '/database?search=ALZN_MEY1993');
    await page.goto(`${served.url}#/new`);
    await page.selectOption('#task-type', 'gibbs_energy_curves');
    await page.selectOption('#f-tdb_code', list.json.items[0]!.id);
    await page.fill('#f-title', 'Form check gibbs_energy_curves');
    for (const el of AZ) {
      const b = page.locator(`#f-components button[data-element="${el}"]`);
      if ((await b.getAttribute('aria-pressed')) !== 'true') await b.click();
    }
    await page.getByRole('button', { name: 'Submit task' }).click();
    await page.locator('[data-testid="created"], .field-error, [data-testid="form-error"]').first().waitFor();
    expect(await page.locator('.field-error, [data-testid="form-error"]').allInnerTexts()).toEqual([]);
    const tasks = await apiCall<{ data: { title: string; task_type: string }[] }>(
      svc,
      'GET',
      '/task/list?items_per_page=100',
    );
    expect(
      tasks.json.data.some(
        (t) => t.title === 'Form check gibbs_energy_curves' && t.task_type === 'gibbs_energy_curves',
      ),
    ).toBe(true);
    expect(errors).toEqual([]);
  });
});

describe('the New task form of aging', () => {
  /** Types into a cell of a table of rows (RowsInput: f-<field>-<row>-<property>). */
  const cell = (field: string, row: number, key: string) => page.locator(`#f-${field}-${row}-${key}`);

  it('takes two precipitates and a three-point schedule as rows, names a bad row, and stores what was typed', async () => {
    const list = await apiCall<{ items: { id: string }[] }>(svc, 'GET', '/database?search=KAWIN_ALSCZR');
    await page.goto(`${served.url}#/new`);
    await page.selectOption('#task-type', 'aging');
    await page.selectOption('#f-tdb_code', list.json.items[0]!.id);
    await page.fill('#f-title', 'Form check aging');
    for (const el of ['AL', 'SC', 'ZR']) {
      const b = page.locator(`#f-components button[data-element="${el}"]`);
      if ((await b.getAttribute('aria-pressed')) !== 'true') await b.click();
    }
    const fraction = (el: string) =>
      page.locator('#f-compositions label.comp', { hasText: `x(${el})` }).locator('input[type="number"]');
    await fraction('SC').fill('0.002');
    await fraction('ZR').fill('0.001');
    await page.fill('#f-matrix_phase', 'FCC_A1');
    await page.fill('#f-matrix_lattice_parameter', '4.05e-10');
    // the phases of the chosen components are offered to every phase cell
    await page.locator('#f-precipitates-phases option[value="AL3ZR"]').waitFor({ state: 'attached' });
    expect(
      await page.locator('#f-precipitates-phases option').evaluateAll((o) => o.map((x) => x.getAttribute('value'))),
    ).toEqual(expect.arrayContaining(['AL3SC', 'AL3ZR', 'FCC_A1']));
    // the precipitates: the first row is there from the start, the second is added
    expect(await page.locator('#f-precipitates').innerText()).toMatch(/J\/m\^2: the matrix\/precipitate interface/);
    await cell('precipitates', 0, 'phase').fill('AL3SC');
    await cell('precipitates', 0, 'interfacial_energy').fill('0.1');
    await page.getByTestId('f-precipitates-add').click();
    await cell('precipitates', 1, 'phase').fill('AL3ZR');
    await cell('precipitates', 1, 'lattice_parameter').fill('4.08e-10');
    await cell('precipitates', 1, 'nucleation_site').selectOption('dislocations');
    // the schedule in hours and degrees Celsius, stored in s and K
    for (let i = 0; i < 3; i++) await page.getByTestId('f-schedule-add').click();
    await page.getByTestId('f-schedule-unit-time').selectOption({ label: 'h' });
    await page.getByTestId('f-schedule-unit-temperature').selectOption({ label: '°C' });
    const points = [
      ['0', '300'],
      ['0.5', '450'],
      ['2', '450'],
    ];
    for (const [i, [time, celsius]] of points.entries()) {
      await cell('schedule', i, 'time').fill(time!);
      await cell('schedule', i, 'temperature').fill(celsius!);
    }
    // the second precipitate has no interfacial energy yet: its row and column are named, nothing is submitted
    await page.getByRole('button', { name: 'Submit task' }).click();
    const problem = page.locator('#f-precipitates .field-error');
    await problem.waitFor();
    expect(await problem.innerText()).toMatch(/row 2, interfacial energy: is required/);
    await cell('precipitates', 1, 'interfacial_energy').fill('0.12');
    await page.locator('#f-schedule').scrollIntoViewIfNeeded();
    await page.getByTestId('task-form').screenshot({ path: join(SCREENSHOTS, 'aging-form.png') });
    await page.getByRole('button', { name: 'Submit task' }).click();
    await page.locator('[data-testid="created"], .field-error, [data-testid="form-error"]').first().waitFor();
    expect(await page.locator('.field-error, [data-testid="form-error"]').allInnerTexts()).toEqual([]);
    const tasks = await apiCall<{ data: { title: string; description: string }[] }>(
      svc,
      'GET',
      '/task/list?items_per_page=100',
    );
    const t = tasks.json.data.find((q) => q.title === 'Form check aging');
    const condition = JSON.parse(t!.description).condition;
    expect(condition).toMatchObject({
      compositions: { SC: 0.002, ZR: 0.001 },
      precipitates: [
        { phase: 'AL3SC', interfacial_energy: 0.1 },
        { phase: 'AL3ZR', interfacial_energy: 0.12, lattice_parameter: 4.08e-10, nucleation_site: 'dislocations' },
      ],
      schedule: [
        { time: 0, temperature: 573.15 },
        { time: 1800, temperature: 723.15 },
        { time: 7200, temperature: 723.15 },
      ],
    });
    expect(Object.keys(condition.precipitates[0])).toEqual(['phase', 'interfacial_energy']);
    expect(condition).not.toHaveProperty('diffusivities');
    expect(errors).toEqual([]);
  });
});

describe('the New task form in mass fractions', () => {
  it('binary_equilibrium: composition_unit mass_fraction labels the fractions w and reaches the API', async () => {
    const list = await apiCall<{ items: { id: string }[] }>(svc, 'GET', '/database?search=ALZN_MEY1993');
    await page.goto(`${served.url}#/new`);
    await page.selectOption('#task-type', 'binary_equilibrium');
    await page.selectOption('#f-tdb_code', list.json.items[0]!.id);
    await page.fill('#f-title', 'Form check binary in mass');
    for (const el of AZ) {
      const b = page.locator(`#f-components button[data-element="${el}"]`);
      if ((await b.getAttribute('aria-pressed')) !== 'true') await b.click();
    }
    await page.selectOption('#f-composition_unit', 'mass_fraction');
    expect(await page.locator('#f-compositions_start legend').innerText()).toContain('mass fraction');
    expect(await page.getByTestId('binary-mapping').innerText()).toContain('w(ZN)');
    await page.getByRole('button', { name: 'Submit task' }).click();
    await page.locator('[data-testid="created"], .field-error, [data-testid="form-error"]').first().waitFor();
    expect(await page.locator('.field-error, [data-testid="form-error"]').allInnerTexts()).toEqual([]);
    const tasks = await apiCall<{ data: { title: string; description: string }[] }>(
      svc,
      'GET',
      '/task/list?items_per_page=100',
    );
    const t = tasks.json.data.find((q) => q.title === 'Form check binary in mass');
    expect(JSON.parse(t!.description).condition.composition_unit).toBe('mass_fraction');
    expect(errors).toEqual([]);
  });
});

describe('further quantities in the result views', () => {
  it('point: w beside x, liquidus/solidus, activities against the reference states, phase properties', async () => {
    await openView('point');
    expect(await page.getByTestId('point-w').innerText()).toMatch(/w\(NI\) = 0\.5\b/);
    expect(await page.getByTestId('point-liquidus').innerText()).toMatch(/K \(.* °C\)/);
    const pot = await page.getByTestId('point-potentials').innerText();
    expect(pot).toContain('LIQUID');
    expect(pot).toContain('FCC_A1');
    const props = await page.getByTestId('point-phase-properties').innerText();
    expect(props).toContain('TC [K]');
    expect(props).toContain('ΔfG');
    await shot('result-point-further');
    expect(errors).toEqual([]);
  });

  it('line: liquidus, solidus and the invariants crossed; activities as a chart', async () => {
    await openView('line');
    const card = await page.getByTestId('line-alloy').innerText();
    expect(card).toMatch(/Liquidus\s+\d/);
    const inv = await page.getByTestId('line-invariants').innerText();
    // in display names (general family): L, hcp (A3), fcc (A1)
    expect(inv).toMatch(/\bL\b/);
    expect(inv).toContain('hcp (A3)');
    // the monotectoid at 550 K: FCC_A1 + HCP_A3 on both sides, the FCC set jumps (FCC_A1 -> FCC_A1#2): both fcc sets
    // coexist there, so the second keeps its number
    expect(inv).toContain('fcc (A1)#2');
    await page.selectOption('#prop-select', 'ACR');
    expect(await page.getByTestId('plot-property').innerText()).toContain('a(AL)');
    await shot('result-line-invariants');
    expect(errors).toEqual([]);
  });

  it('Scheil: liquidus, Scheil end and equilibrium solidus side by side; the alloy in x and w', async () => {
    await openView('scheil');
    const summary = await page.getByTestId('scheil-summary').innerText();
    expect(summary).toMatch(/Equilibrium solidus\s+\d/);
    expect(await page.getByTestId('scheil-alloy').innerText()).toMatch(/w\(ZN\)/);
    await shot('result-scheil-temperatures');
    expect(errors).toEqual([]);
  });

  it('binary_equilibrium in mass fractions: the axis in w, invariants in w, switchable to x', async () => {
    await openView('binary_mass');
    const svg = page.getByTestId('binary-svg');
    await page.locator('[data-testid="binary-svg"][data-labels="placed"]').waitFor();
    expect(await svg.innerHTML()).toContain('Mass fraction Zn');
    const table = await page.getByTestId('invariants').innerText();
    expect(table).toContain('w(ZN)');
    // the Al-Zn eutectic liquid (L, its display name) near 94.8 mass % Zn (x = 0.8835)
    expect(table).toMatch(/\bL 0\.94[78]/);
    await shot('result-binary-mass');
    await page.getByTestId('binary-unit').click();
    expect(await svg.innerHTML()).toContain('Mole fraction Zn');
    expect(await page.getByTestId('invariants').innerText()).toMatch(/\bL 0\.883/);
    // degrees Celsius as a display choice: the T axis and the invariant labels in °C (654.0 K = 380.8 °C)
    await page.getByTestId('binary-celsius').check();
    await page.locator('[data-testid="binary-svg"][data-labels="placed"]').waitFor();
    const html = await svg.innerHTML();
    expect(html).toContain('Temperature [°C]');
    expect(html).toMatch(/eutectic 380\.8\d* °C/);
    expect(errors).toEqual([]);
  });

  it('binary_cpt_diagram in mass fractions: the isobaric slice runs in w', async () => {
    await openView('cpt_mass');
    const slice = page.getByTestId('cpt-slice');
    await slice.waitFor();
    expect(await slice.innerHTML()).toContain('Mass fraction Zn');
    expect(errors).toEqual([]);
  });

  it('gibbs_energy_curves: curves, envelope and common tangents', async () => {
    await openView('curves');
    const tangents = await page.getByTestId('gibbs-tangents').innerText();
    expect(tangents).toMatch(/FCC_A1|HCP_A3/);
    expect(await page.locator('[data-testid="plot-gibbs"] path[data-series="LIQUID"]').count()).toBe(1);
    await shot('result-gibbs-curves');
    expect(errors).toEqual([]);
  });

  it('spinodal_decomposition: the gap, the chemical and coherent spinodals, the critical points', async () => {
    await openView('spinodal');
    const critical = await page.getByTestId('spinodal-critical').innerText();
    expect(critical).toMatch(/chemical/);
    expect(critical).toMatch(/coherent/);
    expect(await page.locator('[data-testid="plot-spinodal"] path[data-series="chemical spinodal"]').count()).toBe(1);
    await shot('result-spinodal');
    expect(errors).toEqual([]);
  });

  it('solution_treatment: amounts against T, the window and the dissolution of a particle', async () => {
    await openView('solution');
    const temps = await page.getByTestId('solution-temperatures').innerText();
    expect(temps).toMatch(/solvus of HCP_A3/);
    expect(temps).toMatch(/incipient melting/);
    expect(await page.getByTestId('solution-dissolution').innerText()).toMatch(/dissolves in/);
    await shot('result-solution-treatment');
    expect(errors).toEqual([]);
  });

  it('point on a database with mobility data: the mobilities and the chemical diffusivities of the phase', async () => {
    await openView('mobility');
    const text = await page.getByTestId('point-diffusion').innerText();
    expect(text).toMatch(/FCC_A1/);
    expect(text).toMatch(/Tracer D\*/);
    expect(text).toMatch(/k = CR/);
    await page.getByTestId('point-diffusion').screenshot({ path: join(SCREENSHOTS, 'result-point-diffusion.png') });
    expect(errors).toEqual([]);
  });

  it('solidification: the back-diffusion path beside Scheil and the lever rule, Omega per element', async () => {
    await openView('solidification');
    const temps = await page.getByTestId('solidification-temperatures').innerText();
    expect(temps).toMatch(/with back diffusion/);
    expect(await page.getByTestId('solidification-back-diffusion').innerText()).toMatch(/ZN/);
    expect(
      await page.locator('[data-testid="plot-solidification"] path[data-series="with back diffusion"]').count(),
    ).toBe(1);
    await shot('result-solidification');
    expect(errors).toEqual([]);
  });

  it('aging: number density, nucleation rate, radii, volume fraction, the matrix and the strength against log time; the end state, the distributions', async () => {
    await openView('aging');
    expect(await page.getByTestId('aging-end').innerText()).toMatch(/AL3ZR/);
    for (const id of ['temperature', 'density', 'nucleation', 'radius', 'fraction', 'matrix', 'strength', 'psd'])
      await page.getByTestId(`plot-aging-${id}`).waitFor();
    expect(await page.locator('[data-testid="plot-aging-radius"] path[data-series="AL3ZR critical"]').count()).toBe(1);
    // true log axes: time, number density and radii at the decades, labelled as powers of ten
    const labels = (id: string, axis: 'x' | 'y') =>
      page.locator(`[data-testid="plot-aging-${id}"] text.tick[data-axis="${axis}"]`).allTextContents();
    const decade = /^10⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+$/;
    for (const [id, axis] of [
      ['density', 'x'],
      ['density', 'y'],
      ['nucleation', 'y'],
      ['radius', 'x'],
      ['fraction', 'x'],
    ] as const)
      expect(
        (await labels(id, axis)).every((l) => decade.test(l)),
        `${id} ${axis}`,
      ).toBe(true);
    expect(await labels('density', 'x')).toEqual(expect.arrayContaining(['10⁰', '10³', '10⁵']));
    expect((await labels('density', 'y')).length).toBeGreaterThanOrEqual(2);
    expect((await labels('fraction', 'y')).some((l) => decade.test(l))).toBe(false);
    expect(await page.getByTestId('plot-aging-density-xtitle').textContent()).toBe('time [s]');
    // the read-out at the tick 10^5 s shows a time near 1e5 s and a number density in m^-3, not their logarithms
    const tick = page.locator('[data-testid="plot-aging-density"] text.tick[data-axis="x"]', { hasText: /^10⁵$/ });
    const box = (await tick.boundingBox())!;
    const svg = (await page.locator('[data-testid="plot-aging-density"] svg').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, svg.y + svg.height / 2);
    const readout = await page.getByTestId('plot-aging-density-readout').innerText();
    const [time, density] = [...readout.matchAll(/: ([0-9.e+-]+)/g)].map((m) => Number(m[1]));
    expect(time).toBeGreaterThan(7e4);
    expect(time).toBeLessThan(1.4e5);
    expect(density).toBeGreaterThan(1e10);
    await page.mouse.move(0, 0);
    await shot('result-aging');
    expect(errors).toEqual([]);
  });

  it('a task with previews in degrees Celsius opens its view in degrees Celsius (and switches back to K)', async () => {
    await openView('celsiusLine');
    const plot = page.getByTestId('plot-fractions');
    await plot.waitFor();
    expect(await plot.innerText()).toMatch(/°C → K/);
    expect(await plot.innerHTML()).toContain('°C]');
    expect(errors).toEqual([]);
  });
});
