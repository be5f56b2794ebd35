// Label placement for phase diagrams, shared by the SVG previews (worker/plots/charts.ts) and the renderer's
// BinaryDiagram view: pure TypeScript without node: imports so that the browser bundle imports it as is.
//
// Every label is a box (text metrics + a halo pad). A box is accepted only when it lies inside the plot
// area, overlaps no box placed before it (nor the caller's obstacle boxes) and crosses no boundary segment.
// Labels are placed in priority order, each at the first acceptable candidate:
//   1. the anchor itself, then the caller's points known to lie inside the field (the middles of the
//      tie-lines of a two-phase region, positions along an invariant line);
//   2. a spiral of positions around the anchor, each reachable from the anchor without crossing a boundary
//      (so the label stays in its own field);
//   3. positions farther away with a leader line to the anchor (when the field is too small for its text);
// and a label with no acceptable position is returned as dropped, for the caller to list in a legend.
// This is the greedy fixed-candidate scheme of Christensen, Marks & Shieber (ACM Trans. Graph. 14 (1995)
// 203), with the field-membership test of point-feature labelling added.

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
/** A segment x1, y1, x2, y2 in pixels. */
export type Segment = readonly [number, number, number, number];
export type Pt = readonly [number, number];

export interface TextMetrics {
  width: number;
  ascent: number;
  descent: number;
}
export type Measure = (text: string, size: number, bold?: boolean) => TextMetrics;

// Advance widths (1/1000 em) of ASCII 32..126 in DejaVu Sans and DejaVu Sans Bold, read from the fonts' hmtx
// tables (fonts-dejavu-core 2.37); ascent 0.928 em, descent 0.236 em (hhea). DejaVu Sans is the family the PNG
// renderer loads and the first of the previews' font stack.
const DEJAVU =
  '318,401,460,838,636,950,780,275,390,390,500,838,318,361,318,337,636,636,636,636,636,636,636,636,636,636,337,337,838,838,838,531,1000,684,686,698,770,632,575,775,752,295,295,656,557,863,748,787,603,787,695,635,611,732,684,989,685,611,685,390,337,390,838,500,500,613,635,550,635,615,352,635,634,278,278,579,278,974,634,612,635,635,411,521,392,634,592,818,592,592,525,636,337,636,838'
    .split(',')
    .map(Number);
const DEJAVU_BOLD =
  '348,456,521,838,696,1002,872,306,457,457,523,838,380,415,380,365,696,696,696,696,696,696,696,696,696,696,400,400,838,838,838,580,1000,774,762,734,830,683,683,821,837,372,372,775,637,995,837,850,733,850,770,720,682,812,774,1103,771,724,725,457,365,457,838,500,500,675,716,593,716,678,435,716,712,343,343,665,343,1042,712,687,716,716,493,595,478,712,652,924,645,652,582,712,365,712,838'
    .split(',')
    .map(Number);
const DEJAVU_OTHER: Record<string, number> = { '°': 500, '–': 500, '—': 1000, '·': 318, μ: 636, '…': 1000, '−': 838 };
// The Greek lower case α..ω, the prime ′ and the subscript digits ₀..₉ of phase display names (contract/plots/
// phase-names.ts: γ′, Fe₃C), read from the same hmtx tables (regular, then bold).
const NAME_GLYPHS = [...'αβγδεζηθικλμνξοπρςστυφχψω′₀₁₂₃₄₅₆₇₈₉'];
const glyphWidths = (widths: string): Record<string, number> =>
  Object.fromEntries(widths.split(',').map((w, i) => [NAME_GLYPHS[i]!, Number(w)]));
const NAME_WIDTHS = glyphWidths(
  '659,638,592,612,541,544,634,612,338,589,592,636,559,558,612,602,635,587,634,602,579,660,578,660,837,227,' +
    '401,401,401,401,401,401,401,401,401,401',
);
const NAME_WIDTHS_BOLD = glyphWidths(
  '687,716,681,687,557,591,712,687,390,710,633,736,681,591,687,791,716,593,779,638,675,782,645,794,869,264,' +
    '438,438,438,438,438,438,438,438,438,438',
);

/** Text metrics of DejaVu Sans (regular or bold) at `size` px. */
export const dejaVuMeasure: Measure = (text, size, bold = false) => {
  const table = bold ? DEJAVU_BOLD : DEJAVU;
  let w = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    w +=
      c >= 32 && c <= 126 ? table[c - 32]! : ((bold ? NAME_WIDTHS_BOLD : NAME_WIDTHS)[ch] ?? DEJAVU_OTHER[ch] ?? 1000);
  }
  return { width: (w / 1000) * size, ascent: 0.928 * size, descent: 0.236 * size };
};

/** The DejaVu box of a text drawn at (x, baseline y) with an SVG text-anchor. */
export function anchoredTextBox(
  text: string,
  x: number,
  y: number,
  anchor: 'start' | 'middle' | 'end',
  size: number,
  bold = false,
): Box {
  const m = dejaVuMeasure(text, size, bold);
  const left = x - (anchor === 'middle' ? m.width / 2 : anchor === 'end' ? m.width : 0);
  return { x: left, y: y - m.ascent, width: m.width, height: m.ascent + m.descent };
}

export interface LabelRequest {
  key: string;
  text: string;
  size: number;
  bold?: boolean;
  /** the point of the field the label names, px */
  anchor: Pt;
  /** further points known to lie in the field, px, best first */
  inside?: ReadonlyArray<Pt>;
  /** placed earlier when higher (default 0); ties keep the given order */
  priority?: number;
  /** may be moved away from its field with a leader line (default true) */
  leader?: boolean;
  /** search the spiral around the anchor (default true); invariant labels keep to their explicit positions */
  spiral?: boolean;
  /** largest distance of this label from its anchor when it needs a leader line, px (default: the option's) */
  maxLeader?: number;
  /** smaller sizes (factors of `size`) tried in the field before a leader line is drawn, for example [0.8] */
  shrink?: ReadonlyArray<number>;
}

export interface PlacedLabel {
  key: string;
  text: string;
  size: number;
  bold: boolean;
  /** the label's box, halo pad included */
  box: Box;
  /** where to draw the text: x is the centre (text-anchor middle), baseline the y of the baseline */
  x: number;
  baseline: number;
  /** anchor -> box edge, when the label sits away from its field */
  leader?: Segment;
}

export interface PlacementOptions {
  /** the plot area: every box stays inside it */
  area: Box;
  /** boundary polylines and invariant lines as segments: no box crosses one */
  segments: ReadonlyArray<Segment>;
  /** boxes that are already taken (legends, markers) */
  obstacles?: ReadonlyArray<Box>;
  measure?: Measure;
  /** space around the text inside its box, px (the halo) */
  pad?: number;
  /** largest distance of a leader-line label from its anchor, px */
  maxLeader?: number;
}

export interface Placement {
  placed: PlacedLabel[];
  dropped: LabelRequest[];
}

export function boxesIntersect(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** A point's tag: its text's anchor and baseline, and the box of the tag with the point's mark (radius `mark`). */
export interface PointTag {
  x: number;
  y: number;
  anchor: 'start' | 'end';
  box: Box;
}

/**
 * Tags beside marked points (a diagram's invariant points), each at the first of eight places around its point (above
 * right first) where it meets no other point's mark, no tag placed before it and no obstacle; where every place meets
 * one, the place of least overlap. Points close together thus get their tags on different sides rather than one over
 * the other.
 */
export function placePointTags(
  points: ReadonlyArray<[number, number]>,
  texts: ReadonlyArray<string>,
  size: number,
  obstacles: ReadonlyArray<Box> = [],
  mark = 3.5,
): PointTag[] {
  const gap = mark + 1.5;
  const marks: Box[] = points.map(([x, y]) => ({ x: x - mark, y: y - mark, width: 2 * mark, height: 2 * mark }));
  const placed: PointTag[] = [];
  const overlap = (a: Box, b: Box) =>
    Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
    Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  points.forEach(([px, py], k) => {
    const m = dejaVuMeasure(texts[k]!, size);
    const places: [number, number, 'start' | 'end'][] = [
      [px + gap, py - gap, 'start'],
      [px - gap, py - gap, 'end'],
      [px + gap, py + gap + m.ascent, 'start'],
      [px - gap, py + gap + m.ascent, 'end'],
      [px + gap + 1, py + m.ascent / 2, 'start'],
      [px - gap - 1, py + m.ascent / 2, 'end'],
      [px + 1, py - gap - 2, 'start'],
      [px - 1, py + gap + m.ascent + 2, 'end'],
    ];
    const others = [...marks.filter((_, j) => j !== k), ...placed.map((t) => t.box), ...obstacles];
    let best: PointTag | undefined;
    let least = Infinity;
    for (const [x, y, anchor] of places) {
      const box = anchoredTextBox(texts[k]!, x, y, anchor, size);
      const cost = others.reduce((sum, o) => sum + overlap(box, o), 0);
      if (cost < least) {
        least = cost;
        best = { x, y, anchor, box };
      }
      if (cost === 0) break;
    }
    placed.push(best!);
  });
  return placed;
}

/** The marks of points (boxes of half-width `half`) and their tags' boxes: obstacles of the labels placed after them. */
export function pointTagObstacles(
  points: ReadonlyArray<[number, number]>,
  tags: ReadonlyArray<PointTag>,
  half = 4,
): Box[] {
  return [
    ...points.map(([x, y]) => ({ x: x - half, y: y - half, width: 2 * half, height: 2 * half })),
    ...tags.map((t) => t.box),
  ];
}

export function boxInside(inner: Box, outer: Box, tol = 1e-6): boolean {
  return (
    inner.x >= outer.x - tol &&
    inner.y >= outer.y - tol &&
    inner.x + inner.width <= outer.x + outer.width + tol &&
    inner.y + inner.height <= outer.y + outer.height + tol
  );
}

/** True when the segment passes through the box's interior (Liang–Barsky clipping; allocation-free, it runs often). */
export function segmentHitsBox(s: Segment, b: Box): boolean {
  const x1 = s[0],
    y1 = s[1],
    x2 = s[2],
    y2 = s[3];
  const bx1 = b.x + b.width,
    by1 = b.y + b.height;
  // both ends on the same outer side: no hit (the common case)
  if ((x1 <= b.x && x2 <= b.x) || (x1 >= bx1 && x2 >= bx1) || (y1 <= b.y && y2 <= b.y) || (y1 >= by1 && y2 >= by1))
    return false;
  const dx = x2 - x1,
    dy = y2 - y1;
  let t0 = 0,
    t1 = 1;
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q > 0;
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
    return true;
  };
  if (!clip(-dx, x1 - b.x) || !clip(dx, bx1 - x1) || !clip(-dy, y1 - b.y) || !clip(dy, by1 - y1)) return false;
  return t1 - t0 > 1e-9;
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
}
function onSegment(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  return Math.min(ax, bx) <= cx && cx <= Math.max(ax, bx) && Math.min(ay, by) <= cy && cy <= Math.max(ay, by);
}

/** True when two segments cross or touch (orientation test). */
export function segmentsCross(a: Segment, b: Segment): boolean {
  const p1x = a[0],
    p1y = a[1],
    p2x = a[2],
    p2y = a[3],
    q1x = b[0],
    q1y = b[1],
    q2x = b[2],
    q2y = b[3];
  if (
    Math.max(p1x, p2x) < Math.min(q1x, q2x) ||
    Math.max(q1x, q2x) < Math.min(p1x, p2x) ||
    Math.max(p1y, p2y) < Math.min(q1y, q2y) ||
    Math.max(q1y, q2y) < Math.min(p1y, p2y)
  )
    return false;
  const d1 = orient(q1x, q1y, q2x, q2y, p1x, p1y),
    d2 = orient(q1x, q1y, q2x, q2y, p2x, p2y);
  const d3 = orient(p1x, p1y, p2x, p2y, q1x, q1y),
    d4 = orient(p1x, p1y, p2x, p2y, q2x, q2y);
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (
    (d1 === 0 && onSegment(q1x, q1y, q2x, q2y, p1x, p1y)) ||
    (d2 === 0 && onSegment(q1x, q1y, q2x, q2y, p2x, p2y)) ||
    (d3 === 0 && onSegment(p1x, p1y, p2x, p2y, q1x, q1y)) ||
    (d4 === 0 && onSegment(p1x, p1y, p2x, p2y, q2x, q2y))
  );
}

/** Uniform grid of segments, so a box or a segment is tested only against the segments near it. */
class SegmentIndex {
  private readonly cells = new Map<number, number[]>();
  /** per segment, the query that last tested it (so a segment spanning several cells is tested once per query) */
  private readonly seen: Uint32Array;
  private query = 0;
  constructor(
    private readonly segs: ReadonlyArray<Segment>,
    private readonly cell = 32,
  ) {
    this.seen = new Uint32Array(segs.length);
    segs.forEach((s, i) => {
      const c = this.cell;
      const i0 = Math.floor(Math.min(s[0], s[2]) / c),
        i1 = Math.floor(Math.max(s[0], s[2]) / c);
      const j0 = Math.floor(Math.min(s[1], s[3]) / c),
        j1 = Math.floor(Math.max(s[1], s[3]) / c);
      if (![i0, i1, j0, j1].every(Number.isFinite) || (i1 - i0 + 1) * (j1 - j0 + 1) > 1e5) return;
      for (let a = i0; a <= i1; a++)
        for (let b = j0; b <= j1; b++) {
          const k = a * 100003 + b;
          let list = this.cells.get(k);
          if (!list) this.cells.set(k, (list = []));
          list.push(i);
        }
    });
  }
  /** True when test() holds for some segment whose cells meet the rectangle [x0, x1] x [y0, y1]. */
  private any(x0: number, y0: number, x1: number, y1: number, test: (s: Segment) => boolean): boolean {
    const c = this.cell;
    const q = ++this.query;
    const i0 = Math.floor(x0 / c),
      i1 = Math.floor(x1 / c),
      j0 = Math.floor(y0 / c),
      j1 = Math.floor(y1 / c);
    for (let a = i0; a <= i1; a++) {
      for (let b = j0; b <= j1; b++) {
        const list = this.cells.get(a * 100003 + b);
        if (!list) continue;
        for (const i of list) {
          if (this.seen[i] === q) continue;
          this.seen[i] = q;
          if (test(this.segs[i]!)) return true;
        }
      }
    }
    return false;
  }
  hitsBox(b: Box): boolean {
    return this.any(b.x, b.y, b.x + b.width, b.y + b.height, (s) => segmentHitsBox(s, b));
  }
  crosses(s: Segment): boolean {
    return this.any(Math.min(s[0], s[2]), Math.min(s[1], s[3]), Math.max(s[0], s[2]), Math.max(s[1], s[3]), (t) =>
      segmentsCross(s, t),
    );
  }
}

/** Polyline points (px) as segments; non-finite points break the line. */
export function polylineSegments(points: ReadonlyArray<Pt>): Segment[] {
  const out: Segment[] = [];
  for (let i = 1; i < points.length; i++) {
    const [ax, ay] = points[i - 1]!,
      [bx, by] = points[i]!;
    if ([ax, ay, bx, by].every(Number.isFinite) && (ax !== bx || ay !== by)) out.push([ax, ay, bx, by]);
  }
  return out;
}

/** The point of a box's outline nearest to p (the end of a leader line). */
function nearestOnBox(b: Box, p: Pt): Pt {
  return [Math.min(b.x + b.width, Math.max(b.x, p[0])), Math.min(b.y + b.height, Math.max(b.y, p[1]))];
}

export function placeLabels(requests: ReadonlyArray<LabelRequest>, opts: PlacementOptions): Placement {
  const measure = opts.measure ?? dejaVuMeasure;
  const pad = opts.pad ?? 3;
  const area = opts.area;
  const index = new SegmentIndex(opts.segments);
  const taken: Box[] = [...(opts.obstacles ?? [])];
  const leaders: Segment[] = [];
  const placed: PlacedLabel[] = [];
  const dropped: LabelRequest[] = [];
  const maxLeader = opts.maxLeader ?? Math.max(60, 0.3 * Math.min(area.width, area.height));
  const order = requests
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (b.r.priority ?? 0) - (a.r.priority ?? 0) || a.i - b.i);

  for (const { r } of order) {
    const metricsAt = (size: number) => {
      const m = measure(r.text, size, r.bold);
      return { m, size, w: m.width + 2 * pad, h: m.ascent + m.descent + 2 * pad };
    };
    let cur = metricsAt(r.size);
    // one candidate box, moved around (the search tries thousands of positions; a copy is kept when one is accepted)
    const cand: Box = { x: 0, y: 0, width: 0, height: 0 };
    const boxAt = (c: Pt): Box => {
      cand.x = c[0] - cur.w / 2;
      cand.y = c[1] - cur.h / 2;
      cand.width = cur.w;
      cand.height = cur.h;
      return cand;
    };
    const probe: [number, number, number, number] = [0, 0, 0, 0];
    const free = (b: Box): boolean =>
      boxInside(b, area) &&
      !taken.some((t) => boxesIntersect(t, b)) &&
      !index.hitsBox(b) &&
      !leaders.some((l) => segmentHitsBox(l, b));
    const accept = (candidate: Box, leader?: Segment): void => {
      const b = { ...candidate };
      taken.push(b);
      if (leader) leaders.push(leader);
      placed.push({
        key: r.key,
        text: r.text,
        size: cur.size,
        bold: !!r.bold,
        box: b,
        x: b.x + b.width / 2,
        baseline: b.y + pad + cur.m.ascent,
        ...(leader ? { leader } : {}),
      });
    };
    if (!r.anchor.every(Number.isFinite)) {
      dropped.push(r);
      continue;
    }
    let done = false;
    for (const factor of [1, ...(r.shrink ?? [])]) {
      cur = metricsAt(r.size * factor);
      const { w, h } = cur;
      // 1. the anchor and the points known to be inside the field
      for (const c of [r.anchor, ...(r.inside ?? [])]) {
        if (!c.every(Number.isFinite)) continue;
        const b = boxAt(c);
        if (free(b)) {
          accept(b);
          done = true;
          break;
        }
      }
      // 2. a spiral around the anchor, staying in the anchor's field (no boundary between anchor and centre)
      if (!done && r.spiral !== false) {
        const rMax = Math.max(w, h) + 30;
        for (let rad = 5; rad <= rMax && !done; rad += 5) {
          const n = Math.max(8, Math.round((2 * Math.PI * rad) / 10));
          for (let k = 0; k < n; k++) {
            const a = (2 * Math.PI * k) / n;
            probe[0] = r.anchor[0];
            probe[1] = r.anchor[1];
            probe[2] = r.anchor[0] + rad * Math.cos(a);
            probe[3] = r.anchor[1] + rad * Math.sin(a);
            const b = boxAt([probe[2], probe[3]]);
            if (free(b) && !index.crosses(probe)) {
              accept(b);
              done = true;
              break;
            }
          }
        }
      }
      if (done) break;
    }
    cur = metricsAt(r.size);
    const { w, h } = cur;
    // 3. away from the field with a leader line, the nearest position first
    if (!done && r.leader !== false) {
      const reach = r.maxLeader ?? maxLeader;
      for (let rad = Math.max(w, h) / 2 + 10; rad <= reach + Math.max(w, h) / 2 && !done; rad += 10) {
        const n = Math.max(12, Math.round((2 * Math.PI * rad) / 14));
        for (let k = 0; k < n; k++) {
          const a = (2 * Math.PI * k) / n;
          const b = boxAt([r.anchor[0] + rad * Math.cos(a), r.anchor[1] + rad * Math.sin(a)]);
          if (!free(b)) continue;
          const end = nearestOnBox(b, r.anchor);
          const leader: Segment = [r.anchor[0], r.anchor[1], end[0], end[1]];
          // the leader passes through no other label
          if (taken.some((t) => segmentHitsBox(leader, t))) continue;
          accept(b, leader);
          done = true;
          break;
        }
      }
    }
    if (!done) dropped.push(r);
  }
  return { placed, dropped };
}

/**
 * The labels a placement dropped, as numbers 1, 2, … at their fields, placed among the labels already `placed` (their
 * boxes are obstacles, their leader lines segments); `legend` explains each number under the plot ('–' where even
 * the number fits nowhere).
 */
export function tagDropped(
  dropped: ReadonlyArray<LabelRequest>,
  placed: ReadonlyArray<PlacedLabel>,
  opts: PlacementOptions,
  size: number,
): { tags: PlacedLabel[]; legend: { tag: string; text: string }[] } {
  if (!dropped.length) return { tags: [], legend: [] };
  const tags = placeLabels(
    dropped.map((r, k) => ({
      key: r.key,
      text: String(k + 1),
      size,
      bold: true,
      anchor: r.anchor,
      inside: r.inside,
      priority: 0,
    })),
    {
      ...opts,
      segments: [...opts.segments, ...placed.flatMap((p) => (p.leader ? [p.leader] : []))],
      obstacles: [...(opts.obstacles ?? []), ...placed.map((p) => p.box)],
    },
  );
  // the numbers that found a place, renumbered 1, 2, … in order (a number only shrinks: its box still holds it)
  const number = new Map<string, string>();
  for (const r of dropped) if (tags.placed.some((t) => t.key === r.key)) number.set(r.key, String(number.size + 1));
  return {
    tags: tags.placed.map((t) => ({ ...t, text: number.get(t.key)! })),
    legend: dropped.map((r) => ({ tag: number.get(r.key) ?? '–', text: r.text })),
  };
}
