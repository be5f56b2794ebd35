// line_calculation: a scan in T and/or composition with every phase transition refined; as extensions, an element
// held at a chemical potential or activity along the line, or one phase held at an amount along a composition line
// (the temperature free: the liquidus, solidus or solvus curve of the line's compositions).
import { z } from 'zod';
import {
  common,
  compositionRule,
  fixedPhaseFields,
  fixedPhaseRule,
  outputElementsRule,
  pointsRule,
  potentialFields,
  potentialRuleFor,
  referenceStatesRule,
  scanFields,
} from './common.js';
export type { LineCalculationResult } from '../results/line_calculation.js';

const COMPOSITION_FIELDS = ['compositions_start', 'compositions_end'];

/**
 * A fixed phase leaves the temperature free, so the line varies the composition only: temperature_start (the start of
 * each point's search) must equal temperature_end.
 */
export function lineFixedPhaseRule(
  c: { fixed_phases?: Record<string, number>; temperature_start: number; temperature_end: number },
  ctx: z.RefinementCtx,
): void {
  if (Object.keys(c.fixed_phases ?? {}).length > 0 && c.temperature_start !== c.temperature_end)
    ctx.addIssue({
      code: 'custom',
      path: ['fixed_phases'],
      message:
        `cannot be combined with a temperature line (temperature_start ${c.temperature_start} K, temperature_end ` +
        `${c.temperature_end} K): the temperature is the free variable of a fixed phase; give temperature_start = ` +
        'temperature_end (where each point’s search starts) and vary the compositions',
    });
}

export const lineCondition = z
  .strictObject({ ...scanFields, ...potentialFields, ...fixedPhaseFields })
  .superRefine(pointsRule)
  .superRefine(outputElementsRule)
  .superRefine(potentialRuleFor(COMPOSITION_FIELDS))
  .superRefine(fixedPhaseRule)
  .superRefine(lineFixedPhaseRule)
  .superRefine(compositionRule(COMPOSITION_FIELDS))
  .superRefine(referenceStatesRule);

export const lineCalculationSchema = z.strictObject({
  task_type: z.literal('line_calculation'),
  ...common,
  condition: lineCondition,
});
