// Task forms are generated from the zod schemas the API validates with (main/api/task-config.ts), so the
// form and the API cannot disagree: fields, required-ness, enums, integer-ness, fixed lengths and bounds
// are read from the schema, and the finished task_config is parsed by the same schema before submission.
import type { z } from 'zod';
import { OPEN_TASK_TYPES, TASK_CONFIG_SCHEMAS, zodErrorMap, type OpenTaskType } from '../../../main/api/task-config.js';
import { unitOf, type UnitKind } from './units.js';

export { OPEN_TASK_TYPES, type OpenTaskType };

export type FieldKind = 'number' | 'composition' | 'elements' | 'phases' | 'strings' | 'enum' | 'boolean' | 'component' | 'string';

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
}

export const TASK_LABELS: Record<OpenTaskType, string> = {
  point_calculation: 'Point calculation',
  line_calculation: 'Line calculation',
  binary_equilibrium: 'Binary phase diagram',
  thermodynamic_properties_next: 'Thermodynamic properties',
  scheil_solidification: 'Scheil solidification',
  binary_cpt_diagram: 'Binary C–P–T diagram',
};

/** Spec table "Open task types", shown under the type selector. */
export const TASK_HELP: Record<OpenTaskType, string> = {
  point_calculation: 'Equilibrium phase composition at one temperature, pressure and composition.',
  line_calculation: 'Scan along temperature or composition; phase changes and phase fractions.',
  binary_equilibrium: 'Binary phase diagram in temperature–composition space.',
  thermodynamic_properties_next: 'Thermodynamic functions (heat capacity, enthalpy, entropy, chemical potentials).',
  scheil_solidification: 'Non-equilibrium solidification path by the Scheil–Gulliver model.',
  binary_cpt_diagram: 'Three-dimensional phase diagram over composition, temperature and pressure.',
};

type AnyZ = z.ZodType & { _zod: { def: Record<string, any> }; shape?: Record<string, AnyZ> };

function unwrap(s: AnyZ): { inner: AnyZ; optional: boolean } {
  let inner = s; let optional = false;
  while (inner._zod.def.type === 'optional' || inner._zod.def.type === 'default') { optional = true; inner = inner._zod.def.innerType as AnyZ; }
  return { inner, optional };
}

function checks(s: AnyZ): Record<string, any>[] {
  return ((s._zod.def.checks ?? []) as { _zod: { def: Record<string, any> } }[]).map((c) => c._zod.def);
}

function describe(key: string, schema: AnyZ): FieldSpec[] {
  const { inner, optional } = unwrap(schema);
  const def = inner._zod.def;
  const base = { key, required: !optional, unit: unitOf(key.split('.').pop()!) };
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
    case 'record': return [{ ...base, kind: 'composition' }];
    case 'array': {
      const len = checks(inner).find((c) => c.check === 'length_equals')?.length as number | undefined;
      if (key === 'components') return [{ ...base, kind: 'elements', exactLength: len }];
      if (/phases$/.test(key)) return [{ ...base, kind: 'phases' }];
      return [{ ...base, kind: 'strings' }];
    }
    case 'enum': return [{ ...base, kind: 'enum', options: Object.values(def.entries as Record<string, string>) }];
    case 'boolean': return [{ ...base, kind: 'boolean' }];
    case 'string': return [{ ...base, kind: key === 'x_component' ? 'component' : 'string' }];
    case 'object': return Object.entries(inner.shape ?? {}).flatMap(([k, v]) => describe(`${key}.${k}`, v as AnyZ))
      .map((f) => ({ ...f, required: f.required && !optional }));
    default: return [];
  }
}

export function conditionFields(t: OpenTaskType): FieldSpec[] {
  const cond = (TASK_CONFIG_SCHEMAS[t] as AnyZ).shape?.condition as AnyZ;
  return Object.entries(unwrap(cond).inner.shape ?? {}).flatMap(([k, v]) => describe(k, v as AnyZ));
}

/** Top-level optional objects of the schema other than condition/ui_metadata (binary_equilibrium.order_disorder). */
export function advancedFields(t: OpenTaskType): FieldSpec[] {
  const shape = (TASK_CONFIG_SCHEMAS[t] as AnyZ).shape ?? {};
  const skip = new Set(['task_type', 'tdb_code', 'task_path', 'tdb_file', 'condition', 'ui_metadata', 'activated_elements']);
  return Object.entries(shape).filter(([k]) => !skip.has(k)).flatMap(([k, v]) => describe(k, v as AnyZ));
}

/** Starting values for a fresh form: physically sensible inputs, never pretend results. */
export function defaultValue(f: FieldSpec, t: OpenTaskType): unknown {
  const last = f.key.split('.').pop()!;
  if (f.kind === 'enum') return f.required ? (last === 'pressure_scale' ? 'log' : f.options?.[0]) : undefined;
  if (f.kind === 'boolean' || f.kind === 'strings' || f.kind === 'string') return undefined;
  if (f.kind !== 'number' || !f.required) return undefined;
  const table: Record<string, number> = {
    temperature: 1000, start_temperature: 1000, temperature_start: t === 'binary_cpt_diagram' ? 400 : 300,
    temperature_end: 1500, temperature_step: t === 'binary_cpt_diagram' ? 20 : 1, pressure: 101_325,
    pressure_start: 1e5, pressure_end: 1e9, pressure_points: 5, points: 50,
    composition_start: 0, composition_end: 1, composition_step: 0.02,
  };
  return table[last];
}

export interface Issue { path: string; message: string }

/** Parse with the API's own schema and error map; paths are relative to task_config. */
export function validateConfig(t: OpenTaskType, cfg: Record<string, unknown>): Issue[] {
  const r = TASK_CONFIG_SCHEMAS[t].safeParse(cfg, { error: zodErrorMap as never });
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

export function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let o = obj;
  for (const p of parts.slice(0, -1)) {
    if (typeof o[p] !== 'object' || o[p] === null) o[p] = {};
    o = o[p] as Record<string, unknown>;
  }
  o[parts[parts.length - 1]!] = value;
}
