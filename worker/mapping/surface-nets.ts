// Boundary surfaces of a labelled 3D rectilinear grid by multi-label Surface Nets
// (S.F.F. Gibson, "Constrained elastic surface nets", MERL TR99-24 / MICCAI 1998; the multi-label
// form joins one vertex per "mixed" cell). Pure code, no I/O, so it is tested on synthetic labels.
//
// Construction:
//  - a grid edge joins two neighbouring nodes; it "crosses" a boundary when both labels are valid
//    (>= 0) and differ; the crossing point is given by the caller as a fraction t of the edge,
//    located by bisection between the two nodes (binary_cpt_diagram.ts);
//  - every cell (the box between 2 x 2 x 2 nodes) with at least one crossing edge gets ONE vertex:
//    the mean of the crossing points on its 12 edges (Gibson's initial placement, without the
//    relaxation step, which would move vertices away from the bisected crossings);
//  - every crossing edge yields one quad joining the vertices of the 4 cells around that edge.
//    At the domain faces some of these cells do not exist: the nearest existing cell is used and
//    its vertex is projected onto the face (the face coordinate of the edge), so the surfaces reach
//    the faces of the grid instead of stopping half a cell short;
//  - an axis with a single node (degenerate grid) has flat cells; quads then collapse to segments,
//    which are returned as lines.
// Coordinates are whatever the caller passes per axis (here x, T and P or log10 P).

export interface LabelledGrid {
  /** node coordinates per axis (axis 0 fastest in the flat index) */
  coords: [ArrayLike<number>, ArrayLike<number>, ArrayLike<number>];
  /** flat labels, index = (k * n1 + j) * n0 + i; < 0 = unknown (never part of a boundary) */
  labels: ArrayLike<number>;
}

/** Crossing fraction t in (0, 1) from the lower node, keyed by edgeKey(axis, lowerNodeIndex). */
export type Crossings = Map<number, number>;

export function edgeKey(axis: number, node: number): number {
  return node * 3 + axis;
}

export interface BoundarySurface {
  /** xyz triples */
  points: number[];
  /** polygons (3 or 4 vertex indices, in cyclic order around their edge) */
  polys: number[][];
  /** degenerate polygons (one axis with a single node): 2-vertex segments */
  lines: number[][];
  /** per polygon / line: the labels [lower node, upper node] of the grid edge it belongs to */
  polyLabels: [number, number][];
  lineLabels: [number, number][];
  /** per polygon / line: the grid axis of that edge */
  polyAxis: number[];
  lineAxis: number[];
}

export interface GridEdge {
  axis: number;
  node: number;
  a: number;
  b: number;
}

/** Every grid edge whose two node labels are valid and differ (candidates for bisection). */
export function changingEdges(dims: [number, number, number], labels: ArrayLike<number>): GridEdge[] {
  const [n0, n1, n2] = dims;
  const stride = [1, n0, n0 * n1];
  const out: GridEdge[] = [];
  for (let k = 0; k < n2; k++)
    for (let j = 0; j < n1; j++)
      for (let i = 0; i < n0; i++) {
        const node = (k * n1 + j) * n0 + i;
        const la = labels[node]!;
        if (la < 0) continue;
        const idx = [i, j, k];
        for (let axis = 0; axis < 3; axis++) {
          if (idx[axis]! + 1 >= dims[axis]!) continue;
          const lb = labels[node + stride[axis]!]!;
          if (lb >= 0 && lb !== la) out.push({ axis, node, a: la, b: lb });
        }
      }
  return out;
}

export function surfaceNets(grid: LabelledGrid, crossings: Crossings): BoundarySurface {
  const dims = grid.coords.map((c) => c.length) as [number, number, number];
  const [n0, n1] = dims;
  const stride = [1, n0, n0 * n1];
  const cellDims = dims.map((n) => Math.max(n - 1, 1));
  const span = grid.coords.map((c) => Math.abs((c[c.length - 1] ?? 0) - (c[0] ?? 0)) || 1);
  const labels = grid.labels;

  const crossingPoint = (axis: number, node: number): number[] | undefined => {
    const t = crossings.get(edgeKey(axis, node));
    if (t === undefined) return undefined;
    const idx = [node % n0, Math.floor(node / n0) % n1, Math.floor(node / (n0 * n1))];
    const p = idx.map((v, a) => grid.coords[a]![v]!);
    const c = grid.coords[axis]!;
    p[axis] = c[idx[axis]!]! + t * (c[idx[axis]! + 1]! - c[idx[axis]!]!);
    return p;
  };

  // One vertex per mixed cell: mean of the crossings on its edges (cached by cell index).
  const cellVertex = new Map<number, number[]>();
  const vertexOfCell = (c: number[]): number[] => {
    const key = (c[2]! * cellDims[1]! + c[1]!) * cellDims[0]! + c[0]!;
    const hit = cellVertex.get(key);
    if (hit) return hit;
    const sum = [0, 0, 0];
    let count = 0;
    for (let axis = 0; axis < 3; axis++) {
      if (dims[axis]! < 2) continue;
      const o1 = (axis + 1) % 3,
        o2 = (axis + 2) % 3;
      for (let d1 = 0; d1 < 2; d1++)
        for (let d2 = 0; d2 < 2; d2++) {
          const idx = [0, 0, 0];
          idx[axis] = c[axis]!;
          idx[o1] = Math.min(c[o1]! + d1, dims[o1]! - 1);
          idx[o2] = Math.min(c[o2]! + d2, dims[o2]! - 1);
          // a flat axis repeats its single node: count each distinct edge once
          if ((d1 === 1 && dims[o1]! < 2) || (d2 === 1 && dims[o2]! < 2)) continue;
          const p = crossingPoint(axis, (idx[2]! * n1 + idx[1]!) * n0 + idx[0]!);
          if (!p) continue;
          sum[0] += p[0]!;
          sum[1] += p[1]!;
          sum[2] += p[2]!;
          count++;
        }
    }
    let v: number[];
    if (count > 0) v = sum.map((s) => s / count);
    else {
      // no crossing recorded (e.g. its changing edges involve unknown labels): the cell centre
      v = [0, 1, 2].map((a) => {
        const cc = grid.coords[a]!;
        return (cc[c[a]!]! + cc[Math.min(c[a]! + 1, dims[a]! - 1)]!) / 2;
      });
    }
    cellVertex.set(key, v);
    return v;
  };

  const out: BoundarySurface = {
    points: [],
    polys: [],
    lines: [],
    polyLabels: [],
    lineLabels: [],
    polyAxis: [],
    lineAxis: [],
  };
  const pointIndex = new Map<string, number>();
  const addPoint = (p: number[], key: string): number => {
    const hit = pointIndex.get(key);
    if (hit !== undefined) return hit;
    const id = out.points.length / 3;
    out.points.push(p[0]!, p[1]!, p[2]!);
    pointIndex.set(key, id);
    return id;
  };
  const same = (a: number, b: number): boolean => {
    for (let d = 0; d < 3; d++) {
      if (Math.abs(out.points[a * 3 + d]! - out.points[b * 3 + d]!) > 1e-9 * span[d]!) return false;
    }
    return true;
  };

  // Deterministic order: edges sorted by node then axis (the Map keeps insertion order otherwise).
  const keys = [...crossings.keys()].sort((a, b) => a - b);
  for (const key of keys) {
    const axis = key % 3,
      node = (key - axis) / 3;
    const la = labels[node]!,
      lb = labels[node + stride[axis]!]!;
    const idx = [node % n0, Math.floor(node / n0) % n1, Math.floor(node / (n0 * n1))];
    const o1 = (axis + 1) % 3,
      o2 = (axis + 2) % 3;
    const ring: number[] = [];
    // the 4 cells around the edge in cyclic order: (-1,-1), (0,-1), (0,0), (-1,0) in (o1, o2)
    for (const [d1, d2] of [
      [-1, -1],
      [0, -1],
      [0, 0],
      [-1, 0],
    ] as const) {
      const raw = [0, 0, 0];
      raw[axis] = idx[axis]!;
      raw[o1] = idx[o1]! + d1;
      raw[o2] = idx[o2]! + d2;
      const cell = raw.map((r, a) => Math.min(Math.max(r, 0), cellDims[a]! - 1));
      const v = [...vertexOfCell(cell)];
      const proj: number[] = [-1, -1, -1];
      for (const a of [o1, o2]) {
        // a missing cell beyond a domain face, or a flat axis: project onto the edge's face coordinate
        if (cell[a] !== raw[a] || dims[a]! < 2) {
          v[a] = grid.coords[a]![idx[a]!]!;
          proj[a] = idx[a]!;
        }
      }
      const cellKey = (cell[2]! * cellDims[1]! + cell[1]!) * cellDims[0]! + cell[0]!;
      ring.push(addPoint(v, `${cellKey}:${proj.join(',')}`));
    }
    // drop repeated vertices (collapsed cells at faces / flat axes), keeping the cyclic order
    const uniq: number[] = [];
    for (const p of ring) if (!uniq.some((q) => q === p || same(q, p))) uniq.push(p);
    // The ring order above is counter-clockwise seen from +axis (o1 = axis+1, o2 = axis+2 is right-handed),
    // so the normal points from the lower to the upper node; flip it where needed so that every
    // polygon's normal points from the smaller to the larger phase-set index (consistent shading).
    if (la > lb) uniq.reverse();
    if (uniq.length >= 3) {
      out.polys.push(uniq);
      out.polyLabels.push([la, lb]);
      out.polyAxis.push(axis);
    } else if (uniq.length === 2) {
      out.lines.push(uniq);
      out.lineLabels.push([la, lb]);
      out.lineAxis.push(axis);
    }
  }
  return out;
}
