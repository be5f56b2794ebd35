// The grid mapping of a binary C-P-T diagram (task binary_cpt_diagram, worker/calculations/
// binary_cpt_diagram.ts): the stable phase set at every node of a composition x temperature x pressure
// grid, the bisected crossings of the boundaries between the phase-set regions, their surfaces and the
// tie-lines.
//
// Method:
//  1. Grid: composition_start..composition_end by composition_step and temperature_start..end by
//     temperature_step (the end value is always a node, the last step may be shorter), and
//     pressure_points pressures from pressure_start to pressure_end, evenly spaced in P or in log10 P.
//     One global equilibrium per node (worker/core/equilibrium.ts, formula sheet §8-§9) across the
//     job's OpenMP threads, in chunks for cancel and progress (worker/scans/chunked-solver.ts).
//  2. Label per node: the sorted stable phase labels (NAME, NAME#2 for a second composition set)
//     joined by '+'; -1 where the solver did not certify the equilibrium (kept visible, never guessed).
//  3. Boundaries: every grid edge whose two node labels differ is bisected (BISECTION_STEPS equilibria,
//     all edges of one step in one batch) down to 1/64 of the grid step; the crossing is where the
//     label first changes seen from the lower end. Bisection runs in log10 P on a log pressure axis.
//  4. Surfaces: multi-label Surface Nets (Gibson 1998; cpt/surface-nets.ts) on those crossings.
//  5. Tie-lines (include_tielines): at every tieline_stride-th temperature row, each two-phase region
//     of the row gives one tie-line (the two phase compositions, identical for all its nodes).
import { phaseLabel } from '../../contract/results/common.js';
import type { EquilibriumConditions, EquilibriumOptions, EquilibriumResult } from '../core/equilibrium.js';
import type { NativeDatabase } from '../core/native.js';
import { CancelledError, type JobControl } from '../protocol.js';

import type { CptAxisConfig, CptBoundaryPoint, CptTieLine } from '../../contract/results/binary_cpt_diagram.js';
import { ChunkedSolver } from '../scans/chunked-solver.js';
import { changingEdges, edgeKey, surfaceNets, type BoundarySurface, type GridEdge } from './surface-nets.js';

/** Equilibria per bisected edge: the crossing is known to 1/2^6 = 1/64 of the grid step. */
export const BISECTION_STEPS = 6;

export interface CptInput {
  tdbFile: string;
  /** solver components (the two elements, plus VA when the database defines it) */
  components: string[];
  /** [x_component, other] */
  elements: [string, string];
  phases: string[] | undefined;
  xs: number[];
  Ts: number[];
  Ps: number[];
  logP: boolean;
  options: EquilibriumOptions;
  includeTielines: boolean;
  tielineStride: number;
  axisConfig: CptAxisConfig | null;
}

// ------------------------------------------------------------------------------------------------
// Computation

/** Phase labels of a result (sorted), or null when not converged / empty. */
export function stableLabels(r: EquilibriumResult): string[] | null {
  if (!r.converged || r.phases.length === 0) return null;
  return r.phases.map((p) => phaseLabel({ name: p.name, composition_set: p.setNumber })).sort();
}

/** Names numbered in the order they are first seen (phase sets, phase labels). */
export class Registry {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  id(name: string): number {
    let k = this.index.get(name);
    if (k === undefined) {
      k = this.names.length;
      this.names.push(name);
      this.index.set(name, k);
    }
    return k;
  }
}

export interface CptComputation {
  input: CptInput;
  dims: [number, number, number];
  labels: Int32Array;
  phaseSets: string[];
  phaseLabels: string[];
  /** per node: [phase label index, NP] of the stable phases */
  nodePhases: [number, number][][];
  boundary: CptBoundaryPoint[];
  crossings: Map<number, number>;
  surface: BoundarySurface;
  tielines: (CptTieLine & { node: number })[];
  equilibria: number;
  notConverged: number;
}

/** Geometry coordinate of the pressure axis: P, or log10 P on a log axis. */
export function pressureCoordinate(P: number, logP: boolean): number {
  return logP ? Math.log10(P) : P;
}

export function computeCpt(
  input: CptInput & { db: NativeDatabase },
  threads: number,
  control: JobControl,
): CptComputation {
  const solver = new ChunkedSolver(
    { db: input.db, components: input.components, phases: input.phases, options: input.options },
    Math.max(1, Math.floor(threads)),
    control,
  );
  try {
    return computeWith(input, solver, control);
  } finally {
    solver.close();
  }
}

type GridAxes = Pick<CptInput, 'xs' | 'Ts' | 'Ps' | 'logP' | 'elements'>;

/** The conditions of grid node n (x fastest, then T, then P): the numbering every stage of the mapping shares. */
export function nodeConditions({ xs, Ts, Ps, elements: [xComp] }: GridAxes): (n: number) => EquilibriumConditions {
  const nX = xs.length,
    nT = Ts.length;
  return (n) => {
    const iX = n % nX,
      iT = Math.floor(n / nX) % nT,
      iP = Math.floor(n / (nX * nT));
    return { T: Ts[iT]!, P: Ps[iP]!, X: { [xComp]: xs[iX]! } };
  };
}

/**
 * The conditions at fraction t along edges[e], from its node toward the next node on its axis; along the pressure
 * axis t is linear in the pressure coordinate (log10 P on a log axis), as the grid itself is.
 */
export function edgeConditions(
  input: GridAxes,
  edges: readonly Pick<GridEdge, 'axis' | 'node'>[],
): (e: number, t: number) => EquilibriumConditions {
  const {
    xs,
    Ts,
    Ps,
    logP,
    elements: [xComp],
  } = input;
  const nX = xs.length,
    nT = Ts.length;
  const axisValues: number[][] = [xs, Ts, Ps.map((p) => pressureCoordinate(p, logP))];
  return (e, t) => {
    const { axis, node } = edges[e]!;
    const idx = [node % nX, Math.floor(node / nX) % nT, Math.floor(node / (nX * nT))];
    const v = idx.map((i, a) => axisValues[a]![i]!);
    const a0 = axisValues[axis]![idx[axis]!]!,
      a1 = axisValues[axis]![idx[axis]! + 1]!;
    v[axis] = a0 + t * (a1 - a0);
    const P = axis === 2 ? (logP ? 10 ** v[2]! : v[2]!) : Ps[idx[2]!]!;
    return { T: v[1]!, P, X: { [xComp]: v[0]! } };
  };
}

/**
 * `steps` (BISECTION_STEPS) halvings of the interval [lo, hi] (fractions along the edge, from [0, 1]) of each of `count` edges,
 * the midpoints of one step solved as one batch (progress from + span * step / BISECTION_STEPS). `side` tells from a
 * midpoint's result whether the crossing lies beyond it ('lo': the midpoint still has the edge's starting phases) or
 * before it ('hi'); null, an uncertified midpoint, ends the search for that edge: its crossing stays in [lo, hi].
 */
export function bisectEdges(
  count: number,
  solver: Pick<ChunkedSolver, 'solve'>,
  edgeCond: (e: number, t: number) => EquilibriumConditions,
  side: (e: number, r: EquilibriumResult) => 'lo' | 'hi' | null,
  from: number,
  span: number,
  steps = BISECTION_STEPS,
): { lo: Float64Array; hi: Float64Array } {
  const lo = new Float64Array(count),
    hi = new Float64Array(count).fill(1);
  const active = new Uint8Array(count).fill(1);
  for (let step = 0; step < steps; step++) {
    const todo: number[] = [];
    for (let e = 0; e < count; e++) if (active[e]) todo.push(e);
    if (!todo.length) break;
    solver.solve(
      todo.length,
      (k) => edgeCond(todo[k]!, (lo[todo[k]!]! + hi[todo[k]!]!) / 2),
      (k, r) => {
        const e = todo[k]!,
          mid = (lo[e]! + hi[e]!) / 2;
        const s = side(e, r);
        if (s === null) active[e] = 0;
        else if (s === 'lo') lo[e] = mid;
        else hi[e] = mid;
      },
      from + (span * step) / steps,
      from + (span * (step + 1)) / steps,
    );
  }
  return { lo, hi };
}

/** The mapping with a given solver (the lab server replays stored chunk results through it: main/server/cpt-flow.ts). */
export function computeWith(
  input: CptInput,
  solver: Pick<ChunkedSolver, 'solve' | 'count'>,
  control: JobControl,
): CptComputation {
  const { xs, Ts, Ps } = input;
  const nX = xs.length,
    nT = Ts.length,
    nP = Ps.length;
  const sets = new Registry();
  // 1. grid: progress 0 .. 0.7
  const nodes = solveNodes(input, solver, sets);
  // 2. bisection of every edge with a label change: progress 0.7 .. 0.95
  const { boundary, crossings } = boundaryCrossings(input, solver, sets, nodes.labels);
  if (control.cancelled) throw new CancelledError();
  // 3. surfaces
  const surface = surfaceNets(
    { coords: [xs, Ts, Ps.map((p) => pressureCoordinate(p, input.logP))], labels: nodes.labels },
    crossings,
  );
  return {
    input,
    dims: [nX, nT, nP],
    labels: nodes.labels,
    phaseSets: sets.names,
    phaseLabels: nodes.phaseLabels,
    nodePhases: nodes.nodePhases,
    boundary,
    crossings,
    surface,
    tielines: rowTieLines(input, nodes.labels, nodes.tieCandidates),
    equilibria: solver.count,
    notConverged: nodes.notConverged,
  };
}

/** What the grid's equilibria give: each node's phase set and stable phases, the tie-line candidates. */
interface SolvedNodes {
  labels: Int32Array;
  phaseLabels: string[];
  nodePhases: [number, number][][];
  /** the two-phase nodes of the tie-line rows with their phases' labels and compositions */
  tieCandidates: Map<number, { label: string; x: number }[]>;
  notConverged: number;
}

/**
 * One equilibrium per grid node: its phase set (sorted stable labels joined by '+', registered in `sets`; -1 where
 * the solver did not certify it), its phases' labels and amounts, and on a tie-line row a two-phase node's phases.
 */
function solveNodes(input: CptInput, solver: Pick<ChunkedSolver, 'solve'>, sets: Registry): SolvedNodes {
  const { xs, Ts, Ps, elements } = input;
  const [xComp] = elements;
  const nX = xs.length,
    nT = Ts.length,
    N = nX * nT * Ps.length;
  const phaseReg = new Registry();
  const out: SolvedNodes = {
    labels: new Int32Array(N).fill(-1),
    phaseLabels: phaseReg.names,
    nodePhases: new Array(N),
    tieCandidates: new Map(),
    notConverged: 0,
  };
  const onTieRow = (iT: number) => input.includeTielines && iT % input.tielineStride === 0;
  solver.solve(
    N,
    nodeConditions(input),
    (n, r) => {
      const labs = stableLabels(r);
      out.nodePhases[n] = r.phases.map((p) => [
        phaseReg.id(phaseLabel({ name: p.name, composition_set: p.setNumber })),
        p.NP,
      ]);
      if (!labs) {
        out.notConverged++;
        return;
      }
      out.labels[n] = sets.id(labs.join('+'));
      const iT = Math.floor(n / nX) % nT;
      if (labs.length === 2 && onTieRow(iT)) {
        out.tieCandidates.set(
          n,
          r.phases.map((p) => ({
            label: phaseLabel({ name: p.name, composition_set: p.setNumber }),
            x: p.x[xComp] ?? NaN,
          })),
        );
      }
    },
    0,
    0.7,
  );
  return out;
}

/**
 * Every grid edge whose node labels differ, bisected (bisectEdges); the crossing is where the label first changes
 * seen from the lower end, keyed by edge (for the surfaces) and listed with its conditions and the two sets.
 */
function boundaryCrossings(
  input: CptInput,
  solver: Pick<ChunkedSolver, 'solve'>,
  sets: Registry,
  labels: Int32Array,
): { boundary: CptBoundaryPoint[]; crossings: Map<number, number> } {
  const { xs, Ts, Ps, elements } = input;
  const [xComp] = elements;
  const edges = changingEdges([xs.length, Ts.length, Ps.length], labels);
  const hiLabel = Int32Array.from(edges.map((e) => e.b));
  const edgeCond = edgeConditions(input, edges);
  const { lo, hi } = bisectEdges(
    edges.length,
    solver,
    edgeCond,
    (e, r) => {
      const labs = stableLabels(r);
      if (!labs) return null;
      const m = sets.id(labs.join('+'));
      if (m === edges[e]!.a) return 'lo';
      hiLabel[e] = m;
      return 'hi';
    },
    0.7,
    0.25,
  );
  const crossings = new Map<number, number>();
  const boundary: CptBoundaryPoint[] = [];
  const axisNames = ['x', 'T', 'P'] as const;
  edges.forEach((e, k) => {
    const t = (lo[k]! + hi[k]!) / 2;
    crossings.set(edgeKey(e.axis, e.node), t);
    const c = edgeCond(k, t);
    boundary.push({
      x: c.X![xComp]!,
      T: c.T,
      P: c.P!,
      between: [sets.names[e.a]!, sets.names[hiLabel[k]!]!],
      axis: axisNames[e.axis],
    });
  });
  return { boundary, crossings };
}

/** One tie-line per two-phase region and tie-line row (its nodes share the phase compositions). */
function rowTieLines(
  input: CptInput,
  labels: Int32Array,
  tieCandidates: Map<number, { label: string; x: number }[]>,
): (CptTieLine & { node: number })[] {
  const { xs, Ts, Ps } = input;
  const nX = xs.length,
    nT = Ts.length;
  const tielines: (CptTieLine & { node: number })[] = [];
  const seen = new Map<string, CptTieLine[]>();
  for (const [n, ph] of [...tieCandidates.entries()].sort((a, b) => a[0] - b[0])) {
    const iT = Math.floor(n / nX) % nT,
      iP = Math.floor(n / (nX * nT));
    const sorted = [...ph].sort((a, b) => a.x - b.x);
    const key = `${iP}|${iT}|${labels[n]}`;
    const prev = seen.get(key) ?? [];
    const tl: CptTieLine = {
      P: Ps[iP]!,
      T: Ts[iT]!,
      x: [sorted[0]!.x, sorted[1]!.x],
      phases: [sorted[0]!.label, sorted[1]!.label],
      x_overall: xs[n % nX]!,
    };
    if (prev.some((p) => Math.abs(p.x[0] - tl.x[0]) < 1e-4 && Math.abs(p.x[1] - tl.x[1]) < 1e-4)) continue;
    prev.push(tl);
    seen.set(key, prev);
    tielines.push({ ...tl, node: n });
  }
  return tielines;
}
