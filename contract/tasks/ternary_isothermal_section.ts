// ternary_isothermal_section: the phase diagram of a three-element system at one temperature and pressure
// (docs/calculations.md "Ternary isothermal sections").
import { z } from 'zod';
import { GT0, common, fraction, kelvin, phaseFields, pressure } from './common.js';
import { elasticRule, sectionCoherentFields } from './spinodal_decomposition.js';
export type { TernaryIsothermalSectionResult } from '../results/ternary_isothermal_section.js';

export const ternaryIsothermalSectionSchema = z
  .strictObject({
    task_type: z.literal('ternary_isothermal_section'),
    ...common,
    // extension: the spinodal line inside every miscibility gap of the section, drawn dashed
    spinodal: z.boolean('must be true or false').optional(),
    // extension: with spinodal: true, the coherent spinodal too, from the elastic data and each element's mismatch
    coherent: sectionCoherentFields.optional(),
    condition: z
      .strictObject({
        components: z.array(z.string().min(1, 'must not be empty')).length(3, 'must hold exactly 3 components'),
        temperature: kelvin,
        pressure,
        ...phaseFields,
        /** mapped part of the triangle: [min, max] mole fraction of some components (default the whole triangle) */
        composition_window: z
          .array(z.strictObject({ component: z.string().min(1), min: fraction, max: fraction }))
          .optional(),
        composition_unit: z
          .enum(['mole_fraction', 'mass_fraction'], 'must be one of: mole_fraction, mass_fraction')
          .optional(),
        map_options: z
          .strictObject({
            GLOBAL_MIN_PDENS: z.number().gt(0, GT0).optional(),
            /** divisions of each side of the seed grid: (n+1)(n+2)/2 point equilibria, as many again for the self-check */
            grid_divisions: z
              .number()
              .int('must be an integer')
              .min(4, 'must be at least 4')
              .max(60, 'must be at most 60')
              .optional(),
          })
          .optional(),
      })
      .superRefine((c, ctx) => {
        const up = c.components.map((e) => e.toUpperCase());
        if (new Set(up).size !== 3 || up.includes('VA'))
          ctx.addIssue({
            code: 'custom',
            path: ['components'],
            message: 'must hold 3 different elements (VA is added by the calculation)',
          });
        const seen = new Set<string>();
        let minSum = 0;
        (c.composition_window ?? []).forEach((w, i) => {
          const k = w.component.toUpperCase();
          if (!up.includes(k))
            ctx.addIssue({
              code: 'custom',
              path: ['composition_window', i, 'component'],
              message: 'must be one of condition.components',
            });
          if (seen.has(k))
            ctx.addIssue({ code: 'custom', path: ['composition_window', i, 'component'], message: 'is given twice' });
          seen.add(k);
          if (!(w.max > w.min))
            ctx.addIssue({
              code: 'custom',
              path: ['composition_window', i, 'max'],
              message: 'must be greater than min',
            });
          minSum += w.min;
        });
        if (minSum >= 1)
          ctx.addIssue({ code: 'custom', path: ['composition_window'], message: 'the minima must sum to less than 1' });
      }),
  })
  .superRefine((c, ctx) => {
    if (!c.coherent) return;
    if (c.spinodal !== true)
      ctx.addIssue({
        code: 'custom',
        path: ['coherent'],
        message: 'needs spinodal: true (the coherent spinodal lies inside the chemical one)',
      });
    elasticRule(c.coherent, ctx, ['coherent']);
    const els = c.condition.components.map((e) => e.toUpperCase());
    for (const e of Object.keys(c.coherent.lattice_mismatch))
      if (!els.includes(e.toUpperCase()))
        ctx.addIssue({
          code: 'custom',
          path: ['coherent', 'lattice_mismatch', e],
          message: `${e} is not one of condition.components`,
        });
  });
