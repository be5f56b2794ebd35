// The SVG toolkit of the 2D preview plots, in one import: the builder, styles, number formatting and
// ticks (svg-builder.ts), clipping (clip.ts), the plot panel with its axes (panel.ts), legends and the
// plain table document (table.ts).
export * from './svg-builder.js';
export * from './clip.js';
export * from './panel.js';
export * from './table.js';
