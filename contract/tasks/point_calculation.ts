// point_calculation: one global equilibrium at the condition's T, P and composition.
import { z } from 'zod';
import {
  common,
  components,
  composition,
  compositionRule,
  fixedPhaseFields,
  fixedPhaseRule,
  furtherFields,
  kelvin,
  outputElementsRule,
  outputs,
  phaseFields,
  potentialFields,
  potentialRule,
  pressure,
  referenceStatesRule,
} from './common.js';
export type { PointCalculationResult } from '../results/point_calculation.js';

export const pointCalculationSchema = z.strictObject({
  task_type: z.literal('point_calculation'),
  ...common,
  condition: z
    .strictObject({
      components,
      ...phaseFields,
      temperature: kelvin,
      pressure,
      compositions: composition,
      thermo_outputs: outputs.optional(),
      outputs_list_template: outputs.optional(),
      ...furtherFields,
      ...potentialFields,
      ...fixedPhaseFields,
    })
    .superRefine(outputElementsRule)
    .superRefine(potentialRule)
    .superRefine(fixedPhaseRule)
    .superRefine(compositionRule(['compositions']))
    .superRefine(referenceStatesRule),
});
