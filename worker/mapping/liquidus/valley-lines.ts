// The valleys as lines: in each grid cell, the crossings of one valley on two of its edges are joined, and in a cell
// with an invariant point each valley's one crossing is joined to that point (the marching-triangles rule); the
// pieces of each pair of solids are then chained into polylines, which end on the triangle's sides (the binary
// eutectics and peritectics), at invariant points, or where a search failed.
import type { InvariantPoint } from './junction.js';
import type { LiquidusState } from './search.js';
import type { GridEdge, TriangleGrid } from './triangle-grid.js';
import type { ValleyCrossing } from './valley.js';

export interface CellCrossing {
  /** identifies the crossing across the two cells that share its edge */
  key: string;
  bc: [number, number];
  phases: [string, string];
  /** the two phases sorted and joined: one valley */
  pair: string;
  state: LiquidusState;
}

export interface ValleyLine {
  phases: [string, string];
  points: { bc: [number, number]; T: number }[];
}

const pairKey = (phases: [string, string]) => [...phases].sort().join('|');

/** The valleys' crossings on the edges of one cell. */
export function cellCrossings(
  grid: TriangleGrid,
  cell: { edges: [string, string, string] },
  crossings: Map<string, ValleyCrossing[]>,
): CellCrossing[] {
  return cell.edges.flatMap((key) => {
    const e: GridEdge = grid.edgeOf(key);
    return (crossings.get(key) ?? []).map((c, i) => ({
      key: `${key}:${i}`,
      bc: grid.along(e, c.s),
      phases: c.phases,
      pair: pairKey(c.phases),
      state: c.state,
    }));
  });
}

export interface Piece {
  pair: string;
  phases: [string, string];
  ends: [{ key: string; bc: [number, number]; T: number }, { key: string; bc: [number, number]; T: number }];
}

/** The pieces of valley inside one cell. */
export function cellPieces(cs: CellCrossing[], junction: InvariantPoint | undefined, cellKey: string): Piece[] {
  const byPair = new Map<string, CellCrossing[]>();
  for (const c of cs) byPair.set(c.pair, [...(byPair.get(c.pair) ?? []), c]);
  const end = (c: CellCrossing) => ({ key: c.key, bc: c.bc, T: c.state.T });
  const pieces: Piece[] = [];
  for (const [pair, list] of byPair) {
    if (list.length === 1 && junction && list[0]!.phases.every((p) => junction.phases.includes(p))) {
      const j = { key: cellKey, bc: junction.bc, T: junction.state.T };
      pieces.push({ pair, phases: list[0]!.phases, ends: [end(list[0]!), j] });
      continue;
    }
    for (let i = 0; i + 1 < list.length; i += 2)
      pieces.push({ pair, phases: list[i]!.phases, ends: [end(list[i]!), end(list[i + 1]!)] });
  }
  return pieces;
}

/** Chains pieces sharing an end into polylines, one pair of solids at a time. */
export function chain(pieces: Piece[]): ValleyLine[] {
  const lines: ValleyLine[] = [];
  const byPair = new Map<string, Piece[]>();
  for (const p of pieces) byPair.set(p.pair, [...(byPair.get(p.pair) ?? []), p]);
  for (const list of byPair.values()) {
    const at = new Map<string, number[]>();
    list.forEach((p, k) => p.ends.forEach((e) => at.set(e.key, [...(at.get(e.key) ?? []), k])));
    const used = new Set<number>();
    // start at the ends of open chains (a point of one piece), then whatever is left (closed loops)
    const starts = [...list.keys()].sort((a, b) => degreeOne(list[b]!, at) - degreeOne(list[a]!, at));
    for (const k0 of starts) {
      if (used.has(k0)) continue;
      const p0 = list[k0]!;
      const first = at.get(p0.ends[0].key)!.length === 1 ? 0 : 1;
      const pts = [p0.ends[first], p0.ends[1 - first]!];
      used.add(k0);
      for (;;) {
        const tail = pts[pts.length - 1]!;
        const next = (at.get(tail.key) ?? []).find((k) => !used.has(k));
        if (next === undefined) break;
        used.add(next);
        const p = list[next]!;
        pts.push(p.ends[0].key === tail.key ? p.ends[1] : p.ends[0]);
      }
      lines.push({ phases: p0.phases, points: pts.map((p) => ({ bc: p.bc, T: p.T })) });
    }
  }
  return lines;
}

function degreeOne(p: Piece, at: Map<string, number[]>): number {
  return p.ends.some((e) => at.get(e.key)!.length === 1) ? 1 : 0;
}

/**
 * How the valleys cross a cell: `plain` (each valley enters and leaves: its crossings come in pairs), `meeting` (three
 * valleys of three solids each cross once: they meet at an invariant point inside), or `complex` (more than one
 * invariant point, or a field without a grid node inside: the cell is subdivided).
 */
export function cellKind(
  cs: CellCrossing[],
): { kind: 'plain' } | { kind: 'meeting'; triple: CellCrossing[] } | { kind: 'complex' } {
  const byPair = new Map<string, CellCrossing[]>();
  for (const c of cs) byPair.set(c.pair, [...(byPair.get(c.pair) ?? []), c]);
  const odd = [...byPair.values()].filter((l) => l.length % 2 === 1);
  if (odd.length === 0) return { kind: 'plain' };
  const single = odd.filter((l) => l.length === 1).map((l) => l[0]!);
  if (odd.length === 3 && single.length === 3 && new Set(single.flatMap((c) => c.phases)).size === 3)
    return { kind: 'meeting', triple: single };
  return { kind: 'complex' };
}
