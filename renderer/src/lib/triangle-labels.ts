// What the field labels of the Gibbs-triangle views (ternary section, liquidus projection) keep off besides the
// phase boundaries: the triangle's outline (a label anchored inside stays inside) and the corner names the views
// write beside its corners (14 px, semi-bold: measured as bold, the wider of the two).
import {
  anchoredTextBox as textBox,
  polylineSegments,
  type Box,
  type Pt,
  type Segment,
} from '../../../contract/plots/labels.js';

/** The outline's segments and the corner names' boxes, as the views draw them. */
export function triangleObstacles(
  corners: ReadonlyArray<Pt>,
  comps: ReadonlyArray<string>,
): { segments: Segment[]; boxes: Box[] } {
  const [a, b, c] = corners as [Pt, Pt, Pt];
  return {
    segments: polylineSegments([a, b, c, a]),
    boxes: [
      textBox(comps[0]!, a[0] - 8, a[1] + 18, 'end', 14, true),
      textBox(comps[1]!, b[0] + 8, b[1] + 18, 'start', 14, true),
      textBox(comps[2]!, c[0], c[1] - 10, 'middle', 14, true),
    ],
  };
}
