// The boundaries between the fields of a labelled two-dimensional grid (a potential diagram's nodes, each labelled by
// its stable phase set): marching squares (Lorensen and Cline, Computer Graphics 21 (1987) 163) over the crossings
// bisected on the grid's edges. In a cell whose edges are crossed by two boundaries of one pair of fields, the two
// crossings are joined; a cell where three or more fields meet holds a junction, placed where the boundaries that end
// in it meet when extended along their last segments (the cell's mean crossing when they do not meet inside it).
// Pure geometry: no equilibria here (worker/mapping/potential/grid.ts computes the labels and crossings).
import { gridComponents, rectangularNeighbours } from '../core/grid.js';

/** Node (i, j) of an nx x ny grid is labels[j * nx + i]; -1 where the equilibrium was not certified. */
export interface LabelGrid {
  nx: number;
  ny: number;
  labels: Int32Array;
}

/** Edge from node (i, j) to (i + 1, j) (axis 0) or to (i, j + 1) (axis 1). */
export interface GridEdge {
  axis: 0 | 1;
  i: number;
  j: number;
}

/** Where a boundary crosses an edge: the fraction t along it and the labels before and after. */
export interface Crossing {
  t: number;
  from: number;
  to: number;
}

export type Pt = [number, number];

export interface Contour {
  /** the two labels, lower first */
  pair: [number, number];
  /** in grid coordinates (i + t, j) */
  points: Pt[];
}

export interface Junction {
  at: Pt;
  /** the cell it lies in: its lower node (i, j) */
  cell: Pt;
  labels: number[];
}

export const edgeKey = (e: GridEdge): string => `${e.axis}:${e.i}:${e.j}`;

/** The edges whose two nodes are certified and labelled alike (`same`) or differently. */
function edgesWhere(g: LabelGrid, same: boolean): GridEdge[] {
  const out: GridEdge[] = [];
  const at = (i: number, j: number) => g.labels[j * g.nx + i]!;
  const take = (a: number, b: number) => b >= 0 && (a === b) === same;
  for (let j = 0; j < g.ny; j++)
    for (let i = 0; i < g.nx; i++) {
      const a = at(i, j);
      if (a < 0) continue;
      if (i + 1 < g.nx && take(a, at(i + 1, j))) out.push({ axis: 0, i, j });
      if (j + 1 < g.ny && take(a, at(i, j + 1))) out.push({ axis: 1, i, j });
    }
  return out;
}

export const changedEdges = (g: LabelGrid): GridEdge[] => edgesWhere(g, false);
export const sameSetEdges = (g: LabelGrid): GridEdge[] => edgesWhere(g, true);

const pairKey = (a: number, b: number) => (a < b ? `${a}|${b}` : `${b}|${a}`);
const crossingPoint = (e: GridEdge, t: number): Pt => (e.axis === 0 ? [e.i + t, e.j] : [e.i, e.j + t]);

interface CellCrossing {
  id: string;
  key: string;
  labels: [number, number];
  at: Pt;
}

/**
 * The crossings on the four edges of cell (i, j) in order round it (bottom, right, top, left; an edge may hold
 * several: a narrow field between its nodes).
 */
function cellCrossings(i: number, j: number, crossings: Map<string, Crossing[]>): CellCrossing[] {
  const edges: [GridEdge, boolean][] = [
    [{ axis: 0, i, j }, false],
    [{ axis: 1, i: i + 1, j }, false],
    [{ axis: 0, i, j: j + 1 }, true],
    [{ axis: 1, i, j }, true],
  ];
  return edges.flatMap(([e, backwards]) => {
    const list = (crossings.get(edgeKey(e)) ?? []).map((c, n) => ({
      id: `e${edgeKey(e)}#${n}`,
      key: pairKey(c.from, c.to),
      labels: [c.from, c.to] as [number, number],
      at: crossingPoint(e, c.t),
    }));
    return backwards ? list.reverse() : list;
  });
}

interface Segments {
  /** per pair key: [endpoint id, endpoint id] */
  byPair: Map<string, [string, string][]>;
  position: Map<string, Pt>;
  junctionCells: Map<string, JunctionCell>;
}

/** A cell where boundaries end: their crossings, and a boundary passing through it that the one ending meets. */
interface JunctionCell {
  cell: Pt;
  crossings: CellCrossing[];
  labels: Set<number>;
  through?: [Pt, Pt];
}

/** The segments of every cell: a pair crossing it twice joins its crossings, pairs that end in it meet at a junction. */
function segmentsOf(g: LabelGrid, crossings: Map<string, Crossing[]>): Segments {
  const seg: Segments = { byPair: new Map(), position: new Map(), junctionCells: new Map() };
  const add = (key: string, a: string, b: string) => {
    const list = seg.byPair.get(key) ?? [];
    list.push([a, b]);
    seg.byPair.set(key, list);
  };
  for (let j = 0; j + 1 < g.ny; j++)
    for (let i = 0; i + 1 < g.nx; i++) {
      const cs = cellCrossings(i, j, crossings);
      if (cs.length === 0) continue;
      for (const c of cs) seg.position.set(c.id, c.at);
      const byKey = new Map<string, CellCrossing[]>();
      for (const c of cs) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c]);
      // a pair crossing the cell an even number of times passes through it (joined in order round the cell: a
      // saddle's four crossings pair up as they come); a pair crossing it an odd number of times ends in it
      const odd = [...byKey.values()].filter((l) => l.length % 2 === 1).flat();
      for (const [key, list] of byKey)
        if (list.length % 2 === 0) for (let k = 0; k < list.length; k += 2) add(key, list[k]!.id, list[k + 1]!.id);
      if (odd.length === 0) continue;
      const passing = [...byKey.values()].find((l) => l.length === 2);
      // one boundary ending where no other passes: its own end (a critical point), not a junction
      if (odd.length === 1 && !passing) continue;
      const labels = new Set([...odd, ...(odd.length === 1 ? passing! : [])].flatMap((c) => c.labels));
      const id = `j${i}:${j}`;
      const through = odd.length === 1 ? ([passing![0]!.at, passing![1]!.at] as [Pt, Pt]) : undefined;
      seg.junctionCells.set(id, { cell: [i, j], crossings: odd, labels, through });
      for (const c of odd) add(c.key, c.id, id);
    }
  return seg;
}

/** Chains of endpoint ids joined by the segments of one pair, each chain walked from an end (or around a loop). */
function chains(segments: [string, string][]): string[][] {
  const adj = new Map<string, string[]>();
  for (const [a, b] of segments) {
    adj.set(a, [...(adj.get(a) ?? []), b]);
    adj.set(b, [...(adj.get(b) ?? []), a]);
  }
  const used = new Set<string>();
  const edgeId = (a: string, b: string) => (a < b ? `${a}>${b}` : `${b}>${a}`);
  const walk = (start: string): string[] => {
    const path = [start];
    let cur = start;
    for (;;) {
      const next = (adj.get(cur) ?? []).find((n) => !used.has(edgeId(cur, n)));
      if (next === undefined) return path;
      used.add(edgeId(cur, next));
      path.push(next);
      cur = next;
    }
  };
  const out: string[][] = [];
  const starts = [...adj.keys()].sort((a, b) => adj.get(a)!.length - adj.get(b)!.length);
  for (const s of starts) {
    while ((adj.get(s) ?? []).some((n) => !used.has(edgeId(s, n)))) out.push(walk(s));
  }
  return out;
}

/** Where the lines through the end segments meet (least squares), or undefined when they are parallel. */
function meetingPoint(lines: [Pt, Pt][]): Pt | undefined {
  // minimise the sum of squared distances to each line: sum (I - d d^T) (p - a) = 0
  let a11 = 0,
    a12 = 0,
    a22 = 0,
    b1 = 0,
    b2 = 0;
  for (const [p, q] of lines) {
    const dx = q[0] - p[0],
      dy = q[1] - p[1];
    const len = Math.hypot(dx, dy);
    if (len < 1e-12) continue;
    const ux = dx / len,
      uy = dy / len;
    const m11 = 1 - ux * ux,
      m12 = -ux * uy,
      m22 = 1 - uy * uy;
    a11 += m11;
    a12 += m12;
    a22 += m22;
    b1 += m11 * p[0] + m12 * p[1];
    b2 += m12 * p[0] + m22 * p[1];
  }
  const det = a11 * a22 - a12 * a12;
  if (Math.abs(det) < 1e-9) return undefined;
  return [(b1 * a22 - b2 * a12) / det, (a11 * b2 - a12 * b1) / det];
}

/** A junction's position: where its boundaries' end segments meet inside its cell, else its mean crossing. */
function placeJunction(j: JunctionCell, ends: [Pt, Pt][]): Pt {
  const { cell, crossings, through } = j;
  const met = meetingPoint(through ? [...ends, through] : ends);
  const inside = (p: Pt) => p[0] >= cell[0] && p[0] <= cell[0] + 1 && p[1] >= cell[1] && p[1] <= cell[1] + 1;
  if (met && ends.length + (through ? 1 : 0) >= 2 && inside(met)) return met;
  if (through) return nearestOn(through, crossings[0]!.at);
  const n = crossings.length;
  return [crossings.reduce((s, c) => s + c.at[0], 0) / n, crossings.reduce((s, c) => s + c.at[1], 0) / n];
}

/** The point of segment [a, b] nearest p. */
function nearestOn([a, b]: [Pt, Pt], p: Pt): Pt {
  const dx = b[0] - a[0],
    dy = b[1] - a[1];
  const t = Math.min(1, Math.max(0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy || 1)));
  return [a[0] + t * dx, a[1] + t * dy];
}

/** The end segment of a chain that ends at `id`: from the point before the last crossing to that crossing. */
function endSegment(chain: string[], id: string, pos: Map<string, Pt>): [Pt, Pt] | undefined {
  const ids = chain[0] === id ? [...chain].reverse() : chain;
  if (ids.length < 3 || ids[ids.length - 1] !== id) return undefined;
  return [pos.get(ids[ids.length - 3]!)!, pos.get(ids[ids.length - 2]!)!];
}

/** The boundaries of a labelled grid as polylines in grid coordinates, and the junctions where fields meet. */
export function contours(
  g: LabelGrid,
  crossings: Map<string, Crossing[]>,
): { lines: Contour[]; junctions: Junction[] } {
  const seg = segmentsOf(g, crossings);
  const chained = [...seg.byPair].map(([key, list]) => ({ key, chains: chains(list) }));
  const junctions: Junction[] = [];
  for (const [id, j] of seg.junctionCells) {
    const ends = chained.flatMap((c) =>
      c.chains.filter((ch) => ch[0] === id || ch[ch.length - 1] === id).map((ch) => endSegment(ch, id, seg.position)),
    );
    const at = placeJunction(
      j,
      ends.filter((e): e is [Pt, Pt] => e !== undefined),
    );
    seg.position.set(id, at);
    junctions.push({ at, cell: j.cell, labels: [...j.labels].sort((a, b) => a - b) });
  }
  const lines: Contour[] = chained.flatMap(({ key, chains: list }) => {
    const [a, b] = key.split('|').map(Number) as [number, number];
    return list.map((ids) => ({ pair: [a, b] as [number, number], points: ids.map((id) => seg.position.get(id)!) }));
  });
  return { lines, junctions };
}

/** A connected field of one label (4-neighbours) and its node deepest inside it (farthest from other labels). */
export interface FieldNodes {
  label: number;
  nodes: number;
  anchor: Pt;
}

const FOUR_NEIGHBOURS = [
  [0, 1],
  [0, -1],
  [1, 0],
  [-1, 0],
] as const;

/** Grid steps (4-neighbours) from each node to the nearest node of another label or to the grid's border. */
function depthOf(g: LabelGrid, neighbours: (k: number) => number[]): Int32Array {
  const depth = new Int32Array(g.nx * g.ny).fill(-1);
  const queue: number[] = [];
  for (let k = 0; k < depth.length; k++) {
    const nb = neighbours(k);
    if (nb.length < 4 || nb.some((m) => g.labels[m] !== g.labels[k])) {
      depth[k] = 0;
      queue.push(k);
    }
  }
  for (let q = 0; q < queue.length; q++)
    for (const m of neighbours(queue[q]!))
      if (depth[m] === -1) {
        depth[m] = depth[queue[q]!]! + 1;
        queue.push(m);
      }
  return depth;
}

/**
 * The connected fields of a labelled grid (core/grid.ts gridComponents), each anchored at its node farthest from any
 * node of another label and from the border (ties: the node nearest the field's centroid). A component none of whose
 * nodes lies more than one step inside it, while its label has a wider component, is a sliver of a field narrower
 * than the grid step (the crossings draw its boundaries): it gets no label of its own.
 */
export function fieldsOf(g: LabelGrid): FieldNodes[] {
  const neighbours = rectangularNeighbours(g.ny, g.nx, FOUR_NEIGHBOURS);
  const depth = depthOf(g, neighbours);
  const components = gridComponents(
    g.nx * g.ny,
    (k) => g.labels[k]! >= 0,
    neighbours,
    (a, b) => g.labels[a] === g.labels[b],
  ).map((c) => ({ nodes: c, label: g.labels[c[0]!]!, depth: Math.max(...c.map((k) => depth[k]!)) }));
  // per label, its widest component (the most nodes among equally deep ones)
  const widest = new Map<number, (typeof components)[number]>();
  for (const c of components) {
    const w = widest.get(c.label);
    if (!w || c.depth > w.depth || (c.depth === w.depth && c.nodes.length > w.nodes.length)) widest.set(c.label, c);
  }
  return components
    .filter((c) => c.depth > 0 || widest.get(c.label) === c)
    .map((c) => ({ label: c.label, nodes: c.nodes.length, anchor: deepest(c.nodes, depth, g.nx) }));
}

function deepest(members: number[], depth: Int32Array, nx: number): Pt {
  const cx = members.reduce((s, k) => s + (k % nx), 0) / members.length;
  const cy = members.reduce((s, k) => s + Math.floor(k / nx), 0) / members.length;
  let best = members[0]!,
    bestScore = -Infinity;
  for (const k of members) {
    const score = depth[k]! * 1e6 - Math.hypot((k % nx) - cx, Math.floor(k / nx) - cy);
    if (score > bestScore) {
      bestScore = score;
      best = k;
    }
  }
  return [best % nx, Math.floor(best / nx)];
}
