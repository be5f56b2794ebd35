// line_calculation: a scan in T and/or composition with every phase transition refined.
import { z } from 'zod';
import { common, scanCondition } from './common.js';
export type { LineCalculationResult } from '../results/line_calculation.js';

export const lineCalculationSchema = z.strictObject({
  task_type: z.literal('line_calculation'),
  ...common,
  condition: scanCondition,
});
