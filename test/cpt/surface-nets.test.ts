// Multi-label Surface Nets (worker/mapping/surface-nets.ts) on synthetic labels whose exact
// boundaries are known: a plane, a sphere (closed surface: every polygon edge shared by two
// polygons), three regions, and a grid with a flat axis.
import { describe, expect, it } from 'vitest';
import { changingEdges, edgeKey, surfaceNets, type Crossings } from '../../worker/mapping/surface-nets.js';

function axis(n: number, lo = 0, hi = 1): number[] {
  return n === 1 ? [lo] : Array.from({ length: n }, (_, i) => lo + ((hi - lo) * i) / (n - 1));
}

/** Labels from a function of the node coordinates; crossings by bisection of f along each edge (exact to 1e-12). */
function build(xs: number[], ys: number[], zs: number[], f: (p: number[]) => number) {
  const labels: number[] = [];
  for (const z of zs) for (const y of ys) for (const x of xs) labels.push(f([x, y, z]));
  const dims: [number, number, number] = [xs.length, ys.length, zs.length];
  const coords = [xs, ys, zs];
  const crossings: Crossings = new Map();
  for (const e of changingEdges(dims, labels)) {
    const idx = [e.node % dims[0], Math.floor(e.node / dims[0]) % dims[1], Math.floor(e.node / (dims[0] * dims[1]))];
    let lo = 0,
      hi = 1;
    for (let k = 0; k < 50; k++) {
      const mid = (lo + hi) / 2;
      const p = idx.map((i, a) => coords[a]![i]!);
      p[e.axis] =
        coords[e.axis]![idx[e.axis]!]! + mid * (coords[e.axis]![idx[e.axis]! + 1]! - coords[e.axis]![idx[e.axis]!]!);
      if (f(p) === e.a) lo = mid;
      else hi = mid;
    }
    crossings.set(edgeKey(e.axis, e.node), (lo + hi) / 2);
  }
  return { labels, crossings, surface: surfaceNets({ coords: [xs, ys, zs], labels }, crossings) };
}

describe('surface nets', () => {
  it('a plane x = 0.37 gives one quad per crossing x-edge, all vertices on the plane, spanning the whole y-z face', () => {
    const xs = axis(9),
      ys = axis(7),
      zs = axis(5);
    const { surface } = build(xs, ys, zs, (p) => (p[0]! < 0.37 ? 0 : 1));
    expect(surface.polys.length).toBe(7 * 5);
    expect(surface.lines.length).toBe(0);
    for (let i = 0; i < surface.points.length; i += 3) expect(surface.points[i]).toBeCloseTo(0.37, 9);
    const ysOut = surface.points.filter((_, i) => i % 3 === 1),
      zsOut = surface.points.filter((_, i) => i % 3 === 2);
    expect(Math.min(...ysOut)).toBe(0);
    expect(Math.max(...ysOut)).toBe(1);
    expect(Math.min(...zsOut)).toBe(0);
    expect(Math.max(...zsOut)).toBe(1);
    for (const l of surface.polyLabels) expect(l).toEqual([0, 1]);
  });

  it('polygon normals point from the smaller to the larger label index', () => {
    const xs = axis(6),
      ys = axis(5),
      zs = axis(4);
    // label 1 below x = 0.5, label 0 above: the normal must point towards -x (from 0 to 1)
    for (const [lo, hi, sign] of [
      [0, 1, 1],
      [1, 0, -1],
    ] as const) {
      const { surface } = build(xs, ys, zs, (p) => (p[0]! < 0.5 ? lo : hi));
      expect(surface.polys.length).toBe(20);
      for (const poly of surface.polys) {
        const P = (k: number) => [0, 1, 2].map((d) => surface.points[poly[k]! * 3 + d]!);
        const [a, b, c] = [P(0), P(1), P(2)];
        const u = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!],
          v = [c[0]! - a[0]!, c[1]! - a[1]!, c[2]! - a[2]!];
        const nx = u[1]! * v[2]! - u[2]! * v[1]!;
        expect(Math.sign(nx)).toBe(sign);
      }
    }
  });

  it('a sphere inside the grid gives a closed surface with vertices near the sphere', () => {
    const xs = axis(16),
      ys = axis(16),
      zs = axis(16);
    const r = 0.33;
    const { surface } = build(xs, ys, zs, (p) => (Math.hypot(p[0]! - 0.5, p[1]! - 0.5, p[2]! - 0.5) < r ? 1 : 0));
    expect(surface.polys.length).toBeGreaterThan(100);
    const edgeUse = new Map<string, number>();
    for (const poly of surface.polys) {
      expect(poly.length).toBe(4);
      for (let k = 0; k < poly.length; k++) {
        const a = poly[k]!,
          b = poly[(k + 1) % poly.length]!;
        const key = a < b ? `${a},${b}` : `${b},${a}`;
        edgeUse.set(key, (edgeUse.get(key) ?? 0) + 1);
      }
    }
    for (const [, n] of edgeUse) expect(n).toBe(2);
    const h = 1 / 15;
    for (let i = 0; i < surface.points.length; i += 3) {
      const d = Math.hypot(surface.points[i]! - 0.5, surface.points[i + 1]! - 0.5, surface.points[i + 2]! - 0.5);
      expect(Math.abs(d - r)).toBeLessThan(h);
    }
  });

  it('three regions give polygons for both label pairs', () => {
    const xs = axis(10),
      ys = axis(10),
      zs = axis(3);
    const { surface } = build(xs, ys, zs, (p) => (p[0]! < 0.3 ? 0 : p[1]! < 0.6 ? 1 : 2));
    const pairs = new Set(surface.polyLabels.map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`));
    expect([...pairs].sort()).toEqual(['0-1', '0-2', '1-2']);
  });

  it('a flat axis (one node) gives segments instead of polygons', () => {
    const xs = axis(9),
      ys = axis(6),
      zs = [0.5];
    const { surface } = build(xs, ys, zs, (p) => (p[0]! < 0.42 ? 0 : 1));
    expect(surface.polys.length).toBe(0);
    expect(surface.lines.length).toBe(6);
    for (let i = 0; i < surface.points.length; i += 3) {
      expect(surface.points[i]).toBeCloseTo(0.42, 9);
      expect(surface.points[i + 2]).toBe(0.5);
    }
  });

  it('unknown labels (-1) never form boundaries', () => {
    const labels = [0, -1, 1, 1];
    expect(changingEdges([4, 1, 1], labels).map((e) => [e.node, e.axis])).toEqual([]);
    expect(changingEdges([4, 1, 1], [0, 0, 1, -1]).map((e) => [e.node, e.axis])).toEqual([[1, 0]]);
  });
});
