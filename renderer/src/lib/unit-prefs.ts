// The units the app shows and takes (Settings, "Units"): temperature in kelvin or degrees Celsius, compositions as
// mole or mass fractions, written as fractions or in percent. A display preference of the person at this window, so
// it is kept in the renderer's local storage beside the API key, not in the service's settings.json (read by the
// service at its start, and shared by every user of a lab server). The API and the result files stay in K and
// fractions: forms convert what is typed, views, tables and the CSV they export convert what they show, and a new
// task takes the preference as its own composition_unit and preview_temperature_unit, which a task may still change.
import type { ResultTable } from '../../../contract/results/common.js';
import { C_OFFSET, round, type TypedUnit } from './units.js';

export interface UnitPreferences {
  temperature: 'kelvin' | 'celsius';
  composition_basis: 'mole' | 'mass';
  composition_scale: 'fraction' | 'percent';
}

export const DEFAULT_PREFERENCES: UnitPreferences = {
  temperature: 'kelvin',
  composition_basis: 'mole',
  composition_scale: 'fraction',
};

export const PREFERENCES_STORAGE = 'phasedesk.unit_preferences';

const CHOICES: { [K in keyof UnitPreferences]: readonly UnitPreferences[K][] } = {
  temperature: ['kelvin', 'celsius'],
  composition_basis: ['mole', 'mass'],
  composition_scale: ['fraction', 'percent'],
};

/** The preferences stored as JSON text; a missing, damaged or unknown value is its default. */
export function parsePreferences(text: string | null): UnitPreferences {
  let raw: Record<string, unknown> = {};
  try {
    const v = JSON.parse(text ?? '{}') as unknown;
    if (v && typeof v === 'object') raw = v as Record<string, unknown>;
  } catch {
    // a damaged entry: the defaults
  }
  const pick = <K extends keyof UnitPreferences>(k: K): UnitPreferences[K] =>
    (CHOICES[k] as readonly unknown[]).includes(raw[k]) ? (raw[k] as UnitPreferences[K]) : DEFAULT_PREFERENCES[k];
  return {
    temperature: pick('temperature'),
    composition_basis: pick('composition_basis'),
    composition_scale: pick('composition_scale'),
  };
}

/** The stored preferences (the defaults where the page has no local storage). */
export function loadPreferences(): UnitPreferences {
  try {
    return parsePreferences(globalThis.localStorage?.getItem(PREFERENCES_STORAGE) ?? null);
  } catch {
    return { ...DEFAULT_PREFERENCES };
  }
}

export function savePreferences(p: UnitPreferences): void {
  globalThis.localStorage?.setItem(PREFERENCES_STORAGE, JSON.stringify(p));
}

/** A fraction typed in percent (shown × 100, stored / 100). */
export const PERCENT: TypedUnit = {
  unit: '%',
  name: 'percent',
  toSI: (v) => round(v / 100, 12),
  fromSI: (v) => round(v * 100, 12),
};
/** A fraction typed as a fraction. */
export const FRACTION: TypedUnit = { unit: '', name: 'fraction', toSI: (v) => v, fromSI: (v) => v };

/** The unit a composition is typed and shown in. */
export function fractionUnit(p: UnitPreferences): TypedUnit {
  return p.composition_scale === 'percent' ? PERCENT : FRACTION;
}

/** "mass %", "mole fraction", ... of a basis in the preferred scale. */
export function compositionUnitText(mass: boolean, p: UnitPreferences): string {
  return `${mass ? 'mass' : 'mole'} ${p.composition_scale === 'percent' ? '%' : 'fraction'}`;
}

/** The composition_unit a new task takes from the preference (the schemas' enumeration). */
export function preferredCompositionUnit(p: UnitPreferences): 'mole_fraction' | 'mass_fraction' {
  return p.composition_basis === 'mass' ? 'mass_fraction' : 'mole_fraction';
}

/**
 * Whether a table column holds an absolute temperature in K (T, input_T, T_liquidus, ..., any name with
 * "temperature"), which shifts by 273.15 in °C; a difference in K (a step, an undercooling, a range) does not.
 */
export function isAbsoluteTemperature(c: { name: string; unit: string }): boolean {
  if (c.unit !== 'K') return false;
  if (/step|delta|Δ|undercool|interval|width|range|difference/i.test(c.name)) return false;
  return /^(input_)?T(_|$)|temperature/i.test(c.name);
}

const FRACTION_UNITS: Record<string, 'mole' | 'mass'> = {
  'mole fraction': 'mole',
  mole_fraction: 'mole',
  'mass fraction': 'mass',
  mass_fraction: 'mass',
};

/**
 * A result table in the preferred units: absolute temperatures in °C (unit "°C") when so chosen, mole and mass
 * fraction columns in percent ("mole %", "mass %") when so chosen. The default preferences leave it as it is, so the
 * exported CSV is then the service's result.csv byte for byte.
 */
export function tableInUnits(table: ResultTable, p: UnitPreferences): ResultTable {
  const celsius = p.temperature === 'celsius';
  const percent = p.composition_scale === 'percent';
  const shift = table.columns.map((c) => celsius && isAbsoluteTemperature(c));
  const scale = table.columns.map((c) => percent && FRACTION_UNITS[c.unit] !== undefined);
  if (!shift.some(Boolean) && !scale.some(Boolean)) return table;
  return {
    columns: table.columns.map((c, j) =>
      shift[j] ? { ...c, unit: '°C' } : scale[j] ? { ...c, unit: `${FRACTION_UNITS[c.unit]} %` } : c,
    ),
    rows: table.rows.map((r) =>
      r.map((v, j) =>
        typeof v !== 'number' ? v : shift[j] ? round(v - C_OFFSET, 12) : scale[j] ? PERCENT.fromSI(v) : v,
      ),
    ),
  };
}
