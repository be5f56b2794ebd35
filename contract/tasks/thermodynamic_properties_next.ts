// thermodynamic_properties_next: G, H, S and equilibrium / frozen Cp along a scan.
import { z } from 'zod';
import { common, scanCondition } from './common.js';
export type { PropertiesDocument } from '../results/thermodynamic_properties_next.js';

export const thermodynamicPropertiesSchema = z.strictObject({
  task_type: z.literal('thermodynamic_properties_next'),
  ...common,
  condition: scanCondition,
});
