// Per-task-type zod schemas for task_config, one per open task type of the spec
// (shared/spec/service-spec.md, "task_config"). Shared with the worker and the future renderer.
import { z } from 'zod';
import { checkOutputElements, validateOutputs } from '../../worker/results/outputs.js';

export const OPEN_TASK_TYPES = [
  'point_calculation', 'line_calculation', 'binary_equilibrium',
  'thermodynamic_properties_next', 'scheil_solidification', 'binary_cpt_diagram',
  'gibbs_energy_curves',
] as const;
export type OpenTaskType = (typeof OPEN_TASK_TYPES)[number];

export const ANNOUNCED_TASK_TYPES = [
  'physical_vapor_deposition', 'cutting_process', 'spinodal_decomposition', 'solidification',
  'solution_treatment', 'aging', 'directional_solidification',
] as const;

/** Test-only calculation types, reachable only when PHASEDESK_TEST_CALCULATIONS=1. */
export const TEST_TASK_TYPES = ['__test_sleep', '__test_crash', '__test_throw', '__test_write', '__test_heap'] as const;
export function testCalculationsEnabled(): boolean { return process.env.PHASEDESK_TEST_CALCULATIONS === '1'; }

const GT0 = 'must be greater than 0';
const kelvin = z.number().gt(0, GT0);
const pressure = z.number().gt(0, GT0);
const fraction = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');
const components = z.array(z.string().min(1, 'must not be empty')).min(1, 'must contain at least 1 element');
const composition = z.record(z.string(), fraction);
const phases = z.array(z.string());
// Output names of the vocabulary in worker/results/outputs.ts; an unknown name is a 400 listing the known ones.
const outputs = z.array(z.string()).superRefine((names, ctx) => {
  const err = validateOutputs(names);
  if (err) ctx.addIssue({ code: 'custom', message: err });
});
/** Element arguments of the outputs (x(EL), mu(EL), ...) must be components of the condition. */
function outputElementsRule(c: { components: string[]; thermo_outputs?: string[]; outputs_list_template?: string[] }, ctx: z.RefinementCtx) {
  for (const field of ['outputs_list_template', 'thermo_outputs'] as const) {
    const err = checkOutputElements(c[field] ?? [], c.components);
    if (err) ctx.addIssue({ code: 'custom', path: [field], message: err });
  }
}

const common = {
  tdb_code: z.string().min(1, 'must not be empty'),
  task_path: z.string().optional(),
  // Legacy field; the client's path itself is never used (the server substitutes its own file).
  tdb_file: z.string().optional(),
};

function sameComposition(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (a[k] !== b[k]) return false;
  return true;
}

/** Spec "Scan points": positive integer; at least 2 when a variable's range changes, 1 when nothing changes. */
function pointsRule(c: { points: number; temperature_start: number; temperature_end: number;
  compositions_start: Record<string, number>; compositions_end: Record<string, number> }, ctx: z.RefinementCtx) {
  const changes = c.temperature_start !== c.temperature_end || !sameComposition(c.compositions_start, c.compositions_end);
  if (changes && c.points < 2) {
    ctx.addIssue({ code: 'custom', path: ['points'], message: 'must be at least 2 when a variable\'s range changes' });
  }
  if (!changes && c.points > 1) {
    ctx.addIssue({ code: 'custom', path: ['temperature_end'],
      message: `equals temperature_start and compositions_end equals compositions_start: nothing changes along the ${c.points} points (change a range or set points to 1)` });
  }
}

/** Tolerance of "the mole fractions sum to 1", the same as the worker's (worker/calculations/point_calculation.ts). */
const COMPOSITION_SUM_TOLERANCE = 1e-6;
const isElement = (c: string) => c !== 'VA' && c !== '/-';

/**
 * The composition maps the worker accepts (resolveCompositions in worker/calculations/point_calculation.ts):
 * keys are components, and a map gives every element (summing to 1) or every element but one (summing to at most
 * 1), the maps of a scan leaving out the same one. `partial`: binary_equilibrium may give fewer (its x component
 * is the one given).
 */
function compositionRule(fields: string[], partial = false) {
  return (c: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const elements = [...new Set((c.components as string[]).map((e) => e.toUpperCase()).filter(isElement))];
    const leftOut = new Set<string>();
    const fractions = c.composition_unit === 'mass_fraction' ? 'mass fractions' : 'mole fractions';
    for (const field of fields) {
      const map = c[field] as Record<string, number>;
      const given = new Map<string, number>();
      for (const [k, v] of Object.entries(map)) {
        const el = k.toUpperCase();
        if (el === 'VA') continue;
        if (!elements.includes(el)) {
          ctx.addIssue({ code: 'custom', path: [field, k], message: `is not one of condition.components (${elements.join(', ')})` });
          return;
        }
        given.set(el, v);
      }
      if (elements.length < 2) continue;
      const missing = elements.filter((e) => !given.has(e));
      const sum = Number([...given.values()].reduce((a, b) => a + b, 0).toPrecision(12));
      if (missing.length > 1 && !partial) {
        ctx.addIssue({ code: 'custom', path: [field], message: `must give the ${fractions} of all components or of all but one (missing ${missing.join(', ')})` });
        return;
      }
      if (missing.length === 0 && Math.abs(sum - 1) > COMPOSITION_SUM_TOLERANCE) {
        ctx.addIssue({ code: 'custom', path: [field], message: `${fractions} of all components must sum to 1 (they sum to ${sum})` });
        return;
      }
      if (missing.length > 0 && sum > 1 + COMPOSITION_SUM_TOLERANCE) {
        ctx.addIssue({ code: 'custom', path: [field], message: `${fractions} must sum to at most 1 when ${missing.join(', ')} is left out (they sum to ${sum})` });
        return;
      }
      if (missing.length === 1 && !partial) leftOut.add(missing[0]!);
    }
    if (leftOut.size > 1) {
      ctx.addIssue({ code: 'custom', path: [fields[fields.length - 1]!], message: `${fields.join(' and ')} leave out different components (${[...leftOut].join(', ')}): leave out the same one` });
    }
  };
}

const points = z.number().int('must be an integer').gt(0, 'must be a positive integer');

// Optional fields of point, line, properties and Scheil conditions (docs/calculations.md "Composition units",
// "Further quantities"): the unit of the composition maps, and the reference state of each element
// ({EL: PHASE or "SER"}) for mur/acr/GM_formation.
const furtherFields = {
  composition_unit: z.enum(['mole_fraction', 'mass_fraction'], 'must be one of: mole_fraction, mass_fraction').optional(),
  reference_states: z.record(z.string(), z.string().min(1, 'must name a phase or SER')).optional(),
};
function referenceStatesRule(c: { components: string[]; reference_states?: Record<string, string> }, ctx: z.RefinementCtx) {
  const els = c.components.map((e) => e.toUpperCase()).filter(isElement);
  for (const k of Object.keys(c.reference_states ?? {})) {
    if (!els.includes(k.toUpperCase())) ctx.addIssue({ code: 'custom', path: ['reference_states', k], message: `is not one of condition.components (${els.join(', ')})` });
  }
}

export const pointCalculationSchema = z.looseObject({
  task_type: z.literal('point_calculation'), ...common,
  condition: z.looseObject({
    components, activated_phases: phases.optional(), temperature: kelvin, pressure,
    compositions: composition, thermo_outputs: outputs.optional(), outputs_list_template: outputs.optional(), ...furtherFields,
  }).superRefine(outputElementsRule).superRefine(compositionRule(['compositions'])).superRefine(referenceStatesRule),
});

const scanCondition = z.looseObject({
  components, compositions_start: composition, compositions_end: composition,
  temperature_start: kelvin, temperature_end: kelvin, pressure, points,
  activated_phases: phases.optional(), thermo_outputs: outputs.optional(), outputs_list_template: outputs.optional(), ...furtherFields,
}).superRefine(pointsRule).superRefine(outputElementsRule).superRefine(compositionRule(['compositions_start', 'compositions_end']))
  .superRefine(referenceStatesRule);

export const lineCalculationSchema = z.looseObject({
  task_type: z.literal('line_calculation'), ...common, condition: scanCondition,
});

export const thermodynamicPropertiesSchema = z.looseObject({
  task_type: z.literal('thermodynamic_properties_next'), ...common, condition: scanCondition,
});

// Strict: an unknown option key is refused with a 400 naming it (issue 6), not silently ignored.
export const orderDisorderSchema = z.strictObject({
  enabled: z.boolean().optional(),
  trace_boundaries: z.boolean().optional(),
  stability_filter: z.boolean().optional(),
  plot_boundaries: z.boolean().optional(),
  phase_scope: z.enum(['order_disorder', 'all'], 'must be one of: order_disorder, all').optional(),
  trace_method: z.literal('branch_continuation', 'only branch_continuation is supported').optional(),
});

export const binaryEquilibriumSchema = z.looseObject({
  task_type: z.literal('binary_equilibrium'), ...common,
  activated_elements: z.array(z.string()).optional(),
  order_disorder: orderDisorderSchema.optional(),
  condition: z.looseObject({
    components: z.array(z.string().min(1)).length(2, 'must hold exactly 2 components'),
    compositions_start: composition, compositions_end: composition,
    temperature_start: kelvin, temperature_end: kelvin, pressure, activated_phases: phases.optional(),
  }).superRefine(compositionRule(['compositions_start', 'compositions_end'], true)).superRefine((c, ctx) => {
    if (c.temperature_start === c.temperature_end) ctx.addIssue({ code: 'custom', path: ['temperature_end'], message: 'must differ from temperature_start' });
  }),
}).superRefine((v, ctx) => {
  if (v.activated_elements === undefined) return;
  const a = [...v.activated_elements].sort();
  const c = [...v.condition.components].sort();
  if (a.length !== 2 || a.join('\u0000') !== c.join('\u0000')) {
    ctx.addIssue({ code: 'custom', path: ['activated_elements'], message: 'must equal condition.components and hold 2 elements' });
  }
});

export const scheilSchema = z.looseObject({
  task_type: z.literal('scheil_solidification'), ...common,
  condition: z.looseObject({
    components, compositions: composition, start_temperature: kelvin,
    temperature_step: z.number().gt(0, GT0), pressure,
    activated_phases: phases.optional(), inhibit_phases: phases.optional(), composition_unit: furtherFields.composition_unit,
  }).superRefine(compositionRule(['compositions'])),
});

const axis = z.strictObject({
  variable: z.enum(['composition', 'temperature', 'pressure'], 'must be one of: composition, temperature, pressure'),
  component: z.string().min(1).optional(),
}).superRefine((a, ctx) => {
  if (a.variable === 'composition' && !a.component) {
    ctx.addIssue({ code: 'custom', path: ['component'], message: 'is required for a composition axis' });
  }
});

export const binaryCptSchema = z.looseObject({
  task_type: z.literal('binary_cpt_diagram'), ...common,
  condition: z.looseObject({
    components: z.array(z.string().min(1)).length(2, 'must hold exactly 2 components'),
    activated_phases: phases.optional(),
    x_component: z.string().min(1),
    composition_start: fraction, composition_end: fraction, composition_step: z.number().gt(0, GT0),
    temperature_start: kelvin, temperature_end: kelvin, temperature_step: z.number().gt(0, GT0),
    pressure_start: pressure, pressure_end: pressure,
    pressure_points: z.number().int('must be an integer').min(2, 'must be at least 2'),
    pressure_scale: z.enum(['linear', 'log'], 'must be one of: linear, log'),
    include_tielines: z.boolean().optional(),
    tieline_stride: z.number().gt(0, GT0).optional(),
    map_options: z.looseObject({ GLOBAL_MIN_PDENS: z.number().gt(0, GT0).optional() }).optional(),
  }).superRefine((c, ctx) => {
    if (!(c.composition_end > c.composition_start)) ctx.addIssue({ code: 'custom', path: ['composition_end'], message: 'must be greater than composition_start' });
    if (!(c.temperature_end > c.temperature_start)) ctx.addIssue({ code: 'custom', path: ['temperature_end'], message: 'must be greater than temperature_start' });
    if (!(c.pressure_end > c.pressure_start)) ctx.addIssue({ code: 'custom', path: ['pressure_end'], message: 'must be greater than pressure_start' });
    if (!c.components.includes(c.x_component)) ctx.addIssue({ code: 'custom', path: ['x_component'], message: 'must be one of condition.components' });
  }),
  ui_metadata: z.looseObject({
    module: z.string().optional(),
    backend_task_type: z.string().optional(),
    axis_config: z.strictObject({ x: axis, y: axis, z: axis }).optional(),
  }).optional(),
}).superRefine((v, ctx) => {
  // The viewer maps each axis to one variable: the three must differ, and a composition axis names a component.
  const ac = v.ui_metadata?.axis_config;
  if (!ac) return;
  const seen = new Map<string, string>();
  for (const k of ['x', 'y', 'z'] as const) {
    const a = ac[k];
    const path = ['ui_metadata', 'axis_config', k];
    const prev = seen.get(a.variable);
    if (prev) ctx.addIssue({ code: 'custom', path: [...path, 'variable'], message: `must differ from axis_config.${prev}.variable` });
    seen.set(a.variable, k);
    if (a.variable === 'composition' && a.component && !v.condition.components.map((c) => c.toUpperCase()).includes(a.component.toUpperCase())) {
      ctx.addIssue({ code: 'custom', path: [...path, 'component'], message: 'must be one of condition.components' });
    }
  }
});

// gibbs_energy_curves (extension of the spec's task types, README "Calculations"): GM of every phase alone along a
// composition line at fixed T and P, with the stable common tangents (worker/calculations/gibbs_energy_curves.ts).
export const gibbsEnergyCurvesSchema = z.looseObject({
  task_type: z.literal('gibbs_energy_curves'), ...common,
  condition: z.looseObject({
    components: components.min(2, 'must contain at least 2 elements'), temperature: kelvin, pressure,
    compositions_start: composition, compositions_end: composition,
    points: points.min(2, 'must be at least 2').max(5001, 'must be at most 5001').optional(),
    activated_phases: phases.optional(), ...furtherFields,
  }).superRefine(compositionRule(['compositions_start', 'compositions_end'])).superRefine(referenceStatesRule).superRefine((c, ctx) => {
    if (sameComposition(c.compositions_start, c.compositions_end)) {
      ctx.addIssue({ code: 'custom', path: ['compositions_end'], message: 'must differ from compositions_start (the curves run along the line between them)' });
    }
  }),
});

/** Loose schema for the env-gated test calculations (never reachable in normal runs). */
export const testCalculationSchema = z.looseObject({
  task_type: z.enum(TEST_TASK_TYPES), ...common,
  seconds: z.number().optional(),
});

export const TASK_CONFIG_SCHEMAS: Record<OpenTaskType, z.ZodType> = {
  point_calculation: pointCalculationSchema,
  line_calculation: lineCalculationSchema,
  binary_equilibrium: binaryEquilibriumSchema,
  thermodynamic_properties_next: thermodynamicPropertiesSchema,
  scheil_solidification: scheilSchema,
  binary_cpt_diagram: binaryCptSchema,
  gibbs_energy_curves: gibbsEnergyCurvesSchema,
};

/** Error map for a parse: missing fields read "is required", wrong types "must be a <type>". */
export function zodErrorMap(iss: { code: string; input?: unknown; expected?: unknown; message?: string; values?: unknown[] }): string | undefined {
  if (iss.code === 'invalid_type') {
    if (iss.input === undefined) return 'is required';
    const expected = iss.expected === 'record' ? 'object' : String(iss.expected);
    return `must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}`;
  }
  if (iss.code === 'invalid_value' && Array.isArray(iss.values)) {
    return `must be one of: ${iss.values.map(String).join(', ')}`;
  }
  if (iss.code === 'unrecognized_keys') return iss.message;
  return undefined;
}

/** First issue of a failed parse as "<prefix>.<path>: <message>". */
export function formatZodError(err: z.ZodError, prefix: string): string {
  const iss = err.issues[0];
  if (!iss) return `${prefix}: invalid`;
  const path = [prefix, ...iss.path.map(String)].filter((s) => s.length > 0).join('.');
  return `${path}: ${iss.message}`;
}

export type ValidationResult = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** Validate a task_config whose task_type is already known to be open (or test-enabled). */
export function validateTaskConfig(taskType: string, cfg: unknown): ValidationResult {
  let schema: z.ZodType | undefined = (TASK_CONFIG_SCHEMAS as Record<string, z.ZodType>)[taskType];
  if (!schema && testCalculationsEnabled() && (TEST_TASK_TYPES as readonly string[]).includes(taskType)) schema = testCalculationSchema;
  if (!schema) return { ok: false, error: `task_config.task_type: unsupported task type '${taskType}'` };
  const r = schema.safeParse(cfg, { error: zodErrorMap as never });
  if (!r.success) return { ok: false, error: formatZodError(r.error, 'task_config') };
  return { ok: true, value: r.data as Record<string, unknown> };
}

export function isRunnableTaskType(t: string): boolean {
  return (OPEN_TASK_TYPES as readonly string[]).includes(t)
    || (testCalculationsEnabled() && (TEST_TASK_TYPES as readonly string[]).includes(t));
}
