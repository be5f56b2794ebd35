// Result document of binary_cpt_diagram: contract/results/binary_cpt_diagram.ts (shared with the renderer).
export * from '../../contract/results/binary_cpt_diagram.js';
