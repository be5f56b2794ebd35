// The New task form's rows (renderer/src/lib/taskforms.ts, form-rows.ts): lists and records of objects in the task
// schemas become tables with a column per property, read from the schema, and their rows make the configuration
// the API validates; a stored configuration reads back into the same rows. Runs in Node (imports renderer sources).
import { describe, expect, it } from 'vitest';
import {
  advancedFields,
  conditionFields,
  fieldLabel,
  OPEN_TASK_TYPES,
  validateConfig,
} from '../../renderer/src/lib/taskforms.js';
import { buildTaskConfig, copyOfTask, freshValues } from '../../renderer/src/lib/task-form-values.js';
import { ROW_KEY, rowIssue, rowNoun, rowsOfConfig, rowsToConfig } from '../../renderer/src/lib/form-rows.js';
import { TYPED_UNITS } from '../../renderer/src/lib/units.js';
import { alZrAgingCondition } from '../support/aging.js';

const field = (t: 'aging' | 'solidification', key: string) => conditionFields(t).find((f) => f.key === key)!;

describe('rows of the New task form', () => {
  it("aging's precipitates: a column per property with the schema's kind, bounds, enum, unit and description", () => {
    const f = field('aging', 'precipitates');
    expect(f).toMatchObject({ kind: 'rows', required: true, minRows: 1 });
    const cols = Object.fromEntries(f.columns!.map((c) => [c.key, c]));
    expect(cols.phase).toMatchObject({ kind: 'phase', required: true });
    expect(cols.interfacial_energy).toMatchObject({ kind: 'number', required: true, max: { value: 5 } });
    expect(cols.interfacial_energy!.help).toMatch(/^J\/m\^2:/);
    expect(cols.atoms_per_cell).toMatchObject({ kind: 'number', integer: true, required: false });
    expect(cols.nucleation_site).toMatchObject({
      kind: 'enum',
      options: ['bulk', 'dislocations', 'grain_boundaries'],
      required: false,
    });
    // every property of the schema's object has its column, so a property added later appears by itself
    expect(f.columns!.map((c) => c.key)).toEqual(expect.arrayContaining(['molar_volume', 'lattice_parameter']));
    expect(rowNoun(f)).toBe('precipitate');
  });

  it('the schedule: time in s (also min, h) and temperature in K (also °C); two points at least, none at first', () => {
    const f = field('aging', 'schedule');
    expect(f).toMatchObject({ kind: 'rows', required: false, minRows: 2 });
    expect(f.columns!.map((c) => [c.key, c.unit])).toEqual([
      ['time', 'time'],
      ['temperature', 'temperature'],
    ]);
    expect(TYPED_UNITS.time!.map((u) => u.unit)).toEqual(['s', 'min', 'h']);
    expect(TYPED_UNITS.time![2]!.toSI(100)).toBe(360_000);
    expect(TYPED_UNITS.temperature![1]!.toSI(450)).toBeCloseTo(723.15, 10);
    expect(TYPED_UNITS.temperature![1]!.fromSI(273.15)).toBeCloseTo(0, 12);
    expect(freshValues('aging')).toMatchObject({ precipitates: [{}], schedule: [] });
    expect(rowNoun(f)).toBe('schedule row');
  });

  it('diffusivities per element (aging) and solid_diffusivities (solidification) are rows keyed by an element', () => {
    for (const f of [field('aging', 'diffusivities'), field('solidification', 'solid_diffusivities')]) {
      expect(f).toMatchObject({ kind: 'rows', rowKey: 'element' });
      expect(f.columns!.map((c) => c.key)).toEqual(['D0', 'Q']);
    }
    const f = field('aging', 'diffusivities');
    const rows = [
      { [ROW_KEY]: 'ZR', D0: 7.68e-2, Q: '242000' },
      { [ROW_KEY]: 'AL', D0: 1e-5, Q: 130_000 },
    ];
    expect(rowsToConfig(f, rows)).toEqual({ ZR: { D0: 7.68e-2, Q: 242_000 }, AL: { D0: 1e-5, Q: 130_000 } });
    // a column keeps the schema's spelling of D0 and Q; an engine option keeps its object's name before it
    expect([fieldLabel('D0'), fieldLabel('map_options.GLOBAL_MIN_PDENS')]).toEqual([
      'D0',
      'Map options: GLOBAL_MIN_PDENS',
    ]);
    expect(rowsOfConfig(f, { ZR: { D0: 7.68e-2, Q: 242_000 } })).toEqual([
      { [ROW_KEY]: 'ZR', D0: 7.68e-2, Q: 242_000 },
    ]);
  });

  it('rows make the configuration the API validates, blank cells left out, and read back from it', () => {
    // the shared Al-Zr condition's lists of objects are rows as they stand; two precipitates, one with a blank cell
    const values = {
      ...freshValues('aging'),
      ...alZrAgingCondition({ from: 573, ramp: 3600, end: 360_000, output_times: [3600] }),
      precipitates: [
        { phase: 'AL3ZR', interfacial_energy: 0.1, nucleation_site: 'dislocations', molar_volume: '' },
        { phase: ' AL3ZR_D023 ', interfacial_energy: 0.2, lattice_parameter: 4.0e-10, atoms_per_cell: 8 },
      ],
    };
    const cfg = buildTaskConfig('aging', values, { tdbCode: 'X', previewUnit: undefined, components: [] });
    expect(validateConfig('aging', cfg)).toEqual([]);
    const c = cfg.condition as Record<string, unknown>;
    expect(c.precipitates).toEqual([
      { phase: 'AL3ZR', interfacial_energy: 0.1, nucleation_site: 'dislocations' },
      { phase: 'AL3ZR_D023', interfacial_energy: 0.2, lattice_parameter: 4.0e-10, atoms_per_cell: 8 },
    ]);
    expect(c.schedule).toEqual(values.schedule);
    expect('diffusivities' in c).toBe(false);
    const copy = copyOfTask(JSON.stringify(cfg), 1, new URLSearchParams());
    expect('values' in copy && copy.values.precipitates).toEqual(c.precipitates);
    expect('values' in copy && copy.values.schedule).toEqual(values.schedule);
  });

  it("a row the schema refuses is named on its table: the row's number (or its key) and the column", () => {
    const fields = conditionFields('aging');
    const values = {
      ...freshValues('aging'),
      precipitates: [{ phase: 'AL3ZR', interfacial_energy: 0.1 }, {}, { phase: 'AL3ZR', interfacial_energy: -1 }],
    };
    const cfg = buildTaskConfig('aging', values, { tdbCode: 'X', previewUnit: undefined, components: [] });
    // the empty row in the middle stays, so the third row on screen is the schema's precipitates.2
    const issues = validateConfig('aging', cfg).filter((i) => i.path.startsWith('condition.precipitates'));
    const placed = issues.map((i) => rowIssue(fields, i.path, i.message));
    expect(placed).toContainEqual({ key: 'condition.precipitates', message: 'row 2, phase: is required' });
    expect(placed).toContainEqual({
      key: 'condition.precipitates',
      message: 'row 3, interfacial energy: must be greater than 0',
    });
    expect(rowIssue(fields, 'condition.diffusivities.NB', 'NB is not one of the components')).toEqual({
      key: 'condition.diffusivities',
      message: 'NB: NB is not one of the components',
    });
    expect(rowIssue(fields, 'condition.matrix_phase', 'is required')).toBeNull();
    // a table with nothing typed is the field left out
    expect(rowsToConfig(field('aging', 'schedule'), [{}, { time: '' }])).toBeUndefined();
  });

  it('no type of the form still asks for JSON text: every list or record of objects it offers is a table', () => {
    for (const t of OPEN_TASK_TYPES)
      expect([...conditionFields(t), ...advancedFields(t)].filter((f) => f.kind === 'json').map((f) => f.key)).toEqual(
        [],
      );
  });
});
