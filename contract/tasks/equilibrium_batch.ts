// equilibrium_batch (extension): many global equilibria in one task, one row each, the rows given as a list (each
// its own composition, temperature and pressure), as a product (compositions x temperatures) or as CSV text. Every
// row's composition is checked here as a point calculation's is, so a bad row is a 400 naming it before anything
// runs; a row that does not converge is a row of the result, never a failed task.
import { z } from 'zod';
import {
  common,
  components,
  composition,
  compositionProblem,
  compositionUnit,
  conditionElements,
  fixedPhaseFields,
  fixedPhaseRule,
  furtherFields,
  kelvin,
  outputElementsRule,
  outputs,
  phaseFields,
  potentialElements,
  potentialFields,
  potentialRule,
  pressure,
  referenceStatesRule,
} from './common.js';
import { BatchInputError, batchRows, TABLE_UNITS, type BatchSourceCondition } from './batch-rows.js';
export type { EquilibriumBatchResult } from '../results/equilibrium_batch.js';

const label = z.string().max(200, 'must be at most 200 characters');
const nonEmpty = 'must hold at least 1 entry';

const batchRow = z.strictObject({
  compositions: composition,
  temperature: kelvin,
  pressure: pressure.optional(),
  label: label.optional(),
});

const product = z.strictObject({
  compositions: z.array(composition).min(1, nonEmpty),
  temperatures: z.array(kelvin).min(1, nonEmpty),
  labels: z.array(label).optional(),
});

const table = z.strictObject({
  csv: z.string().min(1, 'must not be empty'),
  unit: z.enum(TABLE_UNITS, `must be one of: ${TABLE_UNITS.join(', ')}`).optional(),
  temperatures: z.array(kelvin).min(1, nonEmpty).optional(),
});

const SOURCES = ['rows', 'product', 'table'] as const;

/** Exactly one of rows, product and table. */
function oneSourceRule(c: Record<string, unknown>, ctx: z.RefinementCtx) {
  const given = SOURCES.filter((k) => c[k] !== undefined);
  if (given.length !== 1)
    ctx.addIssue({
      code: 'custom',
      path: given.length ? [given[1]!] : [],
      message:
        given.length === 0
          ? 'give the rows as one of: rows, product, table'
          : `give the rows as one of rows, product and table, not ${given.join(' and ')}`,
    });
}

/**
 * The condition the rows are read from: the elements held at a chemical potential or activity have no fraction in
 * the rows (their columns and keys are refused like any other non-component's).
 */
export function rowsCondition<C extends BatchSourceCondition>(c: C, held: string[]): C {
  return held.length ? { ...c, components: c.components.filter((e) => !held.includes(e.toUpperCase())) } : c;
}

/** Every composition of rows and product passes the point calculation's check; a table is read whole. */
function rowsRule(c: BatchSourceCondition, ctx: z.RefinementCtx) {
  const held = potentialElements(c as unknown as Record<string, unknown>);
  if (held.length && c.table?.unit?.startsWith('mass'))
    ctx.addIssue({
      code: 'custom',
      path: ['table', 'unit'],
      message:
        'must be mole_fraction or mole_percent with chemical_potentials or activities (the mass of the held elements is a result)',
    });
  c = rowsCondition(c, held);
  const elements = conditionElements(c.components);
  const fractions = c.composition_unit === 'mass_fraction' ? 'mass fractions' : 'mole fractions';
  const maps: [(string | number)[], Record<string, number>][] = [
    ...(c.rows ?? []).map((r, i): [(string | number)[], Record<string, number>] => [
      ['rows', i, 'compositions'],
      r.compositions,
    ]),
    ...(c.product?.compositions ?? []).map((m, i): [(string | number)[], Record<string, number>] => [
      ['product', 'compositions', i],
      m,
    ]),
  ];
  for (const [path, map] of maps) {
    const r = compositionProblem(elements, map, fractions);
    if ('problem' in r) {
      ctx.addIssue({
        code: 'custom',
        path: r.problem.key ? [...path, r.problem.key] : path,
        message: r.problem.message,
      });
      return;
    }
  }
  if (c.product?.labels && c.product.labels.length !== c.product.compositions.length)
    ctx.addIssue({
      code: 'custom',
      path: ['product', 'labels'],
      message: `must hold one label per composition (${c.product.compositions.length})`,
    });
  if (!c.table) return;
  try {
    for (const _ of batchRows(c));
  } catch (e) {
    if (!(e instanceof BatchInputError)) throw e;
    ctx.addIssue({ code: 'custom', path: e.path, message: e.message });
  }
}

export const equilibriumBatchSchema = z.strictObject({
  task_type: z.literal('equilibrium_batch'),
  ...common,
  condition: z
    .strictObject({
      components,
      ...phaseFields,
      pressure,
      rows: z.array(batchRow).min(1, nonEmpty).optional(),
      product: product.optional(),
      table: table.optional(),
      thermo_outputs: outputs.optional(),
      outputs_list_template: outputs.optional(),
      composition_unit: compositionUnit,
      reference_states: furtherFields.reference_states,
      ...potentialFields,
      ...fixedPhaseFields,
    })
    .superRefine(oneSourceRule)
    .superRefine(fixedPhaseRule)
    .superRefine(outputElementsRule)
    .superRefine(referenceStatesRule)
    .superRefine(potentialRule)
    .superRefine(rowsRule),
});
