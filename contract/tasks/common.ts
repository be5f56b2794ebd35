// Building blocks of the task-configuration schemas (zod 4) shared by the task types in contract/tasks/: units
// and bounds, composition maps, scan points, output names, and the error map that turns zod issues into the
// 400 texts of POST /task ("task_config.condition.pressure: must be greater than 0"). Pure TypeScript.
import { isMassless } from '../phases.js';
import { z } from 'zod';
import { closeName } from '../nearest-name.js';
import { checkOutputElements, validateOutputs } from '../results/outputs/names.js';

export const GT0 = 'must be greater than 0';
export const kelvin = z.number().gt(0, GT0);
export const pressure = z.number().gt(0, GT0);
export const fraction = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');
export const components = z.array(z.string().min(1, 'must not be empty')).min(1, 'must contain at least 1 element');
export const composition = z.record(z.string(), fraction);
export const phases = z.array(z.string());
/**
 * condition.inhibit_phases: phase names, patterns (* and ?) and @groups (contract/phase-selection.ts); the
 * specification gives it to Scheil, this service to every task type. Absent: the database's recommended selection.
 */
export const inhibitEntries = z.array(z.string().min(1, 'must not be empty'));
export const phaseFields = { activated_phases: phases.optional(), inhibit_phases: inhibitEntries.optional() };
// Output names of the vocabulary in contract/results/outputs.ts; an unknown name is a 400 listing the known ones.
export const outputs = z.array(z.string()).superRefine((names, ctx) => {
  const err = validateOutputs(names);
  if (err) ctx.addIssue({ code: 'custom', message: err });
});
/** Element arguments of the outputs (x(EL), mu(EL), ...) must be components of the condition. */
export function outputElementsRule(
  c: { components: string[]; thermo_outputs?: string[]; outputs_list_template?: string[] },
  ctx: z.RefinementCtx,
) {
  for (const field of ['outputs_list_template', 'thermo_outputs'] as const) {
    const err = checkOutputElements(c[field] ?? [], c.components);
    if (err) ctx.addIssue({ code: 'custom', path: [field], message: err });
  }
}

export const common = {
  tdb_code: z.string().min(1, 'must not be empty'),
  task_path: z.string().optional(),
  // Legacy field; the client's path itself is never used (the server substitutes its own file).
  tdb_file: z.string().optional(),
  // The unit of the temperature axes and temperatures in the previews (SVG/PNG); data stay in kelvin
  // (docs/calculations.md "Preview temperatures").
  preview_temperature_unit: z.enum(['kelvin', 'celsius'], 'must be one of: kelvin, celsius').optional(),
  // A database of mobility data read beside the task's (docs/calculations.md "Mobilities and diffusivities"), by code
  // as tdb_code; the server substitutes its file as mobility_tdb_file (a client's path is never used).
  mobility_tdb_code: z.string().min(1, 'must not be empty').optional(),
  mobility_tdb_file: z.string().optional(),
};

/** The two composition maps give the same fraction of every key. */
export function sameComposition(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (a[k] !== b[k]) return false;
  return true;
}

/** Spec "Scan points": positive integer; at least 2 when a variable's range changes, 1 when nothing changes. */
export function pointsRule(
  c: {
    points: number;
    temperature_start: number;
    temperature_end: number;
    compositions_start: Record<string, number>;
    compositions_end: Record<string, number>;
  },
  ctx: z.RefinementCtx,
) {
  const changes =
    c.temperature_start !== c.temperature_end || !sameComposition(c.compositions_start, c.compositions_end);
  if (changes && c.points < 2) {
    ctx.addIssue({ code: 'custom', path: ['points'], message: "must be at least 2 when a variable's range changes" });
  }
  if (!changes && c.points > 1) {
    ctx.addIssue({
      code: 'custom',
      path: ['temperature_end'],
      message: `equals temperature_start and compositions_end equals compositions_start: nothing changes along the ${c.points} points (change a range or set points to 1)`,
    });
  }
}

/** Tolerance of "the mole fractions sum to 1", the same as the worker's (worker/calculations/point_calculation.ts). */
export const COMPOSITION_SUM_TOLERANCE = 1e-6;
const isElement = (c: string) => !isMassless(c);

/** What is wrong with one composition map, if anything: the key (absent: the whole map) and the message. */
export interface CompositionProblem {
  key?: string;
  message: string;
}

/**
 * The check of one composition map against the elements (upper case, no VA): keys are elements, and the map gives
 * every element (summing to 1) or every element but one (summing to at most 1). `fractions` names the unit in the
 * messages ("mole fractions"); `partial`: fewer may be given. Returns the problem, or the element left out
 * (`leftOut`, absent when every element is given).
 */
export function compositionProblem(
  elements: readonly string[],
  map: Record<string, number>,
  fractions: string,
  partial = false,
): { problem: CompositionProblem } | { leftOut?: string } {
  const given = new Map<string, number>();
  for (const [k, v] of Object.entries(map)) {
    const el = k.toUpperCase();
    if (el === 'VA') continue;
    if (!elements.includes(el))
      return { problem: { key: k, message: `is not one of condition.components (${elements.join(', ')})` } };
    given.set(el, v);
  }
  if (elements.length < 2) return {};
  const missing = elements.filter((e) => !given.has(e));
  const sum = Number([...given.values()].reduce((a, b) => a + b, 0).toPrecision(12));
  if (missing.length > 1 && !partial)
    return {
      problem: {
        message: `must give the ${fractions} of all components or of all but one (missing ${missing.join(', ')})`,
      },
    };
  if (missing.length === 0 && Math.abs(sum - 1) > COMPOSITION_SUM_TOLERANCE)
    return { problem: { message: `${fractions} of all components must sum to 1 (they sum to ${sum})` } };
  if (missing.length > 0 && sum > 1 + COMPOSITION_SUM_TOLERANCE)
    return {
      problem: {
        message: `${fractions} must sum to at most 1 when ${missing.join(', ')} is left out (they sum to ${sum})`,
      },
    };
  return missing.length === 1 && !partial ? { leftOut: missing[0]! } : {};
}

/** The elements of condition.components: upper case, without VA and the electron, each once. */
export function conditionElements(components: readonly string[]): string[] {
  return [...new Set(components.map((e) => e.toUpperCase()).filter(isElement))];
}

/**
 * The composition maps the worker accepts (resolveCompositions in worker/system/system.ts): each map passes
 * compositionProblem, the maps of a scan leaving out the same element. `partial`: binary_equilibrium may give fewer
 * (its x component is the one given).
 */
export function compositionRule(fields: string[], partial = false) {
  return (c: Record<string, unknown>, ctx: z.RefinementCtx) => {
    // an element held at a chemical potential or activity has no mole fraction condition (potentialFields)
    const byPotential = new Set(potentialElements(c));
    const elements = conditionElements(c.components as string[]).filter((e) => !byPotential.has(e));
    const leftOut = new Set<string>();
    const fractions = c.composition_unit === 'mass_fraction' ? 'mass fractions' : 'mole fractions';
    for (const field of fields) {
      const r = compositionProblem(elements, c[field] as Record<string, number>, fractions, partial);
      if ('problem' in r) {
        const path = r.problem.key === undefined ? [field] : [field, r.problem.key];
        ctx.addIssue({ code: 'custom', path, message: r.problem.message });
        return;
      }
      if (r.leftOut) leftOut.add(r.leftOut);
    }
    if (leftOut.size > 1) {
      ctx.addIssue({
        code: 'custom',
        path: [fields[fields.length - 1]!],
        message: `${fields.join(' and ')} leave out different components (${[...leftOut].join(', ')}): leave out the same one`,
      });
    }
  };
}

// Optional fields of point, line, properties and Scheil conditions (docs/calculations.md "Composition units",
// "Further quantities"): the unit of the composition maps, and the reference state of each element
// ({EL: PHASE or "SER"}) for mur/acr/GM_formation.
export const compositionUnit = z
  .enum(['mole_fraction', 'mass_fraction'], 'must be one of: mole_fraction, mass_fraction')
  .optional();
export const furtherFields = {
  composition_unit: compositionUnit,
  reference_states: z.record(z.string(), z.string().min(1, 'must name a phase or SER')).optional(),
};
/** The keys of reference_states must be components of the condition. */
export function referenceStatesRule(
  c: { components: string[]; reference_states?: Record<string, string> },
  ctx: z.RefinementCtx,
) {
  const els = c.components.map((e) => e.toUpperCase()).filter(isElement);
  for (const k of Object.keys(c.reference_states ?? {})) {
    if (!els.includes(k.toUpperCase()))
      ctx.addIssue({
        code: 'custom',
        path: ['reference_states', k],
        message: `is not one of condition.components (${els.join(', ')})`,
      });
  }
}

/**
 * Open-system conditions of a point (an extension): an element held at a chemical potential (J/mol, referred to the
 * database's SER) or at an activity (relative to its reference state, reference_states) instead of a mole fraction,
 * e.g. the carbon activity of a carburising atmosphere. Its mole fraction is then a result.
 */
export const potentialFields = {
  chemical_potentials: z
    .record(z.string(), z.number().min(-1e7, 'must be at least -1e7 J/mol').max(1e7, 'must be at most 1e7 J/mol'))
    .optional(),
  activities: z.record(z.string(), z.number().gt(0, GT0).max(1e6, 'must be at most 1e6')).optional(),
};

/** A phase at an amount with the temperature free (fixedPhaseRule). */
/** A diffusivity D = D0 exp(-Q/RT) given in the configuration instead of the database's mobility data. */
export const arrheniusDiffusivity = z.strictObject({
  D0: z.number().gt(0, GT0).describe('m^2/s: the pre-exponential factor of D = D0 exp(-Q/RT)'),
  Q: z.number().gt(0, GT0).describe('J/mol: the activation energy'),
});
export const fixedPhaseFields = { fixed_phases: z.record(z.string(), fraction).optional() };

/**
 * condition.fixed_phases (an extension of point calculations and batches): one phase at an amount (fraction of the
 * atoms, 0..1) with the temperature left free, the condition's (or the row's) temperature the start of the search
 * (worker/scans/fixed-phase.ts); at a fixed composition, so not with chemical potentials or activities.
 */
export function fixedPhaseRule(
  c: { fixed_phases?: Record<string, number> } & Record<string, unknown>,
  ctx: z.RefinementCtx,
) {
  const keys = Object.keys(c.fixed_phases ?? {});
  if (keys.length > 1)
    ctx.addIssue({
      code: 'custom',
      path: ['fixed_phases'],
      message: `must hold one phase (the temperature is the one free condition), not ${keys.length}`,
    });
  else if (keys.length === 1 && (c.chemical_potentials || c.activities))
    ctx.addIssue({
      code: 'custom',
      path: ['fixed_phases'],
      message: 'cannot be combined with chemical_potentials or activities (the composition must be fixed)',
    });
}

/** The elements a condition holds at a chemical potential or activity (upper case). */
export function potentialElements(c: Record<string, unknown>): string[] {
  const keys = (field: string) => Object.keys((c[field] as Record<string, number> | undefined) ?? {});
  return [...keys('chemical_potentials'), ...keys('activities')].map((k) => k.toUpperCase());
}

/**
 * chemical_potentials and activities name components, each element at most once among them and the composition maps
 * (`compositionFields`: compositions of a point, compositions_start and compositions_end of a line), in mole
 * fractions, and leave at least one element without a potential (the amount of matter is fixed by the others).
 */
export function potentialRuleFor(compositionFields: readonly string[]) {
  return (c: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    const elements = conditionElements((c.components as string[] | undefined) ?? []);
    const keysOf = (field: string) => Object.keys((c[field] as Record<string, number> | undefined) ?? {});
    const held = new Map<string, { field: string; key: string }>();
    for (const field of ['chemical_potentials', 'activities'])
      for (const k of keysOf(field)) {
        const el = k.toUpperCase();
        const before = held.get(el);
        const message = !elements.includes(el)
          ? `is not one of condition.components (${elements.join(', ')})`
          : before
            ? `${el} is also given in ${before.field}: give one condition per element`
            : undefined;
        if (message) return void ctx.addIssue({ code: 'custom', path: [field, k], message });
        held.set(el, { field, key: k });
      }
    for (const field of compositionFields)
      for (const k of keysOf(field)) {
        const by = held.get(k.toUpperCase());
        if (by)
          return void ctx.addIssue({
            code: 'custom',
            path: [by.field, by.key],
            message: `${k.toUpperCase()} is also given in ${field}: give one condition per element`,
          });
      }
    heldElementsRule(c, elements, ctx);
  };
}
export const potentialRule = potentialRuleFor(['compositions']);

/** Held elements need mole fractions and at least one free element. */
function heldElementsRule(c: Record<string, unknown>, elements: string[], ctx: z.RefinementCtx): void {
  const held = potentialElements(c);
  if (held.length === 0) return;
  if (c.composition_unit === 'mass_fraction')
    ctx.addIssue({
      code: 'custom',
      path: ['composition_unit'],
      message:
        'must be mole_fraction with chemical_potentials or activities (the mass of the held elements is a result)',
    });
  else if (elements.every((e) => held.includes(e)))
    ctx.addIssue({
      code: 'custom',
      path: ['chemical_potentials'],
      message: 'must leave at least one component without a chemical potential or activity',
    });
}

export const scanPoints = z.number().int('must be an integer').gt(0, 'must be a positive integer');

/**
 * "unknown key inhibit_phase (did you mean inhibit_phases?)": the keys an object does not define, each with the
 * known key it is close to, or the known keys when one is close to none (a misspelled optional field would
 * otherwise be ignored and the calculation run without it).
 */
export function unknownKeysText(keys: readonly string[], known: readonly string[]): string {
  const named = keys.map((k) => {
    const near = closeName(k, known);
    return { text: near ? `${k} (did you mean ${near}?)` : k, near };
  });
  const list = named.map((n) => n.text).join(', ');
  const noneClose = named.some((n) => n.near === undefined);
  return `unknown key${keys.length > 1 ? 's' : ''} ${list}${noneClose ? `; known keys: ${known.join(', ')}` : ''}`;
}

/** The keys a zod object schema defines (the schema zod hands to the error map as `inst`). */
function shapeKeys(inst: unknown): string[] {
  const shape = (inst as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def?.shape;
  return shape ? Object.keys(shape) : [];
}

/**
 * Error map for a parse: missing fields read "is required", wrong types "must be a <type>", keys a strict object
 * does not define "unknown key ... (did you mean ...?)".
 */
export function zodErrorMap(iss: {
  code: string;
  input?: unknown;
  expected?: unknown;
  message?: string;
  values?: unknown[];
  keys?: string[];
  inst?: unknown;
}): string | undefined {
  if (iss.code === 'invalid_type') {
    if (iss.input === undefined) return 'is required';
    const expected = iss.expected === 'record' ? 'object' : String(iss.expected);
    return `must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}`;
  }
  if (iss.code === 'invalid_value' && Array.isArray(iss.values)) {
    return `must be one of: ${iss.values.map(String).join(', ')}`;
  }
  if (iss.code === 'unrecognized_keys') return unknownKeysText(iss.keys ?? [], shapeKeys(iss.inst));
  return undefined;
}

/**
 * The issue a 400 names as "<prefix>.<path>: <message>": an unknown key first (a misspelled field also makes the
 * field it meant "is required", and the misspelling is the cause), else the first issue.
 */
export function formatZodError(err: z.ZodError, prefix: string): string {
  const iss = err.issues.find((i) => i.code === 'unrecognized_keys') ?? err.issues[0];
  if (!iss) return `${prefix}: invalid`;
  const path = [prefix, ...iss.path.map(String)].filter((s) => s.length > 0).join('.');
  return `${path}: ${iss.message}`;
}

/** Fields of a scan in T and/or composition (line_calculation, thermodynamic_properties_next). */
export const scanFields = {
  components,
  compositions_start: composition,
  compositions_end: composition,
  temperature_start: kelvin,
  temperature_end: kelvin,
  pressure,
  points: scanPoints,
  ...phaseFields,
  thermo_outputs: outputs.optional(),
  outputs_list_template: outputs.optional(),
  ...furtherFields,
};

/** Condition of a scan in T and/or composition (thermodynamic_properties_next). */
export const scanCondition = z
  .strictObject(scanFields)
  .superRefine(pointsRule)
  .superRefine(outputElementsRule)
  .superRefine(compositionRule(['compositions_start', 'compositions_end']))
  .superRefine(referenceStatesRule);
