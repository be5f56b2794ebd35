// Liquidus isotherms and primary crystallisation fields of a mapped projection. Along each cell's perimeter the
// liquidus is known at the nodes and at the valleys' crossings (where it has a kink: two fields' surfaces meet), with
// each surface's gradient there, and is a cubic Hermite interpolant between them; an isotherm crosses the perimeter
// where that profile passes its temperature, and its crossings are joined in perimeter order (marching triangles). A primary field is a connected
// set of nodes of one primary phase; its label goes to the node farthest from every node of another phase or none.
import type { CellCrossing } from './valley-lines.js';
import type { ChunkedSolver } from '../../scans/chunked-solver.js';
import { runLockstep, type Search } from './lockstep.js';
import { liquidusSearch, saturationGradient, type LiquidusState } from './search.js';
import type { TriangleGrid } from './triangle-grid.js';

type Pt = [number, number];

/** A point of a cell's perimeter: the liquidus there and its gradient in (b, c) on the side before it and after it
 * (they differ at a valley's crossing, where two fields' surfaces meet). */
interface RimPoint {
  at: Pt;
  T: number;
  before: Pt;
  after: Pt;
}

/** dT/d(b, c) of a phase's surface at a state (zero when the state lacks the derivatives). */
function gradientBC(grid: TriangleGrid, st: LiquidusState, phase: string): Pt {
  const [, B, C] = grid.corners;
  const g = saturationGradient(st.above, phase, [B, C]);
  return g ? [g[B]! * grid.rest, g[C]! * grid.rest] : [0, 0];
}

/**
 * The cell's perimeter: its nodes and the crossings on its edges, in order, with the liquidus at each; walking it, the
 * surface is the current field's phase, which changes at each crossing.
 */
function perimeter(
  grid: TriangleGrid,
  cell: { nodes: [number, number, number]; edges: [string, string, string] },
  crossings: CellCrossing[],
  nodes: (LiquidusState | null)[],
): RimPoint[] | undefined {
  const out: RimPoint[] = [];
  for (let k = 0; k < 3; k++) {
    const from = cell.nodes[k]!,
      to = cell.nodes[(k + 1) % 3]!;
    const st = nodes[from];
    if (!st || !nodes[to]) return undefined;
    const g = gradientBC(grid, st, st.primary);
    out.push({ at: grid.nodes[from]!, T: st.T, before: g, after: g });
    const [b0, c0] = grid.nodes[from]!;
    const on = crossings
      .filter((c) => c.key.startsWith(`${cell.edges[k]}:`))
      .sort((a, b) => Math.hypot(a.bc[0] - b0, a.bc[1] - c0) - Math.hypot(b.bc[0] - b0, b.bc[1] - c0));
    let current = st.primary;
    for (const c of on) {
      const next = c.phases[0] === current ? c.phases[1] : c.phases[1] === current ? c.phases[0] : c.state.primary;
      const before = gradientBC(grid, c.state, c.phases.includes(current) ? current : c.state.primary);
      out.push({ at: c.bc, T: c.state.T, before, after: gradientBC(grid, c.state, next) });
      current = next;
    }
  }
  return out;
}

/**
 * Cubic Hermite interpolation of the liquidus from p to q at u in [0, 1], the end slopes limited so that the piece is
 * monotone (Fritsch and Carlson, SIAM J. Numer. Anal. 17 (1980) 238): near a binary side the surface of a solid that
 * takes up far more of the third element than the liquid rises steeply, and its unlimited slope would make the cubic
 * overshoot by hundreds of kelvin.
 */
function hermite(p: RimPoint, q: RimPoint, u: number): number {
  const [m0, m1] = limitedSlopes(p, q);
  const u2 = u * u,
    u3 = u2 * u;
  return (2 * u3 - 3 * u2 + 1) * p.T + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * q.T + (u3 - u2) * m1;
}

/** The end slopes of the piece p -> q along it (K per piece), limited. */
function limitedSlopes(p: RimPoint, q: RimPoint): [number, number] {
  const d: Pt = [q.at[0] - p.at[0], q.at[1] - p.at[1]];
  const delta = q.T - p.T;
  let m0 = p.after[0] * d[0] + p.after[1] * d[1],
    m1 = q.before[0] * d[0] + q.before[1] * d[1];
  if (delta === 0) m0 = m1 = 0;
  else {
    if (m0 * delta < 0) m0 = 0;
    if (m1 * delta < 0) m1 = 0;
    const [a, b] = [m0 / delta, m1 / delta];
    const r = Math.hypot(a, b);
    if (r > 3) [m0, m1] = [(3 * a * delta) / r, (3 * b * delta) / r];
  }
  return [m0, m1];
}

/** Subdivisions of a perimeter piece searched for the level, and the bisection steps of each bracket found. */
const LEVEL_SAMPLES = 8,
  LEVEL_HALVINGS = 30;

/** A level's crossing of a perimeter piece: where the interpolant puts it (u along p -> q). */
interface LevelHit {
  p: RimPoint;
  q: RimPoint;
  u: number;
}

const pointOf = (h: LevelHit): Pt => [
  h.p.at[0] + h.u * (h.q.at[0] - h.p.at[0]),
  h.p.at[1] + h.u * (h.q.at[1] - h.p.at[1]),
];

/** Where the piece from p to q passes the level t (none, one or more), by its Hermite interpolant. */
function levelCrossings(p: RimPoint, q: RimPoint, t: number): LevelHit[] {
  const out: LevelHit[] = [];
  const f = (u: number) => hermite(p, q, u) - t;
  for (let i = 0; i < LEVEL_SAMPLES; i++) {
    let [lo, hi] = [i / LEVEL_SAMPLES, (i + 1) / LEVEL_SAMPLES];
    const [flo, fhi] = [f(lo), f(hi)];
    if (!(flo * fhi < 0 || (flo === 0 && fhi !== 0))) continue;
    for (let k = 0; k < LEVEL_HALVINGS; k++) {
      const m = 0.5 * (lo + hi);
      if (f(m) * flo > 0) lo = m;
      else hi = m;
    }
    out.push({ p, q, u: 0.5 * (lo + hi) });
  }
  return out;
}

/** K: a crossing whose liquidus lies this close to its level is kept */
export const ISOTHERM_TOLERANCE = 0.5;
const MAX_TRIALS = 8;
/**
 * K above the level where a crossing's liquidus search starts, and the gap from which its answer may be one Newton
 * step: from 5 K above, Newton's error (about dCp/(2 T dS) gap^2) is some hundredths of a kelvin, far inside
 * ISOTHERM_TOLERANCE, and one liquid-alone state answers most trials.
 */
const START_ABOVE = 5,
  CROSSING_GAP = 10;

/**
 * The crossing moved along its piece until the liquidus there is its level within ISOTHERM_TOLERANCE, by regula falsi
 * between the piece's ends (one field's smooth surface) from the interpolant's estimate: where a surface is too steep
 * or curved for the interpolant (beside a binary side, near a compound's melting point), the isotherm still lies on
 * the liquidus. The estimate is kept when a search fails.
 */
function* exactCrossing(
  at: (b: number, c: number) => Record<string, number>,
  P: number,
  h: LevelHit,
  t: number,
): Search<Pt> {
  const rising = h.q.T > h.p.T;
  let lo = rising ? { u: 0, T: h.p.T } : { u: 1, T: h.q.T },
    hi = rising ? { u: 1, T: h.q.T } : { u: 0, T: h.p.T };
  let u = h.u;
  for (let k = 0; k < MAX_TRIALS; k++) {
    const pt = pointOf({ ...h, u });
    const st = yield* liquidusSearch(at(pt[0], pt[1]), P, t + START_ABOVE, START_ABOVE, CROSSING_GAP);
    if (!st) return pointOf(h);
    if (Math.abs(st.T - t) <= ISOTHERM_TOLERANCE) return pt;
    if (st.T < t) lo = { u, T: st.T };
    else hi = { u, T: st.T };
    u = lo.u + ((t - lo.T) * (hi.u - lo.u)) / (hi.T - lo.T);
  }
  return pointOf({ ...h, u });
}

/**
 * The isotherms at `levels` as segments in triangle coordinates (b, c): along each cell's perimeter the liquidus is
 * a cubic Hermite interpolant between the states on it (their values and the surfaces' exact gradients), whose
 * crossings of a level are then put on the liquidus (exactCrossing), the searches side by side: the interpolant's
 * estimate is mostly within a few millikelvin and then costs one search, but near a binary side, a compound's
 * melting point or an ordering transition of the primary phase it can be off by tens of kelvin.
 */
export function isotherms(
  grid: TriangleGrid,
  cells: CellCrossing[][],
  nodes: (LiquidusState | null)[],
  levels: number[],
  solve: { P: number; solver: Pick<ChunkedSolver, 'solve'> },
): { T: number; segments: [Pt, Pt][] }[] {
  const rims = grid.cells.map((cell, k) => perimeter(grid, cell, cells[k]!, nodes));
  const pairs: { t: number; a: LevelHit; b: LevelHit }[] = [];
  for (const t of levels)
    for (const rim of rims) {
      if (!rim) continue;
      const hits = rim.flatMap((p, i) => levelCrossings(p, rim[(i + 1) % rim.length]!, t));
      for (let i = 0; i + 1 < hits.length; i += 2) pairs.push({ t, a: hits[i]!, b: hits[i + 1]! });
    }
  const at = (b: number, c: number) => grid.X(b, c);
  const hits = pairs.flatMap(({ t, a, b }) => [
    { t, h: a },
    { t, h: b },
  ]);
  const ends = runLockstep(
    hits.map(({ t, h }) => exactCrossing(at, solve.P, h, t)),
    solve.solver,
    [0.9, 0.95],
  );
  return levels
    .map((t) => ({
      T: t,
      segments: pairs.flatMap((s, k) => (s.t === t ? [[ends[2 * k]!, ends[2 * k + 1]!] as [Pt, Pt]] : [])),
    }))
    .filter((l) => l.segments.length > 0);
}

/** Round steps, K, the default step widens to. */
const ROUND_STEPS = [50, 100, 200, 250, 500, 1000];

/** The lowest and highest liquidus at the grid's nodes, K; null when no node has one. */
export function liquidusRange(nodes: (LiquidusState | null)[]): [number, number] | null {
  const ts = nodes.flatMap((n) => (n ? [n.T] : []));
  return ts.length ? [Math.min(...ts), Math.max(...ts)] : null;
}

/** The default step: `step`, or the first round step that puts at most `most` levels in the liquidus's range. */
export function defaultIsothermStep(range: [number, number] | null, step: number, most: number): number {
  const width = range ? range[1] - range[0] : 0;
  return [step, ...ROUND_STEPS.filter((s) => s > step)].find((s) => width / s <= most) ?? ROUND_STEPS.at(-1)!;
}

/** Levels every `step` K within the liquidus's range. */
export function isothermLevels(range: [number, number] | null, step: number): number[] {
  if (!range) return [];
  const out: number[] = [];
  for (let t = Math.ceil(range[0] / step) * step; t < range[1]; t += step) out.push(t);
  return out;
}

/** Cartesian coordinates of (b, c) in the Gibbs triangle (distances for the label points). */
const cart = ([b, c]: Pt): Pt => [b + c / 2, (c * Math.sqrt(3)) / 2];

/** a side of the triangle counts as this many times nearer than another field */
const SIDE_WEIGHT = 2;

export interface PrimaryField {
  phase: string;
  /** the node the label goes to */
  node: number;
  nodes: number;
}

/** Connected sets of nodes of one primary phase, each with its label node. */
export function primaryFields(grid: TriangleGrid, nodes: (LiquidusState | null)[]): PrimaryField[] {
  const adj = new Map<number, number[]>();
  for (const e of grid.edges) {
    adj.set(e.p, [...(adj.get(e.p) ?? []), e.q]);
    adj.set(e.q, [...(adj.get(e.q) ?? []), e.p]);
  }
  const seen = new Set<number>();
  const fields: PrimaryField[] = [];
  const others = (phase: string) =>
    grid.nodes.map((p, k) => ({ p: cart(p), k })).filter(({ k }) => nodes[k]?.primary !== phase);
  for (let k0 = 0; k0 < grid.nodes.length; k0++) {
    const phase = nodes[k0]?.primary;
    if (phase === undefined || seen.has(k0)) continue;
    const members = [k0];
    seen.add(k0);
    for (let i = 0; i < members.length; i++)
      for (const m of adj.get(members[i]!) ?? [])
        if (!seen.has(m) && nodes[m]?.primary === phase) {
          seen.add(m);
          members.push(m);
        }
    const rest = others(phase);
    // away from other fields, and from the triangle's sides (a label on a side would leave the triangle)
    const depth = (k: number) => {
      const [b, c] = grid.nodes[k]!;
      const p = cart([b, c]);
      const side = SIDE_WEIGHT * Math.min(b, c, 1 - b - c) * (Math.sqrt(3) / 2);
      return rest.reduce((d, o) => Math.min(d, Math.hypot(o.p[0] - p[0], o.p[1] - p[1])), side);
    };
    const node = members.reduce((best, k) => (depth(k) > depth(best) ? k : best));
    fields.push({ phase, node, nodes: members.length });
  }
  return fields;
}
