// point_calculation: one global equilibrium at the condition's T, P and composition.
import { z } from 'zod';
import {
  common,
  components,
  composition,
  compositionRule,
  fraction,
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
      fixed_phases: z.record(z.string(), fraction).optional(),
    })
    .superRefine(outputElementsRule)
    .superRefine(potentialRule)
    .superRefine(fixedPhaseRule)
    .superRefine(compositionRule(['compositions']))
    .superRefine(referenceStatesRule),
});

/**
 * condition.fixed_phases (an extension): one phase at an amount (fraction of the atoms, 0..1) with the temperature
 * left free, `temperature` the start of the search (worker/scans/fixed-phase.ts); at a fixed composition, so not with
 * chemical potentials or activities.
 */
function fixedPhaseRule(c: { fixed_phases?: Record<string, number> } & Record<string, unknown>, ctx: z.RefinementCtx) {
  const keys = Object.keys(c.fixed_phases ?? {});
  if (keys.length > 1)
    ctx.addIssue({
      code: 'custom',
      path: ['fixed_phases'],
      message: `must hold one phase (the temperature is the one free condition), not ${keys.length}`,
    });
  else if (keys.length === 1 && (c.chemical_potentials || c.activities))
    ctx.addIssue({
      code: 'custom',
      path: ['fixed_phases'],
      message: 'cannot be combined with chemical_potentials or activities (the composition must be fixed)',
    });
}
