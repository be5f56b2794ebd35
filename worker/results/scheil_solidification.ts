// Result document of scheil_solidification: contract/results/scheil_solidification.ts (shared with the renderer).
export * from '../../contract/results/scheil_solidification.js';
