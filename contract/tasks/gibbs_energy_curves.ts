// gibbs_energy_curves (extension of the spec's task types, README "Calculations"): GM of every phase alone along a
// composition line at fixed T and P, with the stable common tangents (worker/calculations/gibbs_energy_curves.ts).
import { z } from 'zod';
import {
  common,
  components,
  composition,
  compositionRule,
  furtherFields,
  kelvin,
  phaseFields,
  pressure,
  referenceStatesRule,
  sameComposition,
  scanPoints,
} from './common.js';
export type { GibbsEnergyCurvesDocument } from '../results/gibbs_energy_curves.js';

/** Points along the line when the configuration names none. */
export const GIBBS_CURVES_DEFAULT_POINTS = 101;

export const gibbsEnergyCurvesSchema = z.strictObject({
  task_type: z.literal('gibbs_energy_curves'),
  ...common,
  condition: z
    .strictObject({
      components: components.min(2, 'must contain at least 2 elements'),
      temperature: kelvin,
      pressure,
      compositions_start: composition,
      compositions_end: composition,
      points: scanPoints.min(2, 'must be at least 2').max(5001, 'must be at most 5001').optional(),
      ...phaseFields,
      ...furtherFields,
    })
    .superRefine(compositionRule(['compositions_start', 'compositions_end']))
    .superRefine(referenceStatesRule)
    .superRefine((c, ctx) => {
      if (sameComposition(c.compositions_start, c.compositions_end)) {
        ctx.addIssue({
          code: 'custom',
          path: ['compositions_end'],
          message: 'must differ from compositions_start (the curves run along the line between them)',
        });
      }
    }),
});
