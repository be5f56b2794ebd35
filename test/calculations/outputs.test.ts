// The outputs vocabulary (contract/results/outputs/): parsing, ordering of template + custom outputs,
// table building over phase labels, and the 400 of POST /task for an unknown name.
import { afterAll, describe, expect, it } from 'vitest';
import { GAS_CONSTANT } from '../../contract/results/common.js';
import { buildTable, phaseSetName, type TablePoint } from '../../contract/results/outputs/columns.js';
import { parseOutputName, validateOutputs } from '../../contract/results/outputs/names.js';
import { DEFAULT_OUTPUTS, selectOutputs, withStateOutputs } from '../../contract/results/outputs/selection.js';
import { KNOWN_OUTPUTS } from '../../contract/results/outputs/vocabulary.js';
import { validateTaskConfig } from '../../main/requests/task-config.js';
import { api, pointConfig, startFixture, type Fixture } from '../service/helpers.js';

describe('output names', () => {
  it('parses every documented form and canonicalises case', () => {
    expect(parseOutputName('T')).toEqual({ fn: 'T' });
    expect(parseOutputName('phase_name')).toEqual({ fn: 'phase_name' });
    expect(parseOutputName('x(zn)')).toEqual({ fn: 'x', element: 'ZN' });
    expect(parseOutputName('X(FCC_A1#2, zn)')).toEqual({ fn: 'xph', phase: 'FCC_A1#2', element: 'ZN' });
    expect(parseOutputName('x(*)')).toEqual({ fn: 'x', element: '*' });
    expect(parseOutputName('NP(*)')).toEqual({ fn: 'NP', phase: '*' });
    expect(parseOutputName('y(BCC_B2,1,VA)')).toEqual({ fn: 'y', phase: 'BCC_B2', sublattice: 1, species: 'VA' });
    expect(parseOutputName('y(BCC_B2,*)')).toEqual({ fn: 'y', phase: 'BCC_B2', sublattice: '*' });
    expect(parseOutputName('MU(AL)')).toEqual({ fn: 'mu', element: 'AL' });
    expect(parseOutputName('ac(*)')).toEqual({ fn: 'ac', element: '*' });
    expect(parseOutputName('DF(HCP_A3)')).toEqual({ fn: 'DF', phase: 'HCP_A3' });
    expect(parseOutputName('GM(LIQUID)')).toEqual({ fn: 'GM', phase: 'LIQUID' });
    expect(parseOutputName('GM')).toEqual({ fn: 'G' });
    expect(parseOutputName('Cp')).toEqual({ fn: 'Cp' });
    for (const bad of ['FOO', 'x()', 'x(A,B,C)', 'NP', 'mu(AL,ZN)', 'y(FCC)', 'T(1)', '']) {
      expect(typeof parseOutputName(bad), bad).toBe('string');
    }
  });

  it('an unknown name is refused with the list of known names', () => {
    expect(validateOutputs(['T', 'x(*)', 'NP(FCC_A1)'])).toBeNull();
    const err = validateOutputs(['T', 'FOO']);
    expect(err).toMatch(/^unknown output 'FOO'; known: T, P, phase_name/);
    for (const k of KNOWN_OUTPUTS) expect(err).toContain(k.name);
  });

  it('columns: template in order, then custom outputs not already in it; defaults when neither', () => {
    expect(selectOutputs('point_calculation', ['T', 'x(*)', 'G'], ['G', 'mu(*)', 'T', 'ac(ZN)'])).toEqual([
      'T',
      'x(*)',
      'G',
      'mu(*)',
      'ac(ZN)',
    ]);
    // duplicates are recognised in canonical spelling
    expect(selectOutputs('line_calculation', ['x(zn)'], ['X(ZN)', 'GM', 'G'])).toEqual(['x(zn)', 'GM']);
    expect(selectOutputs('line_calculation', undefined, ['H'])).toEqual(['H']);
    expect(selectOutputs('point_calculation', [], [])).toEqual([...DEFAULT_OUTPUTS.point_calculation]);
    expect(selectOutputs('line_calculation')).toEqual([...DEFAULT_OUTPUTS.line_calculation]);
  });

  it('T, P and the composition lead the columns whatever the task asked for, each once', () => {
    expect(withStateOutputs(['ac(ZN)', 'mu(*)'])).toEqual(['T', 'P', 'x(*)', 'ac(ZN)', 'mu(*)']);
    expect(withStateOutputs(['G', 't', 'X(*)', 'P'])).toEqual(['T', 'P', 'x(*)', 'G']);
    expect(withStateOutputs(['G'], 'mass_fraction')).toEqual(['T', 'P', 'x(*)', 'w(*)', 'G']);
    const table = buildTable([point(800, [['FCC_A1', 1, 1, { AL: 0.6, ZN: 0.4 }]])], withStateOutputs(['ac(ZN)']), {
      components: ['AL', 'ZN'],
    });
    expect(table.columns.map((c) => c.name)).toEqual(['T', 'P', 'x(AL)', 'x(ZN)', 'ac(ZN)']);
    expect(table.rows[0]!.slice(0, 4)).toEqual([800, 101325, 0.6, 0.4]);
  });
});

function point(
  T: number,
  phases: [string, number, number, Record<string, number>][],
  metastable: [string, number][] = [],
): TablePoint {
  return {
    T,
    P: 101325,
    x: { AL: 0.6, ZN: 0.4 },
    converged: true,
    reason: '',
    GM: -1000 - T,
    HM: 500,
    SM: 3,
    CPM: 30,
    MU: { AL: -20000, ZN: -30000 },
    phases: phases.map(([name, set, amount, x]) => ({
      name,
      composition_set: set,
      label: set > 1 ? `${name}#${set}` : name,
      amount,
      x,
      site_fractions: [{ ...x }],
      GM: -2000,
      HM: 0,
      SM: 0,
      CPM: 0,
    })),
    metastable: metastable.map(([name, df]) => ({ name, driving_force: df, x: { AL: 0.5, ZN: 0.5 }, GM: -1 })),
  };
}

describe('buildTable', () => {
  const pts: TablePoint[] = [
    point(
      500,
      [
        ['FCC_A1', 1, 0.3, { AL: 0.8, ZN: 0.2 }],
        ['FCC_A1', 2, 0.7, { AL: 0.5, ZN: 0.5 }],
      ],
      [['LIQUID', -900]],
    ),
    point(
      700,
      [['FCC_A1', 1, 1, { AL: 0.6, ZN: 0.4 }]],
      [
        ['LIQUID', -50],
        ['HCP_A3', -10],
      ],
    ),
  ];
  pts[1].Cp_equilibrium = 42;

  it('expands * over components and phase labels (NAME#2 for a second composition set)', () => {
    const t = buildTable(
      pts,
      ['T', 'phase_name', 'NP(*)', 'x(FCC_A1#2,*)', 'y(FCC_A1,*)', 'ac(*)', 'DF(*)', 'Cp', 'Cp_frozen'],
      { components: ['AL', 'ZN', 'VA'] },
    );
    expect(t.columns.map((c) => c.name)).toEqual([
      'T',
      'phase_name',
      'NP(FCC_A1)',
      'NP(FCC_A1#2)',
      'x(FCC_A1#2,AL)',
      'x(FCC_A1#2,ZN)',
      'y(FCC_A1,0,AL)',
      'y(FCC_A1,0,ZN)',
      'ac(AL)',
      'ac(ZN)',
      'DF(FCC_A1)',
      'DF(HCP_A3)',
      'DF(LIQUID)',
      'Cp',
      'Cp_frozen',
    ]);
    expect(t.columns.find((c) => c.name === 'T')!.unit).toBe('K');
    expect(t.columns.find((c) => c.name === 'DF(LIQUID)')!.unit).toBe('J/mol');
    const [r0, r1] = t.rows;
    expect(r0.slice(0, 6)).toEqual([500, 'FCC_A1+FCC_A1#2', 0.3, 0.7, 0.5, 0.5]);
    // the second set is gone at 700 K: amount 0, its composition not applicable
    expect(r1.slice(0, 6)).toEqual([700, 'FCC_A1', 1, 0, null, null]);
    expect(r0[8]).toBeCloseTo(Math.exp(-20000 / (GAS_CONSTANT * 500)), 14);
    // DF: 0 when stable, the metastable driving force, null when the phase was not considered at that point
    expect(r0.slice(10, 13)).toEqual([0, null, -900]);
    expect(r1.slice(10, 13)).toEqual([0, -10, -50]);
    // Cp: the equilibrium value where computed, else the frozen one
    expect(r0.slice(13)).toEqual([30, 30]);
    expect(r1.slice(13)).toEqual([42, 30]);
  });

  it('phase_name sorts the labels; unknown elements and phases are errors naming the output', () => {
    expect(phaseSetName(pts[0])).toBe('FCC_A1+FCC_A1#2');
    expect(() => buildTable(pts, ['x(FE)'], { components: ['AL', 'ZN'] })).toThrow(
      /output 'x\(FE\)': FE is not one of the components AL, ZN/,
    );
    expect(() => buildTable(pts, ['NP(BCC_A2)'], { components: ['AL', 'ZN'], phases: ['FCC_A1', 'LIQUID'] })).toThrow(
      /BCC_A2 is not a phase/,
    );
    expect(() => buildTable(pts, ['FOO'], { components: ['AL', 'ZN'] })).toThrow(/unknown output 'FOO'; known: T, P/);
  });
});

describe('task_config validation of outputs', () => {
  it('names the field of the unknown output and checks element arguments against the components', () => {
    const cfg = (condition: Record<string, unknown>) => pointConfig(condition);
    expect(validateTaskConfig('point_calculation', cfg({ thermo_outputs: ['T', 'x(*)', 'NP(FCC_A1)'] }))).toMatchObject(
      { ok: true },
    );
    const bad = validateTaskConfig('point_calculation', cfg({ thermo_outputs: ['T', 'FOO'] }));
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(
      /^task_config\.condition\.thermo_outputs: unknown output 'FOO'; known: T, P, /,
    );
    const tmpl = validateTaskConfig('line_calculation', {
      task_type: 'line_calculation',
      tdb_code: 'X',
      condition: {
        components: ['AL', 'FE'],
        compositions_start: { AL: 0.1 },
        compositions_end: { AL: 0.1 },
        temperature_start: 300,
        temperature_end: 400,
        pressure: 101325,
        points: 5,
        outputs_list_template: ['T', 'x(ZN)'],
      },
    });
    expect(!tmpl.ok && tmpl.error).toBe(
      "task_config.condition.outputs_list_template: output 'x(ZN)': ZN is not one of the components AL, FE",
    );
  });
});

describe('POST /task', () => {
  let f: Fixture | undefined;
  afterAll(async () => {
    await f?.close();
  });

  it('an unknown output gets 400 naming the field and listing the known names', async () => {
    f = await startFixture();
    const r = await api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: { title: 'o', task_config: pointConfig({ thermo_outputs: ['T', 'FOO'] }) },
    });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain(
      "task_config.condition.thermo_outputs: unknown output 'FOO'; known: T, P, phase_name",
    );
    const ok = await api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: {
        title: 'o',
        no_cache: true,
        task_config: pointConfig({ thermo_outputs: ['T', 'x(*)'], outputs_list_template: ['phase_name'] }),
      },
    });
    expect(ok.status).toBe(200);
  });
});
