// isopleth: a vertical section (T against one composition axis) of any number of components, every fraction
// varying linearly from composition_start to composition_end in mole or mass fractions. An extension of the
// spec's task types (README "Task types"). With end_members instead of the two compositions it is a pseudo-binary
// section between two compounds or alloys (contract/tasks/end-members.ts), its x axis the end member's fraction.
import { z } from 'zod';
import { common, composition, compositionRule, kelvin, phaseFields, pressure, sameComposition } from './common.js';
import { endMember, endMembersRule } from './end-members.js';
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
      composition_start: composition.optional(),
      composition_end: composition.optional(),
      end_members: z
        .strictObject({
          start: endMember.describe(
            'Pseudo-binary section: a compound formula (Fe3C, Al2O3, NiAl) where the section starts; leave empty for an isopleth between two compositions',
          ),
          end: endMember.describe('The formula where the section ends: the x axis is its fraction (ZrO2, Cr, Fe3C)'),
        })
        .optional()
        .describe(
          'Pseudo-binary section: the two end members instead of composition_start/composition_end, each a compound formula (Fe3C, Al2O3, NiAl) or an alloy composition in composition_unit',
        ),
      end_member_axis: z
        .enum(['mole_fraction', 'mass_fraction'], 'must be one of: mole_fraction, mass_fraction')
        .optional()
        .describe(
          "The x axis of a pseudo-binary section: the end member's mole fraction in formula units (default with a formula) or its mass fraction",
        ),
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
    .superRefine(endMembersRule)
    .superRefine((c, ctx) => {
      if (c.composition_start && c.composition_end) compositionRule(['composition_start', 'composition_end'])(c, ctx);
    })
    .superRefine((c, ctx) => {
      if (c.temperature_start === c.temperature_end)
        ctx.addIssue({ code: 'custom', path: ['temperature_end'], message: 'must differ from temperature_start' });
      if (c.composition_start && c.composition_end && sameComposition(c.composition_start, c.composition_end)) {
        ctx.addIssue({
          code: 'custom',
          path: ['composition_end'],
          message: 'must differ from composition_start (the section needs a composition range)',
        });
      }
    }),
});
