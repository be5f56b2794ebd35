// Reading a preview SVG back as a reader sees it, for the label tests of every diagram kind: the label boxes of the
// `labels` group (DejaVu Sans metrics, the previews' font), their leader lines, the lines a label must not cross
// (boundary polylines, invariant lines, valleys, the edges of tie-triangles and of the Gibbs triangle), the plot area
// (the diagram's clip rectangle, else the whole picture) and the boxes of every other unrotated text (titles, ticks,
// corner names, invariant tags). The checks: no two label boxes intersect, none leaves the plot area, none is
// crossed by a line or covers another text, every leader line ends at a label and passes through no other, and no
// text leaves the picture's width (a title cut off).
import { expect } from 'vitest';
import {
  boxesIntersect,
  boxInside,
  anchoredTextBox,
  segmentHitsBox,
  type Box,
  type Segment,
} from '../../contract/plots/labels.js';
import { findAll, parseXml, walk, type XmlElement } from './xml.js';

export interface TextBox {
  text: string;
  box: Box;
}

export interface Drawn {
  boxes: TextBox[];
  leaders: Segment[];
  boundaries: Segment[];
  area: Box;
  /** Unrotated texts outside the labels group. */
  texts: TextBox[];
  width: number;
}

/** Strokes of the lines that bound fields: the binary charts' black, the ternary's boundaries, tie-triangle edges and frame, the liquidus valleys. */
const BOUNDARY_STROKES = new Set(['#000000', '#000', '#1F1F1F', '#404040', '#1F4E9C']);

/** The box of a text element from its anchor, baseline (with dy) and DejaVu metrics. */
export function textBox(el: XmlElement): TextBox {
  const anchor = (el.attrs['text-anchor'] ?? 'start') as 'start' | 'middle' | 'end';
  const y = Number(el.attrs.y) + Number(el.attrs.dy ?? 0);
  const size = Number(el.attrs['font-size'] ?? 18);
  return {
    text: el.text,
    box: anchoredTextBox(el.text, Number(el.attrs.x), y, anchor, size, el.attrs['font-weight'] === 'bold'),
  };
}

function points(e: XmlElement): Array<[number, number]> {
  return e.attrs
    .points!.trim()
    .split(/\s+/)
    .map((p) => p.split(',').map(Number) as [number, number]);
}

function lineSegment(l: XmlElement): Segment {
  return [+l.attrs.x1!, +l.attrs.y1!, +l.attrs.x2!, +l.attrs.y2!];
}

/** The lines no label may cross: boundary polylines, closed polygons with a boundary stroke, invariant lines. */
function boundarySegments(root: XmlElement): Segment[] {
  const out: Segment[] = [];
  const push = (q: Array<[number, number]>) => {
    for (let i = 1; i < q.length; i++) out.push([q[i - 1]![0], q[i - 1]![1], q[i]![0], q[i]![1]]);
  };
  for (const p of findAll(root, 'polyline'))
    if (BOUNDARY_STROKES.has(p.attrs.stroke ?? '') && !p.attrs['stroke-dasharray']) push(points(p));
  for (const p of findAll(root, 'polygon'))
    if (BOUNDARY_STROKES.has(p.attrs.stroke ?? '')) {
      const q = points(p);
      push([...q, q[0]!]);
    }
  // invariant lines: the thick horizontal black lines of the binary charts
  for (const l of findAll(root, 'line'))
    if (l.attrs['stroke-width'] === '2.5' && l.attrs.stroke === '#000000') out.push(lineSegment(l));
  return out;
}

/** Reads a preview SVG: label boxes (none without a labels group), leaders, boundary segments, the plot area and the other texts. */
export function readPreview(svg: string): Drawn {
  const root = parseXml(svg);
  const width = Number(root.attrs.width);
  const clip = findAll(root, 'clipPath')[0]?.children[0];
  const area = clip
    ? { x: +clip.attrs.x!, y: +clip.attrs.y!, width: +clip.attrs.width!, height: +clip.attrs.height! }
    : { x: 0, y: 0, width, height: Number(root.attrs.height) };
  const group = findAll(root, 'g').find((g) => g.attrs.class === 'labels');
  const boxes: TextBox[] = [];
  const leaders: Segment[] = [];
  for (const el of group?.children ?? []) {
    if (el.name === 'line') leaders.push(lineSegment(el));
    if (el.name !== 'text') continue;
    expect(el.attrs['text-anchor']).toBe('middle');
    boxes.push(textBox(el));
  }
  const texts: TextBox[] = [];
  const inLabels = new Set(group?.children ?? []);
  walk(root, (e) => {
    if (e.name === 'text' && !inLabels.has(e) && !e.attrs.transform && e.text.trim()) texts.push(textBox(e));
  });
  return { boxes, leaders, boundaries: boundarySegments(root), area, texts, width };
}

/** No two label boxes intersect, none leaves the plot area, none is crossed by a boundary or covers another text. */
export function checkBoxes({ boxes, boundaries, area, texts }: Drawn): void {
  for (let i = 0; i < boxes.length; i++) {
    const b = boxes[i]!;
    expect(boxInside(b.box, area), `${b.text} inside the plot`).toBe(true);
    for (let j = i + 1; j < boxes.length; j++)
      expect(boxesIntersect(b.box, boxes[j]!.box), `${b.text} / ${boxes[j]!.text}`).toBe(false);
    const hit = boundaries.find((s) => segmentHitsBox(s, b.box));
    expect(hit, `${b.text} crossed by ${hit}`).toBeUndefined();
    const covered = texts.find((t) => boxesIntersect(t.box, b.box));
    expect(covered?.text, `${b.text} covers another text`).toBeUndefined();
  }
}

/** Distance from a point to a box (0 inside it). */
function distanceToBox(x: number, y: number, b: Box): number {
  return Math.hypot(Math.max(b.x - x, 0, x - b.x - b.width), Math.max(b.y - y, 0, y - b.y - b.height));
}

/** The halo pad placeLabels puts around a text's box (its default, which the previews keep), px. */
const HALO_PAD = 3;

/**
 * Every leader line ends at a label (on the outline of its padded box: at most a pad across and a pad down from the
 * text's box, plus the 0.01 px rounding of the SVG's numbers) and passes through no label but that one.
 */
export function checkLeaders({ leaders, boxes }: Drawn): void {
  for (const l of leaders) {
    const own = boxes.reduce((best, b) =>
      distanceToBox(l[2], l[3], b.box) < distanceToBox(l[2], l[3], best.box) ? b : best,
    );
    expect(distanceToBox(l[2], l[3], own.box), `leader ${l} ends at ${own.text}`).toBeLessThanOrEqual(
      HALO_PAD * Math.SQRT2 + 0.02,
    );
    const through = boxes.filter((b) => b !== own && segmentHitsBox(l, b.box));
    expect(
      through.map((b) => b.text),
      `leader to ${own.text}`,
    ).toEqual([]);
  }
}

/** No text, labels included, leaves the picture's width (a title longer than the picture is cut off). */
export function checkTextsFit({ boxes, texts, width }: Drawn): void {
  for (const t of [...texts, ...boxes])
    expect(t.box.x >= -0.5 && t.box.x + t.box.width <= width + 0.5, `"${t.text}" within the ${width} px picture`).toBe(
      true,
    );
}

/** A field label (names joined by " + ") breaks the rule when a set number stands on a name that occurs once. */
export function setNumberProblems(label: string): string[] {
  const parts = label.split(' + ');
  const bare = parts.map((p) => p.replace(/#\d+$/, ''));
  return parts.filter((p, i) => /#\d+$/.test(p) && bare.filter((b) => b === bare[i]).length < 2);
}
