// Task forms are generated from the zod schemas the API validates with (contract/tasks/registry.ts), so the
// form and the API cannot disagree: fields, required-ness, enums, integer-ness, fixed lengths and bounds
// are read from the schema, and the finished task_config is parsed by the same schema before submission.
import type { z } from 'zod';
import {
  TASK_REGISTRY,
  TASK_TYPES as OPEN_TASK_TYPES,
  type TaskType as OpenTaskType,
} from '../../../contract/tasks/registry.js';
import { zodErrorMap } from '../../../contract/tasks/common.js';
import { unitOf, type UnitKind } from './units.js';
import { compositionAxis } from '../../../contract/results/binary_equilibrium.js';

export { OPEN_TASK_TYPES, type OpenTaskType };

/**
 * The types the New task form offers: every open type. A batch's rows are a table pasted or read from a file
 * (`table.csv`); its paired rows and products (lists of compositions) are made through the API or `phasedesk batch`.
 */
export const FORM_TASK_TYPES: readonly OpenTaskType[] = OPEN_TASK_TYPES;

export type FieldKind =
  | 'number'
  | 'composition'
  | 'elements'
  | 'phases'
  | 'selection'
  | 'strings'
  | 'enum'
  | 'boolean'
  | 'component'
  | 'string'
  | 'numbers'
  | 'table'
  | 'phase'
  | 'rows'
  | 'json';

export interface FieldSpec {
  /** Dotted path below task_config.condition (map_options.GLOBAL_MIN_PDENS for nested objects). */
  key: string;
  kind: FieldKind;
  required: boolean;
  unit: UnitKind;
  integer?: boolean;
  options?: string[];
  exactLength?: number;
  min?: { value: number; inclusive: boolean };
  max?: { value: number; inclusive: boolean };
  /** what the input means, its typical values and where its default comes from (the schema's description) */
  help?: string;
  /**
   * a `rows` field (a list of objects, or a record of objects): one column per property of the objects, described
   * like the fields themselves (keys relative to one object)
   */
  columns?: FieldSpec[];
  /** a `rows` field that is a record: each row also names its key (an element, or a phase) */
  rowKey?: 'element' | 'phase';
  /** the fewest rows the schema accepts (a list's min length) */
  minRows?: number;
}

/** Name of each task type in the renderer (the registry's label). */
export const TASK_LABELS = Object.fromEntries(OPEN_TASK_TYPES.map((t) => [t, TASK_REGISTRY[t].label])) as Record<
  OpenTaskType,
  string
>;

/** Spec table "Open task types", shown under the type selector (the registry's help text). */
export const TASK_HELP = Object.fromEntries(OPEN_TASK_TYPES.map((t) => [t, TASK_REGISTRY[t].help])) as Record<
  OpenTaskType,
  string
>;

type AnyZ = z.ZodType & { _zod: { def: Record<string, any> }; shape?: Record<string, AnyZ> };

function unwrap(s: AnyZ): { inner: AnyZ; optional: boolean } {
  let inner = s;
  let optional = false;
  while (inner._zod.def.type === 'optional' || inner._zod.def.type === 'default') {
    optional = true;
    inner = inner._zod.def.innerType as AnyZ;
  }
  return { inner, optional };
}

function checks(s: AnyZ): Record<string, any>[] {
  return ((s._zod.def.checks ?? []) as { _zod: { def: Record<string, any> } }[]).map((c) => c._zod.def);
}

// aging's strength.transition_radii is keyed by precipitate phase, not by element: not a composition
const API_ONLY_RECORDS = new Set(['chemical_potentials', 'activities', 'fixed_phases', 'strength.transition_radii']);
/** Objects the form leaves to the API: a batch's paired rows and products are lists of compositions. */
const API_ONLY_OBJECTS = new Set(['product', 'rows']);
/** The kinds a cell of a `rows` field can have: one input each. */
const CELL_KINDS: readonly FieldKind[] = ['number', 'enum', 'boolean', 'string', 'phase'];

/** A string that names a phase (matrix_phase, a precipitate's phase): typed with the database's phases offered. */
const namesPhase = (key: string) => /(^|_)phase$/.test(key.split('.').pop()!);

/**
 * A list or a record of objects as rows: a column per property of the object (its schema's own description, unit,
 * bounds and enum); JSON text when a property is itself a list or a record, which a cell cannot hold.
 */
function rowsField(base: Omit<FieldSpec, 'kind'>, object: AnyZ, extra: Partial<FieldSpec>): FieldSpec {
  const columns = Object.entries(unwrap(object).inner.shape ?? {}).flatMap(([k, v]) => describe(k, v as AnyZ));
  if (columns.length === 0 || columns.some((c) => !CELL_KINDS.includes(c.kind))) return { ...base, kind: 'json' };
  return { ...base, kind: 'rows', columns, ...extra };
}

function describe(key: string, schema: AnyZ): FieldSpec[] {
  const { inner, optional } = unwrap(schema);
  const def = inner._zod.def;
  const help = (schema as { description?: string }).description ?? (inner as { description?: string }).description;
  const base = { key, required: !optional, unit: unitOf(key.split('.').pop()!), ...(help ? { help } : {}) };
  switch (def.type) {
    case 'number': {
      const f: FieldSpec = { ...base, kind: 'number' };
      for (const c of checks(inner)) {
        if (c.check === 'number_format') f.integer = true;
        if (c.check === 'greater_than') f.min = { value: Number(c.value), inclusive: Boolean(c.inclusive) };
        if (c.check === 'less_than') f.max = { value: Number(c.value), inclusive: Boolean(c.inclusive) };
      }
      return [f];
    }
    // a record of fractions is a composition; a record of names (reference_states), the open-system conditions
    // (chemical_potentials, activities) and fixed_phases (amounts of phases) have no form field yet (API only)
    // a record of objects (diffusivities per element) and a list of objects (precipitates, a schedule) are rows
    case 'record': {
      const value = def.valueType as AnyZ | undefined;
      const valueType = value?._zod.def.type;
      if (valueType === 'string' || API_ONLY_RECORDS.has(key)) return [];
      if (valueType === 'object')
        return [rowsField(base, value!, { rowKey: /\bper phase\b/.test(help ?? '') ? 'phase' : 'element' })];
      return [{ ...base, kind: 'composition' }];
    }
    case 'array': {
      const element = unwrap(def.element as AnyZ).inner;
      const elementType = element._zod.def.type;
      if (elementType === 'object') {
        if (API_ONLY_OBJECTS.has(key)) return [];
        const min = checks(inner).find((c) => c.check === 'min_length')?.minimum as number | undefined;
        return [rowsField(base, element, min ? { minRows: min } : {})];
      }
      const len = checks(inner).find((c) => c.check === 'length_equals')?.length as number | undefined;
      if (key === 'components') return [{ ...base, kind: 'elements', exactLength: len }];
      if (elementType === 'number') return [{ ...base, kind: 'numbers' }];
      // inhibit_phases: names, patterns and groups over the database's recommended selection (PhaseSelectionPicker)
      if (key === 'inhibit_phases') return [{ ...base, kind: 'selection' }];
      if (/phases$/.test(key)) return [{ ...base, kind: 'phases' }];
      return [{ ...base, kind: 'strings' }];
    }
    case 'enum':
      return [{ ...base, kind: 'enum', options: Object.values(def.entries as Record<string, string>) }];
    case 'boolean':
      return [{ ...base, kind: 'boolean' }];
    case 'string':
      if (key === 'table.csv') return [{ ...base, kind: 'table' }];
      if (namesPhase(key)) return [{ ...base, kind: 'phase' }];
      // the axis element and a potential diagram's held elements: one of the chosen components
      return [{ ...base, kind: key === 'x_component' || /_axis\.element$/.test(key) ? 'component' : 'string' }];
    // a text or something else (an isopleth's end member: a formula, or an alloy's map through the API): the text
    case 'union':
      return (def.options as AnyZ[]).some((o) => unwrap(o).inner._zod.def.type === 'string')
        ? [{ ...base, kind: 'string' }]
        : [];
    case 'object':
      if (API_ONLY_OBJECTS.has(key)) return [];
      return Object.entries(inner.shape ?? {})
        .flatMap(([k, v]) => describe(`${key}.${k}`, v as AnyZ))
        .map((f) => ({ ...f, required: f.required && !optional }));
    default:
      return [];
  }
}

/** Condition fields a type's form leaves out: a batch's table has its own unit (composition_unit is the rows'). */
const FORM_HIDDEN: Partial<Record<OpenTaskType, readonly string[]>> = { equilibrium_batch: ['composition_unit'] };

export function conditionFields(t: OpenTaskType): FieldSpec[] {
  const cond = (TASK_REGISTRY[t].schema as unknown as AnyZ).shape?.condition as AnyZ;
  const hidden = FORM_HIDDEN[t] ?? [];
  return Object.entries(unwrap(cond).inner.shape ?? {})
    .filter(([k]) => !hidden.includes(k))
    .flatMap(([k, v]) => describe(k, v as AnyZ));
}

/** Top-level optional objects of the schema other than condition/ui_metadata (binary_equilibrium.order_disorder). */
export function advancedFields(t: OpenTaskType): FieldSpec[] {
  const shape = (TASK_REGISTRY[t].schema as unknown as AnyZ).shape ?? {};
  // preview_temperature_unit is every type's: the form offers it with the execution options
  const skip = new Set([
    'task_type',
    'tdb_code',
    'task_path',
    'tdb_file',
    'mobility_tdb_file',
    'condition',
    'ui_metadata',
    'activated_elements',
    'preview_temperature_unit',
  ]);
  return Object.entries(shape)
    .filter(([k]) => !skip.has(k))
    .flatMap(([k, v]) => describe(k, v as AnyZ));
}

/** A potential diagram's axes: 600-1800 K across, log10 a from 1e-12 to 1 upward (the oxides of a metal). */
const AXIS_DEFAULTS: Record<string, number> = {
  'x_axis.start': 600,
  'x_axis.end': 1800,
  'y_axis.start': -12,
  'y_axis.end': 0,
};

/** Starting values for a fresh form: physically sensible inputs, never pretend results. */
export function defaultValue(f: FieldSpec, t: OpenTaskType): unknown {
  const last = f.key.split('.').pop()!;
  if (f.kind === 'enum') return f.required ? (last === 'pressure_scale' ? 'log' : f.options?.[0]) : undefined;
  if (['boolean', 'strings', 'string', 'phase', 'table', 'json'].includes(f.kind)) return undefined;
  // a list the schema needs (precipitates) starts with its first, empty row; an optional one with none
  if (f.kind === 'rows') return Array.from({ length: f.required ? (f.minRows ?? 1) : 0 }, () => ({}));
  if (f.kind === 'numbers') return f.key === 'table.temperatures' ? '700, 800, 900' : undefined;
  if (f.kind !== 'number' || !f.required) return undefined;
  if (f.key in AXIS_DEFAULTS) return AXIS_DEFAULTS[f.key];
  const table: Record<string, number> = {
    temperature: 1000,
    start_temperature: 1000,
    temperature_start: t === 'binary_cpt_diagram' ? 400 : 300,
    temperature_end: 1500,
    temperature_step: t === 'binary_cpt_diagram' ? 20 : 1,
    pressure: 101_325,
    pressure_start: 1e5,
    pressure_end: 1e9,
    pressure_points: 5,
    points: 50,
    composition_start: 0,
    composition_end: 1,
    composition_step: 0.02,
    // a permanent-mould casting (solidification)
    cooling_rate: 10,
  };
  return table[last];
}

export interface Issue {
  path: string;
  message: string;
}

/** Parse with the API's own schema and error map; paths are relative to task_config. */
export function validateConfig(t: OpenTaskType, cfg: Record<string, unknown>): Issue[] {
  const r = (TASK_REGISTRY[t].schema as z.ZodType).safeParse(cfg, { error: zodErrorMap as never });
  if (r.success) return [];
  return r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/**
 * Field an API error names. The service formats validation errors as "task_config.<path>: <message>"
 * (formatZodError); other texts name fields in prose (Db code …, omp_threads …).
 */
export function fieldOfError(msg: string): string {
  const m = /^task_config\.([\w.]+):/.exec(msg);
  if (m) return m[1]!.replace(/^condition\./, 'condition.');
  if (/^(omp_threads|no_cache|title|engine)\b/.test(msg)) return `$${/^(\w+)/.exec(msg)![1]}`;
  if (/Db code|tdb_code|tdb_file|subscription/i.test(msg)) return 'tdb_code';
  if (/task_type/.test(msg)) return 'task_type';
  return '';
}

/** The label of a field: its key in words; nested keys such as map_options.GLOBAL_MIN_PDENS keep the engine's spelling. */
export function fieldLabel(key: string): string {
  if (key === 'table.csv') return 'Rows: a table of compositions';
  if (key === 'table.unit') return 'Unit of the table';
  // an isopleth's end members (a pseudo-binary section): "End member at the start"
  if (key.startsWith('end_members.')) return `End member at the ${key.slice('end_members.'.length)}`;
  const parts = key.split('.');
  const last = parts.pop()!;
  if (/^[A-Z0-9_]+$/.test(last) && parts.length === 0) return last;
  if (/^[A-Z0-9_]+$/.test(last))
    return `${parts.join(' ').replace(/_/g, ' ')}: ${last}`.replace(/^./, (c) => c.toUpperCase());
  return last
    .replace(/_/g, ' ')
    .replace(/^./, (c) => c.toUpperCase())
    .replace(/\bx component\b/i, 'Composition axis component');
}

/** The element id of a field's input. */
export function fieldId(key: string): string {
  return `f-${key.replace(/\./g, '-')}`;
}

export function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let o = obj;
  for (const p of parts.slice(0, -1)) {
    if (typeof o[p] !== 'object' || o[p] === null) o[p] = {};
    o = o[p] as Record<string, unknown>;
  }
  o[parts[parts.length - 1]!] = value;
}

/**
 * What the binary_equilibrium task will map for this configuration: the x-axis component and its range, as
 * the worker reads them (contract/results/binary_equilibrium.ts compositionAxis), and whether the range was
 * widened because start and end are the same composition. null while the components are not both chosen.
 */
export function binaryMapping(
  cfg: Record<string, unknown>,
): { xComponent: string; X: [number, number]; widened: boolean } | null {
  const c = (cfg.condition ?? {}) as Record<string, unknown>;
  const comps = Array.isArray(c.components) ? (c.components as string[]).map((s) => String(s).toUpperCase()) : [];
  if (comps.length !== 2 || comps[0] === comps[1]) return null;
  const up = (o: unknown) =>
    Object.fromEntries(
      Object.entries((o ?? {}) as Record<string, unknown>)
        .filter(([, v]) => typeof v === 'number' && Number.isFinite(v))
        .map(([k, v]) => [k.toUpperCase(), v as number]),
    );
  const s = up(c.compositions_start),
    e = up(c.compositions_end);
  try {
    const a = compositionAxis([comps[0]!, comps[1]!], s, e);
    const same = comps.every((k) => (s[k] ?? null) === (e[k] ?? null)) && Object.keys(s).length > 0;
    return { ...a, widened: same };
  } catch {
    return null;
  }
}

const sameComposition = (a: unknown, b: unknown): boolean => {
  const x = (a ?? {}) as Record<string, number>,
    y = (b ?? {}) as Record<string, number>;
  return [...new Set([...Object.keys(x), ...Object.keys(y)])].every((k) => x[k] === y[k]);
};

/**
 * Checks the schema cannot express, run in the form before submission. `errors` are configurations that cannot
 * run (the calculation would fail): they block the submission. `warnings` are configurations that run but
 * probably not as meant: they are shown next to the field and do not block. Paths are relative to task_config.
 */
export function formChecks(t: OpenTaskType, cfg: Record<string, unknown>): { errors: Issue[]; warnings: Issue[] } {
  const errors: Issue[] = [];
  const warnings: Issue[] = [];
  const c = (cfg.condition ?? {}) as Record<string, unknown>;
  const comps = Array.isArray(c.components) ? (c.components as string[]) : [];
  // A composition field left undefined with components chosen: the typed fractions exceed 1.
  // a pseudo-binary section's end members take the place of its two compositions (buildTaskConfig drops them)
  const compositionsUsed = c.end_members === undefined;
  for (const f of conditionFields(t)) {
    if (f.kind === 'composition' && !compositionsUsed) continue;
    // a liquidus projection's held components take part of the atoms (the schema bounds their sum below 1)
    if (t === 'liquidus_projection' && f.key === 'fixed_compositions') continue;
    if (f.kind === 'composition' && comps.length > 0 && c[f.key] === undefined) {
      errors.push({
        path: `condition.${f.key}`,
        message: 'the fractions must sum to 1: the typed ones exceed 1, so the balance would be negative',
      });
    } else if (f.kind === 'composition' && c[f.key] && comps.length > 0) {
      const v = c[f.key] as Record<string, number>;
      const sum = comps.reduce((a, k) => a + (v[k] ?? 0), 0);
      if (Math.abs(sum - 1) > 1e-6)
        errors.push({ path: `condition.${f.key}`, message: `the fractions sum to ${Number(sum.toFixed(6))}, not 1` });
    }
  }
  const T0 = c.temperature_start,
    T1 = c.temperature_end;
  if (t === 'binary_equilibrium') {
    if (typeof T0 === 'number' && T0 === T1) {
      errors.push({
        path: 'condition.temperature_end',
        message: 'must differ from temperature_start: a phase diagram needs a temperature range',
      });
    }
    const m = binaryMapping(cfg);
    if (m?.widened) {
      warnings.push({
        path: 'condition.compositions_end',
        message: `equal to the start composition: the whole range x(${m.xComponent}) 0 → 1 will be mapped`,
      });
    }
  }
  if (
    (t === 'line_calculation' || t === 'thermodynamic_properties_next') &&
    typeof T0 === 'number' &&
    T0 === T1 &&
    sameComposition(c.compositions_start, c.compositions_end) &&
    typeof c.points === 'number' &&
    c.points > 1
  ) {
    warnings.push({
      path: 'condition.points',
      message: `start and end are the same state: the ${c.points} points would all be equal (set 1 point, or change temperature_end or a composition)`,
    });
  }
  return { errors, warnings };
}
