// A grid cell where the valleys do not simply cross (two invariant points in one cell, or a primary field too small
// to hold a grid node) is split into four by its sides' midpoints, as often as REFINE_DEPTH allows: the midpoints'
// liquidus is searched, the valleys' crossings of the three inner sides are found (valley.ts), the crossings of the
// cell's own sides go to the halves that hold them, and each quarter is then a plain cell, a cell where three valleys
// meet (junction.ts), or is split again.
import { invariantPoint, type InvariantPoint } from './junction.js';
import type { Search } from './lockstep.js';
import { liquidusSearch, type LiquidusState } from './search.js';
import { valleysOnEdge } from './valley.js';
import { cellKind, cellPieces, type CellCrossing, type Piece } from './valley-lines.js';

/** Times a cell may be split (each split halves its sides). */
export const REFINE_DEPTH = 5;
/** K above the highest corner liquidus where a midpoint's search starts */
const START_ABOVE = 5;

type Pt = [number, number];

export interface CellCorner {
  bc: Pt;
  state: LiquidusState;
}

export interface CellPlan {
  pieces: Piece[];
  invariants: InvariantPoint[];
  /** where three valleys meet but the point was not located, or a cell could not be split further */
  unlocated: Pt[];
}

export interface RefineContext {
  at: (b: number, c: number) => Record<string, number>;
  P: number;
}

const mid = (p: Pt, q: Pt): Pt => [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
/** fraction of the way from p to q of the point x (on the segment) */
const along = (p: Pt, q: Pt, x: Pt) => {
  const d = [q[0] - p[0], q[1] - p[1]];
  return ((x[0] - p[0]) * d[0]! + (x[1] - p[1]) * d[1]!) / (d[0]! ** 2 + d[1]! ** 2);
};

/**
 * The pieces and invariant point of a cell that is plain or where three valleys meet; undefined when complex, or when
 * the point of three meeting valleys is not found (a fourth field close by): the cell is then split.
 */
export function* planCell(ctx: RefineContext, cs: CellCrossing[], key: string): Search<CellPlan | undefined> {
  const kind = cellKind(cs);
  if (kind.kind === 'complex') return undefined;
  if (kind.kind === 'plain') return { pieces: cellPieces(cs, undefined, key), invariants: [], unlocated: [] };
  const phases = [...new Set(kind.triple.flatMap((c) => c.phases))] as [string, string, string];
  const support = kind.triple.map((c) => ({ bc: c.bc, state: c.state }));
  const p = yield* invariantPoint(ctx.at, ctx.P, support, phases);
  return p ? { pieces: cellPieces(cs, p, `J${key}`), invariants: [p], unlocated: [] } : undefined;
}

/** The crossings of the valleys on a segment between two corners whose primary phases differ. */
function* sideCrossings(ctx: RefineContext, a: CellCorner, b: CellCorner, key: string): Search<CellCrossing[]> {
  if (a.state.primary === b.state.primary) return [];
  const lerp = (s: number): Pt => [a.bc[0] + s * (b.bc[0] - a.bc[0]), a.bc[1] + s * (b.bc[1] - a.bc[1])];
  const found = yield* valleysOnEdge({ at: (s) => ctx.at(...lerp(s)), P: ctx.P }, [0, 1], a.state, b.state);
  return found.map((c, i) => ({
    key: `${key}:${i}`,
    bc: lerp(c.s),
    phases: c.phases,
    pair: [...c.phases].sort().join('|'),
    state: c.state,
  }));
}

/**
 * A complex cell split into four, each quarter planned or split again; `sides[k]` holds the crossings of the side
 * from corner k to corner k+1.
 */
export function* refineCell(
  ctx: RefineContext,
  corners: [CellCorner, CellCorner, CellCorner],
  sides: [CellCrossing[], CellCrossing[], CellCrossing[]],
  key: string,
  depth = 0,
): Search<CellPlan> {
  const all = sides.flat();
  if (depth >= REFINE_DEPTH) {
    const plain = cellPieces(
      all.filter((c) => all.filter((d) => d.pair === c.pair).length === 2),
      undefined,
      key,
    );
    return { pieces: plain, invariants: [], unlocated: [mid(mid(corners[0].bc, corners[1].bc), corners[2].bc)] };
  }
  const top = Math.max(...corners.map((c) => c.state.T));
  const mids: CellCorner[] = [];
  for (let k = 0; k < 3; k++) {
    const bc = mid(corners[k]!.bc, corners[(k + 1) % 3]!.bc);
    const state = yield* liquidusSearch(ctx.at(...bc), ctx.P, top + START_ABOVE);
    if (!state) return { pieces: [], invariants: [], unlocated: [bc] };
    mids.push({ bc, state });
  }
  // each side's halves: [corner k -> mid k] and [mid k -> corner k+1]
  const halves = sides.map((cs, k) => {
    const [p, q] = [corners[k]!.bc, corners[(k + 1) % 3]!.bc];
    return [cs.filter((c) => along(p, q, c.bc) < 0.5), cs.filter((c) => along(p, q, c.bc) >= 0.5)] as const;
  });
  const inner: CellCrossing[][] = [];
  for (let k = 0; k < 3; k++) inner.push(yield* sideCrossings(ctx, mids[k]!, mids[(k + 1) % 3]!, `${key}/i${k}`));
  const [m0, m1, m2] = mids as [CellCorner, CellCorner, CellCorner];
  const [c0, c1, c2] = corners;
  const quarters: {
    corners: [CellCorner, CellCorner, CellCorner];
    sides: [CellCrossing[], CellCrossing[], CellCrossing[]];
  }[] = [
    { corners: [c0, m0, m2], sides: [halves[0]![0], inner[2]!, halves[2]![1]] },
    { corners: [m0, c1, m1], sides: [halves[0]![1], halves[1]![0], inner[0]!] },
    { corners: [m2, m1, c2], sides: [inner[1]!, halves[1]![1], halves[2]![0]] },
    { corners: [m0, m1, m2], sides: [inner[0]!, inner[1]!, inner[2]!] },
  ];
  const plan: CellPlan = { pieces: [], invariants: [], unlocated: [] };
  for (const [n, q] of quarters.entries()) {
    const sub = `${key}/${n}`;
    const cs = q.sides.flat();
    const p = (yield* planCell(ctx, cs, sub)) ?? (yield* refineCell(ctx, q.corners, q.sides, sub, depth + 1));
    plan.pieces.push(...p.pieces);
    plan.invariants.push(...p.invariants);
    plan.unlocated.push(...p.unlocated);
  }
  return plan;
}
