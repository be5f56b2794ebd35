// binary_equilibrium: the whole binary phase diagram by tie-line continuation, with order-disorder lines.
import { z } from 'zod';
import { common, composition, compositionRule, compositionUnit, kelvin, phaseFields, pressure } from './common.js';
export type { BinaryEquilibriumResult } from '../results/binary_equilibrium.js';

// Strict: an unknown option key is refused with a 400 naming it, not silently ignored.
export const orderDisorderSchema = z.strictObject({
  enabled: z.boolean().optional(),
  trace_boundaries: z.boolean().optional(),
  stability_filter: z.boolean().optional(),
  plot_boundaries: z.boolean().optional(),
  phase_scope: z.enum(['order_disorder', 'all'], 'must be one of: order_disorder, all').optional(),
  trace_method: z.literal('branch_continuation', 'only branch_continuation is supported').optional(),
});

export const binaryEquilibriumSchema = z
  .strictObject({
    task_type: z.literal('binary_equilibrium'),
    ...common,
    activated_elements: z.array(z.string()).optional(),
    order_disorder: orderDisorderSchema.optional(),
    // extension: the chemical spinodal inside every miscibility gap of the diagram, drawn dashed
    spinodal: z.boolean('must be true or false').optional(),
    condition: z
      .strictObject({
        components: z.array(z.string().min(1)).length(2, 'must hold exactly 2 components'),
        compositions_start: composition,
        compositions_end: composition,
        temperature_start: kelvin,
        temperature_end: kelvin,
        pressure,
        ...phaseFields,
        // the unit of compositions_start/end and of the preview's composition axis (docs/calculations.md)
        composition_unit: compositionUnit,
      })
      .superRefine(compositionRule(['compositions_start', 'compositions_end'], true))
      .superRefine((c, ctx) => {
        if (c.temperature_start === c.temperature_end)
          ctx.addIssue({ code: 'custom', path: ['temperature_end'], message: 'must differ from temperature_start' });
      }),
  })
  .superRefine((v, ctx) => {
    if (v.activated_elements === undefined) return;
    const a = [...v.activated_elements].sort();
    const c = [...v.condition.components].sort();
    if (a.length !== 2 || a.join('\u0000') !== c.join('\u0000')) {
      ctx.addIssue({
        code: 'custom',
        path: ['activated_elements'],
        message: 'must equal condition.components and hold 2 elements',
      });
    }
  });
