// The invariant points of a liquidus projection classified by their valleys, and each checked as a four-phase
// equilibrium. Along a valley the temperature falls towards an invariant point or away from it; the point's class
// follows from how many of its three valleys arrive (Rhines, Phase Diagrams in Metallurgy, McGraw-Hill 1956, ch. 13;
// Prince, Alloy Phase Equilibria, Elsevier 1966):
//   three arrive: E, a ternary eutectic, L -> alpha + beta + gamma;
//   two arrive:   U, a transition (quasi-peritectic), L + alpha -> beta + gamma, alpha the solid of both arriving
//                 valleys (above: L + alpha + beta and L + alpha + gamma; below: L + beta + gamma);
//   one arrives:  P, a ternary peritectic, L + alpha + beta -> gamma, alpha and beta the arriving valley's solids.
// The check: at the centroid of the four phases' compositions (the liquid's and the three solids' in equilibrium
// with it), the global equilibria just above and just below the point's temperature hold different phase sets whose
// union is the four phases: the four-phase reaction lies between them. In a section of a multicomponent alloy the
// four-phase equilibrium is not invariant (each held component adds a degree of freedom: it spans a range of
// temperature), so there the union of the four phases is what is checked.
import { baseName } from '../../../contract/phases.js';
import type { EquilibriumConditions, EquilibriumResult } from '../../core/equilibrium.js';
import type { ChunkedSolver } from '../../scans/chunked-solver.js';
import type { InvariantPoint } from './junction.js';
import type { ValleyLine } from './valley-lines.js';

/** K on either side of the point's temperature where the four-phase check solves */
export const FOUR_PHASE_CHECK_OFFSET = 0.1;

export type InvariantClass = 'E' | 'U' | 'P' | 'unclassified';

export interface ClassifiedInvariant {
  point: InvariantPoint;
  type: InvariantClass;
  /** solids on the left of the reaction (with the liquid) and on its right */
  reactants: string[];
  products: string[];
}

const near = (a: [number, number], b: [number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1]) < 1e-12;

/** Whether each valley ending at the point arrives at it (the temperature falls towards the point). */
function arrivals(p: InvariantPoint, valleys: ValleyLine[]): { phases: [string, string]; arrives: boolean }[] {
  const out: { phases: [string, string]; arrives: boolean }[] = [];
  for (const v of valleys) {
    const n = v.points.length;
    if (n < 2) continue;
    const ends: [number, number][] = [
      [0, 1],
      [n - 1, n - 2],
    ];
    for (const [e, next] of ends)
      if (near(v.points[e]!.bc, p.bc)) out.push({ phases: v.phases, arrives: v.points[next]!.T > p.state.T });
  }
  return out;
}

export function classify(p: InvariantPoint, valleys: ValleyLine[]): ClassifiedInvariant {
  const ends = arrivals(p, valleys);
  const arriving = ends.filter((e) => e.arrives);
  const leaving = ends.filter((e) => !e.arrives);
  const [a, b, c] = p.phases;
  if (ends.length !== 3) return { point: p, type: 'unclassified', reactants: [], products: [a, b, c] };
  if (arriving.length === 3) return { point: p, type: 'E', reactants: [], products: [a, b, c] };
  if (arriving.length === 2) {
    const common = arriving[0]!.phases.find((x) => arriving[1]!.phases.includes(x))!;
    return { point: p, type: 'U', reactants: [common], products: leaving[0]!.phases.slice() };
  }
  if (arriving.length === 1) {
    const [x, y] = arriving[0]!.phases;
    return { point: p, type: 'P', reactants: [x, y], products: p.phases.filter((q) => q !== x && q !== y) };
  }
  return { point: p, type: 'unclassified', reactants: [], products: [a, b, c] };
}

/** "LIQUID + A -> B + C" */
export function reactionText(liquid: string, inv: Pick<ClassifiedInvariant, 'reactants' | 'products'>): string {
  return `${[liquid, ...inv.reactants].join(' + ')} -> ${inv.products.join(' + ')}`;
}

export interface FourPhaseCheck {
  /** the overall composition checked: the centroid of the four phases' compositions */
  x: Record<string, number>;
  above: string[] | null;
  below: string[] | null;
  certified: boolean;
}

/** The centroid of the liquid's and the three solids' compositions. */
function centroidOf(p: InvariantPoint): Record<string, number> {
  const comps = [p.state.above.x, ...p.phases.map((ph) => p.state.solids.get(ph) ?? {})];
  const out: Record<string, number> = {};
  for (const el of Object.keys(p.state.above.x)) out[el] = comps.reduce((s, c) => s + (c[el] ?? 0), 0) / comps.length;
  return out;
}

const phaseNames = (r: EquilibriumResult) =>
  r.converged ? [...new Set(r.phases.map((q) => baseName(q.name)))].sort() : null;

/** Each point's four-phase check, the equilibria solved side by side. */
export function fourPhaseChecks(
  points: InvariantPoint[],
  dependent: string,
  liquid: string,
  solver: Pick<ChunkedSolver, 'solve'>,
  P: number,
  section: boolean,
): FourPhaseCheck[] {
  const xs = points.map(centroidOf);
  const conds: EquilibriumConditions[] = points.flatMap((p, k) => {
    const X = Object.fromEntries(Object.entries(xs[k]!).filter(([el]) => el !== dependent));
    return [
      { T: p.state.T + FOUR_PHASE_CHECK_OFFSET, P, X },
      { T: p.state.T - FOUR_PHASE_CHECK_OFFSET, P, X },
    ];
  });
  const found: (string[] | null)[] = new Array(conds.length).fill(null);
  solver.solve(
    conds.length,
    (i) => conds[i]!,
    (i, r) => (found[i] = phaseNames(r)),
    0.95,
    0.99,
  );
  return points.map((p, k) => {
    const above = found[2 * k]!,
      below = found[2 * k + 1]!;
    const want = [liquid, ...p.phases].sort().join('|');
    const union = above && below ? [...new Set([...above, ...below])].sort().join('|') : '';
    const differ = above && below ? above.join('|') !== below.join('|') : false;
    return { x: xs[k]!, above, below, certified: union === want && (differ || section) };
  });
}
