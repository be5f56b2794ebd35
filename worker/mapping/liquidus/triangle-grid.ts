// The composition triangle of a liquidus projection as a grid of n divisions per side: nodes (i, j) at the fractions
// b = i/n of the second corner and c = j/n of the third (the first corner takes the rest), the edges between
// neighbouring nodes and the small triangles they bound. Components held fixed (a section of a multicomponent alloy)
// keep their fractions; the three corners share the rest.

/** Fractions kept off 0 so that no element of the solver's conditions is exactly absent. */
const EDGE_EPS = 1e-9;

export interface GridEdge {
  key: string;
  /** node indices: the edge runs from p (s = 0) to q (s = 1) */
  p: number;
  q: number;
}

export class TriangleGrid {
  readonly nodes: [number, number][] = [];
  readonly edges: GridEdge[] = [];
  /** small triangles: their node indices and their edges' keys */
  readonly cells: { nodes: [number, number, number]; edges: [string, string, string] }[] = [];
  private readonly index = new Map<string, number>();
  private readonly byKey = new Map<string, GridEdge>();

  constructor(
    readonly n: number,
    /** the three varying components, the first dependent in the solver's conditions */
    readonly corners: [string, string, string],
    /** mole fractions of the components held fixed */
    readonly fixed: Record<string, number>,
  ) {
    for (let i = 0; i <= n; i++)
      for (let j = 0; j <= n - i; j++) {
        this.index.set(`${i},${j}`, this.nodes.length);
        this.nodes.push([i / n, j / n]);
      }
    const id = (i: number, j: number) => this.index.get(`${i},${j}`)!;
    const edge = (p: number, q: number) => {
      const key = p < q ? `${p}-${q}` : `${q}-${p}`;
      if (!this.byKey.has(key)) {
        const e = { key, p: Math.min(p, q), q: Math.max(p, q) };
        this.byKey.set(key, e);
        this.edges.push(e);
      }
      return key;
    };
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n - i; j++) {
        const up: [number, number, number] = [id(i, j), id(i + 1, j), id(i, j + 1)];
        this.cells.push({ nodes: up, edges: [edge(up[0], up[1]), edge(up[1], up[2]), edge(up[2], up[0])] });
        if (i + j <= n - 2) {
          const down: [number, number, number] = [id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)];
          this.cells.push({
            nodes: down,
            edges: [edge(down[0], down[1]), edge(down[1], down[2]), edge(down[2], down[0])],
          });
        }
      }
  }

  /** Share of the atoms the three corners take. */
  get rest(): number {
    return 1 - Object.values(this.fixed).reduce((s, v) => s + v, 0);
  }

  /** The solver's mole fractions (every component but the first corner) at triangle coordinates (b, c). */
  X(b: number, c: number): Record<string, number> {
    const [, B, C] = this.corners;
    const norm = this.rest / (1 + 3 * EDGE_EPS);
    return {
      ...this.fixed,
      [B]: (Math.max(b, 0) + EDGE_EPS) * norm,
      [C]: (Math.max(c, 0) + EDGE_EPS) * norm,
    };
  }

  /** Every component's mole fraction at (b, c), the first corner included. */
  composition(b: number, c: number): Record<string, number> {
    const [A, B, C] = this.corners;
    const r = this.rest;
    return { [A]: (1 - b - c) * r, [B]: b * r, [C]: c * r, ...this.fixed };
  }

  /** The point at fraction s of an edge. */
  along(e: GridEdge, s: number): [number, number] {
    const [b0, c0] = this.nodes[e.p]!,
      [b1, c1] = this.nodes[e.q]!;
    return [b0 + s * (b1 - b0), c0 + s * (c1 - c0)];
  }

  edgeOf(key: string): GridEdge {
    return this.byKey.get(key)!;
  }
}
