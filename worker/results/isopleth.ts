// Result document of isopleth: contract/results/isopleth.ts (shared with the renderer).
export * from '../../contract/results/isopleth.js';
