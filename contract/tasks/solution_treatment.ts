// solution_treatment (announced by the specification, opened here): for an alloy, the equilibrium amount of every
// phase against temperature, the solvus of each precipitate, the incipient-melting temperature (the lower of the
// equilibrium solidus and the Scheil-Gulliver solidus of the as-cast alloy), the solution window between the highest
// solvus and incipient melting with a recommended temperature, and optionally the time to dissolve a particle of a
// given radius (Whelan, Met. Sci. J. 3 (1969) 95; worker/calculations/solution_treatment.ts).
import { z } from 'zod';
import {
  arrheniusDiffusivity,
  common,
  components,
  composition,
  compositionRule,
  furtherFields,
  kelvin,
  phaseFields,
  pressure,
} from './common.js';
export type { SolutionTreatmentDocument } from '../results/solution_treatment.js';

/** Temperatures of the amounts-against-T scan when the configuration names none. */
export const SOLUTION_DEFAULT_POINTS = 121;
/** Distance kept from the solvus and from incipient melting, K, when the configuration names none. */
export const SOLUTION_DEFAULT_MARGIN = 10;

const positive = z.number().gt(0, 'must be greater than 0');

export const solutionTreatmentSchema = z.strictObject({
  task_type: z.literal('solution_treatment'),
  ...common,
  condition: z
    .strictObject({
      components,
      compositions: composition,
      pressure,
      /** the lowest temperature of the amounts-against-T scan (an ageing temperature, say), K */
      temperature_start: kelvin.describe('K: the lowest temperature of the scan, an ageing or service temperature'),
      /** the highest (default: 20 K above the liquidus) */
      temperature_end: kelvin.optional(),
      points: z
        .number()
        .int('must be an integer')
        .min(11, 'must be at least 11')
        .max(2001, 'must be at most 2001')
        .optional(),
      /** the matrix: default the solid phase with the most atoms just below the solidus */
      matrix_phase: z.string().min(1, 'must name a phase').optional(),
      /** the precipitates: default every other solid phase stable somewhere in the scan */
      precipitates: z.array(z.string().min(1, 'must name a phase')).optional(),
      /** kept from the highest solvus and from incipient melting, K (default 10) */
      safety_margin: z
        .number()
        .min(0, 'must be at least 0')
        .max(200, 'must be at most 200')
        .describe('K kept from the highest solvus and from incipient melting; default 10 K (furnace uniformity)')
        .optional(),
      /** the time to dissolve one particle of a precipitate at the recommended (or a given) temperature */
      dissolution: z
        .strictObject({
          phase: z.string().min(1, 'must name a phase'),
          /** initial particle radius, m (a coarse cast particle: 1e-6) */
          radius: positive
            .max(1e-2, 'must be at most 0.01 m')
            .describe('m: the initial particle radius (a coarse cast particle about 1e-6 m)'),
          /** default: the recommended temperature */
          temperature: kelvin.optional(),
          /** the solute's diffusivity in the matrix as D0 exp(-Q/RT); default: the chemical diffusivity from the
           * database's mobility data (or mobility_tdb_code) */
          diffusivity: arrheniusDiffusivity.optional(),
        })
        .optional(),
      ...phaseFields,
      composition_unit: furtherFields.composition_unit,
    })
    .superRefine(compositionRule(['compositions']))
    .superRefine((c, ctx) => {
      if (c.temperature_end !== undefined && c.temperature_end <= c.temperature_start)
        ctx.addIssue({ code: 'custom', path: ['temperature_end'], message: 'must be greater than temperature_start' });
    }),
});
