// liquidus_projection (an extension of the specification): the liquidus surface of a ternary system projected on its
// composition triangle, or of a ternary section of a multicomponent alloy (the components after the first three
// held at fixed mole fractions): the primary crystallisation field of each solid, the univariant valleys where two
// fields meet (L + alpha + beta) with the direction of falling temperature, the invariant points where three valleys
// meet (E, U, P with their temperatures and reactions), and liquidus isotherms (Rhines, Phase Diagrams in Metallurgy,
// McGraw-Hill 1956, ch. 13). worker/calculations/liquidus_projection.ts.
import { z } from 'zod';
import { common, composition, phaseFields, pressure } from './common.js';
export type { LiquidusProjectionDocument } from '../results/liquidus_projection.js';

/** Divisions of each side of the triangle's grid: bounds and default. */
export const LIQUIDUS_GRID_DIVISIONS = { min: 4, max: 60, default: 20 } as const;
/** K between liquidus isotherms: bounds, the default, and the most isotherms the default gives (it widens past that). */
export const LIQUIDUS_ISOTHERM_STEP = { min: 1, max: 1000, default: 50, most: 20 } as const;

export const liquidusProjectionSchema = z.strictObject({
  task_type: z.literal('liquidus_projection'),
  ...common,
  condition: z
    .strictObject({
      /** the triangle's corners first, then any components held at fixed_compositions */
      components: z.array(z.string().min(1, 'must not be empty')).min(3, 'must hold at least 3 components'),
      ...phaseFields,
      pressure,
      /** mole fractions of the components after the first three (a section of a multicomponent alloy) */
      fixed_compositions: composition.optional(),
      grid_divisions: z
        .number()
        .int('must be an integer')
        .min(LIQUIDUS_GRID_DIVISIONS.min, `must be at least ${LIQUIDUS_GRID_DIVISIONS.min}`)
        .max(LIQUIDUS_GRID_DIVISIONS.max, `must be at most ${LIQUIDUS_GRID_DIVISIONS.max}`)
        .optional()
        .describe(`divisions of each side of the triangle's grid (default ${LIQUIDUS_GRID_DIVISIONS.default})`),
      isotherm_step: z
        .number()
        .min(LIQUIDUS_ISOTHERM_STEP.min, `must be at least ${LIQUIDUS_ISOTHERM_STEP.min} K`)
        .max(LIQUIDUS_ISOTHERM_STEP.max, `must be at most ${LIQUIDUS_ISOTHERM_STEP.max} K`)
        .optional()
        .describe(
          `K between liquidus isotherms (default ${LIQUIDUS_ISOTHERM_STEP.default}, or a round step wide enough that the liquidus's range holds at most ${LIQUIDUS_ISOTHERM_STEP.most})`,
        ),
    })
    .superRefine(sectionRule),
});

type SectionCondition = { components: string[]; fixed_compositions?: Record<string, number> };

/** Components distinct; every component after the first three held at a fraction, those fractions under 1. */
function sectionRule(c: SectionCondition, ctx: z.RefinementCtx): void {
  const up = c.components.map((e) => e.toUpperCase());
  if (new Set(up).size !== up.length || up.includes('VA'))
    ctx.addIssue({
      code: 'custom',
      path: ['components'],
      message: 'must hold different elements (VA is added by the calculation)',
    });
  const held = up.slice(3);
  const given = Object.entries(c.fixed_compositions ?? {});
  for (const [k] of given)
    if (!held.includes(k.toUpperCase()))
      ctx.addIssue({
        code: 'custom',
        path: ['fixed_compositions', k],
        message: `must be one of the components after the first three (${held.join(', ') || 'none: a ternary has no fixed component'})`,
      });
  for (const el of held)
    if (!given.some(([k]) => k.toUpperCase() === el))
      ctx.addIssue({
        code: 'custom',
        path: ['fixed_compositions', el],
        message: `is required: ${el} is not a corner of the triangle (the first three components are)`,
      });
  const sum = given.reduce((s, [, v]) => s + v, 0);
  if (sum >= 1)
    ctx.addIssue({
      code: 'custom',
      path: ['fixed_compositions'],
      message: `must sum to less than 1 (the corners share the rest), got ${sum}`,
    });
}
