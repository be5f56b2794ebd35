// Seed grids of a map (core/skeleton.ts, stage 1): the nodes over the window, their neighbours, the chunked
// evaluation of their equilibria, and the connected fields of nodes of one phase set (the labels, stage 6).
//
// Two shapes: a rectangular grid of rows x columns (binary T-x, isopleth s-T), numbered row by row; and the
// triangular grid of a composition triangle (ternary sections), over the simplex of the window's lower bounds.
import type { EquilibriumConditions, EquilibriumResult } from '../../core/equilibrium.js';
import type { JobControl } from '../../protocol.js';
import { chunkedBatch, type BatchSetup } from '../../scans/batch.js';
import type { MapLedger } from './ledger.js';

/** Steps (rows, columns) to the neighbours of a rectangular grid's node, in the order a search visits them. */
export type NeighbourSteps = readonly (readonly [number, number])[];

/** The neighbours of node k of a rectangular grid (row-major, `cols` nodes per row) in the order of `steps`. */
export function rectangularNeighbours(rows: number, cols: number, steps: NeighbourSteps): (k: number) => number[] {
  return (k) => {
    const r = Math.floor(k / cols),
      c = k % cols;
    const out: number[] = [];
    for (const [dr, dc] of steps) {
      const rr = r + dr,
        cc = c + dc;
      if (rr >= 0 && cc >= 0 && rr < rows && cc < cols) out.push(rr * cols + cc);
    }
    return out;
  };
}

/** The neighbours of every node from a list of neighbouring pairs (both ways, in the order of the list). */
export function adjacency(pairs: readonly (readonly [number, number])[]): (k: number) => number[] {
  const adj = new Map<number, number[]>();
  for (const [a, b] of pairs) {
    (adj.get(a) ?? adj.set(a, []).get(a)!).push(b);
    (adj.get(b) ?? adj.set(b, []).get(b)!).push(a);
  }
  return (k) => adj.get(k) ?? [];
}

/**
 * The connected fields of a grid: nodes that are `member`s, joined to a neighbour of the same field (`same`),
 * each field's nodes in the order of a depth-first search from its first node (fields in the order of their first
 * node). The search order decides which of two equally good nodes anchors a label, so it is the caller's.
 */
export function gridComponents(
  count: number,
  member: (k: number) => boolean,
  neighbours: (k: number) => Iterable<number>,
  same: (a: number, b: number) => boolean,
): number[][] {
  const seen = new Array<boolean>(count).fill(false);
  const out: number[][] = [];
  for (let s = 0; s < count; s++) {
    if (seen[s] || !member(s)) continue;
    const field: number[] = [];
    const stack = [s];
    seen[s] = true;
    while (stack.length) {
      const k = stack.pop()!;
      field.push(k);
      for (const q of neighbours(k))
        if (!seen[q] && member(q) && same(q, s)) {
          seen[q] = true;
          stack.push(q);
        }
    }
    out.push(field);
  }
  return out;
}

/** Mole fractions of three components, in the order of the map's components. */
export type Triple = [number, number, number];

/** A triangular grid over a composition triangle: its nodes, neighbouring pairs, divisions and simplex. */
export interface TriangularGrid {
  nodes: Triple[];
  /** neighbouring pairs of node indices */
  neighbours: [number, number][];
  /** divisions of each side */
  n: number;
  /** the simplex {x_k >= lo_k}: its lower corner and side (1 - sum of lo) */
  lo: Triple;
  span: number;
}

/**
 * The triangular grid of n divisions over the simplex {x_k >= lo_k} (the window's lower bounds); nodes outside the
 * window (beyond a component's upper bound) are left out. Neighbours: the three directions of the triangle's sides.
 */
export function triangularGrid(n: number, lo: Triple, inWindow: (x: Triple) => boolean): TriangularGrid {
  const span = 1 - lo[0] - lo[1] - lo[2];
  const nodeIndex = new Map<string, number>();
  const nodes: Triple[] = [];
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n - i; j++) {
      const X: Triple = [lo[0] + (span * (n - i - j)) / n, lo[1] + (span * i) / n, lo[2] + (span * j) / n];
      if (!inWindow(X)) continue;
      nodeIndex.set(`${i},${j}`, nodes.length);
      nodes.push(X);
    }
  }
  const neighbours: [number, number][] = [];
  for (const [key, k] of nodeIndex) {
    const [i, j] = key.split(',').map(Number) as [number, number];
    for (const [di, dj] of [
      [1, 0],
      [0, 1],
      [-1, 1],
    ] as const) {
      const m = nodeIndex.get(`${i + di},${j + dj}`);
      if (m !== undefined) neighbours.push([k, m]);
    }
  }
  return { nodes, neighbours, n, lo, span };
}

/**
 * Centroids of the upward cells of a triangular grid of n divisions over the simplex with lower corner lo and side
 * span: no point in common with the grid's nodes (the points of a self-check, core/self-check.ts).
 */
export function upwardCellCentroids(n: number, lo: Triple, span: number): Triple[] {
  const out: Triple[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n - i; j++)
      out.push([
        lo[0] + (span * (n - i - j - 2 / 3)) / n,
        lo[1] + (span * (i + 1 / 3)) / n,
        lo[2] + (span * (j + 1 / 3)) / n,
      ]);
  }
  return out;
}

/**
 * The equilibria of many points in chunks over the threads (worker/scans/batch.ts: a cancel is seen between chunks,
 * progress p0..p1), each one counted in the ledger.
 */
export function solveChunked(
  ledger: MapLedger,
  setup: BatchSetup,
  conditions: EquilibriumConditions[],
  threads: number,
  control: JobControl | undefined,
  p0: number,
  p1: number,
): EquilibriumResult[] {
  const rs = chunkedBatch(setup, conditions, threads, control, p0, p1);
  for (const r of rs) ledger.count(r.converged);
  return rs;
}

/** The neighbouring pairs of a rectangular grid (row-major): for each node, its right neighbour, then the one above. */
export function rectangularEdges(rows: number, cols: number): [number, number][] {
  const out: [number, number][] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const k = r * cols + c;
      if (c + 1 < cols) out.push([k, k + 1]);
      if (r + 1 < rows) out.push([k, k + cols]);
    }
  return out;
}
