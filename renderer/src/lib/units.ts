// Unit helpers. The API takes temperature in K and pressure in Pa (spec "task_config", Units);
// the helpers only convert what the user types, the stored value is always SI.
export const C_OFFSET = 273.15; // K = °C + 273.15 (ITS-90 definition of the Celsius scale)
export const PA_PER_BAR = 1e5; // 1 bar = 10^5 Pa (SI definition)
export const PA_PER_ATM = 101_325; // 1 standard atmosphere = 101 325 Pa

export const SECONDS_PER_HOUR = 3600;

export type UnitKind = 'temperature' | 'pressure' | 'fraction' | 'step_temperature' | 'count' | 'time' | 'none';

/** Unit of a task_config.condition field from its name (spec field tables). */
export function unitOf(field: string): UnitKind {
  if (field === 'temperature_step') return 'step_temperature';
  if (/temperature/.test(field)) return 'temperature';
  if (/^pressure(_start|_end)?$/.test(field)) return 'pressure';
  if (/^composition_(start|end|step)$/.test(field)) return 'fraction';
  if (field === 'points' || field === 'pressure_points') return 'count';
  if (/^(time|end_time)$/.test(field)) return 'time';
  return 'none';
}

/**
 * The units a value of a kind can be typed in, the API's own first, each with its conversion to the API's unit
 * (K, Pa, s): `toSI(typed)` and back `fromSI(stored)`.
 */
export interface TypedUnit {
  unit: string;
  /** the unit's name in a sentence ("Temperature in degrees Celsius") */
  name: string;
  toSI: (v: number) => number;
  fromSI: (v: number) => number;
}

const same = (v: number) => v;
const factor = (unit: string, name: string, k: number): TypedUnit => ({
  unit,
  name,
  toSI: (v) => v * k,
  fromSI: (v) => v / k,
});

/**
 * The units a value of a kind can be typed in, the API's own first, each with its conversion to the API's unit
 * (K, Pa, s): `toSI(typed)` and back `fromSI(stored)`.
 */
export const TYPED_UNITS: Partial<Record<UnitKind, TypedUnit[]>> = {
  temperature: [
    { unit: 'K', name: 'kelvin', toSI: same, fromSI: same },
    { unit: '°C', name: 'degrees Celsius', toSI: (v) => v + C_OFFSET, fromSI: (v) => v - C_OFFSET },
  ],
  time: [factor('s', 'seconds', 1), factor('min', 'minutes', 60), factor('h', 'hours', SECONDS_PER_HOUR)],
  pressure: [factor('Pa', 'pascal', 1), factor('bar', 'bar', PA_PER_BAR), factor('atm', 'atm', PA_PER_ATM)],
};

export function round(v: number, digits = 6): number {
  if (!Number.isFinite(v)) return v;
  return Number(v.toPrecision(digits));
}

/**
 * Mole fractions that sum to 1: every component but the balance one is typed, the balance one is
 * 1 − Σ others (spec: compositions are mole fractions). Returns null when the typed ones exceed 1.
 */
export function balanced(
  values: Record<string, number>,
  components: string[],
  balance: string,
): Record<string, number> | null {
  let sum = 0;
  const out: Record<string, number> = {};
  for (const c of components) {
    if (c === balance) continue;
    const v = values[c] ?? 0;
    out[c] = v;
    sum += v;
  }
  const rest = round(1 - sum, 12);
  if (rest < 0) return null;
  out[balance] = rest;
  return out;
}

/**
 * Whether a result view opens its temperatures in degrees Celsius: as the task chose them for its previews
 * (task_config.preview_temperature_unit), so the view on screen starts as the exported figures are; a task that chose
 * nothing opens in the preferred unit (Settings, lib/unit-prefs.ts).
 */
export function opensInCelsius(
  doc: { config?: Record<string, unknown> },
  preferred: 'kelvin' | 'celsius' = 'kelvin',
): boolean {
  const chosen = doc.config?.preview_temperature_unit;
  return chosen === 'celsius' || (chosen === undefined && preferred === 'celsius');
}
