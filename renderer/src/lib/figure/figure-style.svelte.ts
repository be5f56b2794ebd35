// The look of exported figures, shared by every chart of the app while it runs: the journal style (the Export menu)
// draws black lines of print widths, larger axis text, no grid, and tells curves apart by dashes rather than by
// colour, so a figure survives grey-scale printing (the CSS is `svg.journal` in app.css; LinePlot dashes its series).
export const figureStyle = $state({ journal: false });

/** Dash patterns of a line plot's series in the journal style, in series order (solid first). */
export const JOURNAL_DASHES = ['', '7 3', '2 2', '9 3 2 3', '4 2', '12 3 2 3 2 3'] as const;

/** The journal-style stroke of the i-th series: black, then dark grey once the dash patterns repeat. */
export function journalSeries(i: number): { color: string; dash: string } {
  const round = Math.floor(i / JOURNAL_DASHES.length);
  return { color: round % 2 ? '#555555' : '#000000', dash: JOURNAL_DASHES[i % JOURNAL_DASHES.length]! };
}
