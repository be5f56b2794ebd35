// The unit preferences of Settings (renderer/src/lib/unit-prefs.ts) and what the form makes of them and of a
// system's suggested ranges (renderer/src/lib/task-form-values.ts), run in Node: parsing of the stored text, percent
// and °C conversions checked by hand, the table and CSV in the preferred units (unchanged with the defaults), and the
// composition fields' seeds. Lives with the e2e tests because it imports renderer sources.
import { describe, expect, it } from 'vitest';
import { tableToCsv as serviceCsv, type ResultTable } from '../../contract/results/common.js';
import {
  DEFAULT_PREFERENCES,
  PERCENT,
  compositionUnitText,
  isAbsoluteTemperature,
  parsePreferences,
  tableInUnits,
  type UnitPreferences,
} from '../../renderer/src/lib/unit-prefs.js';
import { compositionSeeds, freshValues } from '../../renderer/src/lib/task-form-values.js';
import { opensInCelsius } from '../../renderer/src/lib/units.js';
import { tableToCsv } from '../../renderer/src/lib/results.js';

const MASS_PERCENT_CELSIUS: UnitPreferences = {
  temperature: 'celsius',
  composition_basis: 'mass',
  composition_scale: 'percent',
};

const table: ResultTable = {
  columns: [
    { name: 'T', unit: 'K' },
    { name: 'temperature_step', unit: 'K' },
    { name: 'T_liquidus', unit: 'K' },
    { name: 'X_left(C)', unit: 'mole fraction' },
    { name: 'W_left(C)', unit: 'mass fraction' },
    { name: 'phases', unit: '' },
  ],
  rows: [
    [1420, 5, 1811, 0.173, 0.043, 'LIQUID+FCC_A1'],
    [null, 5, 1000.5, 0, 1, 'FCC_A1'],
  ],
};

describe('unit preferences', () => {
  it('read what was stored, and the default for anything missing, unknown or damaged', () => {
    expect(parsePreferences(null)).toEqual(DEFAULT_PREFERENCES);
    expect(parsePreferences('{not json')).toEqual(DEFAULT_PREFERENCES);
    expect(parsePreferences(JSON.stringify(MASS_PERCENT_CELSIUS))).toEqual(MASS_PERCENT_CELSIUS);
    expect(parsePreferences('{"temperature":"fahrenheit","composition_scale":"percent"}')).toEqual({
      ...DEFAULT_PREFERENCES,
      composition_scale: 'percent',
    });
  });

  it('percent is a hundredth of a fraction both ways, without binary noise', () => {
    expect(PERCENT.toSI(4.3)).toBe(0.043);
    expect(PERCENT.fromSI(0.043)).toBe(4.3);
    expect(PERCENT.toSI(PERCENT.fromSI(0.173))).toBe(0.173);
    expect(compositionUnitText(true, MASS_PERCENT_CELSIUS)).toBe('mass %');
    expect(compositionUnitText(false, DEFAULT_PREFERENCES)).toBe('mole fraction');
  });

  it('tables: absolute temperatures to °C (1420 K = 1146.85 °C), differences kept, fractions to percent', () => {
    expect(isAbsoluteTemperature({ name: 'temperature_step', unit: 'K' })).toBe(false);
    expect(isAbsoluteTemperature({ name: 'input_T', unit: 'K' })).toBe(true);
    const t = tableInUnits(table, MASS_PERCENT_CELSIUS);
    expect(t.columns.map((c) => c.unit)).toEqual(['°C', 'K', '°C', 'mole %', 'mass %', '']);
    expect(t.rows[0]).toEqual([1146.85, 5, 1537.85, 17.3, 4.3, 'LIQUID+FCC_A1']);
    expect(t.rows[1]).toEqual([null, 5, 727.35, 0, 100, 'FCC_A1']);
    expect(tableToCsv(t).split('\r\n')[0]).toBe(
      'T [°C],temperature_step [K],T_liquidus [°C],X_left(C) [mole %],W_left(C) [mass %],phases',
    );
  });

  it('the defaults leave a table as it is: the exported CSV is the service result.csv byte for byte', () => {
    expect(tableInUnits(table, DEFAULT_PREFERENCES)).toBe(table);
    expect(tableToCsv(tableInUnits(table, DEFAULT_PREFERENCES))).toBe(serviceCsv(table));
  });

  it('a result view opens in the task’s own preview unit, else in the preferred one', () => {
    expect(opensInCelsius({ config: {} }, 'celsius')).toBe(true);
    expect(opensInCelsius({ config: { preview_temperature_unit: 'kelvin' } }, 'celsius')).toBe(false);
    expect(opensInCelsius({ config: { preview_temperature_unit: 'celsius' } }, 'kelvin')).toBe(true);
    expect(opensInCelsius({ config: {} })).toBe(false);
  });
});

describe('the form’s defaults from the preferences and the system', () => {
  it('a new task takes the preferred basis as composition_unit; a copy (no preferences) does not', () => {
    expect(freshValues('binary_equilibrium', MASS_PERCENT_CELSIUS).composition_unit).toBe('mass_fraction');
    expect(freshValues('point_calculation', MASS_PERCENT_CELSIUS).composition_unit).toBe('mass_fraction');
    expect(freshValues('binary_equilibrium').composition_unit).toBeUndefined();
    expect(freshValues('binary_equilibrium', DEFAULT_PREFERENCES).composition_unit).toBeUndefined();
  });

  it('a metal-interstitial binary spans the suggested range, in the basis of the form', () => {
    const fec = {
      element: 'C',
      mole_fraction: [0, 0.25] as [number, number],
      mass_fraction: [0, 0.07] as [number, number],
    };
    expect(compositionSeeds('binary_equilibrium', ['FE', 'C'], true, fec)).toEqual({
      compositions_start: { C: 0, FE: 1 },
      compositions_end: { C: 0.07, FE: 0.93 },
    });
    expect(compositionSeeds('binary_equilibrium', ['C', 'FE'], false, fec)).toEqual({
      compositions_start: { C: 0, FE: 1 },
      compositions_end: { C: 0.25, FE: 0.75 },
    });
    // Cu-Ni: the whole range, the fields' own seeds
    expect(compositionSeeds('binary_equilibrium', ['CU', 'NI'], false, null)).toBeNull();
  });

  it('an isopleth of four components opens with a start and an end that differ', () => {
    expect(compositionSeeds('isopleth', ['FE', 'CR', 'NI', 'C'], false, null)).toEqual({
      composition_start: { C: 0 },
      composition_end: { C: 0.25 },
    });
  });
});
