// Result document of thermodynamic_properties_next: contract/results/thermodynamic_properties_next.ts (shared with the renderer).
export * from '../../contract/results/thermodynamic_properties_next.js';
