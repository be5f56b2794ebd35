// binary_cpt_diagram: a composition x temperature x pressure grid of a binary system, with its viewer axes.
import { z } from 'zod';
import { GT0, common, compositionUnit, fraction, kelvin, phaseFields, pressure } from './common.js';
export type { BinaryCptResult } from '../results/binary_cpt_diagram.js';

const axis = z
  .strictObject({
    variable: z.enum(['composition', 'temperature', 'pressure'], 'must be one of: composition, temperature, pressure'),
    component: z.string().min(1).optional(),
  })
  .superRefine((a, ctx) => {
    if (a.variable === 'composition' && !a.component) {
      ctx.addIssue({ code: 'custom', path: ['component'], message: 'is required for a composition axis' });
    }
  });

export const binaryCptSchema = z
  .strictObject({
    task_type: z.literal('binary_cpt_diagram'),
    ...common,
    condition: z
      .strictObject({
        components: z.array(z.string().min(1)).length(2, 'must hold exactly 2 components'),
        ...phaseFields,
        x_component: z.string().min(1),
        composition_start: fraction,
        composition_end: fraction,
        composition_step: z.number().gt(0, GT0),
        // the unit of composition_start/end/step: the grid is equally spaced in it (docs/calculations.md)
        composition_unit: compositionUnit,
        temperature_start: kelvin,
        temperature_end: kelvin,
        temperature_step: z.number().gt(0, GT0),
        pressure_start: pressure,
        pressure_end: pressure,
        pressure_points: z.number().int('must be an integer').min(2, 'must be at least 2'),
        pressure_scale: z.enum(['linear', 'log'], 'must be one of: linear, log'),
        include_tielines: z.boolean().optional(),
        tieline_stride: z.number().gt(0, GT0).optional(),
        map_options: z.strictObject({ GLOBAL_MIN_PDENS: z.number().gt(0, GT0).optional() }).optional(),
      })
      .superRefine((c, ctx) => {
        if (!(c.composition_end > c.composition_start))
          ctx.addIssue({
            code: 'custom',
            path: ['composition_end'],
            message: 'must be greater than composition_start',
          });
        if (!(c.temperature_end > c.temperature_start))
          ctx.addIssue({
            code: 'custom',
            path: ['temperature_end'],
            message: 'must be greater than temperature_start',
          });
        if (!(c.pressure_end > c.pressure_start))
          ctx.addIssue({ code: 'custom', path: ['pressure_end'], message: 'must be greater than pressure_start' });
        if (!c.components.includes(c.x_component))
          ctx.addIssue({ code: 'custom', path: ['x_component'], message: 'must be one of condition.components' });
      }),
    ui_metadata: z
      .strictObject({
        module: z.string().optional(),
        backend_task_type: z.string().optional(),
        axis_config: z.strictObject({ x: axis, y: axis, z: axis }).optional(),
      })
      .optional(),
  })
  .superRefine((v, ctx) => {
    // The viewer maps each axis to one variable: the three must differ, and a composition axis names a component.
    const ac = v.ui_metadata?.axis_config;
    if (!ac) return;
    const seen = new Map<string, string>();
    for (const k of ['x', 'y', 'z'] as const) {
      const a = ac[k];
      const path = ['ui_metadata', 'axis_config', k];
      const prev = seen.get(a.variable);
      if (prev)
        ctx.addIssue({
          code: 'custom',
          path: [...path, 'variable'],
          message: `must differ from axis_config.${prev}.variable`,
        });
      seen.set(a.variable, k);
      if (
        a.variable === 'composition' &&
        a.component &&
        !v.condition.components.map((c) => c.toUpperCase()).includes(a.component.toUpperCase())
      ) {
        ctx.addIssue({ code: 'custom', path: [...path, 'component'], message: 'must be one of condition.components' });
      }
    }
  });
