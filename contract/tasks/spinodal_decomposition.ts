// spinodal_decomposition (announced by the specification, opened here): the chemical spinodal of one phase of a
// binary system over a temperature range, where the curvature of its molar Gibbs energy in composition changes
// sign, with the phase's own miscibility gap (binodal) and critical point, and the coherent spinodal when the
// elastic constants, the lattice mismatch and the molar volume are given (Cahn, Acta Metall. 9 (1961) 795;
// worker/calculations/spinodal_decomposition.ts).
import { z } from 'zod';
import { common, components, kelvin, phaseFields, pressure } from './common.js';
export type { SpinodalDecompositionDocument } from '../results/spinodal_decomposition.js';

/** Temperatures and compositions of the scan when the configuration names none. */
export const SPINODAL_DEFAULT_TEMPERATURE_POINTS = 61;
export const SPINODAL_DEFAULT_COMPOSITION_POINTS = 201;

const positive = z.number().gt(0, 'must be greater than 0');

/**
 * Elastic data of the coherent spinodal of a cubic crystal (Cahn 1961): the strain energy 2 eta^2 Y V_m per mole
 * with Y = (c11 + 2 c12)(c11 - c12) / c11, the modulus of the elastically soft <100> directions.
 */
export const coherentFields = z.strictObject({
  /** elastic constants, Pa (aluminium: c11 = 108 GPa, c12 = 62 GPa) */
  c11: positive.describe('Pa: elastic constant c11 (aluminium 108e9)'),
  c12: z.number().describe('Pa: elastic constant c12 (aluminium 62e9)'),
  /** eta = (1/a) da/dx of the axis element, per unit mole fraction (Al-Zn fcc: about -0.02) */
  lattice_mismatch: z
    .number()
    .describe('(1/a) da/dx of the axis element per unit mole fraction (Al-Zn fcc about -0.02, Vegard)'),
  /** molar volume, m^3/mol (aluminium: 1.0e-5) */
  molar_volume: positive.describe('m^3/mol (aluminium 1.0e-5)'),
});

/**
 * The same elastic data for the coherent spinodal of a ternary isothermal section (extension): the mismatch of each
 * element, eta_i = (1/a) da/dx_i (Vegard: a = a_0 (1 + sum_i eta_i x_i)); only differences count, an element not
 * named has 0, so {B: eta} is a lattice that changes along B alone.
 */
export const sectionCoherentFields = coherentFields.extend({
  lattice_mismatch: z
    .record(z.string(), z.number())
    .describe('{EL: (1/a) da/dx_EL} per element (Vegard); an element not named has 0; only differences count'),
});

/** c11 and c12 of a mechanically stable cubic crystal: c12 < c11 and a positive bulk modulus. */
export function elasticRule(
  c: { c11: number; c12: number } | undefined,
  ctx: z.RefinementCtx,
  path: (string | number)[],
): void {
  if (c && c.c12 >= c.c11)
    ctx.addIssue({
      code: 'custom',
      path: [...path, 'c12'],
      message: 'must be less than c11 (a mechanically stable cubic crystal)',
    });
  if (c && c.c11 + 2 * c.c12 <= 0)
    ctx.addIssue({
      code: 'custom',
      path: [...path, 'c12'],
      message: 'must make c11 + 2 c12 greater than 0 (a positive bulk modulus)',
    });
}

export const spinodalSchema = z.strictObject({
  task_type: z.literal('spinodal_decomposition'),
  ...common,
  condition: z
    .strictObject({
      components: components.length(2, 'must contain exactly 2 elements (a binary system)'),
      /** the phase whose spinodal is drawn (FCC_A1 of Al-Zn, BCC_A2 of Cr-Fe) */
      phase: z
        .string()
        .min(1, 'must name a phase')
        .describe('the phase whose spinodal is traced (FCC_A1 of Al-Zn, BCC_A2 of Cr-Fe)'),
      /** the element on the composition axis: the second component when absent */
      x_component: z.string().min(1, 'must not be empty').optional(),
      temperature_start: kelvin,
      temperature_end: kelvin,
      pressure,
      temperature_points: z
        .number()
        .int('must be an integer')
        .min(2, 'must be at least 2')
        .max(2001, 'must be at most 2001')
        .optional(),
      composition_points: z
        .number()
        .int('must be an integer')
        .min(11, 'must be at least 11')
        .max(20001, 'must be at most 20001')
        .optional(),
      coherent: coherentFields.optional(),
      ...phaseFields,
    })
    .superRefine((c, ctx) => {
      if (c.temperature_end <= c.temperature_start)
        ctx.addIssue({ code: 'custom', path: ['temperature_end'], message: 'must be greater than temperature_start' });
      const els = c.components.map((e) => e.toUpperCase());
      if (new Set(els).size !== 2)
        ctx.addIssue({ code: 'custom', path: ['components'], message: 'must name two different elements' });
      if (c.x_component !== undefined && !els.includes(c.x_component.toUpperCase()))
        ctx.addIssue({
          code: 'custom',
          path: ['x_component'],
          message: `must be one of the components ${els.join(', ')}`,
        });
      elasticRule(c.coherent, ctx, ['coherent']);
    }),
});
