// scheil_solidification: Scheil-Gulliver solidification from the liquidus, beside the lever rule.
import { z } from 'zod';
import {
  GT0,
  common,
  components,
  composition,
  compositionRule,
  compositionUnit,
  kelvin,
  phaseFields,
  pressure,
} from './common.js';
export type { ScheilDocument } from '../results/scheil_solidification.js';

export const scheilSchema = z.strictObject({
  task_type: z.literal('scheil_solidification'),
  ...common,
  condition: z
    .strictObject({
      components,
      compositions: composition,
      start_temperature: kelvin,
      temperature_step: z.number().gt(0, GT0),
      pressure,
      ...phaseFields,
      composition_unit: compositionUnit,
    })
    .superRefine(compositionRule(['compositions'])),
});
