// The label of a decade on a log axis, shared by the previews (worker/plots/kinetics.ts) and the result views'
// charts (renderer/src/lib/results-plot.ts), so a kinetics axis reads the same on screen and in the PNG.

const SUPERSCRIPT: Record<string, string> = {
  '-': '⁻',
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
};

/** "10³", "10⁻⁶": the label of the decade k. */
export function decadeLabel(k: number): string {
  return `10${[...String(Math.round(k))].map((c) => SUPERSCRIPT[c] ?? c).join('')}`;
}
