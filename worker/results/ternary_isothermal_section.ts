// Result document of ternary_isothermal_section: contract/results/ternary_isothermal_section.ts (shared with the renderer).
export * from '../../contract/results/ternary_isothermal_section.js';
