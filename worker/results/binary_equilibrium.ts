// Result document of binary_equilibrium: contract/results/binary_equilibrium.ts (shared with the renderer).
export * from '../../contract/results/binary_equilibrium.js';
