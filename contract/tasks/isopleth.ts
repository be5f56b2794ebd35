// isopleth: a vertical section (T against one composition axis) of any number of components, every fraction
// varying linearly from composition_start to composition_end in mole or mass fractions. An extension of the
// spec's task types (README "Task types").
import { z } from 'zod';
import { common, composition, compositionRule, kelvin, phaseFields, pressure, sameComposition } from './common.js';
export type { IsoplethResult } from '../results/isopleth.js';

/** Coarse-grid nodes per axis of an isopleth: bounds of condition.resolution. */
export const ISOPLETH_RESOLUTION = { min: 5, max: 101 } as const;

export const isoplethSchema = z.strictObject({
  task_type: z.literal('isopleth'),
  ...common,
  condition: z
    .strictObject({
      components: z.array(z.string().min(1, 'must not be empty')).min(2, 'must contain at least 2 elements'),
      ...phaseFields,
      temperature_start: kelvin,
      temperature_end: kelvin,
      pressure,
      composition_start: composition,
      composition_end: composition,
      composition_unit: z
        .enum(['mole_fraction', 'mass_fraction'], 'must be one of: mole_fraction, mass_fraction')
        .optional(),
      resolution: z
        .number()
        .int('must be an integer')
        .min(ISOPLETH_RESOLUTION.min, `must be at least ${ISOPLETH_RESOLUTION.min}`)
        .max(ISOPLETH_RESOLUTION.max, `must be at most ${ISOPLETH_RESOLUTION.max}`)
        .optional(),
    })
    .superRefine(compositionRule(['composition_start', 'composition_end']))
    .superRefine((c, ctx) => {
      if (c.temperature_start === c.temperature_end)
        ctx.addIssue({ code: 'custom', path: ['temperature_end'], message: 'must differ from temperature_start' });
      if (sameComposition(c.composition_start, c.composition_end)) {
        ctx.addIssue({
          code: 'custom',
          path: ['composition_end'],
          message: 'must differ from composition_start (the section needs a composition range)',
        });
      }
    }),
});
