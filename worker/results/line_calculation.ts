// Result document of line_calculation: contract/results/line_calculation.ts (shared with the renderer).
export * from '../../contract/results/line_calculation.js';
