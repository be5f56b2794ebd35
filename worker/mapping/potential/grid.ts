// The mapping of a potential diagram (task potential_diagram): one global equilibrium per node of an x by y grid (the
// conditions of a node come from the calculation: T, P, the held potentials, the free elements' fractions), each node
// labelled by its stable phase set; every edge between differently labelled nodes bisected (POTENTIAL_BISECTION_STEPS
// halvings, 1/4096 of the grid step; twice or more where a field narrower than the step lies between two nodes); the boundaries and junctions by marching squares over those crossings
// (contours.ts) and the fields with their label points. Uncertified nodes stay unlabelled (-1), never guessed.
import { saysNoEquilibrium, type EquilibriumConditions, type EquilibriumResult } from '../../core/equilibrium.js';
import type { ChunkedSolver } from '../../scans/chunked-solver.js';
import { bisectEdges, Registry } from '../cpt-grid.js';
import {
  changedEdges,
  contours,
  edgeKey,
  fieldsOf,
  sameSetEdges,
  type Crossing,
  type GridEdge,
  type LabelGrid,
  type Pt,
} from './contours.js';

/** Halvings of an edge with a label change: the crossing is known to 1/4096 of the grid step. */
export const POTENTIAL_BISECTION_STEPS = 12;

export interface PotentialGridInput {
  xs: number[];
  ys: number[];
  /** the solver's conditions at the axis values (x, y) */
  conditionsAt: (x: number, y: number) => EquilibriumConditions;
  /** the display labels of a converged result's stable sets, sorted (core/labels.ts resultStateLabels) */
  stateLabels: (r: EquilibriumResult) => string[];
}

export interface PotentialMap {
  nx: number;
  ny: number;
  /** per node: the index of its phase set in `sets`, -1 where not certified */
  labels: Int32Array;
  /** phase sets: the stable sets' labels (NAME, NAME#2) */
  sets: string[][];
  /** per node: the overall mole fractions of the equilibrium (null where not certified) */
  fractions: (Record<string, number> | null)[];
  lines: { pair: [number, number]; points: [number, number][] }[];
  junctions: { at: [number, number]; labels: number[] }[];
  fields: { label: number; nodes: number; at: [number, number] }[];
  equilibria: number;
  notConverged: number;
  /** the uncertified nodes where the solver says no equilibrium exists (a phase without a lower bound) */
  noEquilibrium: Set<number>;
}

/** Axis values of a point in grid coordinates (uniform grids: linear between nodes). */
function toAxes(xs: number[], ys: number[]): (p: Pt) => [number, number] {
  const along = (v: number[], g: number) => {
    const i = Math.min(Math.max(Math.floor(g), 0), v.length - 2);
    return v[i]! + (g - i) * (v[i + 1]! - v[i]!);
  };
  return ([gx, gy]) => [along(xs, gx), along(ys, gy)];
}

/** What one grid's mapping gives (mapGrid): a coarse grid or the refinement of one of its cells. */
interface GridMap {
  labels: Int32Array;
  fractions: (Record<string, number> | null)[];
  notConverged: number;
  /** the uncertified nodes where the solver says no equilibrium exists (a phase without a lower bound) */
  noEquilibrium: Set<number>;
  grid: LabelGrid;
  lines: { pair: [number, number]; points: [number, number][] }[];
  junctions: { at: [number, number]; cell: Pt; labels: number[] }[];
}

/** Progress of each stage as a share of the span a mapping is given. */
const GRID_SHARE = 0.5,
  FIRST_CROSSINGS_SHARE = 0.4,
  MORE_CROSSINGS_SHARE = 0.05;

/** The nodes, crossings, composition jumps and contours of one grid, its progress within [from, to]. */
function mapGrid(
  input: PotentialGridInput,
  solver: Pick<ChunkedSolver, 'solve'>,
  labelOf: (r: EquilibriumResult) => number | null,
  [from, to]: [number, number],
): GridMap {
  const { xs, ys, conditionsAt } = input;
  const nx = xs.length,
    ny = ys.length;
  const labels = new Int32Array(nx * ny).fill(-1);
  const fractions: (Record<string, number> | null)[] = new Array(nx * ny).fill(null);
  let notConverged = 0;
  const noEquilibrium = new Set<number>();
  const w = to - from;
  solver.solve(
    nx * ny,
    (k) => conditionsAt(xs[k % nx]!, ys[Math.floor(k / nx)]!),
    (k, r) => {
      const id = labelOf(r);
      if (id === null) {
        if (saysNoEquilibrium(r)) noEquilibrium.add(k);
        return void notConverged++;
      }
      labels[k] = id;
      fractions[k] = { ...r.x };
    },
    from,
    from + GRID_SHARE * w,
  );
  const grid: LabelGrid = { nx, ny, labels };
  const crossings = bisectCrossings(input, grid, solver, labelOf, from + GRID_SHARE * w, w);
  const jumpsFrom = to - MORE_CROSSINGS_SHARE * w;
  for (const [key, c] of compositionJumps(input, grid, fractions, solver, labelOf, [jumpsFrom, to]))
    crossings.set(key, [c]);
  const { lines, junctions } = contours(grid, crossings);
  const axes = toAxes(xs, ys);
  return {
    labels,
    fractions,
    notConverged,
    noEquilibrium,
    grid,
    lines: lines.map((l) => ({ pair: l.pair, points: l.points.map(axes) })),
    junctions: junctions.map((j) => ({ at: axes(j.at), cell: j.cell, labels: j.labels })),
  };
}

/** Nodes per axis of the grid over one junction's cell, and how many times a junction is refined so. */
const REFINE_POINTS = 9,
  REFINE_LEVELS = 2;

/** n evenly spaced values from a to b, b itself the last. */
export function linspace(a: number, b: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => (i === n - 1 ? b : a + ((b - a) * i) / (n - 1)));
}

/**
 * The junction of `want` (its fields' labels) located in the cell [lo, hi] by mapping a REFINE_POINTS grid over it,
 * then over the sub-cell that holds it, REFINE_LEVELS times: to 1/8^2 of the coarse grid step. Undefined when the
 * cell's grid shows no junction of those fields.
 */
function refineJunction(
  input: PotentialGridInput,
  solver: Pick<ChunkedSolver, 'solve'>,
  labelOf: (r: EquilibriumResult) => number | null,
  [lo, hi]: [Pt, Pt],
  want: number[],
  level = 1,
): [number, number] | undefined {
  const xs = linspace(lo[0], hi[0], REFINE_POINTS),
    ys = linspace(lo[1], hi[1], REFINE_POINTS);
  const m = mapGrid({ ...input, xs, ys }, solver, labelOf, [0.95, 0.95]);
  const key = want.join(',');
  const j = m.junctions.find((k) => k.labels.join(',') === key);
  if (!j || level >= REFINE_LEVELS) return j?.at;
  const [ci, cj] = j.cell;
  const cell: [Pt, Pt] = [
    [xs[ci]!, ys[cj]!],
    [xs[ci + 1]!, ys[cj + 1]!],
  ];
  return refineJunction(input, solver, labelOf, cell, want, level + 1) ?? j.at;
}

export function mapPotentials(input: PotentialGridInput, solver: Pick<ChunkedSolver, 'solve' | 'count'>): PotentialMap {
  const { xs, ys } = input;
  const sets = new Registry();
  const labelOf = (r: EquilibriumResult): number | null => {
    const labs = r.converged && r.phases.length > 0 ? input.stateLabels(r) : null;
    return labs ? sets.id(labs.join('+')) : null;
  };
  const m = mapGrid(input, solver, labelOf, [0, 0.95]);
  for (const j of m.junctions) {
    const [ci, cj] = j.cell;
    const cell: [Pt, Pt] = [
      [xs[ci]!, ys[cj]!],
      [xs[ci + 1]!, ys[cj + 1]!],
    ];
    const at = refineJunction(input, solver, labelOf, cell, j.labels);
    if (!at) continue;
    // the lines ending at the junction end where it now lies
    for (const l of m.lines) l.points = l.points.map((p) => (p[0] === j.at[0] && p[1] === j.at[1] ? at : p));
    j.at = at;
  }
  return {
    nx: xs.length,
    ny: ys.length,
    labels: m.labels,
    sets: sets.names.map((s) => s.split('+')),
    fractions: m.fractions,
    lines: m.lines,
    junctions: m.junctions.map((j) => ({ at: j.at, labels: j.labels })),
    fields: fieldsOf(m.grid).map((f) => ({ label: f.label, nodes: f.nodes, at: toAxes(xs, ys)(f.anchor) })),
    equilibria: solver.count,
    notConverged: m.notConverged,
    noEquilibrium: m.noEquilibrium,
  };
}

/** Crossings sought on one edge at most: a narrow field between two nodes gives two. */
const MAX_CROSSINGS_PER_EDGE = 4;

interface OpenEdge {
  /** index in the changed edges */
  k: number;
  /** the fraction of the edge from which the next crossing is sought, and the label there */
  start: number;
  from: number;
}

/**
 * Every edge with a label change, bisected from its lower node: where the label first changes and into what. When
 * the label found beyond the crossing is not the far node's, a narrow field lies between: the rest of the edge is
 * bisected again from that crossing, so the field gets both of its boundaries.
 */
function bisectCrossings(
  input: PotentialGridInput,
  grid: LabelGrid,
  solver: Pick<ChunkedSolver, 'solve'>,
  labelOf: (r: EquilibriumResult) => number | null,
  progressFrom: number,
  progressSpan: number,
): Map<string, Crossing[]> {
  const { xs, ys, conditionsAt } = input;
  const edges = changedEdges(grid);
  const label = (i: number, j: number) => grid.labels[j * grid.nx + i]!;
  const far = edges.map((e) => (e.axis === 0 ? label(e.i + 1, e.j) : label(e.i, e.j + 1)));
  const along = (k: number, s: number) => {
    const { axis, i, j } = edges[k]!;
    return axis === 0
      ? conditionsAt(xs[i]! + s * (xs[i + 1]! - xs[i]!), ys[j]!)
      : conditionsAt(xs[i]!, ys[j]! + s * (ys[j + 1]! - ys[j]!));
  };
  const out = new Map<string, Crossing[]>();
  let open: OpenEdge[] = edges.map((e, k) => ({ k, start: 0, from: label(e.i, e.j) }));
  for (let round = 0; round < MAX_CROSSINGS_PER_EDGE && open.length; round++) {
    const beyond = open.map((o) => far[o.k]!);
    const side = (n: number, r: EquilibriumResult): 'lo' | 'hi' | null => {
      const id = labelOf(r);
      if (id === null) return null;
      if (id === open[n]!.from) return 'lo';
      beyond[n] = id;
      return 'hi';
    };
    const s = (o: OpenEdge, t: number) => o.start + t * (1 - o.start);
    const [from, span] =
      round === 0
        ? [progressFrom, FIRST_CROSSINGS_SHARE * progressSpan]
        : [progressFrom + FIRST_CROSSINGS_SHARE * progressSpan, 0];
    const { lo, hi } = bisectEdges(
      open.length,
      solver,
      (n, t) => along(open[n]!.k, s(open[n]!, t)),
      side,
      from,
      span,
      POTENTIAL_BISECTION_STEPS,
    );
    const next: OpenEdge[] = [];
    open.forEach((o, n) => {
      const key = edgeKey(edges[o.k]!);
      out.set(key, [...(out.get(key) ?? []), { t: s(o, 0.5 * (lo[n]! + hi[n]!)), from: o.from, to: beyond[n]! }]);
      if (beyond[n] !== far[o.k] && hi[n]! < 1) next.push({ k: o.k, start: s(o, hi[n]!), from: beyond[n]! });
    });
    open = next;
  }
  return out;
}

/** A change of any mole fraction along an edge of one phase set beyond this is examined for a jump. */
const JUMP_CANDIDATE = 0.01;
/** ... and is a jump when the bisected bracket still holds this much of it (a smooth change halves each step). */
const JUMP_KEPT = 0.25;

const fractionChange = (a: Record<string, number>, b: Record<string, number>) =>
  Math.max(...Object.keys(a).map((k) => Math.abs((a[k] ?? 0) - (b[k] ?? 0))));

/**
 * Edges between nodes of one phase set across which the composition jumps: a first-order change between two states
 * of one set (the two liquids of Cu-O), which the labels do not see. Each edge whose composition changes by more
 * than JUMP_CANDIDATE is bisected towards the half that holds more of the change; a jump keeps JUMP_KEPT of it in
 * the last bracket, a smooth change does not. The crossing's two sides carry the same label.
 */
function compositionJumps(
  input: PotentialGridInput,
  grid: LabelGrid,
  fractions: (Record<string, number> | null)[],
  solver: Pick<ChunkedSolver, 'solve'>,
  labelOf: (r: EquilibriumResult) => number | null,
  [from, to]: [number, number],
): Map<string, Crossing> {
  const { xs, ys, conditionsAt } = input;
  const far = (e: GridEdge) => (e.axis === 0 ? e.j * grid.nx + e.i + 1 : (e.j + 1) * grid.nx + e.i);
  const edges = sameSetEdges(grid).filter(
    (e) => fractionChange(fractions[e.j * grid.nx + e.i]!, fractions[far(e)]!) > JUMP_CANDIDATE,
  );
  const xLo = edges.map((e) => fractions[e.j * grid.nx + e.i]!);
  const xHi = edges.map((e) => fractions[far(e)]!);
  const first = xLo.map((x, k) => fractionChange(x, xHi[k]!));
  const side = (k: number, r: EquilibriumResult): 'lo' | 'hi' | null => {
    const e = edges[k]!;
    if (labelOf(r) !== grid.labels[e.j * grid.nx + e.i]) return null;
    if (fractionChange(r.x, xHi[k]!) > fractionChange(xLo[k]!, r.x)) {
      xLo[k] = { ...r.x };
      return 'lo';
    }
    xHi[k] = { ...r.x };
    return 'hi';
  };
  const at = (k: number, t: number) => {
    const { axis, i, j } = edges[k]!;
    return axis === 0
      ? conditionsAt(xs[i]! + t * (xs[i + 1]! - xs[i]!), ys[j]!)
      : conditionsAt(xs[i]!, ys[j]! + t * (ys[j + 1]! - ys[j]!));
  };
  const { lo, hi } = bisectEdges(edges.length, solver, at, side, from, to - from, POTENTIAL_BISECTION_STEPS);
  const out = new Map<string, Crossing>();
  edges.forEach((e, k) => {
    const kept = fractionChange(xLo[k]!, xHi[k]!);
    const l = grid.labels[e.j * grid.nx + e.i]!;
    if (hi[k]! - lo[k]! < 1e-3 && kept > JUMP_KEPT * first[k]!)
      out.set(edgeKey(e), { t: 0.5 * (lo[k]! + hi[k]!), from: l, to: l });
  });
  return out;
}
