// Result document of point_calculation: contract/results/point_calculation.ts (shared with the renderer).
export * from '../../contract/results/point_calculation.js';
