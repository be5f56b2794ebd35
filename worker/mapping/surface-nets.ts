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
  return new SurfaceNet(grid, crossings).build();
}

/** The construction of one surface net: the grid's shape, the cell vertices and points made so far, the output. */
class SurfaceNet {
  private readonly dims: [number, number, number];
  private readonly stride: number[];
  private readonly cellDims: number[];
  private readonly span: number[];
  /** one vertex per mixed cell, by cell index */
  private readonly cellVertex = new Map<number, number[]>();
  private readonly pointIndex = new Map<string, number>();
  private readonly out: BoundarySurface = {
    points: [],
    polys: [],
    lines: [],
    polyLabels: [],
    lineLabels: [],
    polyAxis: [],
    lineAxis: [],
  };

  constructor(
    private readonly grid: LabelledGrid,
    private readonly crossings: Crossings,
  ) {
    this.dims = grid.coords.map((c) => c.length) as [number, number, number];
    const [n0, n1] = this.dims;
    this.stride = [1, n0, n0 * n1];
    this.cellDims = this.dims.map((n) => Math.max(n - 1, 1));
    this.span = grid.coords.map((c) => Math.abs((c[c.length - 1] ?? 0) - (c[0] ?? 0)) || 1);
  }

  /** One polygon (or, on a flat axis, a segment) per crossing edge, in a deterministic order: by node, then axis. */
  build(): BoundarySurface {
    const labels = this.grid.labels;
    // (the Map keeps insertion order otherwise)
    const keys = [...this.crossings.keys()].sort((a, b) => a - b);
    for (const key of keys) {
      const axis = key % 3,
        node = (key - axis) / 3;
      const la = labels[node]!,
        lb = labels[node + this.stride[axis]!]!;
      const uniq = this.ringAround(axis, node);
      // The ring order is counter-clockwise seen from +axis (o1 = axis+1, o2 = axis+2 is right-handed),
      // so the normal points from the lower to the upper node; flip it where needed so that every
      // polygon's normal points from the smaller to the larger phase-set index (consistent shading).
      if (la > lb) uniq.reverse();
      const out = this.out;
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
    return this.out;
  }

  /** The grid indices of a node. */
  private indexOf(node: number): number[] {
    const [n0, n1] = this.dims;
    return [node % n0, Math.floor(node / n0) % n1, Math.floor(node / (n0 * n1))];
  }

  /**
   * The vertices of the 4 cells around a crossing edge in cyclic order, (-1,-1), (0,-1), (0,0), (-1,0) in (o1, o2),
   * repeated vertices dropped (collapsed cells at faces / flat axes).
   */
  private ringAround(axis: number, node: number): number[] {
    const { dims, cellDims, grid } = this;
    const idx = this.indexOf(node);
    const o1 = (axis + 1) % 3,
      o2 = (axis + 2) % 3;
    const ring: number[] = [];
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
      const v = [...this.vertexOfCell(cell)];
      const proj: number[] = [-1, -1, -1];
      for (const a of [o1, o2]) {
        // a missing cell beyond a domain face, or a flat axis: project onto the edge's face coordinate
        if (cell[a] !== raw[a] || dims[a]! < 2) {
          v[a] = grid.coords[a]![idx[a]!]!;
          proj[a] = idx[a]!;
        }
      }
      const cellKey = (cell[2]! * cellDims[1]! + cell[1]!) * cellDims[0]! + cell[0]!;
      ring.push(this.addPoint(v, `${cellKey}:${proj.join(',')}`));
    }
    const uniq: number[] = [];
    for (const p of ring) if (!uniq.some((q) => q === p || this.same(q, p))) uniq.push(p);
    return uniq;
  }

  /** The crossing point on the edge from node along axis, if one was recorded. */
  private crossingPoint(axis: number, node: number): number[] | undefined {
    const t = this.crossings.get(edgeKey(axis, node));
    if (t === undefined) return undefined;
    const idx = this.indexOf(node);
    const p = idx.map((v, a) => this.grid.coords[a]![v]!);
    const c = this.grid.coords[axis]!;
    p[axis] = c[idx[axis]!]! + t * (c[idx[axis]! + 1]! - c[idx[axis]!]!);
    return p;
  }

  /** The vertex of a mixed cell: the mean of the crossings on its edges (cached by cell index). */
  private vertexOfCell(c: number[]): number[] {
    const { dims, cellDims, grid } = this;
    const [n0, n1] = dims;
    const key = (c[2]! * cellDims[1]! + c[1]!) * cellDims[0]! + c[0]!;
    const hit = this.cellVertex.get(key);
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
          const p = this.crossingPoint(axis, (idx[2]! * n1 + idx[1]!) * n0 + idx[0]!);
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
    this.cellVertex.set(key, v);
    return v;
  }

  private addPoint(p: number[], key: string): number {
    const hit = this.pointIndex.get(key);
    if (hit !== undefined) return hit;
    const id = this.out.points.length / 3;
    this.out.points.push(p[0]!, p[1]!, p[2]!);
    this.pointIndex.set(key, id);
    return id;
  }

  private same(a: number, b: number): boolean {
    const pts = this.out.points;
    for (let d = 0; d < 3; d++) {
      if (Math.abs(pts[a * 3 + d]! - pts[b * 3 + d]!) > 1e-9 * this.span[d]!) return false;
    }
    return true;
  }
}
