// Result document of gibbs_energy_curves: contract/results/gibbs_energy_curves.ts (shared with the renderer).
export * from '../../contract/results/gibbs_energy_curves.js';
