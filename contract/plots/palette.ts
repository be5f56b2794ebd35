// The colours of every chart, in the previews (worker/plots) and in the renderer's result views alike: pure
// TypeScript without node: imports, so the renderer imports this file as is. A series gets the colour (and, past
// the palette's length, the dash pattern) of its index in the sorted list of the names a result shows, so a
// phase has the same colour in the PNG preview and on screen.

/** Okabe-Ito colour-blind-safe palette (Okabe & Ito 2008), black moved last. */
export const PALETTE = [
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#E69F00',
  '#56B4E9',
  '#F0E442',
  '#000000',
] as const;

/** Dash patterns cycled with the palette so series stay distinguishable in grey-scale prints. */
export const DASHES = ['', '10 6', '3 5', '14 5 3 5'] as const;

/** Light fills for phase-diagram regions. */
export const REGION_FILLS = [
  '#DCEBF7',
  '#FBE3D2',
  '#D9F0E6',
  '#F3DDEB',
  '#FBEFD3',
  '#E1F1FB',
  '#F7F4D0',
  '#E6E6E6',
] as const;

/** ColorBrewer "Set3" (Harrower & Brewer 2003): 12 qualitative fills that stay distinct next to each other. */
export const SECTION_FILLS = [
  '#8DD3C7',
  '#FFFFB3',
  '#BEBADA',
  '#FB8072',
  '#80B1D3',
  '#FDB462',
  '#B3DE69',
  '#FCCDE5',
  '#D9D9D9',
  '#BC80BD',
  '#CCEBC5',
  '#FFED6F',
] as const;

export function seriesColor(i: number): string {
  return PALETTE[i % PALETTE.length]!;
}
export function seriesDash(i: number): string {
  return DASHES[Math.floor(i / PALETTE.length) % DASHES.length]!;
}

/** Fill of phase set k of a C-P-T grid (white for not converged); beyond 12 sets the Okabe-Ito palette continues. */
export function phaseSetFill(k: number): string {
  if (k < 0) return '#FFFFFF';
  if (k < SECTION_FILLS.length) return SECTION_FILLS[k]!;
  return PALETTE[(k - SECTION_FILLS.length) % PALETTE.length]!;
}

/** Colour and dash of each name: its index in the sorted, de-duplicated names (the order the previews draw). */
export function seriesStyles(names: ReadonlyArray<string>): Map<string, { color: string; dash: string }> {
  const sorted = [...new Set(names)].sort();
  return new Map(sorted.map((n, i) => [n, { color: seriesColor(i), dash: seriesDash(i) }]));
}

/** Fixed roles of the solidification and heat-capacity charts, the same in the preview and the app. */
export const ROLE_COLORS = {
  scheil: PALETTE[0],
  lever: PALETTE[1],
  cpEquilibrium: PALETTE[0],
  cpFrozen: PALETTE[1],
  single: PALETTE[0],
} as const;
