// The values of the new-task form (screens/NewTask.svelte) and the task_config they make: fresh defaults of a task
// type, the configuration built from the typed values, the values read back from a stored configuration ("Edit a
// copy"), and the labels and element ids of the fields. The fields themselves come from the schemas (taskforms.ts).
import {
  advancedFields,
  conditionFields,
  defaultValue,
  fieldId,
  fieldLabel,
  setPath,
  FORM_TASK_TYPES,
  type FieldSpec,
  type OpenTaskType,
} from './taskforms.js';
import { rowsOfConfig, rowsToConfig } from './form-rows.js';
import { preferredCompositionUnit, type UnitPreferences } from './unit-prefs.js';
import { round } from './units.js';

export { fieldId, fieldLabel };

/** The form's values by key: condition fields by their key, advanced options as adv:<key>. */
export type FormValues = Record<string, any>;

/**
 * Fresh defaults of a task type's condition fields (no components or phases picked; the suppressed phases left to
 * the database's recommended selection).
 */
export function freshValues(t: OpenTaskType, prefs?: UnitPreferences): FormValues {
  const v: FormValues = {};
  for (const f of conditionFields(t)) v[f.key] = f.kind === 'elements' || f.kind === 'phases' ? [] : defaultValue(f, t);
  // a new task's compositions in the preferred basis (Settings); a copy keeps its own (no prefs)
  if (prefs && 'composition_unit' in v && prefs.composition_basis === 'mass')
    v.composition_unit = preferredCompositionUnit(prefs);
  return v;
}

/** The composition range a diagram of the chosen system opens with (composition_range of the phases answer). */
export interface SuggestedComposition {
  element: string;
  mole_fraction: [number, number];
  mass_fraction: [number, number];
}

/**
 * The fractions the composition fields of a new diagram start with, by field key (CompositionInputs `seed`; the
 * balance, the first component, takes the rest): a binary diagram or an isopleth of a metal-interstitial binary
 * spans the suggested range of the interstitial; an isopleth of more components runs from the last component at 0
 * to the last at an equal share, so that its start and end differ from the start. Null: the fields' own seeds.
 */
export function compositionSeeds(
  taskType: OpenTaskType,
  components: string[],
  mass: boolean,
  range: SuggestedComposition | null,
): Record<string, Record<string, number>> | null {
  const keys =
    taskType === 'binary_equilibrium'
      ? ['compositions_start', 'compositions_end']
      : taskType === 'isopleth'
        ? ['composition_start', 'composition_end']
        : null;
  if (!keys || components.length < 2) return null;
  const el = range?.element.toUpperCase();
  const inRange = range && components.length === 2 && components.some((c) => c.toUpperCase() === el);
  if (inRange) {
    const [a, b] = mass ? range.mass_fraction : range.mole_fraction;
    const elName = components.find((c) => c.toUpperCase() === el)!;
    const other = components.find((c) => c !== elName)!;
    return {
      [keys[0]!]: { [elName]: a, [other]: round(1 - a, 12) },
      [keys[1]!]: { [elName]: b, [other]: round(1 - b, 12) },
    };
  }
  if (taskType !== 'isopleth') return null;
  const last = components[components.length - 1]!;
  return { [keys[0]!]: { [last]: 0 }, [keys[1]!]: { [last]: round(1 / components.length, 4) } };
}

/** A value the user gave (not empty, not a number field left blank). */
export function present(v: unknown): boolean {
  return !(v === undefined || v === null || v === '' || (typeof v === 'number' && Number.isNaN(v)));
}

const yesNo = (v: unknown) => (v === 'true' ? true : v === 'false' ? false : undefined);

/** A comma or space separated list of numbers; a word that is not a number stays as it is, for the schema to name. */
export function numberList(text: string): (number | string)[] {
  return text
    .split(/[,;\s]+/)
    .filter(Boolean)
    .map((s) => (Number.isFinite(Number(s)) ? Number(s) : s));
}

/** The value of JSON text (a list or a record of objects); text that is not JSON stays text, for the schema to refuse. */
export function jsonValue(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (v.trim() === '') return undefined;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** What the form sends besides the values: the database's code and the unit of the previews' temperatures. */
export interface ConfigContext {
  tdbCode: string;
  previewUnit: 'kelvin' | 'celsius' | undefined;
  components: string[];
}

/**
 * The task_config of the form's values: empty optional fields left out (but an empty list of suppressed phases,
 * which says "suppress nothing" instead of the database's recommendation), comma lists split, yes/no as booleans.
 */
export function buildTaskConfig(
  taskType: OpenTaskType,
  values: FormValues,
  ctx: ConfigContext,
): Record<string, unknown> {
  const condition: Record<string, unknown> = {};
  for (const f of conditionFields(taskType)) {
    let v = values[f.key];
    if (f.kind === 'strings')
      v =
        typeof v === 'string'
          ? v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : v;
    if (f.kind === 'numbers') v = typeof v === 'string' ? numberList(v) : v;
    if (f.kind === 'boolean') v = yesNo(v);
    if (f.kind === 'json') v = jsonValue(v);
    if (f.kind === 'rows') v = rowsToConfig(f, v);
    if (
      (f.kind === 'phases' || f.kind === 'strings' || f.kind === 'numbers') &&
      Array.isArray(v) &&
      v.length === 0 &&
      !f.required
    )
      v = undefined;
    if (present(v)) setPath(condition, f.key, v);
  }
  // an isopleth between end members (a pseudo-binary section) takes no composition_start/composition_end
  if (condition.end_members !== undefined) {
    delete condition.composition_start;
    delete condition.composition_end;
  }
  const cfg: Record<string, unknown> = { task_type: taskType, tdb_code: ctx.tdbCode, condition };
  if (ctx.previewUnit) cfg.preview_temperature_unit = ctx.previewUnit;
  // binary_equilibrium: activated_elements "must equal condition.components" (spec), so it is derived, not typed.
  if (taskType === 'binary_equilibrium') cfg.activated_elements = [...ctx.components];
  for (const f of advancedFields(taskType)) {
    let v = values[`adv:${f.key}`];
    if (f.kind === 'boolean') v = yesNo(v);
    if (present(v)) setPath(cfg, f.key, v);
  }
  return cfg;
}

/** The form's values of a stored task configuration ("Edit a copy"), or why the form cannot offer it. */
export type CopiedTask =
  | {
      taskType: OpenTaskType;
      values: FormValues;
      /** the compositions as stored, typed into the composition inputs as they were */
      compositions: Record<string, Record<string, number>>;
      tdbCode: string | undefined;
      previewUnit: 'kelvin' | 'celsius' | undefined;
    }
  | { problem: string };

const isOpen = (t: unknown): t is OpenTaskType => (FORM_TASK_TYPES as readonly unknown[]).includes(t);
const valueAt = (o: Record<string, any>, path: string) =>
  path.split('.').reduce<any>((a, k) => (a == null ? undefined : a[k]), o);

/** The value of a stored condition as the form holds it (comma lists and yes/no as text). */
function formValue(f: FieldSpec, v: unknown): unknown {
  if (f.kind === 'strings' || f.kind === 'numbers') return Array.isArray(v) ? v.join(', ') : v;
  if (f.kind === 'boolean') return String(v);
  if (f.kind === 'json') return JSON.stringify(v);
  if (f.kind === 'rows') return rowsOfConfig(f, v);
  return v;
}

/**
 * The values of a stored task_config (the description of task #from); query parameters named like a number field
 * of the conditions (?start_temperature=935) then replace single values.
 */
export function copyOfTask(description: string, from: number, query: URLSearchParams): CopiedTask {
  let cfg: Record<string, any>;
  try {
    cfg = JSON.parse(description);
  } catch {
    return { problem: `task #${from} has no readable configuration` };
  }
  if (!isOpen(cfg.task_type))
    return { problem: `task #${from} is of type ${cfg.task_type}, which the form does not offer` };
  const type = cfg.task_type;
  const cond = (cfg.condition ?? {}) as Record<string, any>;
  const values = freshValues(type);
  const compositions: Record<string, Record<string, number>> = {};
  for (const f of conditionFields(type)) {
    const v = valueAt(cond, f.key);
    if (v === undefined) continue;
    if (f.kind === 'composition') compositions[f.key] = v;
    else values[f.key] = formValue(f, v);
  }
  for (const f of advancedFields(type)) {
    const v = valueAt(cfg, f.key);
    if (v !== undefined) values[`adv:${f.key}`] = f.kind === 'boolean' ? String(v) : v;
  }
  for (const f of conditionFields(type)) {
    const raw = query.get(f.key);
    if (f.kind === 'number' && raw !== null && raw.trim() !== '' && Number.isFinite(Number(raw)))
      values[f.key] = Number(raw);
  }
  const unit = cfg.preview_temperature_unit;
  return {
    taskType: type,
    values,
    compositions,
    tdbCode: cfg.tdb_code || undefined,
    previewUnit: unit === 'celsius' || unit === 'kelvin' ? unit : undefined,
  };
}

/**
 * The elements a potential diagram's axes hold at a potential (`x_axis.element`, `y_axis.element` of a potential
 * quantity): they take no mole fraction, so the composition inputs leave them out.
 */
/**
 * The components a composition input of a task's form offers: a liquidus projection's fixed_compositions holds only
 * the components after the triangle's three corners (none for a ternary); a potential diagram's compositions leave
 * out the elements its axes hold.
 */
export function compositionInputs(taskType: string, key: string, values: FormValues, components: string[]): string[] {
  if (taskType === 'liquidus_projection' && key === 'fixed_compositions') return components.slice(3);
  return components.filter((c) => !heldByAxes(values).includes(c));
}

export function heldByAxes(values: FormValues): string[] {
  return ['x_axis', 'y_axis']
    .filter((a) => present(values[`${a}.element`]) && values[`${a}.quantity`] !== 'temperature')
    .map((a) => String(values[`${a}.element`]).toUpperCase());
}
