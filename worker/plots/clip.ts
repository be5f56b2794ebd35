// Clipping of plot geometry to a rectangle in pixel coordinates (Liang-Barsky for segments and
// polylines, Sutherland-Hodgman for polygons).
import type { Rect } from './svg-builder.js';

export type Point = readonly [number, number];

/**
 * Geometry drawn under a clip path is also clipped here, in pixel coordinates, to the clip rectangle
 * grown by CLIP_MARGIN (so round caps at the frame look as before): nothing entirely outside the plot is
 * written, because resvg aborts the process on a path whose box lies outside its clip rectangle.
 */
export const CLIP_MARGIN = 4;

export function grow(r: Rect, m: number): Rect {
  return { x: r.x - m, y: r.y - m, width: r.width + 2 * m, height: r.height + 2 * m };
}

function inRect([x, y]: Point, r: Rect): boolean {
  return x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height;
}

/** The part of segment a-b inside r (Liang-Barsky), or undefined when none is. */
export function clipSegment(a: Point, b: Point, r: Rect): [Point, Point] | undefined {
  if (![...a, ...b].every(Number.isFinite)) return undefined;
  const dx = b[0] - a[0],
    dy = b[1] - a[1];
  let t0 = 0,
    t1 = 1;
  const edges: [number, number][] = [
    [-dx, a[0] - r.x],
    [dx, r.x + r.width - a[0]],
    [-dy, a[1] - r.y],
    [dy, r.y + r.height - a[1]],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return undefined;
      continue;
    }
    const t = q / p;
    if (p < 0) {
      if (t > t1) return undefined;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return undefined;
      if (t < t1) t1 = t;
    }
  }
  return [
    [a[0] + t0 * dx, a[1] + t0 * dy],
    [a[0] + t1 * dx, a[1] + t1 * dy],
  ];
}

/** Splits a polyline (pixel coordinates) into the runs that lie inside r; runs of one point are kept only inside. */
export function clipPolyline(points: ReadonlyArray<Point>, r: Rect): Point[][] {
  const pts = points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  if (pts.length === 1) return inRect(pts[0], r) ? [[pts[0]]] : [];
  const out: Point[][] = [];
  let cur: Point[] = [];
  for (let i = 1; i < pts.length; i++) {
    const seg = clipSegment(pts[i - 1], pts[i], r);
    if (!seg) {
      if (cur.length) {
        out.push(cur);
        cur = [];
      }
      continue;
    }
    const last = cur[cur.length - 1];
    if (!last || last[0] !== seg[0][0] || last[1] !== seg[0][1]) {
      if (cur.length) out.push(cur);
      cur = [seg[0]];
    }
    cur.push(seg[1]);
    // The segment left the rectangle: the next visible piece starts a new run.
    if (seg[1][0] !== pts[i][0] || seg[1][1] !== pts[i][1]) {
      out.push(cur);
      cur = [];
    }
  }
  if (cur.length) out.push(cur);
  return out;
}

/** A polygon (pixel coordinates) clipped to r (Sutherland-Hodgman); fewer than 3 vertices when nothing is inside. */
export function clipPolygon(points: ReadonlyArray<Point>, r: Rect): Point[] {
  let poly: Point[] = points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const sides: [(p: Point) => boolean, (a: Point, b: Point) => Point][] = [
    [(p) => p[0] >= r.x, (a, b) => cutX(a, b, r.x)],
    [(p) => p[0] <= r.x + r.width, (a, b) => cutX(a, b, r.x + r.width)],
    [(p) => p[1] >= r.y, (a, b) => cutY(a, b, r.y)],
    [(p) => p[1] <= r.y + r.height, (a, b) => cutY(a, b, r.y + r.height)],
  ];
  for (const [inside, cut] of sides) {
    if (poly.length === 0) break;
    const next: Point[] = [];
    for (let i = 0; i < poly.length; i++) {
      const cur = poly[i],
        prev = poly[(i + poly.length - 1) % poly.length];
      if (inside(cur)) {
        if (!inside(prev)) next.push(cut(prev, cur));
        next.push(cur);
      } else if (inside(prev)) next.push(cut(prev, cur));
    }
    poly = next;
  }
  return poly;
}
function cutX(a: Point, b: Point, x: number): Point {
  return [x, a[1] + ((b[1] - a[1]) * (x - a[0])) / (b[0] - a[0])];
}
function cutY(a: Point, b: Point, y: number): Point {
  return [a[0] + ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]), y];
}
